"""Non-combat move: units that neither moved nor fought in combat move reposition through friendly spaces;
aircraft land. At the end, aircraft with nowhere to land are lost (or hover for a new carrier)."""

from __future__ import annotations

from aare.movement.situation import situation
from aare.movement.turn import landing_events
from aare.phases.base import TurnContext, register_phase
from aare.phases.combat_move import CombatMove


class NonCombatMove(CombatMove):
    name = "non-combat-move"
    title = "Non-combat move"
    combat = False

    def can_end(self, ctx: TurnContext) -> None:
        """Non-combat move may always end."""

    def on_enter(self, ctx: TurnContext) -> None:
        """Nothing happens on entry."""

    def on_exit(self, ctx: TurnContext) -> None:
        ctx.emit(*landing_events(situation(ctx.state, ctx.ruleset)))


register_phase(NonCombatMove())
