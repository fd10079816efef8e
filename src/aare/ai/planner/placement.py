"""Placement: the capital first when the threat map puts it in danger, else the complexes nearest the enemy
(the capital among them by its distance)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.actions import Place
from aare.ai.greedy import Bulk
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.purchase import DANGER
from aare.ai.planner.threat import defenders_at
from aare.board.notation import format_units
from aare.economy.pool import pool
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]


def plan_placement(legal: list[Any], state: GameState, ruleset: Ruleset, me: str, front: Mapping[str, int],
                   threat: Mapping[str, Units], oracle: Oracle) -> list[Any]:
    """Place every unit waiting, space by space in the order above (as many as each space takes)."""
    capital = ruleset.board.capital_of(me)
    danger = False
    if capital is not None and threat.get(capital):
        defenders = defenders_at(state, ruleset, ruleset.board.side_of(me), capital)
        danger = oracle.capture(threat[capital], defenders) > DANGER
    spaces = sorted({a.space for a in legal if isinstance(a, Place)},
                    key=lambda s: (not (danger and s == capital), front.get(s, 99), s))
    waiting = pool(state, me)
    plan: list[Any] = []
    for space in spaces:
        for unit_id, count in sorted(waiting.items()):
            plan.append(Bulk(Place(units=format_units({unit_id: count}, ruleset.units), space=space),
                             Place(units=format_units({unit_id: 1}, ruleset.units), space=space), count))
    return plan
