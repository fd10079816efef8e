"""What the game page shows, read from a game state and the caller's legal actions: the turn, the nations,
a space's units, the phase panels (purchase, moves, battles, placement, advantages, a pending decision)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from aare.action_text import format_action
from aare.board.notation import format_units, parse_units
from aare.economy.complex_damage import damage_view
from aare.economy.summary import summary
from aare.movement import flags
from aare.phases.conduct_combat import open_battles
from aare.rules.ruleset import Ruleset
from aare.server.seats import Seat, acting_power, acting_powers, seat_of
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack, count_units
from aare.web.templating import phase_title, power_colours

Action = dict[str, Any]
DECISIONS = ("choose_casualties", "press", "retreat", "submerge", "declare_targets", "choose")
PANEL_TYPES = frozenset({"end_phase", "purchase", "move", "load", "fight", "place", "declare_advantage", "research",
                         *DECISIONS})


def turn_info(state: GameState, seating: str, seats: Mapping[str, Seat], mine: Sequence[str],
              acting: str | None = None, team: Mapping[str, Mapping[str, Any]] | None = None,
              ruleset: Ruleset | None = None) -> dict[str, Any]:
    """Round, nation, phase, who must act now (`acting`, default: the first power to act) and who holds that
    seat; in a team turn (`team`: the members' places) each member's phase, and which of them are the user's."""
    acting = acting or acting_power(state)
    seat = seats.get(seat_of(state, seating, acting))
    your_turn = seat is not None and seat.name in mine and state.winner is None
    # not the user's turn: every power acting now (a team turn's members act at once), each with its holder
    waiting_for = [] if your_turn else [
        {"power": p, "colours": power_colours(p), "holder": _holder(seats.get(seat_of(state, seating, p)), mine)}
        for p in acting_powers(state)]
    members = [
        {"power": power, "phase": place.get("phase"), "phase_title": phase_title(str(place.get("phase")), ruleset),
         "status": place.get("status"), "mine": seat_of(state, seating, power) in mine}
        for power, place in (team or {}).items()
    ]
    return {
        "round": state.round, "nation": state.nation, "phase": state.phase,
        "phase_title": phase_title(state.phase, ruleset),
        "acting": acting, "holder": _holder(seat, mine), "winner": state.winner, "version": state.version,
        "your_turn": your_turn, "colours": power_colours(acting), "team": members,
        # whose turn the head names: in a team turn none of whose members is the user's, the whole team
        "heads": [m["power"] for m in members] if members and not any(m["mine"] for m in members) else [state.nation],
        "waiting_for": waiting_for or [{"power": acting, "colours": power_colours(acting),
                                        "holder": _holder(seat, mine)}],
    }


def _holder(seat: Seat | None, mine: Sequence[str]) -> str:
    """Who holds `seat`, as the user reads it."""
    if seat is None or seat.is_open:
        return "an open seat"
    if seat.name in mine:
        return "you"
    if seat.bot:
        return f"the {seat.bot} bot"
    return seat.username or "another player"


def nations(state: GameState) -> dict[str, Any]:
    """Each nation's bank, income and victory cities; victory cities per side, or how victory stands as the
    ruleset tells it (the `victory_standing` hook: capitals held, an income level, ...)."""
    data = summary(state)
    rows = [
        {"name": name, **info, "colours": power_colours(name), "to_move": name == state.nation}
        for name, info in data["nations"].items()
    ]
    return {"rows": rows, "sides": data["victory_cities"]["by_side"], "total": data["victory_cities"]["total"],
            "standing": [r["text"] for r in data.get("victory", {}).get("standing", [])],
            "records": records(state, data)}


def records(state: GameState, data: Mapping[str, Any]) -> list[str]:
    """The game-wide records the ruleset lists in its summary (`summary_records`) that have a status, as text:
    e.g. "D-Day: declared in round 3", "Treaty: active"."""
    out = []
    for key, value in state.extra.items():
        if data.get(key) is not value or not isinstance(value, Mapping) or not value.get("status"):
            continue
        title = "-".join(word.capitalize() for word in key.split("_"))
        when = f" in round {value['round']}" if value.get("round") else ""
        out.append(f"{title}: {str(value['status']).replace('_', ' ')}{when}")
    return out


def units_by_owner(stacks: Iterable[Stack], ruleset: Ruleset) -> list[dict[str, Any]]:
    """One line of units per owner, in turn order."""
    stacks = tuple(stacks)
    order = {p.name: p.order for p in ruleset.board.powers}
    owners = sorted({s.owner for s in stacks}, key=lambda o: order.get(o, 99))
    return [{"owner": o, "units": format_units(count_units(stacks, o), ruleset.units), "colours": power_colours(o)}
            for o in owners]


def space_info(state: GameState, ruleset: Ruleset, space: str) -> dict[str, Any] | None:
    """A space's kind, controller, value, units and the damage on its complex (None for an unknown name)."""
    found = ruleset.board.spaces.get(space)
    if found is None:
        return None
    owner = state.owner(space) if found.is_land else None
    return {
        "name": space, "kind": found.kind, "land": found.is_land, "owner": owner, "ipc": found.ipc,
        "victory_city": found.victory_city, "colours": power_colours(owner),
        "units": units_by_owner(state.stacks(space), ruleset),
        "complex_damage": damage_view(state, ruleset, space),
    }


def _parsed(text: str, ruleset: Ruleset) -> dict[str, int]:
    return parse_units(text, ruleset.units) if text else {}


def move_rows(state: GameState, ruleset: Ruleset, space: str, candidates: Sequence[Action]) -> list[dict[str, Any]]:
    """The mover's stacks in `space`, one row each, with the units one of them stands for (a transport with its
    cargo) and whether any legal move from here takes that type."""
    movable = {u for a in candidates if a["type"] in ("move", "load") for u in _parsed(a["units"], ruleset)}
    rows = []
    for i, stack in enumerate(state.stacks(space)):
        if stack.owner != state.nation:
            continue
        unit = ruleset.units[stack.unit]
        per = Counter({stack.unit: 1})
        for _, aboard in flags.cargo(stack):
            per[aboard] += 1
        extras = []
        if per.total() > 1:
            extras.append("with " + format_units(per - Counter({stack.unit: 1}), ruleset.units))
        if stack.damage:
            extras.append(f"{stack.damage} hit")
        if stack.moved:
            extras.append(f"moved {stack.moved}")
        rows.append({
            "key": i, "unit": stack.unit, "name": unit.display, "count": stack.count, "extras": ", ".join(extras),
            "per": dict(per), "movable": stack.unit in movable,
        })
    return rows


def move_targets(candidates: Sequence[Action]) -> list[str]:
    """Spaces a legal move or load from the selected space can end in."""
    ends = [a["path"][-1] for a in candidates if a["type"] == "move"]
    ends += [a["sea_zone"] for a in candidates if a["type"] == "load"]
    return sorted(set(ends))


def purchase_panel(state: GameState, ruleset: Ruleset, legal: Sequence[Action]) -> dict[str, Any] | None:
    """Unit types on sale with their prices, the bank and what was bought so far this turn."""
    offered = [u for a in legal if a["type"] == "purchase" for u in _parsed(a["units"], ruleset)]
    if not offered:
        return None
    places: dict[str, set[str]] = {}  # units bought at a place (AARHE's infantry at victory cities): where
    anywhere: set[str] = set()
    for a in (a for a in legal if a["type"] == "purchase"):
        for u in _parsed(a["units"], ruleset):
            if a.get("at"):
                places.setdefault(u, set()).add(a["at"])
            else:
                anywhere.add(u)
    power = state.nation
    rows = []
    for unit_id in dict.fromkeys(offered):
        unit = ruleset.units[unit_id]
        cost = ruleset.unit_cost(unit_id, power=power, state=state).value
        rows.append({"unit": unit_id, "name": unit.display, "cost": cost, "attack": unit.attack,
                     "defense": unit.defense, "move": unit.move, "domain": unit.domain,
                     "places": [] if unit_id in anywhere else sorted(places.get(unit_id, ()))})
    return {"rows": rows, "bank": state.banks.get(power, 0), "bought": _pool_text(state, ruleset)}


def _pool(state: GameState) -> dict[str, int]:
    pool = state.extra.get("purchased")
    mine = pool.get(state.nation) if isinstance(pool, Mapping) else None
    return {str(k): int(v) for k, v in mine.items() if v} if isinstance(mine, Mapping) else {}


def _pool_text(state: GameState, ruleset: Ruleset) -> str:
    return format_units(_pool(state), ruleset.units)


def placement_panel(state: GameState, ruleset: Ruleset, legal: Sequence[Action]) -> dict[str, Any] | None:
    """The units waiting to be placed and the spaces that take them."""
    places = [a for a in legal if a["type"] == "place"]
    free = [a for a in legal if a["type"] == "place_free"]
    if not places and not free:
        return None
    pool = _pool(state)
    rows = [{"unit": u, "name": ruleset.units[u].display, "count": n} for u, n in pool.items()]
    spaces: dict[str, list[str]] = {}
    for a in places:
        spaces.setdefault(a["space"], []).extend(_parsed(a["units"], ruleset))
    return {"rows": rows, "spaces": [{"name": s, "units": sorted(set(u))} for s, u in sorted(spaces.items())],
            "free": [{"action": a, "text": f"{_title(ruleset, a['advantage'])}: {a['units']} in {a['space']}"}
                     for a in free],
            "pool": format_units(pool, ruleset.units)}


def _title(ruleset: Ruleset, advantage_id: str) -> str:
    record = _advantages(ruleset).get(advantage_id)
    return str(record["title"]) if record else advantage_id


def _advantages(ruleset: Ruleset) -> dict[str, dict[str, Any]]:
    """The national advantages the ruleset names (the `titles` hook)."""
    found: dict[str, dict[str, Any]] = ruleset.modify("titles", {}).get("advantage", {})
    return found


def battles_panel(state: GameState, ruleset: Ruleset, legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The battles still to fight (conduct combat), each with both sides' units."""
    fights = {a["space"] for a in legal if a["type"] == "fight"}
    out = []
    for site in open_battles(state, ruleset):
        defenders = [s for stacks in site.defenders.values() for s in stacks]
        out.append({
            "space": site.space, "kind": site.kind, "can_fight": site.space in fights,
            "attackers": format_units(count_units(site.attackers), ruleset.units),
            "defenders": units_by_owner(defenders, ruleset),
        })
    return out


def decision_panel(state: GameState, ruleset: Ruleset, legal: Sequence[Action]) -> dict[str, Any] | None:
    """The pending battle decision: who answers, both sides and the answers on offer."""
    pending = state.pending
    if pending is None:
        return None
    answers = [a for a in legal if a["type"] in DECISIONS] or list(pending.get("options", ()))
    return {
        "kind": pending.get("kind"), "power": pending.get("power"), "space": pending.get("space"),
        "hits": pending.get("hits"), "available": pending.get("available"), "count": pending.get("count"),
        "attacker": _side_units(pending.get("attacker")), "defender": _side_units(pending.get("defender")),
        "casualties": [a for a in answers if a["type"] == "choose_casualties"],
        "others": [a for a in answers if a["type"] != "choose_casualties"],
        "colours": power_colours(pending.get("power")),
    }


def _side_units(side: Any) -> list[dict[str, Any]]:
    if not isinstance(side, Mapping):
        return []
    return [{"owner": o, "units": t, "colours": power_colours(o)} for o, t in side.items()]


def advantages_panel(ruleset: Ruleset, legal: Sequence[Action]) -> list[dict[str, Any]]:
    """National advantages that may be declared now, with their titles."""
    declares = [a for a in legal if a["type"] == "declare_advantage"]
    if not declares:
        return []
    known = _advantages(ruleset)
    out = []
    for a in declares:
        record = known.get(a["advantage"], {})
        out.append({"action": a, "id": a["advantage"], "title": record.get("title", a["advantage"]),
                    "number": record.get("number", 0), "timing": record.get("timing", "")})
    return out


def research_panel(legal: Sequence[Action]) -> dict[str, Any] | None:
    """The research rolls on offer, and the technologies research dice may be bought for."""
    offers = [a for a in legal if a["type"] == "research"]
    if not offers:
        return None
    return {"offers": offers, "techs": list(dict.fromkeys(a.get("tech", "") for a in offers)),
            "dice": min(int(a["dice"]) for a in offers)}


def declarations(legal: Sequence[Action]) -> list[dict[str, Any]]:
    """Declarations no other panel offers (`declare_*`: D-Day, ...), as text and JSON: shown before the phase's
    panel, as a declaration may have to come first in the turn."""
    return [{"action": a, "text": format_action(a)} for a in legal if _declaration(a)]


def other_actions(legal: Sequence[Action]) -> list[dict[str, Any]]:
    """Legal actions no panel offers (bids, rockets, lend-lease, ...), as text and JSON."""
    return [{"action": a, "text": format_action(a)} for a in legal
            if a["type"] not in PANEL_TYPES and not _declaration(a)]


def _declaration(action: Action) -> bool:
    return str(action["type"]).startswith("declare_") and action["type"] not in PANEL_TYPES
