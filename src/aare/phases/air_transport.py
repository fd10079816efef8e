"""Air transport in non-combat move (`AirLift`: the technology that allows it and the rules it names): bombers
of a power with the tech (every bomber when none is named) that took no part in combat this turn each take one
infantry (or `AirLift.capacity`) that has not moved from the territory they are in, fly a path (at most
`AirLift.leg`, when given) and set it down in a friendly land territory (one captured this turn too), with
somewhere to land after it. The bombers may move before (an ordinary move to the infantry) and after (on to a
landing spot); the infantry neither. Loading, flight and unloading are one action, so no infantry is ever left
aboard.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from typing import Any

from aare.actions import AirTransport
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import Event, UnitsChanged
from aare.movement import flags
from aare.movement.air_lift import lift_candidates, take
from aare.movement.landing import can_land
from aare.movement.move_checks import (
    Leg,
    Violation,
    first_violation,
    neutrals,
    not_committed,
    path_shape,
    within_allowance,
)
from aare.movement.pathing import allowance, remaining
from aare.movement.situation import Situation, situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.state.unit_stacks import Stack

AIRLIFTED = "turn:airlift"  # a bomber that carried infantry this turn
DROPPED = "turn:airdropped"  # =<territory>: infantry set down by bomber, from that territory


def _one(view: Situation) -> int:
    return 1


def _left_after(view: Situation, stack: Stack, cost: int) -> int:
    return remaining(view, stack) - cost


@dataclass(frozen=True)
class AirLift:
    """Who may carry infantry by air in non-combat move, and the rule behind each check. `capacity`: infantry a
    bomber carries; `leg`: the longest carrying flight of a bomber (None: its movement left), named by
    `range_rule`; `left_after`: the movement a bomber has to land after a carrying flight of `cost`."""

    tech: str  # the technology that allows it ("": every bomber)
    rule: str  # the carrying itself
    move_rule: str  # the infantry has not moved and moves no further
    drop_rule: str  # set down in friendly land
    landing_rule: str  # the bomber has somewhere to land
    overnight_rule: str  # no infantry stays aboard
    name: str = "heavy bombers"  # the carriers, in messages
    capacity: Callable[[Situation], int] = _one
    range_rule: str = ""
    leg: Callable[[Situation, Stack], int] | None = None
    left_after: Callable[[Situation, Stack, int], int] = _left_after

    def allowed(self, view: Situation) -> bool:
        return not self.tech or self.tech in view.techs


def _bombers(view: Situation, start: str) -> list[Stack]:
    """Heavy bombers in `start` free to carry: not in combat this turn, no carry yet."""
    return [s for s in view.own(start) if view.unit(s).has("strategic_bomber") and not flags.has(s, flags.COMBAT)
            and flags.value(s, flags.SBR) is None and not flags.has(s, AIRLIFTED)]


def _infantry(view: Situation, start: str) -> list[Stack]:
    """Infantry in `start` that has neither moved nor fought this turn."""
    return [s for s in view.own(start) if view.unit(s).has("infantry") and not s.moved and not flags.turn_flags(s)]


def _count(want: dict[str, int], view: Situation, lift: AirLift) -> int:
    if not want or any(not view.unit(u).has("infantry") for u in want):
        what = ", ".join(view.unit(u).display_plural for u in want) or "nothing"
        raise IllegalAction(f"a bomber carries one infantry, not {what}", lift.rule)
    return sum(want.values())


def air_transport_events(view: Situation, action: AirTransport, lift: AirLift) -> list[Event]:
    """The events of `action`, or IllegalAction naming the rule it breaks."""
    board = view.board
    path = tuple(board.resolve(p) for p in action.path)
    start, drop, cost = path[0], path[-1], len(path) - 1
    if not lift.allowed(view):
        raise IllegalAction(f"{view.power} has no {lift.name}", lift.rule)
    n = _count(parse_units(action.units, view.units), view, lift)
    per = max(1, lift.capacity(view))
    need = -(-n // per)  # bombers
    checks = (not_committed, path_shape, neutrals, within_allowance)
    able: list[Stack] = []
    problems: list[Violation] = []
    for stack in _bombers(view, start):
        found = first_violation(Leg(view, False, stack, path), checks)
        if found is None:
            able.append(stack)
        else:
            problems.append(found)
    able.sort(key=lambda s: (remaining(view, s), s.status))
    if sum(s.count for s in able) < need:
        if problems:
            raise problems[0].error()
        each = f" (each carries {per})" if per > 1 else ""
        reason = (f"{view.power} has fewer than {need} {lift.name}{each} in {start} that took no part in combat "
                  f"this turn")
        raise IllegalAction(reason + " and have not carried infantry yet", lift.rule)
    riders = _infantry(view, start)
    if sum(s.count for s in riders) < n:
        reason = f"infantry carried by air must not have moved or fought this turn: {start} has too few"
        raise IllegalAction(reason, lift.move_rule)
    if view.is_sea(drop):
        reason = "infantry cannot stay aboard a bomber: set it down in a land territory at the end of the path"
        raise IllegalAction(reason, lift.overnight_rule)
    if not view.friendly_land(drop):
        raise IllegalAction(f"{drop} is not friendly: infantry is set down in friendly territory only",
                            lift.drop_rule)
    picked = take(able, need)
    for stack, k in picked:
        longest = lift.leg(view, stack) if lift.leg is not None else cost
        if cost > longest:
            raise IllegalAction(f"{lift.name} carrying infantry fly at most {longest}, not {cost}", lift.range_rule)
        left = lift.left_after(view, stack, cost)
        if not can_land(view, view.unit(stack), drop, left, k, False, start):
            reason = f"after {drop} the bombers would have {left} movement left and nowhere to land"
            raise IllegalAction(reason, lift.landing_rule)
    out: list[Event] = []
    for stack, k in picked:
        after = replace(flags.with_flags(stack, [AIRLIFTED]), moved=stack.moved + cost)
        out.append(UnitsChanged(start, stack.with_count(k), after.with_count(k), drop))
    for stack, k in take(riders, n):
        full = allowance(view, view.unit(stack))  # the infantry may not move on
        after = replace(flags.with_flags(stack, [f"{DROPPED}={start}"]), moved=max(full, 1))
        out.append(UnitsChanged(start, stack.with_count(k), after.with_count(k), drop))
    return out


class NonCombatAirTransport(PhaseExtension):
    """The `air_transport` action of non-combat move."""

    name = "non-combat-move"
    action_types = frozenset({"air_transport"})

    def __init__(self, lift: AirLift) -> None:
        self.lift = lift

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        view = situation(ctx.state, ctx.ruleset)
        if self.lift.allowed(view):
            yield from lift_candidates(view, space, _bombers, _infantry, lambda v, path: v.friendly_land(path[-1]))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, AirTransport):
            raise IllegalAction(f"{action.type} is not an air transport", self.lift.rule)
        ctx.emit(*air_transport_events(situation(ctx.state, ctx.ruleset), action, self.lift))
