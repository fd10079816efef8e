"""Positions on the Classic board for the Enhanced Realism '98 tests."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from aare.dice import ScriptedDice
from aare.economy.turn import turn_record
from aare.engine import Game
from aare.game_log import GameLog
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack

REALISM = "realism-98"
CLASSIC = "classic-2e"


def at(
    nation: str,
    phase: str,
    units: Mapping[str, str],
    *,
    rules: str = REALISM,
    owners: Mapping[str, str] | None = None,
    turn_owners: Mapping[str, str] | None = None,
    stacks: Iterable[tuple[str, Stack]] = (),
    banks: Mapping[str, int] | None = None,
    extra: Mapping[str, Any] | None = None,
    options: Mapping[str, Any] | None = None,
    dice: Iterable[int] | None = None,
    clear: bool = True,
) -> Game:
    """A Classic board (emptied unless `clear` is False) with `units` ("Power: unit list") and `stacks`; the turn
    began with the current owners, except those of `turn_owners`."""
    game = scenario(rules, nation=nation, phase=phase, clear=clear, units={k: v for k, v in units.items() if v},
                    owners=owners, banks=banks, extra=extra, options=options)
    state = game.state
    start = {**state.owners, **dict(turn_owners or {})}
    state = replace(state, extra={**state.extra, "turn": {**turn_record(state), "owners": start}})
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), ScriptedDice(list(dice)) if dice is not None else None)
