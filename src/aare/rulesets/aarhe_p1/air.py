"""AARHE Phase 1 fighter movement (module `aarhep1_air`, AARHEP1-FTR-*).

- A fighter that began the turn on a carrier ends it on one, unless no carrier of its side is left in the sea zone
  it began in (sunk). Checked on its non-combat flights: one ending in a territory is refused.
- A fighter flying to a sea-zone battle in combat move counts one space more: the flight costs one more than its
  length, and non-combat move has one less left.
- A fighter that did not move in combat move may, in non-combat move, fly its full movement to a friendly territory
  and from there its full movement again.

Per-turn flags: `turn:p1-carrier=SZ` (began the turn on a carrier in SZ, set as combat move begins),
`turn:p1-sea-battle` (flew to a sea-zone battle), `turn:p1-hop=N` (the first non-combat hop, N spaces)."""

from __future__ import annotations

from typing import Any

from aare.events import UnitsChanged
from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation, within_allowance
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_CARRIER = "AARHEP1-FTR-carrier-start-end"
R_LAND_START = "AARHEP1-FTR-land-start-free"
R_SURCHARGE = "AARHEP1-FTR-sea-battle-surcharge"
R_FERRY = "AARHEP1-FTR-double-ferry"

CARRIER = "turn:p1-carrier"
SEA_BATTLE = "turn:p1-sea-battle"
HOP = "turn:p1-hop"
FIGHTER = "fighter"


def is_fighter(view: Situation, stack: Stack) -> bool:
    return view.unit(stack).has(FIGHTER)


def sea_battle(view: Situation, space: str) -> bool:
    """A sea zone holding enemy units: flying there in combat move is a sea-zone battle."""
    side = view.ruleset.board.side_of(view.power)
    return view.is_sea(space) and any(view.ruleset.board.side_of(s.owner) != side for s in view.state.stacks(space))


def carrier_left(view: Situation, sea: str) -> bool:
    """Whether a carrier of the mover's side is still in `sea`."""
    side = view.ruleset.board.side_of(view.power)
    return any(view.unit(s).carrier_capacity and view.ruleset.board.side_of(s.owner) == side
               for s in view.state.stacks(sea))


def surcharge(leg: Leg) -> Violation | None:
    """AARHEP1-FTR-sea-battle-surcharge: a flight to a sea-zone battle costs one more."""
    if not leg.combat or not is_fighter(leg.view, leg.stack) or not sea_battle(leg.view, leg.end):
        return None
    left = allowance(leg.view, leg.unit, leg.stack.owner) - leg.stack.moved
    if leg.cost + 1 <= left:
        return None
    return Violation(f"{leg.where}: a fighter flying to a sea battle counts one space more ({leg.cost} + 1); "
                     f"{left} left", R_SURCHARGE)


def carrier_end(leg: Leg) -> Violation | None:
    """AARHEP1-FTR-carrier-start-end: a fighter from a carrier does not end its non-combat flight in a territory
    while a carrier of its side is left where it began."""
    if leg.combat or not is_fighter(leg.view, leg.stack) or not leg.view.is_land(leg.end):
        return None
    sea = flags.value(leg.stack, CARRIER)
    if sea is None or not carrier_left(leg.view, sea):
        return None
    return Violation(f"{leg.where} began the turn on a carrier in {sea}: it ends the turn on a carrier", R_CARRIER)


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    at = checks.index(within_allowance) if within_allowance in checks else len(checks)
    return [*checks[:at], surcharge, carrier_end, *checks[at:]]


def _movement_left(left: int, view: Situation, stack: Stack, **_: Any) -> int:
    """One less after a sea battle; a second full hop after a first one that landed (AARHEP1-FTR-double-ferry)."""
    if not is_fighter(view, stack):
        return left
    if flags.has(stack, SEA_BATTLE) and view.state.phase == "non-combat-move":
        return max(0, left - 1)
    hop = flags.value(stack, HOP)
    return left + int(hop) if hop is not None else left


def _moved_flags(found: list[str], view: Situation, stack: Stack, path: tuple[str, ...], combat: bool,
                 riding: bool = False, **_: Any) -> list[str]:
    if riding or not is_fighter(view, stack):
        return found
    if combat:
        return [*found, SEA_BATTLE] if sea_battle(view, path[-1]) else found
    if stack.moved or flags.has(stack, flags.COMBAT) or flags.value(stack, HOP) is not None:
        return found
    return [*found, f"{HOP}={len(path) - 1}"] if view.friendly_land(path[-1]) else found


class CarrierStart(PhaseExtension):
    """Combat move: the fighters on carriers are marked with their sea zone as the moves begin."""

    name = "combat-move"

    def on_enter(self, ctx: TurnContext) -> None:
        board = ctx.ruleset.board
        for space in sorted(ctx.state.units):
            if board.spaces[space].is_land:
                continue
            for stack in ctx.state.units[space]:
                if stack.owner == ctx.power and ctx.ruleset.units[stack.unit].has(FIGHTER) and \
                        flags.value(stack, CARRIER) is None:
                    ctx.emit(UnitsChanged(space, stack, flags.with_flags(stack, [f"{CARRIER}={space}"])))


AARHEP1_AIR = register_module(
    RuleModule(
        id="aarhep1_air",
        title="AARHE Phase 1 fighter movement: carrier fighters, sea-battle surcharge, two ferry hops",
        rule_ids=(R_CARRIER, R_LAND_START, R_SURCHARGE, R_FERRY),
        hooks={"move_checks": _move_checks, "movement_left": _movement_left, "moved_flags": _moved_flags,
               "phase_actions": by_phase(CarrierStart())},
    )
)
