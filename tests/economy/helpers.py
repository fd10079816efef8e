"""Helpers for economy tests: ending phases, adding flagged stacks, checking every step's invariants."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.engine import Game
from aare.events import Event
from aare.game_log import GameLog
from aare.invariants import check_step
from aare.state.unit_stacks import Stack, add_stack


def end(game: Game, n: int = 1) -> None:
    for _ in range(n):
        game.apply({"type": "end_phase"})


def act(game: Game, action: Any) -> tuple[Event, ...]:
    """Apply `action` and assert the step keeps every invariant."""
    before = game.state
    events = game.apply(action)
    assert check_step(before, events, game.state) == []
    return events


def with_stack(game: Game, space: str, stack: Stack) -> Game:
    """The same game with `stack` added to `space` in its starting position (e.g. a flagged stack)."""
    state = game.state
    space = game.ruleset.board.resolve(space)
    state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(replace(state, version=0)), game.dice)


def pooled(game: Game, power: str | None = None) -> dict[str, int]:
    return dict((game.state.extra.get("purchased") or {}).get(power or game.state.nation, {}))
