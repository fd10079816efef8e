"""Collect income: the moving power collects on entering the phase; leaving it ends the turn, clearing the
turn's marks on units and repairing battleships."""

from __future__ import annotations

from aare.economy.income import end_of_turn_events, income_events
from aare.phases.base import PhaseHandler, TurnContext, register_phase


class CollectIncomePhase(PhaseHandler):
    name = "collect-income"
    title = "Collect income"

    def on_enter(self, ctx: TurnContext) -> None:
        ctx.emit(*income_events(ctx.state, ctx.ruleset, ctx.power))

    def on_exit(self, ctx: TurnContext) -> None:
        ctx.emit(*end_of_turn_events(ctx.state, ctx.ruleset))


COLLECT_INCOME = register_phase(CollectIncomePhase())
