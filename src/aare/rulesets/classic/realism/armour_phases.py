"""The two phases of the Enhanced Realism '98 second armour move, between combat and non-combat move
(REAL98-ARMOR-second-move-step): "armour-move", a combat move of armour alone, and "armour-combat", the battles
it sets up, fought as in conduct-combat. A tank that moves in the armour move is marked `ARMOUR_MOVED`; what each
tank may do is judged by the module's move checks (`aare.rulesets.classic.realism.armour`)."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import Any

from aare.actions import Move, Rocket
from aare.board.notation import format_units, parse_units
from aare.errors import IllegalAction
from aare.events import Event, ExtraSet, UnitsChanged
from aare.movement import flags
from aare.movement.move_checks import Leg, first_violation, leg_checks
from aare.movement.moves import move_action_events
from aare.movement.pathing import blitzed, remaining, simple_paths
from aare.movement.situation import Situation, situation
from aare.phases.base import PhaseHandler, TurnContext, register_phase
from aare.phases.combat_move import CombatMove
from aare.phases.conduct_combat import KEY, ConductCombat, combat_record, open_battles
from aare.state.unit_stacks import Stack

ARMOUR_MOVE = "armour-move"
ARMOUR_COMBAT = "armour-combat"
ARMOUR_MOVED = "turn:armour-move"  # a tank that moved in the second armour move
R_STEP = "REAL98-ARMOR-second-move-step"


def is_armour(view: Situation, stack: Stack | str) -> bool:
    """Armour: the land units the core lets blitz."""
    unit = view.unit(stack, view.power) if isinstance(stack, str) else view.unit(stack)
    return unit.domain == "land" and unit.has("blitz")


def armour_moves(view: Situation, combat: bool, where: str, stack: Stack, steps: int) -> Iterator[Move]:
    """The land moves of up to `steps` territories the ruleset's move checks allow `stack` (armour in `where`),
    one per destination (and blitzed territories), for one unit and for the whole stack."""
    checks = leg_checks(view)
    chosen: dict[tuple[str, ...], tuple[str, ...]] = {}
    for path in simple_paths(where, min(steps, remaining(view, stack, where)), view.graph.land_nbrs):
        key = (path[-1], *blitzed(view, path))
        if key not in chosen and first_violation(Leg(view, combat, stack.with_count(1), path), checks) is None:
            chosen[key] = path
    for count in dict.fromkeys((1, stack.count)):
        text = format_units({stack.unit: count}, view.units)
        for path in chosen.values():
            if count == 1 or first_violation(Leg(view, combat, stack.with_count(count), path), checks) is None:
                yield Move(units=text, path=list(path))


def armour_candidates(ctx: TurnContext, space: str | None, combat: bool, steps: int,
                      only: str = "") -> Iterator[Move]:
    """The moves of up to `steps` territories of the mover's armour on land (in `space`, else everywhere; `only`:
    the stacks carrying that flag)."""
    view = situation(ctx.state, ctx.ruleset)
    spaces = [ctx.ruleset.board.resolve(space)] if space is not None else sorted(ctx.state.units)
    for where in spaces:
        if view.is_land(where):
            for stack in view.own(where):
                if is_armour(view, stack) and (not only or flags.has(stack, only)):
                    yield from armour_moves(view, combat, where, stack, steps)


class ArmourMove(CombatMove):
    """The second armour move: tanks alone move to attack; nothing is reset on entry (the turn's marks stand),
    and nothing must be finished before it ends."""

    name = ARMOUR_MOVE
    title = "Second armour move"
    plays_as = "combat-move"
    combat = True

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        return armour_candidates(ctx, space, True, 2)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Move):
            if action.type == "load":
                raise IllegalAction("only armour moves overland in the second armour move: nothing is loaded", R_STEP)
            super().events_for(ctx, action)
            return
        view = situation(ctx.state, ctx.ruleset)
        start = ctx.ruleset.board.resolve(action.path[0]) if action.path else ""
        others = [u for u in parse_units(action.units, ctx.ruleset.units) if not is_armour(view, u)]
        if others or not view.is_land(start):
            what = ", ".join(view.unit(u).display_plural for u in others) or "units at sea"
            raise IllegalAction(f"only armour moves in the second armour move, overland ({what} cannot)", R_STEP)
        ctx.emit(*marked(move_action_events(view, action, True)))

    def can_end(self, ctx: TurnContext) -> None:
        """The armour move may always end."""

    def on_enter(self, ctx: TurnContext) -> None:
        """Nothing happens on entry: the marks of the turn's combat move stand."""


def marked(events: Iterable[Event]) -> list[Event]:
    """The move's events with each moving stack marked as having made its second armour move."""
    out: list[Event] = []
    for event in events:
        if isinstance(event, UnitsChanged) and event.to_space:
            event = replace(event, after=flags.with_flags(event.after, [ARMOUR_MOVED]))
        out.append(event)
    return out


class ArmourCombat(ConductCombat):
    """The second armour combat: the battles the armour move set up, fought as in conduct-combat. What was
    fought (or could not be) before is left alone, and no rocket is launched."""

    name = ARMOUR_COMBAT
    title = "Second armour combat"
    plays_as = "conduct-combat"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        return [a for a in super().candidates(ctx, space) if not isinstance(a, Rocket)]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, Rocket):
            raise IllegalAction("rockets are launched in the combat phase, not in the second armour combat", R_STEP)
        super().events_for(ctx, action)

    def on_enter(self, ctx: TurnContext) -> None:
        super().on_enter(ctx)
        earlier = [_key(s.space, s.kind) for s in open_battles(ctx.state, ctx.ruleset)
                   if not any(flags.has(a, ARMOUR_MOVED) for a in s.attackers)]
        if earlier:
            ctx.emit(ExtraSet(KEY, {**combat_record(ctx.state), "fought": earlier}, R_STEP))


def _key(space: str, kind: str) -> str:
    """How conduct-combat records a fought site (a raid apart from a battle in the same territory)."""
    return f"{space}|{kind}" if kind == "bombing" else space


ARMOUR_MOVE_PHASE: PhaseHandler = register_phase(ArmourMove())
ARMOUR_COMBAT_PHASE: PhaseHandler = register_phase(ArmourCombat())
