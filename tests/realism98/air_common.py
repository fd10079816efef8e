"""Positions for the Enhanced Realism '98 aircraft and carrier tests: an empty Classic board under `realism-98`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from aare.engine import Game
from aare.game_log import GameLog
from tests.classic.test_move_land import at as classic_at

RULES = "realism-98"


def at(
    nation: str,
    phase: str,
    units: Mapping[str, str],
    *,
    owners: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
    dice: Iterable[int] | None = None,
) -> Game:
    """An empty Classic board under Realism '98 with `units` ("Power: unit list"); the turn began with the owners
    given (`extra`: e.g. the purchase pool)."""
    return classic_at(nation, phase, units, owners=owners, options=options, extra=extra, dice=dice, rules=RULES)


def after_combat(game: Game, *beaten: tuple[str, str]) -> Game:
    """The position in non-combat move, the defenders `beaten` ((space, owner), ...) gone as if destroyed."""
    state = game.state
    for space, owner in beaten:
        space = game.ruleset.board.resolve(space)
        state = state.with_stacks(space, tuple(s for s in state.stacks(space) if s.owner != owner))
    return Game(GameLog(replace(state, phase="non-combat-move")))
