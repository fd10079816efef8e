"""The land spots and the distances to them are kept from one state to the next while the owners (now and when
the turn began), the ruleset, the mover's side and the closed spaces are the same; they are those a fresh
computation gives."""

from __future__ import annotations

import random

from aare.engine import Game
from aare.game_setup import new_game
from aare.movement.graph import graph_of
from aare.movement.landing import land_distance, land_spots
from aare.movement.situation import Situation


def fresh(view: Situation) -> tuple[frozenset[str], dict[str, int]]:
    spots = frozenset(t for t in view.graph.land if view.held_since_start(t))
    return spots, view.graph.distances_from(spots, view.air_nbrs)


def test_land_tables_are_kept_while_the_owners_stay_and_equal_fresh_ones() -> None:
    rng = random.Random(4)
    game = Game(new_game("lhtr-1.3", seed=4))
    kept = 0
    before: tuple[object, object] | None = None
    for _ in range(300):
        if game.state.winner is not None:
            break
        view = Situation(game.state, game.ruleset, game.state.nation)
        tables = (land_spots(view), land_distance(view))
        assert tables == fresh(view)
        if before is not None and before[0] is game.state.owners and before[1] is tables[1]:
            kept += 1
        before = (game.state.owners, tables[1])
        game.apply(rng.choice(game.legal_actions()))
    assert kept > 0  # between moves the owners mapping is the same: the tables were not made again


def test_another_power_never_gets_the_tables_of_the_last_one() -> None:
    state = new_game("lhtr-1.3", seed=1).state
    game = Game(new_game("lhtr-1.3", seed=1))
    ruleset = game.ruleset
    graph_of(ruleset.board).derived.pop("land_tables", None)
    russia, germany = Situation(state, ruleset, "Russia"), Situation(state, ruleset, "Germany")
    assert land_spots(russia) == fresh(russia)[0] and land_spots(germany) == fresh(germany)[0]
    assert land_spots(russia) != land_spots(germany)
