"""Placement: complexes that cannot be held first, then the capital, then those nearest the enemy."""

from __future__ import annotations

from typing import Any

from aare.actions import Place
from aare.ai.greedy import Bulk
from aare.ai.prolike.noncombat_move import safe
from aare.ai.prolike.odds import Judge
from aare.ai.prolike.reading import enemy_land, threat, units_at
from aare.board.notation import format_units
from aare.economy.pool import pool
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def plan(judge: Judge, legal: list[Any], state: GameState, ruleset: Ruleset, me: str, hold_at: float) -> list[Any]:
    """Place everything waiting, space by space in that order (sea units where a sea zone is offered, those
    beside the capital first, then those with no enemy warship within two sea steps)."""
    board = ruleset.board
    graph = graph_of(board)
    side = board.side_of(me)
    capital = board.capital_of(me)
    front = graph.distances_from(enemy_land(state, ruleset, side))
    spaces = sorted({a.space for a in legal if isinstance(a, Place)})

    def endangered(space: str) -> bool:
        if not board.spaces[space].is_land:
            return False
        danger = threat(state, ruleset, side, space)
        return bool(danger) and judge.hold(units_at(state, ruleset, space, side, ours=True), danger, ruleset) < hold_at

    def exposed(space: str) -> bool:
        return board.spaces[space].is_sea and not safe(state, ruleset, side, space)

    def away(space: str) -> bool:  # a sea zone not beside the capital, where the land units go first
        return board.spaces[space].is_sea and capital not in graph.coast.get(space, ())

    order = sorted(spaces, key=lambda s: (not endangered(s), s != capital, away(s), exposed(s), front.get(s, 99), s))
    steps: list[Any] = []
    for space in order:
        for unit_id, count in sorted(pool(state, me).items()):
            steps.append(Bulk(Place(units=format_units({unit_id: count}, ruleset.units), space=space),
                              Place(units=format_units({unit_id: 1}, ruleset.units), space=space), count))
    return steps
