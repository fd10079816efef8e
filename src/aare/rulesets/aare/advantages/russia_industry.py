"""Mobile Industry (seed NATIONAL ADVANTAGES / RUSSIA 5, AARE-NA-RUS-mi-*): moving Russian industrial complexes.

In non-combat move each Russian complex in a territory Russia held when the turn began may move once, to an
adjacent Red territory Russia controls, from a Red territory (`move_factory`). It produces there this turn
when Russia has held its new territory since the turn began (the ordinary production rule, which also makes
one territory's complexes one producer with the territory's capacity, one bombing target and one rocket
target). The free complex and infantry of the declaration turn are the NA record's free units; the complex
comes in idle.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import MoveFactory
from aare.economy.production import NEW
from aare.economy.turn import turn_start_owners
from aare.errors import IllegalAction
from aare.events import Event, ExtraSet, UnitsChanged
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.russia_common import RUSSIA, holds, red
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

ID = "mobile_industry"
KEY = "factories_moved"  # extra: {"round": r, "moves": [[from, to], ...]} of Russia's current turn
PHASE = "non-combat-move"
R_FREE = "AARE-NA-RUS-mi-free-ic-inf"
R_IDLE = "AARE-NA-RUS-mi-new-ic-idle"
R_MOVE = "AARE-NA-RUS-mi-ic-move"
R_PRODUCE = "AARE-NA-RUS-mi-produce-after-move"
R_STACKED = "AARE-NA-RUS-mi-stacked-ics"
RULE_IDS = (R_FREE, R_IDLE, R_MOVE, R_PRODUCE, R_STACKED)


def _movable(state: GameState, ruleset: Ruleset, space: str) -> Stack | None:
    """A Russian complex in `space` that may still move this turn."""
    units = ruleset.units
    return next((s for s in state.stacks(space) if s.owner == RUSSIA and units[s.unit].has("factory")
                 and not s.moved and NEW not in s.flags), None)


def move_events(state: GameState, ruleset: Ruleset, action: MoveFactory) -> list[Event]:
    """The events of moving one complex, or IllegalAction naming AARE-NA-RUS-mi-ic-move."""
    board = ruleset.board
    start, end = (board.resolve(p) for p in action.path)
    if state.nation != RUSSIA or not holds(state, ID):
        raise IllegalAction("only Russia, with Mobile Industry, moves industrial complexes", R_MOVE)
    if state.phase != PHASE:
        raise IllegalAction("industrial complexes move in non-combat move", R_MOVE)
    stack = _movable(state, ruleset, start)
    if stack is None:
        raise IllegalAction(f"Russia has no industrial complex in {start} that may still move this turn", R_MOVE)
    if turn_start_owners(state).get(start) != RUSSIA or state.owners.get(start) != RUSSIA:
        raise IllegalAction(f"the complex in {start} was not Russia's when the turn began", R_MOVE)
    if end not in board.spaces[start].neighbors:
        raise IllegalAction(f"a complex moves 1 territory: {start} and {end} are not adjacent", R_MOVE)
    reds = red(ruleset)
    if start not in reds or end not in reds:
        raise IllegalAction(f"complexes move only between Red territories ({start} -> {end})", R_MOVE)
    if state.owners.get(end) != RUSSIA:
        raise IllegalAction(f"{end} is not Russian-controlled: the complex would not stay Russian", R_MOVE)
    one = stack.with_count(1)
    moves = _moves(state)
    return [UnitsChanged(start, one, replace(one, moved=1), to_space=end),
            ExtraSet(KEY, {"round": state.round, "moves": [*moves, [start, end]]}, R_MOVE)]


def _moves(state: GameState) -> list[list[str]]:
    raw = state.extra.get(KEY)
    if not isinstance(raw, dict) or raw.get("round") != state.round:
        return []
    return [list(m) for m in raw.get("moves", [])]


class FactoryMoves(PhaseExtension):
    """The `move_factory` action (AARE-NA-RUS-mi-ic-move)."""

    name = "mobile-industry"
    action_types = frozenset({"move_factory"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset = ctx.state, ctx.ruleset
        if state.phase != PHASE or ctx.power != RUSSIA:
            return
        reds = red(ruleset)
        for start in sorted(reds):
            if _movable(state, ruleset, start) is None:
                continue
            for end in ruleset.board.spaces[start].neighbors:
                if end in reds and space in (None, start, end):
                    yield MoveFactory(path=[start, end])

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        ctx.emit(*move_events(ctx.state, ctx.ruleset, action))


EXTENSION = FactoryMoves()


def phase_actions(found: list[Any], state: GameState | None = None, **_: Any) -> list[Any]:
    """Complex moves while Mobile Industry is in force (every phase, so a move out of place names the rule)."""
    return [*found, EXTENSION] if state is not None and holds(state, ID) else found
