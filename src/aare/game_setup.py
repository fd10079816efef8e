"""Starting a game: the ruleset's board set-up as the first state of a new log."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from aare.game_log import GameLog
from aare.movement.flags import with_cargo
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
        group = [Stack(placed.power, unit, count) for unit, count in placed.units.items()]
        if board.spaces[placed.space].is_sea:
            group = _aboard(group, ruleset)
        stacks.setdefault(placed.space, []).extend(group)
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


def _aboard(group: list[Stack], ruleset: Any) -> list[Stack]:
    """Land units set up at sea go aboard their power's transports there: the largest first, each into the first
    transport with room (the board loader has checked that the room suffices)."""
    units = ruleset.units
    cargo = sorted(((s.owner, s.unit) for s in group if units[s.unit].domain == "land" for _ in range(s.count)),
                   key=lambda entry: -units[entry[1]].transport_size)
    if not cargo:
        return group
    boats: list[tuple[Stack, list[tuple[str, str]]]] = [
        (s, []) for s in group if units[s.unit].transport_capacity for _ in range(s.count)
    ]
    for entry in cargo:
        size = units[entry[1]].transport_size
        _, load = next((s, b) for s, b in boats
                       if s.owner == entry[0]
                       and sum(units[u].transport_size for _, u in b) + size <= units[s.unit].transport_capacity)
        load.append(entry)
    rest = [s for s in group if units[s.unit].domain != "land" and not units[s.unit].transport_capacity]
    return [*rest, *(with_cargo(s.with_count(1), load) for s, load in boats)]
