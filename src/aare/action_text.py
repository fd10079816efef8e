"""Text notation for actions and events, for the command line, logs and messages.

    move 2 infantry, 1 armour A -> B -> C
    load 1 infantry, 1 armour A -> SZ 5      buy 3 infantry      place 2 infantry in A
    raid 1 bomber A -> SZ 7 -> B -> TARGET      rocket FROM -> TARGET
    research 2 rockets      fight A      casualties 2 infantry      retreat to A
    retreat aircraft      press      submerge 1 submarine      end
    declare ADVANTAGE      free ADVANTAGE: 1 infantry in A
    declare severe winter      lend 2 from POWER      convert 1 fighter of POWER in A
    repair 3 in A
    move factory A -> B
    bid 6      bid cash 3      treaty infantry in A      declare D-Day      concede
    airlift 1 infantry A -> SZ 10 -> B
    designate ADVANTAGE: 1 submarine in SZ 60      targets carrier, battleship, battleship

A, B, C, FROM and TARGET are spaces (names or aliases of the board), POWER a power, ADVANTAGE the id of a
national advantage.

`parse_action_text(text, ruleset)` gives the action's JSON form; `format_action(json)` writes it back.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from aare.board.notation import MAX_COUNT_DIGITS, parse_units
from aare.errors import AareError, MalformedInput
from aare.rules.ruleset import Ruleset

_ARROW = re.compile(r"\s*->\s*")


def _number(text: str) -> bool:
    """Whether `text` is a number `int` reads: ASCII digits only (``isdigit`` alone admits ``²``), and few."""
    return text.isascii() and text.isdigit() and len(text) <= MAX_COUNT_DIGITS


def split_units_and_space(text: str, ruleset: Ruleset) -> tuple[str, str]:
    """`"2 infantry, 1 armour SPACE"` -> (`"2 infantry, 1 armour"`, `"SPACE"`); a colon may separate them."""
    if ":" in text:
        units, _, space = text.partition(":")
        return units.strip(), ruleset.board.resolve(space.strip())
    words = text.split()
    for cut in range(1, len(words)):
        units, space = " ".join(words[:cut]), " ".join(words[cut:])
        try:
            parse_units(units, ruleset.units)
            return units, ruleset.board.resolve(space)
        except MalformedInput:
            continue
    raise MalformedInput(f"cannot tell the units from the space in {text!r}; write 'UNITS: SPACE'")


def parse_action_text(text: str, ruleset: Ruleset) -> dict[str, Any]:
    """The JSON form of an action written in text notation; MalformedInput when it cannot be read. A power's
    name and a colon before the action name the power acting (a team turn): `POWER: end phase`."""
    head, sep, tail = text.partition(":")
    if sep and head.strip():
        try:
            power = ruleset.board.resolve_power(head.strip())
        except AareError:
            power = ""
        if power:
            return {**_parse_action_text(tail, ruleset), "power": power}
    return _parse_action_text(text, ruleset)


def _parse_action_text(text: str, ruleset: Ruleset) -> dict[str, Any]:
    verb, _, rest = text.strip().partition(" ")
    verb, rest = verb.lower(), rest.strip()
    if verb in ("end", "end_phase", "done") and rest.lower() in ("", "phase", "turn"):
        return {"type": "end_phase"}
    if verb == "rocket":
        steps = _ARROW.split(rest)
        if len(steps) != 2:
            raise MalformedInput("rocket needs a launcher and a target: 'rocket FROM -> TARGET'")
        return {"type": "rocket", "launcher": ruleset.board.resolve(steps[0].strip()),
                "target": ruleset.board.resolve(steps[1].strip())}
    if verb == "coastal":
        where, sep, target = rest.partition(":")
        steps = _ARROW.split(where)
        if not sep or len(steps) != 2 or not target.strip():
            raise MalformedInput("coastal takes a territory, a sea zone and a ship: 'coastal TERRITORY -> SZ N: SHIP'")
        unit, of, owner = target.strip().rpartition(" of ")
        shot: dict[str, Any] = {"type": "coastal_defence", "territory": ruleset.board.resolve(steps[0].strip()),
                                "sea_zone": ruleset.board.resolve(steps[1].strip()),
                                "target": unit.strip() if of else target.strip()}
        if of:
            shot["owner"] = ruleset.board.resolve_power(owner.strip())
        return shot
    if verb == "move" and rest.lower().startswith("factory "):
        steps = _ARROW.split(rest[len("factory "):])
        if len(steps) != 2:
            raise MalformedInput("move factory takes two adjacent spaces: 'move factory FROM -> TO'")
        return {"type": "move_factory", "path": [ruleset.board.resolve(t.strip()) for t in steps]}
    if verb in ("move", "load", "raid", "airlift"):
        steps = _ARROW.split(rest)
        if len(steps) < 2:
            raise MalformedInput(f"{verb} needs a path: '{verb} UNITS FROM -> TO'")
        units, origin = split_units_and_space(steps[0], ruleset)
        path = [origin, *(ruleset.board.resolve(s) for s in steps[1:])]
        if verb == "load":
            if len(path) != 2:
                raise MalformedInput("load takes one territory and one sea zone: 'load UNITS TERRITORY -> SZ N'")
            return {"type": "load", "units": units, "territory": path[0], "sea_zone": path[1]}
        if verb == "raid":
            return {"type": "move", "units": units, "path": path, "raid": True}
        if verb == "airlift":
            return {"type": "air_transport", "units": units, "path": path}
        return {"type": "move", "units": units, "path": path}
    if verb in ("buy", "purchase"):
        units, sep, space = rest.rpartition(" at ")
        if sep and units.strip() and space.strip():
            return {"type": "purchase", "units": units.strip(), "at": space.strip()}
        return {"type": "purchase", "units": rest}
    if verb == "concede" and not rest:
        return {"type": "concede"}
    if verb == "place":
        units, sep, space = rest.rpartition(" in ")
        if not sep:
            units, sep, space = rest.rpartition(" at ")
        if not sep:
            raise MalformedInput("place needs a space: 'place UNITS in SPACE'")
        return {"type": "place", "units": units.strip(), "space": ruleset.board.resolve(space.strip())}
    if verb == "research":
        count, _, tech = rest.partition(" ")
        if not _number(count):
            raise MalformedInput("research takes a number of dice and a technology: 'research 2 rockets'")
        action: dict[str, Any] = {"type": "research", "dice": int(count)}
        if tech.strip():
            action["tech"] = tech.strip()
        return action
    if verb in ("fight", "battle"):
        return {"type": "fight", "space": ruleset.board.resolve(rest)}
    if verb in ("casualties", "lose"):
        return {"type": "choose_casualties", "units": rest}
    if verb == "retreat":
        if " to " in f" {rest.lower()}" and not rest.lower().startswith("to "):  # 2 infantry to A; 1 armour to B
            split: dict[str, str] = {}
            for part in rest.split(";"):
                units, sep, place = part.strip().rpartition(" to ")
                if not sep or not units.strip():
                    raise MalformedInput("a split retreat reads '2 infantry to A; 1 armour to B'")
                split[ruleset.board.resolve(place.strip())] = units.strip()
            return {"type": "retreat", "split": split}
        target = rest[3:].strip() if rest.lower().startswith("to ") else rest
        if target.lower() in ("", "air", "aircraft"):
            return {"type": "retreat"}
        return {"type": "retreat", "to": ruleset.board.resolve(target)}
    if verb == "press":
        return {"type": "press"}
    if verb == "submerge":  # submerge 1 submarine [to A] (a withdrawal to another sea zone)
        units, sep, place = rest.rpartition(" to ")
        if sep and units.strip():
            return {"type": "submerge", "units": units.strip(), "to": ruleset.board.resolve(place.strip())}
        return {"type": "submerge", "units": rest}
    if verb == "declare" and rest.lower().replace("_", "-") in ("d-day", "dday"):
        return {"type": "declare_d_day"}
    if verb == "declare" and rest.lower().replace("_", " ") in ("winter", "severe winter"):
        return {"type": "severe_winter"}
    if verb == "repair":
        points, found, space = rest.partition(" in ")
        if not found or not _number(points.strip()):
            raise MalformedInput("repair takes damage points and a space: 'repair 3 in A'")
        return {"type": "repair", "points": int(points.strip()), "space": ruleset.board.resolve(space.strip())}
    if verb == "lend-lease":
        sea, arrow, territory = rest.partition(" -> ")
        if arrow:
            return {"type": "lend_lease", "sea_zone": ruleset.board.resolve(sea.strip()),
                    "territory": ruleset.board.resolve(territory.strip())}
        amount, found, sea = rest.partition(" in ")
        if not found or not _number(amount.strip()):
            raise MalformedInput("lend-lease takes IPCs and a sea zone, or a sea zone and a territory: "
                                 "'lend-lease 6 in SZ 10', 'lend-lease SZ 4 -> Archangel'")
        return {"type": "lend_lease", "amount": int(amount.strip()), "sea_zone": ruleset.board.resolve(sea.strip())}
    if verb == "lend":
        amount, by, lender = rest.partition(" from ")
        if not by or not _number(amount.strip()):
            raise MalformedInput("lend takes IPCs and the lender: 'lend 2 from POWER'")
        return {"type": "lend", "lender": ruleset.board.resolve_power(lender.strip()), "amount": int(amount.strip())}
    if verb == "convert":
        units, where, space = rest.rpartition(" in ")
        units, of, owner = units.rpartition(" of ")
        if not where or not of:
            raise MalformedInput("convert needs units, their owner and a space: 'convert UNITS of POWER in SPACE'")
        return {"type": "convert", "units": units.strip(), "owner": ruleset.board.resolve_power(owner.strip()),
                "space": ruleset.board.resolve(space.strip())}
    if verb == "bid":
        cash, _, amount = rest.rpartition(" ")
        if not _number(amount) or cash.lower() not in ("", "cash"):
            raise MalformedInput("bid takes a number of IPCs: 'bid 6', or 'bid cash 3' to take bid IPCs as cash")
        return {"type": "bid_cash" if cash else "bid", "amount": int(amount)}
    if verb == "treaty":
        _, found, space = rest.rpartition(" in ")
        if not found:
            raise MalformedInput("treaty needs a space: 'treaty infantry in SPACE'")
        return {"type": "treaty_infantry", "space": ruleset.board.resolve(space.strip())}
    if verb == "declare":
        if not rest:
            raise MalformedInput("declare needs a national advantage: 'declare ADVANTAGE' (its id)")
        return {"type": "declare_advantage", "advantage": rest}
    if verb == "designate":
        advantage, sep, placed = rest.partition(":")
        units, found, space = placed.rpartition(" in ")
        if not sep or not found:
            raise MalformedInput("designate needs an advantage, units and a space: "
                                 "'designate ADVANTAGE: UNITS in SPACE'")
        return {"type": "designate", "advantage": advantage.strip(), "units": units.strip(),
                "space": ruleset.board.resolve(space.strip())}
    if verb == "targets":
        return {"type": "declare_targets", "targets": rest}
    if verb == "missions":
        return {"type": "air_missions", "missions": "" if rest.strip().lower() == "none" else rest.strip()}
    if verb == "atomic":
        step, _, where = rest.partition(" ")
        where = where.strip()
        if step.lower() == "buy" and not where:
            return {"type": "atomic", "step": "buy"}
        if step.lower() == "load" and where.lower().startswith("in "):
            return {"type": "atomic", "step": "load", "space": ruleset.board.resolve(where[3:].strip())}
        if step.lower() == "groups" and where:
            return {"type": "atomic", "step": "groups", "groups": where}
        if step.lower() == "group" and _number(where):
            return {"type": "atomic", "step": "target", "group": int(where)}
        target, sep, origin = where.partition(" from ")
        if step.lower() == "strike" and sep:
            return {"type": "atomic", "step": "strike", "target": ruleset.board.resolve(target.strip()),
                    "space": ruleset.board.resolve(origin.strip())}
        raise MalformedInput("atomic takes 'atomic buy', 'atomic load in SPACE', 'atomic strike TARGET from SPACE', "
                             "'atomic groups UNITS / UNITS / ...' or 'atomic group N'")
    if verb == "give":
        tech, sep, to = rest.rpartition(" to ")
        if not sep or not tech.strip():
            raise MalformedInput("give takes a technology and an ally: 'give heavy bomber to POWER'")
        return {"type": "give_tech", "tech": tech.strip(), "to": ruleset.board.resolve_power(to.strip())}
    if verb == "choose":
        if not rest:
            raise MalformedInput("choose needs one of the decision's options: 'choose OPTION'")
        return {"type": "choose", "option": rest}
    if verb == "chart":
        if not _number(rest):
            raise MalformedInput("chart takes the number of a breakthrough chart: 'chart 2'")
        return {"type": "choose_chart", "chart": int(rest)}
    if verb == "free":
        advantage, sep, placed = rest.partition(":")
        units, found, space = placed.rpartition(" in ")
        if not sep or not found:
            raise MalformedInput("free needs an advantage, units and a space: 'free ADVANTAGE: UNITS in SPACE'")
        return {"type": "place_free", "advantage": advantage.strip(), "units": units.strip(),
                "space": ruleset.board.resolve(space.strip())}
    raise MalformedInput(
        f"unknown action {verb!r}: use move, raid, airlift, load, buy, place, research, fight, rocket, casualties, "
        "retreat, press, submerge, declare, free, bid, treaty, lend, lend-lease, convert, coastal, designate, targets, "
        "missions, choose, chart, concede, repair or end"
    )


def format_action(action: Mapping[str, Any]) -> str:
    """Text notation of an action's JSON form (the inverse of `parse_action_text`)."""
    if action.get("power"):
        return f"{action['power']}: {_format_action(action)}"
    return _format_action(action)


def _format_action(action: Mapping[str, Any]) -> str:
    kind = action.get("type")
    if kind == "end_phase":
        return "end phase"
    if kind == "move":
        verb = "raid" if action.get("raid") else "move"
        return f"{verb} {action['units']} {' -> '.join(action['path'])}"
    if kind == "rocket":
        return f"rocket {action['launcher']} -> {action['target']}"
    if kind == "air_transport":
        return f"airlift {action['units']} {' -> '.join(action['path'])}"
    if kind == "load":
        return f"load {action['units']} {action['territory']} -> {action['sea_zone']}"
    if kind == "purchase":
        at = f" at {action['at']}" if action.get("at") else ""
        return f"buy {action['units']}{at}"
    if kind == "place":
        return f"place {action['units']} in {action['space']}"
    if kind == "research":
        return f"research {action['dice']} {action.get('tech', '')}".rstrip()
    if kind == "fight":
        return f"fight {action['space']}"
    if kind == "choose_casualties":
        return f"casualties {action['units']}"
    if kind == "retreat":
        if action.get("split"):
            return "retreat " + "; ".join(f"{units} to {place}" for place, units in action["split"].items())
        return f"retreat to {action['to']}" if action.get("to") else "retreat aircraft"
    if kind == "press":
        return "press"
    if kind == "submerge":
        to = f" to {action['to']}" if action.get("to") else ""
        return f"submerge {action.get('units', '')}".strip() + to
    if kind == "bid":
        return f"bid {action['amount']}"
    if kind == "bid_cash":
        return f"bid cash {action['amount']}"
    if kind == "treaty_infantry":
        return f"treaty infantry in {action['space']}"
    if kind == "declare_d_day":
        return "declare D-Day"
    if kind == "concede":
        return "concede"
    if kind == "declare_advantage":
        return f"declare {action['advantage']}"
    if kind == "place_free":
        return f"free {action['advantage']}: {action['units']} in {action['space']}"
    if kind == "severe_winter":
        return "declare severe winter"
    if kind == "repair":
        return f"repair {action['points']} in {action['space']}"
    if kind == "lend_lease":
        if action.get("territory"):
            return f"lend-lease {action['sea_zone']} -> {action['territory']}"
        return f"lend-lease {action['amount']} in {action['sea_zone']}"
    if kind == "lend":
        return f"lend {action['amount']} from {action['lender']}"
    if kind == "convert":
        return f"convert {action['units']} of {action['owner']} in {action['space']}"
    if kind == "move_factory":
        return f"move factory {' -> '.join(action['path'])}"
    if kind == "designate":
        return f"designate {action['advantage']}: {action['units']} in {action['space']}"
    if kind == "declare_targets":
        return f"targets {action['targets']}"
    if kind == "air_missions":
        return f"missions {action.get('missions') or 'none'}"
    if kind == "atomic":
        if action["step"] == "load":
            return f"atomic load in {action['space']}"
        if action["step"] == "strike":
            return f"atomic strike {action['target']} from {action['space']}"
        if action["step"] == "groups":
            return f"atomic groups {action['groups']}"
        if action["step"] == "target":
            return f"atomic group {action['group']}"
        return "atomic buy"
    if kind == "give_tech":
        return f"give {action['tech']} to {action['to']}"
    if kind == "choose_chart":
        return f"chart {action['chart']}"
    if kind == "choose":
        return f"choose {action['option']}"
    if kind == "coastal_defence":
        owner = f" of {action['owner']}" if action.get("owner") else ""
        return f"coastal {action['territory']} -> {action['sea_zone']}: {action['target']}{owner}"
    return str(action)


# Bookkeeping records whose changes `format_event` leaves out (they are in the log all the same).
QUIET_RECORDS = frozenset({"combat", "turn"})


def format_decision(decision: Mapping[str, Any]) -> str:
    """One line for a pending decision: who must answer what, where, and the ready-made answers."""
    kind = decision.get("kind")
    where = f" in {decision['space']}" if decision.get("space") else ""
    if kind == "choose_casualties":
        what = f"{decision['power']} chooses {decision['hits']} casualt{'y' if decision['hits'] == 1 else 'ies'}"
    elif kind == "press_or_retreat" and decision.get("side") == "defender":
        what = f"{decision['power']} stands or retreats"
    elif kind == "press_or_retreat":
        what = f"{decision['power']} presses the attack or retreats"
    elif kind == "submerge":
        what = f"{decision['power']} may submerge up to {decision['available']} submarine(s)"
        if decision.get("destinations"):
            what = (f"{decision['power']} may withdraw up to {decision['available']} submarine(s) to "
                    f"{' or '.join(decision['destinations'])}")
    elif kind == "treaty_infantry":
        what = f"{decision['power']} places {decision['count']} free infantry of the broken or void treaty"
    elif kind == "research_chart":
        what = f"{decision['power']} chooses the breakthrough chart of {decision['count']} new technolog" + (
            "y" if decision["count"] == 1 else "ies")
    elif kind == "air_missions":
        what = (f"{decision['power']} declares its air missions for this enemy turn: 'missions none', or e.g. "
                "'missions 1 fighter from A -> B' (defensive air support), 'missions 1 bomber from A => B' "
                "(interdiction)")
    elif kind == "interdiction_casualties":
        what = (f"{decision['power']} chooses {decision['hits']} casualt{'y' if decision['hits'] == 1 else 'ies'} "
                f"of {decision.get('striker', 'the enemy')}'s interdiction strike")
    elif kind == "atomic_groups":
        what = (f"{decision['power']} divides its units struck by the atomic bomb into {decision['count']} groups: "
                "'atomic groups 2 infantry / 1 armour, 1 infantry / ...'")
    elif kind == "atomic_target":
        what = f"{decision['power']} names the group its atomic bomb strikes: 'atomic group N'"
    elif kind == "choose_option":
        what = f"{decision['power']} chooses: {' or '.join(decision['choices'])}"
    elif kind == "choose_targets":
        up_to = "up to " if decision.get("up_to") else ""
        what = f"{decision['power']} names {up_to}{decision['count']} target(s), in order ({decision.get('rule', '')})"
    else:
        what = f"{decision.get('power', 'a player')} decides {kind}"
    sides = ""
    if "attacker" in decision and "defender" in decision:
        def side(units: Mapping[str, str]) -> str:
            return "; ".join(f"{owner}: {text}" for owner, text in units.items()) or "nothing"

        sides = f" [attacker {side(decision['attacker'])} | defender {side(decision['defender'])}]"
    options = " | ".join(format_action(o) for o in decision.get("options", ()))
    return f"{what}{where}{sides}" + (f" — options: {options}" if options else "")


def format_event(event: Mapping[str, Any]) -> str:
    """One line for an event's JSON form."""
    kind = event.get("type")
    if kind == "phase_entered":
        return f"— round {event['round']}, {event['nation']}: {event['phase']}"
    if kind == "dice_rolled":
        return f"dice ({event['purpose']}): {' '.join(str(v) for v in event['values'])}"
    if kind in ("units_added", "units_removed"):
        s = event["stack"]
        verb = "+" if kind == "units_added" else "−"
        return f"{verb} {s['count']} {s['unit']} ({s['owner']}) in {event['space']}"
    if kind == "units_changed":
        b = event["before"]
        where = f"{event['space']} -> {event['to_space']}" if event.get("to_space") else event["space"]
        return f"{b['count']} {b['unit']} ({b['owner']}) {where}"
    if kind == "unit_damaged":
        s = event["stack"]
        now = s.get("damage", 0) + event["points"]
        return f"{s['unit']} ({s['owner']}) in {event['space']}: {event['points']:+d} damage, now {now}"
    if kind == "control_changed":
        return f"{event['space']} now held by {event['owner']}"
    if kind == "bank_changed":
        return f"{event['power']} {event['delta']:+d} IPC ({event['reason']})"
    if kind == "tech_gained":
        return f"{event['power']} develops {event['tech']}"
    if kind == "game_ended":
        return f"game over: {event['winner']} win ({event['reason']})"
    if kind == "team_turn_started":
        return f"— round {event['round']}, team turn of {', '.join(event['powers'])}: {event['phase']}"
    if kind == "member_released" and event["status"] != "acting":
        return f"{event['power']} {'waits for its team' if event['status'] == 'waiting' else 'ends its turn'}"
    if kind in ("member_focused", "member_released", "team_turn_ended"):
        return ""
    if kind == "decision_pending":
        return f"waiting for: {format_decision(event['decision'])}" if event["decision"] else "decision answered"
    if kind == "extra_set" and event["key"] in QUIET_RECORDS:
        return ""
    if kind == "extra_set":
        return f"{event['key']} = {event['value']}"
    rest = {k: v for k, v in event.items() if k != "type"}
    return f"{kind}: {rest}"
