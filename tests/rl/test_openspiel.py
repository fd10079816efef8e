"""The OpenSpiel game: OpenSpiel's random simulation test, a battle's roll as one chance node of exact hit odds
whose outcome decides the battle, canonical dice for every outcome, and MCTS through the chance nodes. Skipped
without the `rl` extra (pip install -e '.[rl]')."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel", reason="OpenSpiel (the rl extra) is not installed: pip install -e '.[rl]'")

from aare.rl import openspiel_game  # noqa: E402

PARAMS = {"rules": "lhtr-1.3", "max_turns": 2, "seed": 0}


def test_random_simulation() -> None:
    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {**PARAMS, "max_turns": 1})
    pyspiel.random_sim_test(game, num_sims=1, serialize=False, verbose=False)


def first_battle_roll() -> object:
    """The first chance node of a battle's roll in a random game (single dice on the way rolled at random)."""
    state = pyspiel.load_game(openspiel_game.SHORT_NAME, PARAMS).new_initial_state()
    rng = np.random.default_rng(3)
    while not (state.is_chance_node() and state.roll_odds):
        assert not state.is_terminal()
        choices = [o for o, _ in state.chance_outcomes()] if state.is_chance_node() else state.legal_actions()
        state.apply_action(int(rng.choice(choices)))
    return state


def roll_all(state: object, pick: int) -> object:
    """Roll every chance node of the action being played: outcome `pick` (0: the first, -1: the last)."""
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[pick][0])
    return state


def test_a_battle_roll_is_one_chance_node_of_exact_hit_odds() -> None:
    state = first_battle_roll()
    outcomes = state.chance_outcomes()
    assert state.roll_odds  # a battle's roll, not a single die
    assert sum(p for _, p in outcomes) == pytest.approx(1.0)
    assert [o for o, _ in outcomes] == list(range(len(outcomes)))
    fewest, most = roll_all(state.clone(), 0), roll_all(state.clone(), -1)
    assert fewest.state != most.state  # no hits and every hit: the battle went differently
    assert state.is_chance_node()  # rolling on a clone leaves the position as it was


def test_canonical_dice_give_each_outcome() -> None:
    from aare.combat.battle_state import DiceGroup, RollRequest
    from aare.combat.chance import canonical_dice, group_key, outcomes

    request = RollRequest("fire", (
        DiceGroup("attacker", "infantry", 3, 1), DiceGroup("attacker", "artillery", 2, 2),
        DiceGroup("attacker", "battleship", 1, 6), DiceGroup("attacker", "bomber", 2, 4, dice_per_unit=2,
                                                             best_of=True),
        DiceGroup("defender", "infantry", 4, 2), DiceGroup("defender", "sub", 1, 0),
    ))
    found = outcomes(request)
    assert sum(p for p, _ in found) == pytest.approx(1.0)
    for _, outcome in found:
        dice = list(canonical_dice(request, outcome) or ())
        totals: dict[object, int] = {}
        for g in request.groups:
            rolled = [dice.pop(0) for _ in range(g.count * g.dice_per_unit)]
            per = [rolled[i * g.dice_per_unit:(i + 1) * g.dice_per_unit] for i in range(g.count)]
            hits = sum(min(v) <= g.hit_on for v in per) if g.best_of else sum(v <= g.hit_on for v in rolled)
            assert all(1 <= v <= 6 for v in rolled)
            totals[group_key(g)] = totals.get(group_key(g), 0) + hits
        assert totals == outcome and not dice


def test_openspiel_mcts_plays_through_the_chance_nodes() -> None:
    from open_spiel.python.algorithms import mcts

    game = pyspiel.load_game(openspiel_game.SHORT_NAME, {**PARAMS, "max_turns": 1})
    state = game.new_initial_state()
    rng = np.random.RandomState(0)
    bot = mcts.MCTSBot(game, uct_c=2, max_simulations=3, evaluator=mcts.RandomRolloutEvaluator(1, rng),
                       random_state=rng)
    action = bot.step(state)
    assert action in state.legal_actions()
