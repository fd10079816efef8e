"""AARHE diplomacy and neutrals (module `aarhe_diplomacy`; AARHE-DIPLO-*, AARHE-NEUTRAL-*).

Each neutral has a position from -5 (committed to the Axis) to +5 (committed to the Allies), starting as the
neutral table gives. In its diplomacy phase a power has a number of rolls (Germany and the United States 2, the
others 1, Italy none): each names a neutral between -2 and +2 (``choose Turkey``) and rolls one die, succeeding
on 1 plus its side's modifiers (+1 per neighbouring territory it holds that was not its side's at the start,
+2 more if it took it this turn, +3 per enemy capital it holds); a success moves the neutral one step its way.

From +-2 the leaning side's aircraft may fly over the neutral (never end there); from +-3 its income goes to the
power that moved it there; at +-4 the leaning side's land units may enter it in combat move, and it joins that
side without a fight. Land units of either side entering it otherwise in combat move attack it: it joins the
other side at +-5. A neutral that joins a side passes, with its army, to the power of that side whose capital is
closest and still its own; the army appears at once (ships in a neighbouring sea zone free of enemies) and
defends. Rio de Oro is Spain's: it shares Spain's position, and entering it is entering Spain.

The board changes (`data/board_changes/aarhe.toml`) make the neutrals passable land with no owner, worth their
income; this module decides who may enter or overfly them."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Choose
from aare.board.notation import parse_units
from aare.economy.turn import turn_start_owners
from aare.errors import IllegalAction
from aare.events import ControlChanged, Event, ExtraSet, UnitsAdded, UnitsChanged, UnitsUnloaded
from aare.movement.graph import graph_of
from aare.movement.move_checks import Check, Leg, Violation, neutrals
from aare.movement.situation import Situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.turn import ALLIES, AXIS, DIPLOMACY
from aare.state.unit_stacks import Stack

R_ROLLS = "AARHE-DIPLO-rolls-table"
R_TARGET = "AARHE-DIPLO-target"
R_ROLL = "AARHE-DIPLO-roll"
R_MODIFIERS = "AARHE-DIPLO-modifiers"
R_POSITIONS = "AARHE-DIPLO-positions-table"
R_AIR = "AARHE-DIPLO-air-passage"
R_INCOME = "AARHE-DIPLO-income"
R_ENTRY = "AARHE-DIPLO-land-entry"
R_ATTACK = "AARHE-DIPLO-attack"
R_ARMY = "AARHE-DIPLO-neutral-army"
R_OWNER = "AARHE-DIPLO-neutral-owner"
R_TABLE = "AARHE-NEUTRAL-table"
R_RIO = "AARHE-NEUTRAL-rio-de-oro"

# AARHE-DIPLO-rolls-table (the board's names; Italy plays only on the Italy map)
ROLLS = {"Germany": 2, "Italy": 0, "Japan": 1, "Russia": 1, "United Kingdom": 1, "United States": 2}

# AARHE-NEUTRAL-table: starting position and army ("-" read as 0 and none; Mozambique's "+" as +1); the income
# is the territory's value on the board (board changes)
NEUTRALS: dict[str, tuple[int, str]] = {
    "Afghanistan": (0, "1 infantry"),
    "Angola": (0, ""),
    "Argentina": (0, "2 infantry"),
    "Eire": (3, "1 infantry"),
    "Himalaya": (0, ""),
    "Mongolia": (1, "2 infantry"),
    "Mozambique": (1, ""),
    "Peru": (1, "1 infantry"),
    "Sahara": (-1, ""),
    "Saudi Arabia": (1, ""),
    "Spain": (-2, "5 infantry, 1 artillery, 1 armour, 1 fighter, 1 destroyer, 1 transport"),
    "Sweden": (-2, "3 infantry, 1 artillery"),
    "Switzerland": (-1, "1 infantry"),
    "Turkey": (-1, "4 infantry, 1 artillery, 1 armour, 1 fighter"),
    "Venezuela": (1, "1 infantry"),
}
PART_OF = {"Rio De Oro": "Spain"}  # AARHE-NEUTRAL-rio-de-oro
TARGET_RANGE, AIR_PASSAGE, INCOME_FROM, LAND_ENTRY, COMMITTED = 2, 2, 3, 4, 5
HIT_ON = 1
RECORD = "aarhe_diplomacy"  # extra: {"positions": {country: n}, "movers": {country: power}, "used": {...}}


def country_of(territory: str) -> str | None:
    """The neutral country a territory belongs to (Rio de Oro: Spain), None for any other."""
    found = PART_OF.get(territory, territory)
    return found if found in NEUTRALS else None


def territories_of(country: str) -> list[str]:
    return [country, *(t for t, c in PART_OF.items() if c == country)]


def record(state: Any) -> dict[str, Any]:
    found = state.extra.get(RECORD)
    return found if isinstance(found, dict) else {"positions": {}, "movers": {}, "used": {}}


def position(state: Any, country: str) -> int:
    """The country's position: + leans to the Allies, - to the Axis (AARHE-DIPLO-positions-table)."""
    return int(record(state)["positions"].get(country, NEUTRALS[country][0]))


def is_neutral(state: Any, territory: str) -> bool:
    """A territory of a neutral country that has joined no side yet."""
    return country_of(territory) is not None and state.owners.get(territory) is None


def sign(ruleset: Any, power: str) -> int:
    """The direction of `power`'s side on the position scale."""
    return 1 if ruleset.board.side_of(power) == ALLIES else -1


def leaning(state: Any, ruleset: Any, power: str, territory: str) -> int:
    """How far the neutral `territory` leans to `power`'s side (negative: to the other side)."""
    country = country_of(territory)
    return 0 if country is None else sign(ruleset, power) * position(state, country)


def closest_holder(state: Any, ruleset: Any, side: str, country: str) -> str | None:
    """The power of `side` whose capital, still its own, is closest to `country` (spaces over land and sea); a tie
    goes to the power first in the board's order (AARHE-DIPLO-neutral-owner)."""
    board = ruleset.board
    distances = graph_of(board).distances_from([country])
    best: tuple[int, int, str] | None = None
    for i, power in enumerate(board.powers):
        capital = power.capital
        if power.side != side or capital is None or state.owners.get(capital) != power.name:
            continue
        key = (distances.get(capital, len(board.spaces)), i, power.name)
        best = key if best is None or key < best else best
    return None if best is None else best[2]


def join_events(state: Any, ruleset: Any, country: str, side: str, rule: str) -> list[Event]:
    """`country` joins `side` at +-5: its territories and army pass to the side's closest capital holder; the army
    appears at once, ships in a neighbouring sea zone free of that power's enemies (else they are lost)."""
    board = ruleset.board
    committed = COMMITTED if side == ALLIES else -COMMITTED
    found = record(state)
    events: list[Event] = [ExtraSet(RECORD, {**found, "positions": {**found["positions"], country: committed}},
                                    rule)]
    power = closest_holder(state, ruleset, side, country)
    if power is None:
        return events
    events += [ControlChanged(t, power, R_OWNER) for t in territories_of(country)]
    army = parse_units(NEUTRALS[country][1], ruleset.units) if NEUTRALS[country][1] else {}
    seas = [s for s in board.spaces[country].neighbors if board.spaces[s].is_sea
            and all(board.side_of(u.owner) == side for u in state.stacks(s))]
    for unit, count in army.items():
        where = country if ruleset.units[unit].domain != "sea" else (seas[0] if seas else None)
        if where is not None:
            events.append(UnitsAdded(where, Stack(power, unit, count), R_ARMY))
    return events


def _entered(events: list[Event], view: Situation) -> list[str]:
    """The neutral territories `events` put land units into."""
    found: list[str] = []
    for event in events:
        if isinstance(event, UnitsUnloaded):
            found.append(event.territory)
        elif isinstance(event, UnitsChanged) and event.to_space != event.space \
                and view.unit(event.before).domain == "land":
            found.append(event.to_space)
    return [t for t in dict.fromkeys(found) if is_neutral(view.state, t)]


def _move_events(events: list[Event], view: Situation, combat: bool, **_: Any) -> list[Event]:
    """Land units entering a neutral in combat move: at +-4 toward the mover's side it joins that side
    (AARHE-DIPLO-land-entry), else it is attacked and joins the other side, its army defending (AARHE-DIPLO-attack,
    -neutral-army); entering Rio de Oro is entering Spain (AARHE-NEUTRAL-rio-de-oro)."""
    if not combat:
        return events
    state, ruleset, power = view.state, view.ruleset, view.power
    side = ruleset.board.side_of(power)
    other = next(p.side for p in ruleset.board.powers if p.side != side)
    out = list(events)
    for territory in _entered(events, view):
        country = country_of(territory)
        assert country is not None
        friendly = leaning(state, ruleset, power, territory) >= LAND_ENTRY
        out = [*join_events(state, ruleset, country, side if friendly else other, R_ENTRY if friendly else R_ATTACK),
               *out]
    return out


def neutral_passage(leg: Leg) -> Violation | None:
    """Aircraft fly over a neutral only from +-2 toward their side and never end a move in one
    (AARHE-DIPLO-air-passage); land units stop on entering one, and enter one in combat move only (an attack, or
    at +-4 their side's entry, AARHE-DIPLO-land-entry)."""
    view = leg.view
    state, ruleset = view.state, view.ruleset
    if leg.domain == "air":
        for space in leg.path[1:]:
            if not is_neutral(state, space):
                continue
            if space == leg.end:
                return Violation(f"{space} is neutral: aircraft may not end a move there", R_AIR)
            lean = leaning(state, ruleset, view.power, space)
            if lean < AIR_PASSAGE:
                return Violation(f"{space} stands at {position(state, country_of(space) or space):+d}: aircraft of "
                                 f"{view.power}'s side fly over it from {AIR_PASSAGE} toward their side", R_AIR)
    if leg.domain == "land":
        through = next((s for s in leg.path[1:-1] if is_neutral(state, s)), None)
        if through is not None:
            return Violation(f"land units entering neutral {through} stop there", R_ATTACK)
        if not leg.combat and is_neutral(state, leg.end):
            return Violation(f"{leg.end} is neutral: land units enter it in combat move only, attacking it, or at "
                             f"{LAND_ENTRY} toward their side joining it", R_ENTRY)
    return None


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    at = checks.index(neutrals) + 1 if neutrals in checks else 0
    return [*checks[:at], neutral_passage, *checks[at:]]


def _air_closed(closed: frozenset[str], view: Situation, **_: Any) -> frozenset[str]:
    """Air routes and landing ranges go around the neutrals not open to the mover's aircraft."""
    state, ruleset = view.state, view.ruleset
    shut = {t for t in (*NEUTRALS, *PART_OF) if is_neutral(state, t)
            and leaning(state, ruleset, view.power, t) < AIR_PASSAGE}
    return closed | shut


def income_power(state: Any, ruleset: Any, country: str) -> str | None:
    """Who collects a neutral's income at +-3 or +-4: the power that moved it there; for one that started there
    (Eire), its side's closest capital holder (AARHE-DIPLO-income)."""
    where = position(state, country)
    if abs(where) < INCOME_FROM or abs(where) >= COMMITTED:
        return None
    mover = record(state)["movers"].get(country)
    if mover is not None:
        return str(mover)
    return closest_holder(state, ruleset, ALLIES if where > 0 else AXIS, country)


def neutral_income(state: Any, ruleset: Any, power: str) -> int:
    """The income `power` collects from neutrals leaning its way."""
    spaces = ruleset.board.spaces
    return sum(spaces[t].ipc for c in NEUTRALS if income_power(state, ruleset, c) == power
               for t in territories_of(c) if is_neutral(state, t))


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    return value + neutral_income(state, ruleset, power)


def modifiers(state: Any, ruleset: Any, power: str, country: str) -> int:
    """AARHE-DIPLO-modifiers: +1 per territory next to the country that `power`'s side controls and did not
    control at the start of the game, +2 more if it took it this turn; +3 per enemy capital the side controls."""
    board = ruleset.board
    side = board.side_of(power)
    start = turn_start_owners(state)

    def ours(owner: str | None) -> bool:
        return owner is not None and board.side_of(owner) == side

    near = {n for t in territories_of(country) for n in board.spaces[t].neighbors
            if board.spaces[n].is_land and country_of(n) != country}
    total = 0
    for territory in sorted(near):
        if ours(state.owners.get(territory)) and not ours(board.owners.get(territory)):
            total += 1 + (2 if not ours(start.get(territory)) else 0)
    capitals = [p.capital for p in board.powers if p.side != side and p.capital is not None]
    return total + 3 * sum(1 for c in capitals if ours(state.owners.get(c)))


def targets(state: Any) -> list[str]:
    """The neutrals a diplomacy roll may name: between -2 and +2 (AARHE-DIPLO-target)."""
    return [c for c in NEUTRALS if abs(position(state, c)) <= TARGET_RANGE and state.owners.get(c) is None]


def rolls_left(state: Any, power: str) -> int:
    used = record(state)["used"]
    return ROLLS.get(power, 0) - int(used.get(f"{state.round}:{power}", 0))


class DiplomacyRolls(PhaseExtension):
    """Diplomacy: ``choose NEUTRAL`` rolls one of the power's diplomacy rolls for that neutral."""

    name = DIPLOMACY
    action_types = frozenset({"choose"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None and ctx.state.pending is None and rolls_left(ctx.state, ctx.power) > 0:
            yield from (Choose(option=c) for c in targets(ctx.state))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if rolls_left(state, power) <= 0:
            raise IllegalAction(f"{power} has no diplomacy rolls left this turn ({ROLLS.get(power, 0)} a turn)",
                                R_ROLLS)
        try:
            name = ruleset.board.resolve(action.option)
        except Exception:
            raise IllegalAction(f"{action.option} is no neutral", R_TARGET) from None
        country = country_of(name)
        if country is None or state.owners.get(country) is not None:
            raise IllegalAction(f"{name} is no neutral", R_TARGET)
        where = position(state, country)
        if abs(where) > TARGET_RANGE:
            raise IllegalAction(f"{country} stands at {where:+d}: a diplomacy roll names a neutral between "
                                f"-{TARGET_RANGE} and +{TARGET_RANGE}", R_TARGET)
        need = HIT_ON + modifiers(state, ruleset, power, country)
        (die,) = ctx.roll(1, f"diplomacy: {power} for {country} (hits on {need} or less)")
        found = record(ctx.state)
        used = {k: v for k, v in found["used"].items() if k.startswith(f"{state.round}:")}
        key = f"{state.round}:{power}"
        value = {**found, "used": {**used, key: int(used.get(key, 0)) + 1}}
        if die <= need:
            moved = where + sign(ruleset, power)
            value["positions"] = {**found["positions"], country: moved}
            if abs(moved) == INCOME_FROM:
                value["movers"] = {**found["movers"], country: power}
        ctx.emit(ExtraSet(RECORD, value, R_ROLL))


ROLLING = DiplomacyRolls()


def _summary_records(keys: list[str], **_: Any) -> list[str]:
    return [*keys, RECORD]


AARHE_DIPLOMACY = register_module(
    RuleModule(
        id="aarhe_diplomacy",
        title="AARHE diplomacy and neutrals",
        rule_ids=(R_ROLLS, R_TARGET, R_ROLL, R_MODIFIERS, R_POSITIONS, R_AIR, R_INCOME, R_ENTRY, R_ATTACK, R_ARMY,
                  R_OWNER, R_TABLE, R_RIO),
        hooks={
            "phase_actions": by_phase(ROLLING),
            "move_checks": _move_checks,
            "move_events": _move_events,
            "air_closed": _air_closed,
            "income": _income,
            "summary_records": _summary_records,
        },
        requires=("aarhe_turn",),
    )
)
