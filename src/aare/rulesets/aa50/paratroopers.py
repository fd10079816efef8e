"""Paratroopers (AA50-RESEARCH-paratroopers): in combat move each bomber of a power with the technology may
carry one infantry (`air_transport`, e.g. ``airlift 1 infantry Germany -> Poland -> Belorussia``). The bombers
start in `path[0]`; the infantry waits there or in a territory on the way (the first on the path with enough),
neither having moved this turn. The path ends in the first enemy-held territory it enters, where the infantry
is dropped and attacks like any land unit (it may retreat to the territory it was flown in from, when that is
friendly land). The bomber attacks there too and, having made its combat move, flies no bombing raid this turn.
Pick-up, flight and drop are one action.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import AirTransport
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import Event, UnitsChanged
from aare.movement import flags
from aare.movement.air_lift import lift_candidates, take
from aare.movement.move_checks import Leg, Violation, first_violation, leg_checks
from aare.movement.moves import move_events
from aare.movement.pathing import allowance
from aare.movement.situation import Situation, situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.state.unit_stacks import Stack

TECH = "paratroopers"
RULE = "AA50-RESEARCH-paratroopers"
CANDIDATE_DROPS = 4


def _fresh(view: Situation, start: str, tag: str) -> list[Stack]:
    """The mover's units tagged `tag` in `start` that have neither moved nor fought this turn."""
    return [s for s in view.own(start) if s.owner == view.power and view.unit(s).has(tag) and not s.moved
            and not flags.turn_flags(s)]


def _bombers(view: Situation, start: str) -> list[Stack]:
    return _fresh(view, start, "strategic_bomber")


def _infantry(view: Situation, start: str) -> list[Stack]:
    return _fresh(view, start, "infantry")


def drop_zone(view: Situation, path: tuple[str, ...]) -> Violation | None:
    """The path ends in the first enemy-held territory it enters (AA50-RESEARCH-paratroopers)."""
    hostile = [s for s in path[1:] if s not in view.graph.neutral and view.enemy_land(s)]
    if not hostile:
        return Violation(f"{path[-1]} is not enemy territory: paratroopers are dropped in a territory attacked", RULE)
    if hostile[0] != path[-1]:
        return Violation(f"a bomber carrying infantry must stop in {hostile[0]}, the first enemy territory it "
                         "enters", RULE)
    return None


def paratrooper_events(view: Situation, action: AirTransport) -> list[Event]:
    """The events of a paratrooper drop, or IllegalAction naming the rule it breaks."""
    if TECH not in view.techs:
        raise IllegalAction(f"{view.power} has no paratroopers", RULE)
    path = tuple(view.board.resolve(p) for p in action.path)
    want = parse_units(action.units, view.units)
    if not want or any(not view.unit(u).has("infantry") for u in want):
        what = ", ".join(view.unit(u).display_plural for u in want) or "nothing"
        raise IllegalAction(f"a bomber carries one infantry, not {what}", RULE)
    n = sum(want.values())
    found = drop_zone(view, path)
    if found is not None:
        raise found.error()
    bombers = _bombers(view, path[0])
    if sum(s.count for s in bombers) < n:
        raise IllegalAction(f"{path[0]} has fewer than {n} bomber(s) that have not moved this turn", RULE)
    pickup = next((p for p in path[:-1] if sum(s.count for s in _infantry(view, p)) >= n), None)
    if pickup is None:
        reason = f"{n} infantry that have not moved this turn must wait in {path[0]} or on the way, in one territory"
        raise IllegalAction(reason, RULE)
    infantry = _infantry(view, pickup)
    company = (("bomber", n), ("infantry", n))
    checks = leg_checks(view)
    picked = take(bombers, n)
    for stack, k in picked:
        problem = first_violation(Leg(view, True, stack.with_count(k), path, False, frozenset({"land"}), company),
                                  checks)
        if problem is not None:
            raise problem.error()
    out = move_events(view, True, path, picked, False)
    for stack, k in take(infantry, n):
        full = allowance(view, view.unit(stack))  # dropped: its combat move is over
        after = flags.with_flags(stack, [flags.COMBAT, f"{flags.FROM}={path[-2]}"])
        dropped = replace(after, moved=max(full, 1))
        out.append(UnitsChanged(pickup, stack.with_count(k), dropped.with_count(k), path[-1]))
    return out


class Paratroopers(PhaseExtension):
    """The `air_transport` action of combat move."""

    name = "combat-move"
    action_types = frozenset({"air_transport"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        view = situation(ctx.state, ctx.ruleset)
        if TECH in view.techs:
            yield from lift_candidates(view, space, _bombers, _infantry, lambda v, path: drop_zone(v, path) is None,
                                       CANDIDATE_DROPS)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, AirTransport):
            raise IllegalAction(f"{action.type} is not a paratrooper drop", RULE)
        ctx.emit(*paratrooper_events(situation(ctx.state, ctx.ruleset), action))


PARATROOPERS = Paratroopers()
