"""AARHE naval retreats and break off (module `aarhe_naval_retreats`): at the end of a sea cycle the attacker may
retreat some or all of its units, then declares press on or break off for the rest; the defender may then retreat
some or all of its units and declares remain or break off; a mutual break off ends the battle with both fleets
in the zone, an attacker pressing on against a defender breaking off chooses to break off too or to chase
(AARHE-NAVALRETREAT-*, AARHE-BREAKOFF-*).

Ships retreat to adjacent friendly sea zones (no enemy ships but submerged submarines; through an open canal);
the defender's aircraft to a friendly territory or a sea zone with room on friendly carriers within two spaces.
Destinations are computed when the battle is built (`battle_inputs`), each retreating unit routed when the
retreat is answered (`retreat_routes`). Opposing fleets left sharing a zone fight again only if the power to move
chooses to (`MovementRules.shared_zones_optional`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import Side
from aare.combat.decisions import ChooseOption, chosen_option
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, combat_units, finish
from aare.combat.values import present
from aare.errors import IllegalAction
from aare.movement.battles import BattleSite
from aare.movement.graph import graph_of
from aare.movement.rules import MovementRules
from aare.movement.situation import situation
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe import land_retreats, naval_fighter
from aare.state.game_state import GameState

R_ATTACKER = "AARHE-NAVALRETREAT-attacker"
R_DEFENDER = "AARHE-NAVALRETREAT-defender"
R_DEFENDER_AIR = "AARHE-NAVALRETREAT-defender-air"
R_TABLE = "AARHE-BREAKOFF-table"
R_MUTUAL = "AARHE-BREAKOFF-mutual"
R_REMAINS = "AARHE-BREAKOFF-defender-remains"
R_CHASE = "AARHE-BREAKOFF-chase"
R_NAV_ONLY = "AARHE-CARRIER-nav-only-sea-retreat"

PRESS_ON, BREAK_OFF, REMAIN, CHASE = "press-on", "break-off", "remain", "chase"
AIR_RETREAT = 2  # defending aircraft retreat to a friendly territory or carrier within two spaces


def _stance_note(side: Side) -> str:
    return f"cycle:stance:{side}="


CHASE_NOTE = "cycle:chase="


# ---------------------------------------------------------------- battle steps


def attacker_retreat(battle: Battle) -> StepResult:
    """AARHE-NAVALRETREAT-attacker: the attacker may retreat some or all of its units to adjacent friendly sea
    zones (attacking aircraft fly off in non-combat move)."""
    decision = s.retreat_options(battle)
    if decision is None:
        return battle.state, []
    return battle.state.evolve(pending=replace(decision, partial=True, rule=R_ATTACKER)), []


def defender_retreat(battle: Battle) -> StepResult:
    """AARHE-NAVALRETREAT-defender: whatever the attacker chose, the defender may retreat some or all of its
    units."""
    decision = s.defender_retreat_options(battle, R_DEFENDER)
    if decision is None:
        return battle.state, []
    return battle.state.evolve(pending=replace(decision, partial=True)), []


def _fighting(battle: Battle) -> bool:
    return combat_units(battle, "attacker") > 0 and combat_units(battle, "defender") > 0


def _stance(side: Side, options: tuple[str, ...]) -> Callable[[Battle], StepResult]:
    def run(battle: Battle) -> StepResult:
        """AARHE-BREAKOFF-table: `side` declares its stance for the units that stay."""
        return battle.state.evolve(pending=ChooseOption(side, options, R_TABLE, _stance_note(side))), []

    return run


def _chase_applies(battle: Battle) -> bool:
    notes = battle.state.notes
    return (_fighting(battle) and chosen_option(notes, _stance_note("attacker")) == PRESS_ON
            and chosen_option(notes, _stance_note("defender")) == BREAK_OFF)


def _chase(battle: Battle) -> StepResult:
    """AARHE-BREAKOFF-chase: the defender breaks off from an attacker pressing on: the attacker chases (another
    cycle) or breaks off too."""
    return battle.state.evolve(pending=ChooseOption("attacker", (CHASE, BREAK_OFF), R_CHASE, CHASE_NOTE)), []


def broken_off(notes: frozenset[str]) -> bool:
    """Whether both sides broke off this cycle (AARHE-BREAKOFF-table): the attacker then the defender, or the
    defender and then the attacker, declining the chase."""
    attacker = chosen_option(notes, _stance_note("attacker"))
    defender = chosen_option(notes, _stance_note("defender"))
    return defender == BREAK_OFF and (attacker == BREAK_OFF or chosen_option(notes, CHASE_NOTE) == BREAK_OFF)


def _break_off(battle: Battle) -> StepResult:
    """AARHE-BREAKOFF-mutual: the battle ends; both sides stay in the sea zone. Any other combination fights
    another cycle (AARHE-BREAKOFF-defender-remains)."""
    return finish(battle, "stalemate")


ATTACKER_RETREAT = Step("press or retreat", attacker_retreat, rule=R_ATTACKER)
ATTACKER_STANCE = Step("attacker presses on or breaks off", _stance("attacker", (PRESS_ON, BREAK_OFF)), _fighting,
                       rule=R_TABLE, declined_by_calculator="the attacker presses on")
DEFENDER_RETREAT = Step("defender retreat", defender_retreat, rule=R_DEFENDER,
                        declined_by_calculator="the defender never retreats")
DEFENDER_STANCE = Step("defender remains or breaks off", _stance("defender", (REMAIN, BREAK_OFF)), _fighting,
                       rule=R_TABLE, declined_by_calculator="the defender remains")
CHASE_STEP = Step("attacker chases or breaks off", _chase, _chase_applies, rule=R_CHASE,
                  declined_by_calculator="the defender never breaks off")
BREAK_OFF_STEP = Step("break off", _break_off, lambda b: _fighting(b) and broken_off(b.state.notes), rule=R_MUTUAL,
                      declined_by_calculator="no side breaks off")


# ---------------------------------------------------------------- destinations


def sea_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    """Adjacent friendly sea zones of `power`: no enemy ships but submerged submarines, not across a canal closed
    to its side (AARHE-NAVALRETREAT-attacker, AARHE-NAVALRETREAT-defender)."""
    graph, view = graph_of(ruleset.board), situation(state, ruleset, power)
    out = []
    for zone in graph.sea_nbrs.get(site.space, ()):
        canal = graph.canal(site.space, zone)
        if view.hostile(zone) or (canal is not None and not view.canal_open(canal)):
            continue
        out.append(zone)
    return tuple(sorted(out))


def uses_carriers(ruleset: Ruleset, unit: str) -> bool:
    """Whether aircraft of type `unit` may land on carriers."""
    return ruleset.units[unit].carrier_size > 0


def carrier_room(state: GameState, ruleset: Ruleset, power: str, zone: str) -> int:
    """Room left on the carriers of `power`'s side in `zone`."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    room = 0
    for stack in state.stacks(zone):
        if board.side_of(stack.owner) == side:
            unit = units[stack.unit]
            room += stack.count * (unit.carrier_capacity - (unit.carrier_size if unit.domain == "air" else 0))
    return room


def air_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    """AARHE-NAVALRETREAT-defender-air: friendly territories and sea zones with room on friendly carriers within
    two spaces (`air_sea_zones`); with the naval fighter, only it to sea zones (AARHE-CARRIER-nav-only-sea-retreat:
    the catalogue gives other aircraft no carrier room)."""
    return tuple(sorted({*land_retreats.air_destinations(state, ruleset, site, power),
                         *air_sea_zones(state, ruleset, site, power)}))


def air_sea_zones(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    graph = graph_of(ruleset.board)
    reach = graph.ball(site.space, AIR_RETREAT)
    return tuple(sorted(z for z in reach if z != site.space and z in graph.sea
                        and carrier_room(state, ruleset, power, z) > 0))


def _defending(ruleset: Ruleset, site: BattleSite) -> set[str]:
    units = ruleset.units
    return {st.unit for stacks in site.defenders.values() for st in stacks if not units[st.unit].has("not_casualty")}


def battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite, **_: Any
                  ) -> dict[str, Any]:
    """Where each side's units may retreat from a sea battle; the defending types that cannot."""
    if site.kind != "sea":
        return inputs
    power = land_retreats.defender_power(state, ruleset, site)
    ships = sea_destinations(state, ruleset, site, power)
    air = air_destinations(state, ruleset, site, power)
    units = ruleset.units

    def can_go(unit: str) -> bool:
        if units[unit].domain != "air":
            return bool(ships)
        return bool(air) or (uses_carriers(ruleset, unit) and bool(ships))  # aboard carriers retreating with them

    stays = {u for u in _defending(ruleset, site) if not can_go(u)}
    return {**inputs, "retreat_to": sea_destinations(state, ruleset, site, site.attacker),
            "defender_retreat_to": tuple(sorted(set(ships) | set(air))), "defender_stays": frozenset(stays)}


# ---------------------------------------------------------------- routes

Routes = tuple[tuple[str, str, int], ...]


def _going(battle: Battle, side: Side) -> Counter[str]:
    out: Counter[str] = Counter()
    for key, n in present(battle, side):
        if not key.marked and not battle.setup.unit(key).has("not_casualty"):
            out[key.type] += n
    return out


def retreat_routes(routes: Routes | None, ruleset: Ruleset, state: GameState, site: BattleSite, battle: Battle,
                   side: Side, to: str | None, split: Mapping[str, Mapping[str, int]], withdrawing: bool = False,
                   **_: Any) -> Routes | None:
    """Route each retreating unit of a sea battle: the `split` (some units, each to a place it may go), else every
    unit to `to`. Ships go to adjacent friendly sea zones; the defender's aircraft to a friendly territory or a sea
    zone with room on carriers (those there, and those retreating there with them) within two spaces, or, when
    `to` is no such place, to the first place they may reach. Attacking aircraft fly off in non-combat move."""
    if site.kind != "sea" or withdrawing:
        return routes
    units = ruleset.units
    going = _going(battle, side)
    free = not split
    wanted = {place: dict(parts) for place, parts in split.items()} if split else ({to: dict(going)} if to else {})
    named: Counter[str] = sum((Counter(p) for p in wanted.values()), Counter())
    if any(named[u] > going[u] for u in named):
        rule = R_ATTACKER if side == "attacker" else R_DEFENDER
        raise IllegalAction(f"the {side} has not that many units able to retreat", rule)
    power = site.attacker if side == "attacker" else land_retreats.defender_power(state, ruleset, site)
    ships_ok = sea_destinations(state, ruleset, site, power)
    land_ok = land_retreats.air_destinations(state, ruleset, site, power)
    out: list[tuple[str, str, int]] = []
    aircraft: list[tuple[str, str, int]] = []
    for place, parts in sorted(wanted.items()):
        for unit, n in sorted(parts.items()):
            if not n or (units[unit].domain == "air" and side == "attacker"):
                continue
            if units[unit].domain == "air":
                aircraft.append((place, unit, n))
                continue
            if place not in ships_ok:
                rule = R_ATTACKER if side == "attacker" else R_DEFENDER
                raise IllegalAction(f"{units[unit].display_plural} cannot retreat to {place} (they may go to "
                                    f"{', '.join(ships_ok) or 'nowhere'})", rule)
            out.append((place, unit, n))
    graph = graph_of(ruleset.board)
    room = Counter({z: carrier_room(state, ruleset, power, z) for z in air_sea_zones(state, ruleset, site, power)})
    for place, unit, n in out:
        room[place] += n * units[unit].carrier_capacity
    for place, unit, n in aircraft:
        sea_ok = uses_carriers(ruleset, unit) and room[place] >= n * units[unit].carrier_size > 0
        if place in land_ok or sea_ok:
            if sea_ok:
                room[place] -= n * units[unit].carrier_size
            out.append((place, unit, n))
        elif free and land_ok:
            out.append((land_ok[0], unit, n))
        elif naval_fighter.enabled(ruleset) and not uses_carriers(ruleset, unit) and place in graph.sea:
            raise IllegalAction(f"only naval fighters retreat to sea zones: {units[unit].display_plural} may go to a "
                                f"friendly territory within {AIR_RETREAT} spaces ({', '.join(land_ok) or 'none'})",
                                R_NAV_ONLY)
        else:
            raise IllegalAction(f"{units[unit].display_plural} cannot retreat to {place}: they may go to a friendly "
                                f"territory within {AIR_RETREAT} spaces ({', '.join(land_ok) or 'none'}) or to "
                                "room on friendly carriers", R_DEFENDER_AIR)
    return tuple(out)


def _movement_rules(rules: MovementRules, **_: Any) -> MovementRules:
    """Fleets that broke off share the zone: the power to move fights there only if it chooses to."""
    return replace(rules, shared_zones_optional=True)


AARHE_NAVAL_RETREATS = register_module(
    RuleModule(
        id="aarhe_naval_retreats",
        title="AARHE naval retreats and break off",
        rule_ids=(R_ATTACKER, R_DEFENDER, R_DEFENDER_AIR, R_TABLE, R_MUTUAL, R_REMAINS, R_CHASE, R_NAV_ONLY),
        hooks={"battle_inputs": battle_inputs, "retreat_routes": retreat_routes, "movement_rules": _movement_rules},
    )
)
