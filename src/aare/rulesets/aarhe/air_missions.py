"""AARHE air missions during an enemy turn (AARHE-DAS-*, AARHE-INTERDICT-mission): what a power's aircraft may
fly, how a declaration reads and the record of this enemy turn's missions.

A declaration lists missions: ``2 fighter from Archangel -> Karelia S.S.R.`` (defensive air support: the
aircraft fly to an adjacent friendly territory or sea zone and defend there from the second cycle) and
``1 bomber from United Kingdom => Western Europe`` (air interdiction: the bombers strike an adjacent hostile
territory or sea zone holding no enemy aircraft for one cycle). Each aircraft flies at most one mission.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Any

from aare.action_text import split_units_and_space
from aare.board.notation import format_units, parse_units
from aare.errors import AareError, IllegalAction
from aare.events import Event, ExtraSet, UnitsChanged
from aare.movement import flags
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

R_ELIGIBLE = "AARHE-DAS-eligibility"
R_ONE_SPACE = "AARHE-DAS-one-space"
R_SECOND_CYCLE = "AARHE-DAS-second-cycle"
R_RETURN = "AARHE-DAS-return"
R_DECLARE = "AARHE-DAS-declare"
R_UNATTACKED = "AARHE-DAS-unattacked-target"
R_MISSION = "AARHE-INTERDICT-mission"
R_NO_COMBAT = "AARHE-INTERDICT-no-normal-combat"
R_STRIKE_RETURN = "AARHE-INTERDICT-return"
R_ID_FIRE = "AARHE-INTERDICT-id-fire"
R_MOVEMENT = "AARHE-INTERDICT-movement-rolls"

KEY = "aarhe_air_missions"  # state.extra: this enemy turn's missions
DECISION = "air_missions"  # the pending declaration of one power
SUPPORT = flags.TURN + "das"  # =<home>: flying defensive air support from <home>
STRIKE = flags.TURN + "interdict"  # =<target>: bombers on interdiction (they stay out of every battle)
SUPPORT_ARROW, STRIKE_ARROW = "->", "=>"


@dataclass(frozen=True)
class Mission:
    """One mission: `units` of one power flying from `home` to `target`; `strike`: an interdiction."""

    units: Mapping[str, int]
    home: str
    target: str
    strike: bool

    def text(self, ruleset: Ruleset) -> str:
        arrow = STRIKE_ARROW if self.strike else SUPPORT_ARROW
        return f"{format_units(dict(self.units), ruleset.units)} from {self.home} {arrow} {self.target}"


# ---------------------------------------------------------------- the record


def turn_id(state: GameState) -> str:
    """This turn: its round and the powers whose turn it is."""
    return f"{state.round}:{','.join(state.members or (state.nation,))}"


def record(state: GameState) -> dict[str, Any]:
    """The record of this turn's missions (empty if none was opened this turn)."""
    found = state.extra.get(KEY)
    if isinstance(found, Mapping) and found.get("turn") == turn_id(state):
        return dict(found)
    return {}


def record_event(state: GameState, rule: str = R_DECLARE, **changes: Any) -> ExtraSet:
    return ExtraSet(KEY, {**record(state), "turn": turn_id(state), **changes}, rule)


def declaring(state: GameState) -> bool:
    """Whether declarations are still awaited this turn (no battle may be fought yet)."""
    return bool(record(state).get("asked"))


# ---------------------------------------------------------------- the board


def _side(ruleset: Ruleset, power: str | None) -> str | None:
    return ruleset.board.side_of(power) if power else None


def friendly_land(state: GameState, ruleset: Ruleset, space: str, power: str) -> bool:
    return space in graph_of(ruleset.board).land and _side(ruleset, state.owners.get(space)) == _side(ruleset, power)


def _hostile_land(state: GameState, ruleset: Ruleset, space: str, power: str) -> bool:
    owner = state.owners.get(space)
    return space in graph_of(ruleset.board).land and owner is not None and _side(ruleset, owner) != _side(
        ruleset, power)


def _is_sea(ruleset: Ruleset, space: str) -> bool:
    return space in graph_of(ruleset.board).sea


def enemy_aircraft(state: GameState, ruleset: Ruleset, space: str, power: str) -> bool:
    return any(ruleset.units[s.unit].domain == "air" and _side(ruleset, s.owner) != _side(ruleset, power)
               for s in state.stacks(space))


def free_aircraft(state: GameState, ruleset: Ruleset, power: str, home: str) -> dict[str, int]:
    """`power`'s aircraft in its side's land territory `home` on no mission yet, by unit."""
    if not friendly_land(state, ruleset, home, power):
        return {}
    out: dict[str, int] = {}
    for stack in state.stacks(home):
        if stack.owner == power and ruleset.units[stack.unit].domain == "air" and not on_mission(stack):
            out[stack.unit] = out.get(stack.unit, 0) + stack.count
    return out


def on_mission(stack: Stack) -> bool:
    return flags.value(stack, SUPPORT) is not None or flags.value(stack, STRIKE) is not None


def support_target(state: GameState, ruleset: Ruleset, power: str, space: str) -> bool:
    """AARHE-DAS-eligibility: a friendly territory, or a sea zone holding ships of the power's side (docs/rulings.md:
    aircraft over an empty zone would defend nothing)."""
    if friendly_land(state, ruleset, space, power):
        return True
    return _is_sea(ruleset, space) and any(
        ruleset.units[s.unit].domain == "sea" and _side(ruleset, s.owner) == _side(ruleset, power)
        for s in state.stacks(space))


def strike_target(state: GameState, ruleset: Ruleset, power: str, space: str) -> bool:
    """AARHE-INTERDICT-mission: a hostile territory or a sea zone, holding no enemy aircraft."""
    return (_hostile_land(state, ruleset, space, power) or _is_sea(ruleset, space)) and not enemy_aircraft(
        state, ruleset, space, power)


def attacked(state: GameState, ruleset: Ruleset, power: str) -> set[str]:
    """Spaces that enemy units moved into to fight this turn (a strategic bombing raid is no attack the
    aircraft there could defend against)."""
    return {space for space, stacks in state.units.items() for s in stacks
            if _side(ruleset, s.owner) != _side(ruleset, power) and flags.has(s, flags.COMBAT)
            and flags.value(s, flags.SBR) is None}


def homes(state: GameState, ruleset: Ruleset, power: str) -> list[str]:
    return sorted(space for space in state.units if free_aircraft(state, ruleset, power, space))


def useful_missions(state: GameState, ruleset: Ruleset, power: str) -> list[Mission]:
    """The missions that can matter: support for an attacked neighbour, flying out of an attacked home,
    interdiction of a neighbour holding enemy land or sea units."""
    graph = graph_of(ruleset.board)
    fights = attacked(state, ruleset, power)
    units = ruleset.units
    out: list[Mission] = []
    for home in homes(state, ruleset, power):
        planes = free_aircraft(state, ruleset, power, home)
        bombers = {u: n for u, n in planes.items() if units[u].has("bomber")}
        nbrs = graph.air[home]
        for target in nbrs:
            if target in fights and support_target(state, ruleset, power, target):
                out.append(Mission(planes, home, target, False))
        if home in fights:
            out += [Mission(planes, home, t, False) for t in nbrs
                    if t not in fights and friendly_land(state, ruleset, t, power)][:1]
        if bombers:
            out += [Mission(bombers, home, t, True) for t in nbrs
                    if strike_target(state, ruleset, power, t) and _enemy_units(state, ruleset, t, power)]
    return out


def _enemy_units(state: GameState, ruleset: Ruleset, space: str, power: str) -> bool:
    return any(_side(ruleset, s.owner) != _side(ruleset, power) and ruleset.units[s.unit].domain != "air"
               and not ruleset.units[s.unit].has("not_casualty") for s in state.stacks(space))


ASKED_OPTION = "air_missions_asked"
ASK_USEFUL, ASK_ALWAYS = "useful", "always"


def may_declare(state: GameState, ruleset: Ruleset, power: str) -> bool:
    """Whether `power` is asked for its missions: it has a mission that can matter (docs/rulings.md), or
    (option ``air_missions_asked = always``) any aircraft that may fly one."""
    if ruleset.options.get(ASKED_OPTION, ASK_USEFUL) == ASK_ALWAYS:
        graph = graph_of(ruleset.board)
        return any(support_target(state, ruleset, power, t) or (
            any(ruleset.units[u].has("bomber") for u in free_aircraft(state, ruleset, power, home))
            and strike_target(state, ruleset, power, t)) for home in homes(state, ruleset, power)
            for t in graph.air[home])
    return bool(useful_missions(state, ruleset, power))


# ---------------------------------------------------------------- a declaration


def parse(text: str, ruleset: Ruleset) -> list[Mission]:
    """The missions of a declaration's text ("" or "none": none)."""
    out: list[Mission] = []
    if text.strip().lower() in ("", "none"):
        return out
    for part in text.split(";"):
        part = part.strip()
        strike = STRIKE_ARROW in part
        left, arrow, right = part.partition(STRIKE_ARROW if strike else SUPPORT_ARROW)
        if not arrow or not right.strip():
            raise IllegalAction(f"a mission reads 'UNITS from SPACE -> SPACE' (support) or 'UNITS from SPACE => "
                                f"SPACE' (interdiction), not {part!r}", R_DECLARE)
        try:
            units_text, found, home = left.rpartition(" from ")
            if found:
                home = ruleset.board.resolve(home.strip())
            else:
                units_text, home = split_units_and_space(left.strip(), ruleset)
            units = parse_units(units_text.strip(), ruleset.units)
            target = ruleset.board.resolve(right.strip())
        except AareError as err:
            raise IllegalAction(f"cannot read the mission {part!r}: {err}", R_DECLARE) from None
        out.append(Mission(units, home, target, strike))
    return out


def check(state: GameState, ruleset: Ruleset, power: str, missions: list[Mission]) -> None:
    """Refuse a declaration breaking the rules of the missions."""
    graph = graph_of(ruleset.board)
    units = ruleset.units
    used: dict[tuple[str, str], int] = {}
    for m in missions:
        if any(units[u].domain != "air" for u in m.units):
            raise IllegalAction("only aircraft fly air missions", R_ELIGIBLE)
        if m.target not in graph.air.get(m.home, ()):
            raise IllegalAction(f"{m.target} is not adjacent to {m.home}", R_MISSION if m.strike else R_ELIGIBLE)
        if m.strike:
            if any(not units[u].has("bomber") for u in m.units):
                raise IllegalAction("only bombers fly interdiction missions", R_MISSION)
            if not strike_target(state, ruleset, power, m.target):
                raise IllegalAction(f"{m.target} is no interdiction target: a hostile territory or a sea zone "
                                    "holding no enemy aircraft", R_MISSION)
        elif not support_target(state, ruleset, power, m.target):
            raise IllegalAction(f"{m.target} is neither a friendly territory nor a sea zone with friendly ships",
                                R_ELIGIBLE)
        free = free_aircraft(state, ruleset, power, m.home)
        for unit, n in m.units.items():
            used[(m.home, unit)] = used.get((m.home, unit), 0) + n
            if used[(m.home, unit)] > free.get(unit, 0):
                raise IllegalAction(f"{power} has {free.get(unit, 0)} {unit} free for missions in {m.home}: each "
                                    "aircraft flies one mission", R_ONE_SPACE)


def take(state: GameState, power: str, home: str, unit: str, count: int) -> Iterator[Stack]:
    """Parts of `power`'s `unit` stacks in `home` on no mission, `count` units in all."""
    for stack in state.stacks(home):
        if count and stack.owner == power and stack.unit == unit and not on_mission(stack):
            n = min(count, stack.count)
            count -= n
            yield stack.with_count(n)


def fly(state: GameState, power: str, mission: Mission) -> list[Event]:
    """The aircraft leave on `mission`: supporting ones fly to the target; bombers on interdiction stay home,
    out of every battle there (`flags.ELSEWHERE`)."""
    out: list[Event] = []
    for unit, n in sorted(mission.units.items()):
        for part in take(state, power, mission.home, unit, n):
            if mission.strike:
                after = flags.with_flags(part, [f"{STRIKE}={mission.target}", flags.ELSEWHERE])
                out.append(UnitsChanged(mission.home, part, after))
            else:
                after = flags.with_flags(part, [f"{SUPPORT}={mission.home}"])
                out.append(UnitsChanged(mission.home, part, after, to_space=mission.target))
    return out
