"""Combat move: units move only to attack (LHTR-TURN-combat-move-attack-only); battles are read from the
resulting state by `aare.movement.battles.pending_battles`."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Load, Move
from aare.movement.candidates import load_admitted, move_candidates
from aare.movement.moves import load_action_events, move_action_events
from aare.movement.situation import situation
from aare.movement.turn import combat_move_violation, start_of_turn_events
from aare.phases.base import PhaseHandler, TurnContext, register_phase


class CombatMove(PhaseHandler):
    name = "combat-move"
    title = "Combat move"
    combat = True

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            space = ctx.ruleset.board.resolve(space)
        return move_candidates(situation(ctx.state, ctx.ruleset), self.combat, space)

    def admits(self, ctx: TurnContext, action: Any) -> bool:
        """A listed combat-move load is accepted with a transport able to reach an assault (`load_admitted`); a
        listed move, or a non-combat load, is accepted as listed."""
        if not (self.combat and isinstance(action, Load)):
            return True
        return load_admitted(situation(ctx.state, ctx.ruleset), action)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        view = situation(ctx.state, ctx.ruleset)
        if isinstance(action, Move):
            ctx.emit(*move_action_events(view, action, self.combat))
        elif isinstance(action, Load):
            ctx.emit(*load_action_events(view, action, self.combat))
        else:
            super().events_for(ctx, action)

    def can_end(self, ctx: TurnContext) -> None:
        found = combat_move_violation(situation(ctx.state, ctx.ruleset))
        if found is not None:
            raise found.error()

    def on_enter(self, ctx: TurnContext) -> None:
        ctx.emit(*start_of_turn_events(ctx.state))


register_phase(CombatMove())
