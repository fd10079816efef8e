"""Collect income: the moving power collects on entering the phase; leaving it ends the turn, clearing the
turn's marks on units and repairing battleships."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from aare.economy.income import end_of_turn_events, income_events
from aare.economy.summary import income
from aare.events import Event
from aare.phases.base import PhaseExtension, PhaseHandler, TurnContext, register_phase
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

# (state, ruleset, power, IPCs collected) -> the events that follow the collection
AfterIncome = Callable[[GameState, Ruleset, str, int], Sequence[Event]]


class CollectIncomePhase(PhaseHandler):
    name = "collect-income"
    title = "Collect income"

    def on_enter(self, ctx: TurnContext) -> None:
        ctx.emit(*income_events(ctx.state, ctx.ruleset, ctx.power))

    def on_exit(self, ctx: TurnContext) -> None:
        ctx.emit(*end_of_turn_events(ctx.state, ctx.ruleset))


COLLECT_INCOME = register_phase(CollectIncomePhase())


class AfterCollection(PhaseExtension):
    """Collect income: rule events that follow the collection and depend on what was collected (e.g. convoy
    raids taking part of it), added by a rule module's `phase_actions`."""

    def __init__(self, name: str, events: AfterIncome) -> None:
        self.name = name
        self.events = events

    def on_enter(self, ctx: TurnContext) -> None:
        collected = income(ctx.state, ctx.ruleset, ctx.power)
        ctx.emit(*self.events(ctx.state, ctx.ruleset, ctx.power, collected))
