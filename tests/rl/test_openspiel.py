"""The OpenSpiel game: OpenSpiel's random simulation test, and dice as chance nodes of equal odds per face whose
faces decide the battle. Skipped without the `rl` extra (pip install -e '.[rl]')."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the rl extra) is not installed: pip install -e '.[rl]'")

from aare.rl import openspiel_game  # noqa: E402

PARAMS = {"rules": "lhtr-1.3", "max_turns": 2, "seed": 0}


def test_random_simulation() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {**PARAMS, "max_turns": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def first_chance_node() -> object:
    state = pyspiel.load_game(openspiel_game.SHORT_NAME, PARAMS).new_initial_state()
    rng = np.random.default_rng(3)
    while not state.is_chance_node():
        assert not state.is_terminal()
        state.apply_action(int(rng.choice(state.legal_actions())))
    return state


def roll_all(state: object, face: int) -> object:
    while state.is_chance_node():
        state.apply_action(face - 1)
    return state


def test_each_die_is_a_chance_node_and_its_faces_decide() -> None:
    state = first_chance_node()
    outcomes = state.chance_outcomes()
    assert [o for o, _ in outcomes] == list(range(6))
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    hits, misses = roll_all(state.clone(), 1), roll_all(state.clone(), 6)
    assert hits.state != misses.state  # all ones hit, all sixes miss: the battle went differently
    assert state.is_chance_node()  # rolling on a clone leaves the position as it was


def test_openspiel_mcts_plays_through_the_chance_nodes() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {**PARAMS, "max_turns": 1})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    action = bot.step(state)
    assert action in state.legal_actions()
