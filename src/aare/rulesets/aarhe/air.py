"""AARHE air movement (module `aarhe_air`): flight legs of half movement.

In combat move an aircraft flies at most half its movement (rounded down) to its target and must be able to land
within half its movement from there (AARHE-AIRMOVE-combat-half-out, -combat-half-back). After combat, the way back
is at most half its movement, whatever it left unused going out (AARHE-AIRMOVE-no-rollover). An aircraft that did
not fly a combat mission ferries in non-combat move with two more movement points, in at most two legs of half that
each, the first ending where it could land (AARHE-AIRMOVE-ferry-plus-two, -ferry-halves).

Per-turn flags record it: `turn:aarhe-flown=N` the spaces flown to a battle, `turn:aarhe-leg=K` each ferry leg."""

from __future__ import annotations

from typing import Any

from aare.movement import flags
from aare.movement.landing import can_land
from aare.movement.move_checks import Check, Leg, Violation, within_allowance
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.phases.air_transport import AIRLIFTED
from aare.rules.rule_module import RuleModule, register_module
from aare.state.unit_stacks import Stack

R_OUT = "AARHE-AIRMOVE-combat-half-out"
R_BACK = "AARHE-AIRMOVE-combat-half-back"
R_ROLL = "AARHE-AIRMOVE-no-rollover"
R_PLUS = "AARHE-AIRMOVE-ferry-plus-two"
R_HALVES = "AARHE-AIRMOVE-ferry-halves"

FLOWN = "turn:aarhe-flown"
LEG = "turn:aarhe-leg"
FERRY_BONUS = 2
FERRY_LEGS = 2


def half(points: int) -> int:
    """Half a movement allowance, rounded down."""
    return points // 2


def flown_out(stack: Stack) -> int | None:
    """The spaces `stack` flew to its battle this turn, or None if it flew no combat mission."""
    found = flags.value(stack, FLOWN)
    return None if found is None else int(found)


def ferry_allowance(view: Situation, stack: Stack) -> int:
    """A ferrying aircraft's extended movement: its allowance plus two."""
    return allowance(view, view.unit(stack), stack.owner) + FERRY_BONUS


def return_left(view: Situation, stack: Stack, out: int) -> int:
    """What an aircraft that fought may still fly back: half its movement less what it flew since the battle."""
    return max(0, half(allowance(view, view.unit(stack), stack.owner)) - (stack.moved - out))


def legs_flown(stack: Stack) -> int:
    """The non-combat flights of an aircraft this turn: its ferry legs, and a carrying flight (air transport)."""
    return len(flags.values(stack, LEG)) + (1 if flags.has(stack, AIRLIFTED) else 0)


def leg_limit(view: Situation, stack: Stack) -> int:
    """The longest ferry leg: half the extended movement; half the movement for a bomber that carried infantry
    (AARHE-AIRTRANS-combat-range)."""
    if flags.has(stack, AIRLIFTED):
        return half(allowance(view, view.unit(stack), stack.owner))
    return half(ferry_allowance(view, stack))


def ferry_left(view: Situation, stack: Stack) -> int:
    """A ferry leg's allowance, while a leg of the two is left."""
    return leg_limit(view, stack) if legs_flown(stack) < FERRY_LEGS else 0


# --- move checks --------------------------------------------------------------------------------------------


def combat_out(leg: Leg) -> Violation | None:
    """AARHE-AIRMOVE-combat-half-out: at most half the movement to the target."""
    if not leg.combat or leg.domain != "air":
        return None
    limit = half(allowance(leg.view, leg.unit, leg.stack.owner))
    if leg.cost <= limit:
        return None
    return Violation(f"{leg.where}: aircraft fly at most half their movement ({limit}) to a battle; "
                     f"{leg.end} is {leg.cost} away", R_OUT)


def combat_back(leg: Leg) -> Violation | None:
    """AARHE-AIRMOVE-combat-half-back: a landing spot within half the movement of the target."""
    if not leg.combat or leg.domain != "air":
        return None
    back = half(allowance(leg.view, leg.unit, leg.stack.owner))
    if can_land(leg.view, leg.unit, leg.end, back, leg.stack.count, True, leg.start):
        return None
    return Violation(f"{leg.where}: no place to land within half their movement ({back}) of {leg.end}", R_BACK)


def return_flight(leg: Leg) -> Violation | None:
    """AARHE-AIRMOVE-combat-half-back, -no-rollover: back from a battle at most half the movement."""
    if leg.combat or leg.domain != "air":
        return None
    out = flown_out(leg.stack)
    if out is None:
        return None
    left = return_left(leg.view, leg.stack, out)
    if leg.cost <= left:
        return None
    limit = half(allowance(leg.view, leg.unit, leg.stack.owner))
    rule = R_ROLL if out < limit and leg.cost <= limit + (limit - out) else R_BACK
    return Violation(f"{leg.where} fought this turn: the way back is at most half its movement ({limit}, "
                     f"{left} left; range unused going out is lost), not {leg.cost}", rule)


def ferry_leg(leg: Leg) -> Violation | None:
    """AARHE-AIRMOVE-ferry-halves: two legs at most, each at most half the extended movement."""
    if leg.combat or leg.domain != "air" or flown_out(leg.stack) is not None:
        return None
    if legs_flown(leg.stack) >= FERRY_LEGS:
        return Violation(f"{leg.where} has flown both legs of its ferry flight", R_HALVES)
    limit = leg_limit(leg.view, leg.stack)
    if leg.cost <= limit:
        return None
    return Violation(f"{leg.where}: a ferry leg is at most half the extended movement ({limit}); land at a friendly "
                     f"stop on the way to {leg.end}", R_HALVES)


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    """The AARHE flight checks, before the core's allowance check."""
    at = checks.index(within_allowance) if within_allowance in checks else len(checks)
    return [*checks[:at], combat_out, combat_back, return_flight, ferry_leg, *checks[at:]]


def _movement_left(left: int, view: Situation, stack: Stack, **_: Any) -> int:
    """In non-combat move: an aircraft that fought has its way back left; one that did not, its ferry leg."""
    if view.state.phase != "non-combat-move" or view.unit(stack).domain != "air":
        return left
    out = flown_out(stack)
    if out is not None:
        return min(left, return_left(view, stack, out))
    return ferry_left(view, stack)


def _moved_flags(found: list[str], view: Situation, stack: Stack, path: tuple[str, ...], combat: bool,
                 riding: bool = False, **_: Any) -> list[str]:
    """Record the spaces flown to a battle, and each ferry leg."""
    if view.unit(stack).domain != "air" or riding:
        return found
    if combat:
        return [*found, f"{FLOWN}={len(path) - 1}"]
    if flown_out(stack) is not None:
        return found
    return [*found, f"{LEG}={len(flags.values(stack, LEG)) + 1}"]


AARHE_AIR = register_module(
    RuleModule(
        id="aarhe_air",
        title="AARHE air movement: half-movement legs, +2 ferrying",
        rule_ids=(R_OUT, R_BACK, R_ROLL, R_PLUS, R_HALVES),
        hooks={"move_checks": _move_checks, "movement_left": _movement_left, "moved_flags": _moved_flags},
    )
)
