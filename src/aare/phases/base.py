"""What every phase handler is: candidate actions, one validating `events_for`, entry and exit events.

Legality lives in one place: `events_for` either returns the events an action produces or raises
IllegalAction naming the rule. `Game.legal_actions` keeps the candidates that `events_for` accepts, so
the list the web table and bots see is exactly what `apply` accepts.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aare.dice import DiceSource, SeededDice, SystemDice, game_dice
from aare.errors import IllegalAction
from aare.events import DiceRolled, Event, renamed_rules
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


@dataclass
class TurnContext:
    """The state an action is judged against, the ruleset, and the dice it may roll. In a team turn `acting`
    is the power acting and `focus` the member whose play the state is focused on (None between members)."""

    state: GameState
    ruleset: Ruleset
    dice: DiceSource | None = None
    events: list[Event] = field(default_factory=list)
    acting: str | None = None
    focus: str | None = None

    @property
    def power(self) -> str:
        return self.state.nation

    def emit(self, *events: Event) -> None:
        """Record events and advance the working state past them; they name the rules as the ruleset's log does
        (the ``log_rule_ids`` hook)."""
        names = self.ruleset.log_rule_ids
        if names:
            events = tuple(renamed_rules(e, names) for e in events)
        self.events.extend(events)
        state = self.state
        for event in events:
            state = event.apply(state)
        self.state = state

    def emit_applied(self, before: GameState, events: Iterable[Event], after: GameState) -> None:
        """`emit(*events)` for events already applied one by one to `before`, giving `after`: when `before` is the
        working state and the ruleset logs the core's rule names, the events are recorded and `after` taken as it
        is (else they are emitted as usual)."""
        if self.state is not before or self.ruleset.log_rule_ids:
            self.emit(*events)
            return
        self.events.extend(events)
        self.state = after

    def roll(self, n: int, purpose: str, sides: int = 6) -> tuple[int, ...]:
        """Roll `n` dice and log them; without an explicit source the game's seeded dice are used."""
        source = self.dice if self.dice is not None else game_dice(self.state.dice)
        values = source.roll(n, sides)
        counter = source.counter if isinstance(source, SeededDice | SystemDice) else self.state.dice.counter + n
        self.emit(DiceRolled(purpose, values, sides, counter))
        return values


class PhaseHandler:
    """Default behaviour: only `end_phase` is possible, nothing happens on entry or exit."""

    name = ""
    title = ""  # shown to players when the ruleset's phase table gives none
    # the standard phase a further phase of the same kind plays as (a second combat move: "combat-move"); the
    # table shows it as that phase (the move or battle panels). Rule modules' phase extensions are not carried
    # over: the `phase_actions` hook sees the phase's own name and may ask `phase_kind`.
    plays_as = ""

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        return ()

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        """Validate `action` and emit its events into `ctx`; raise IllegalAction when the rules forbid it."""
        raise IllegalAction(f"{action.type} is not an action of the {self.name} phase", "LHTR-TURN-phase-sequence")

    def admits(self, ctx: TurnContext, action: Any) -> bool:
        """Whether `events_for` accepts `action`, one of the handler's candidates of a kind the ruleset trusts
        (`Game.legal_actions`), where the listing leaves a question to ask: a cheaper one than a dry run. By default
        the listing asks them all."""
        return True

    def can_end(self, ctx: TurnContext) -> None:
        """Raise IllegalAction if the phase may not end yet."""

    def on_enter(self, ctx: TurnContext) -> None:
        """Emit the events that happen when the phase starts."""

    def on_exit(self, ctx: TurnContext) -> None:
        """Emit the events that happen when the phase ends."""


_HANDLERS: dict[str, PhaseHandler] = {}


def register_phase(handler: PhaseHandler) -> PhaseHandler:
    _HANDLERS[handler.name] = handler
    return handler


def phase_handler(name: str) -> PhaseHandler:
    import aare.phases.standard  # noqa: F401  (registers the built-in phases)

    handler = _HANDLERS.get(name)
    if handler is None:
        generic = PhaseHandler()
        generic.name = name
        return generic
    return handler


def phase_kind(name: str) -> str:
    """The standard phase `name` plays as (`PhaseHandler.plays_as`), else `name` itself."""
    return phase_handler(name).plays_as or name


class PhaseExtension(PhaseHandler):
    """Extra actions a rule module adds to an existing phase (the `phase_actions` hook).

    `action_types` are the action types it handles itself (`events_for`); `before` sees every other action
    of the phase first (those other extensions handle too) and may refuse it or emit events ahead of it,
    `after` follows every action applied. `candidates`, `can_end`, `on_enter` and `on_exit` run alongside the
    phase handler's own. While a decision is pending only its answers are accepted: the battle answers, or the
    actions of an extension whose `answers` name the decision's kind. A battle answer an extension lists in
    `action_types` (e.g. ``choose_casualties`` for a decision of its own) is its to judge only while no decision is
    pending or one of a kind it answers; a battle's own decision keeps its answers.
    """

    action_types: frozenset[str] = frozenset()
    # kinds of pending decision (`state.pending["kind"]`) that its own actions answer
    answers: frozenset[str] = frozenset()

    def before(self, ctx: TurnContext, action: Any) -> None:
        """Refuse (IllegalAction) or precede an action that the phase handler will judge."""

    def after(self, ctx: TurnContext, action: Any) -> None:
        """Follow an action once its events are in (e.g. a rule triggered by a move); may refuse it too."""


def phase_extensions(ctx: TurnContext) -> list[PhaseExtension]:
    """The extensions the ruleset's modules add to the current phase."""
    found: list[PhaseExtension] = ctx.ruleset.modify("phase_actions", [], phase=ctx.state.phase, state=ctx.state)
    return found


def phase_candidates(ctx: TurnContext, space: str | None = None) -> list[Any]:
    """The phase handler's candidate actions followed by those of the phase's extensions."""
    found = list(phase_handler(ctx.state.phase).candidates(ctx, space))
    for extension in phase_extensions(ctx):
        found.extend(extension.candidates(ctx, space))
    return found
