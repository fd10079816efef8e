"""Starting a game: the ruleset's board set-up as the first state of a new log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from aare.game_log import GameLog
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import DiceState, GameState
from aare.state.unit_stacks import Stack, normalise


def new_game(ruleset_id: str, options: Mapping[str, Any] | None = None, seed: int | None = None) -> GameLog:
    """A new game of `ruleset_id`: set-up units, owners and banks, round 1, the first turn's power (or team)
    to move."""
    ruleset = load_ruleset(ruleset_id, options)
    board = ruleset.board
    stacks: dict[str, list[Stack]] = {}
    for placed in board.setup:
        for unit, count in placed.units.items():
            stacks.setdefault(placed.space, []).append(Stack(placed.power, unit, count))
    first_turn = ruleset.turn_order(1).turns[0]
    first_phase = ruleset.phase_table()[0].name
    members = {p: {"phase": first_phase, "status": "acting", "pending": None} for p in first_turn.powers}
    state = GameState(
        ruleset=ruleset.id,
        options=dict(ruleset.options),
        round=1,
        nation=first_turn.powers[0],
        phase=first_phase,
        owners=dict(board.owners),
        units={space: normalise(group) for space, group in stacks.items()},
        banks=dict(board.bank),
        dice=DiceState(seed),  # no seed: the operating system's dice, which nothing in the file foretells
        techs={p.name: () for p in board.powers},
    )
    state = ruleset.modify("initial_state", state)
    if first_turn.is_team and (state.round, state.nation, state.phase) == (1, first_turn.powers[0], first_phase):
        state = replace(state, members=members)  # not when play begins before round 1 (a bid)
    return GameLog(state)
