"""AARHE's optional naval fighter (module `aarhe_naval_fighter`, game option `naval_fighter`): the NAV (8 IPCs,
move 2, attack 3, defence 2, dogfight 2/2) joins the units, and only it uses carriers (AARHE-OPTUNIT-table,
AARHE-CARRIER-nav-only-landing, AARHE-CARRIER-cycle-end-with-nav, AARHE-OPTUNIT-nav-not-cargo).

The option works through the catalogue: the NAV takes carrier room, the fighter no longer does, so every rule that
asks which aircraft land on, ride or stay with carriers (landing, the end of turn, mobilising onto new carriers, a
sea battle's cycle end, the sea retreats' `naval_retreats.uses_carriers`) follows it. A move check names the rule
when an aircraft is refused a carrier; a NAV aboard its own nation's carrier rides along without spending movement
(it is never cargo); fighters that start the game aboard carriers are naval fighters (docs/rulings.md). With the
option off nothing changes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.board.units import UnitCatalogue, UnitType
from aare.movement import flags
from aare.movement.landing import can_land
from aare.movement.move_checks import Check, Leg, Violation, air_landing, combat_purpose
from aare.movement.pathing import allowance, remaining
from aare.movement.rules import MovementRules
from aare.movement.situation import Situation
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import air
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack, normalise

R_TABLE = "AARHE-OPTUNIT-table"
R_LANDING = "AARHE-CARRIER-nav-only-landing"
R_CYCLE_END = "AARHE-CARRIER-cycle-end-with-nav"
R_NOT_CARGO = "AARHE-OPTUNIT-nav-not-cargo"

NAV = "naval_fighter"
DECK = "turn:aarhe-deck"  # =<sea zone>: a NAV launched from there to a battle in combat move
VIA = "turn:aarhe-via"  # =<sea zone>: a NAV rode out of there aboard a carrier in combat move (one per ride)
OPTION = OptionSpec(NAV, bool, False, "the optional naval fighter (NAV): only it lands on carriers and stays with "
                    "them in sea battles", R_LANDING)

NAVAL_FIGHTER = UnitType(NAV, "air", cost=8, move=2, attack=3, defense=2, name="naval fighter",
                         plural="naval fighters", aliases=("nav", "navs"), carrier_size=1,
                         tags=frozenset({"fighter", NAV, "carrier_landing"}), rule=R_TABLE)


def enabled(ruleset: Any) -> bool:
    return ruleset is not None and bool(ruleset.options.get(OPTION.key, False))


def _units(catalogue: UnitCatalogue, ruleset: Any = None, **_: Any) -> UnitCatalogue:
    """With the option on the NAV joins the catalogue after the fighter, and other aircraft take no carrier room."""
    if not enabled(ruleset) or NAV in catalogue:
        return catalogue
    out: list[UnitType] = []
    for unit in catalogue:
        if unit.domain == "air" and unit.carrier_size:
            unit = replace(unit, carrier_size=0, tags=unit.tags - {"carrier_landing"})
        out.append(unit)
    at = next((i + 1 for i, u in enumerate(out) if u.has("fighter")), len(out))
    return UnitCatalogue([*out[:at], NAVAL_FIGHTER, *out[at:]])


def _refusal(leg: Leg) -> Violation:
    return Violation(f"only naval fighters land on carriers: {leg.where} cannot land at sea", R_LANDING)


def carriers_for_nav_only(leg: Leg) -> Violation | None:
    """AARHE-CARRIER-nav-only-landing: an aircraft other than the NAV ends no move at sea, and flies no combat
    mission whose only way back is a carrier."""
    if leg.domain != "air" or leg.unit.carrier_size:
        return None
    view = leg.view
    if not leg.combat:
        return _refusal(leg) if view.is_sea(leg.end) else None
    left = min(remaining(view, leg.stack) - leg.cost, air.half(allowance(view, leg.unit, leg.stack.owner)))
    if can_land(view, leg.unit, leg.end, left, leg.stack.count, True, leg.start):
        return None
    as_nav = replace(leg.unit, carrier_size=NAVAL_FIGHTER.carrier_size)
    if can_land(view, as_nav, leg.end, left, leg.stack.count, True, leg.start):
        return Violation(f"only naval fighters land on carriers: {leg.where} would have no place to land after "
                         f"{leg.end}", R_LANDING)
    return None


# --- AARHE-OPTUNIT-nav-not-cargo: the carrier moves, then its NAV launch -------------------------------------


def _riders(view: Situation, sea: str) -> list[int]:
    """The combat reach (half the movement) of each of the mover's aircraft aboard its carriers in `sea` that did
    not move in combat move (they ride along when the carrier moves)."""
    return [air.half(allowance(view, view.unit(s), s.owner)) for s in view.own(sea)
            if s.owner == view.power and view.unit(s).carrier_size and not flags.has(s, flags.COMBAT)]


def launch_purpose(leg: Leg) -> Violation | None:
    """In combat move a carrier may move to where the NAV aboard can launch to a battle within their reach; the
    move needs no battle of its own (the NAV must then launch from there: `_launched_from`)."""
    found = combat_purpose(leg)
    if found is None or leg.domain != "sea" or not leg.unit.carrier_capacity:
        return found
    view = leg.view
    reach = max(_riders(view, leg.start), default=-1)
    barred = view.barred_ends()
    near = [s for s in view.graph.ball(leg.end, reach, view.air_nbrs) if s not in barred] if reach >= 0 else []
    if any(view.hostile(s) if view.is_sea(s) else s in view.enemy_fighting for s in near):
        return None
    return found


def _move_checks(checks: list[Check], ruleset: Any = None, **_: Any) -> list[Check]:
    """The carriers-for-NAV check goes before the other landing checks (the AARHE flight legs', the core's); a
    carrier may move in combat move to launch its NAV."""
    if not enabled(ruleset):
        return checks
    first = next((i for i, c in enumerate(checks) if c in (air.combat_back, air_landing)), len(checks))
    out = [*checks[:first], carriers_for_nav_only, *checks[first:]]
    return [launch_purpose if c is combat_purpose else c for c in out]


def _movement_rules(rules: MovementRules, ruleset: Any = None, **_: Any) -> MovementRules:
    """AARHE-OPTUNIT-nav-not-cargo: a NAV aboard its nation's moving carrier rides along, keeping its movement."""
    return replace(rules, own_fighters_ride=True) if enabled(ruleset) else rules


def _moved_flags(found: list[str], view: Situation, stack: Stack, path: tuple[str, ...], combat: bool,
                 riding: bool = False, **_: Any) -> list[str]:
    """A NAV riding its carrier into a sea battle flew a combat mission of no spaces; one launching from a carrier
    to a battle records the carrier's sea zone."""
    if not enabled(view.ruleset) or not combat or not view.unit(stack).carrier_size:
        return found
    if riding:
        into_battle = [flags.COMBAT, f"{air.FLOWN}=0"] if view.hostile(path[-1]) else []
        return [*found, *into_battle, f"{VIA}={path[0]}"]
    return [*found, f"{DECK}={path[0]}"] if view.is_sea(path[0]) else found


def _launched_from(zones: set[str], view: Situation, **_: Any) -> set[str]:
    """Sea zones the mover's NAV launched from, or rode on from aboard another carrier before going to a battle:
    carriers that moved there to carry them to it had a purpose (docs/rulings.md)."""
    if not enabled(view.ruleset):
        return zones
    decks = {z for stacks in view.state.units.values() for s in stacks
             if s.owner == view.power and (flags.has(s, flags.COMBAT) or flags.value(s, DECK) is not None)
             for z in (*flags.values(s, DECK), *flags.values(s, VIA))}
    return zones | decks


def _initial_state(state: GameState, ruleset: Any = None, **_: Any) -> GameState:
    """Aircraft that start the game aboard carriers are naval fighters (docs/rulings.md)."""
    if not enabled(ruleset):
        return state
    units = ruleset.units
    return replace(state, units={
        space: normalise(replace(s, unit=NAV) if units[s.unit].domain == "air" else s for s in stacks)
        if ruleset.board.spaces[space].is_sea else stacks
        for space, stacks in state.units.items()})


AARHE_NAVAL_FIGHTER = register_module(
    RuleModule(
        id="aarhe_naval_fighter",
        title="AARHE optional naval fighter: only NAV uses carriers",
        rule_ids=(R_LANDING, R_CYCLE_END, R_NOT_CARGO),
        hooks={"unit_catalogue": _units, "move_checks": _move_checks, "movement_rules": _movement_rules,
               "moved_flags": _moved_flags, "combat_move_supported": _launched_from, "initial_state": _initial_state},
        options=(OPTION,),
    )
)
