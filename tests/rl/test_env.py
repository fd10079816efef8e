"""The PettingZoo environments: PettingZoo's own API and seed tests, truncation at `max_cycles`, the agent to act
following the engine's pending decision, action counts under K in random games, rewards by side, the JSON and
text wrapper. Skipped without the `rl` extra (pip install -e '.[rl]')."""

from __future__ import annotations

import os
from typing import Any

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="the rl extra is not installed: pip install -e '.[rl]'")

from pettingzoo.test import api_test, seed_test

from aare.ai import make_bot
from aare.engine import decider
from aare.rl import aare_aare5_v0, aare_aarhe_v0, aare_lhtr_v0
from aare.rl.env import AareEnv
from aare.rl.wrappers import JsonActions

GAMES = int(os.environ.get("AARE_RL_GAMES", "2"))  # games of the action-count test (200 for the full check)


def random_step(env: Any, rng: np.random.Generator) -> None:
    obs, _, terminated, truncated, _ = env.last()
    if terminated or truncated:
        env.step(None)
        return
    legal = np.flatnonzero(obs["action_mask"])
    env.step(int(rng.choice(legal)))


@pytest.mark.parametrize("module", [aare_lhtr_v0, aare_aare5_v0, aare_aarhe_v0])
def test_pettingzoo_api(module: Any) -> None:
    api_test(module.env(max_cycles=3), num_cycles=15)


def test_pettingzoo_seeding() -> None:
    seed_test(lambda: aare_lhtr_v0.env(max_cycles=2), num_cycles=10)


def test_every_agent_is_truncated_after_max_cycles_power_turns() -> None:
    env = aare_lhtr_v0.raw_env(max_cycles=2)
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    nations = [env.game.state.nation]
    while not any(env.truncations.values()):
        random_step(env, rng)
        if env.game.state.nation != nations[-1]:
            nations.append(env.game.state.nation)
    assert nations[:3] == ["Russia", "Germany", "United Kingdom"]  # two power-turns played, the third begun
    assert env.turns == 2
    assert all(env.truncations.values()) and not any(env.terminations.values())
    assert all(env.rewards[a] == 0 for a in env.agents)
    for _agent in env.agent_iter():
        assert env.last()[3]
        env.step(None)
    assert env.agents == []


def test_actions_stay_under_k_and_the_decider_acts() -> None:
    """In random games no position offers more than K actions, and the agent to act is always the power the
    engine waits for: the defender when a battle waits for its casualties."""
    decisions = 0
    for seed in range(GAMES):
        env = aare_lhtr_v0.raw_env(max_cycles=10)
        env.reset(seed=seed)
        rng = np.random.default_rng(seed)
        while env.agents:
            if env.terminations[env.agent_selection] or env.truncations[env.agent_selection]:
                env.step(None)
                continue
            state = env.game.state
            assert env.infos[env.agent_selection]["legal_count"] <= env.max_actions
            assert env.agent_selection == decider(state.pending, state.nation)
            if state.pending is not None and state.pending.get("power", state.nation) != state.nation:
                decisions += 1
            random_step(env, rng)
    assert decisions > 0  # some defender decided (casualties) in those games


def test_the_winning_side_gets_plus_one_and_the_other_minus_one() -> None:
    env = AareEnv("aa50-1941", "aare_aa50_1941_v0", max_cycles=5)
    env.reset(seed=1)
    env.play({"type": "concede"})  # the power to act concedes for its side
    sides = env.sides
    loser = sides[env.agent_selection]
    assert all(env.terminations.values())
    for agent in env.agents:
        assert env._cumulative_rewards[agent] == (-1.0 if sides[agent] == loser else 1.0)


def test_the_wrapper_takes_json_and_text_actions() -> None:
    env = JsonActions(aare_lhtr_v0.env(max_cycles=3))
    env.reset(seed=2)
    while env.unwrapped.game.state.phase != "purchase":
        env.step("end phase")
    env.step({"type": "purchase", "units": "5 infantry"})  # not a candidate (1 at a time): played as it is
    bought = env.unwrapped.game.log.entries[-1].action
    assert bought["units"] == "5 infantry"
    candidates = env.infos[env.agent_selection]["candidates"]
    env.step("buy 1 artillery")
    assert env.unwrapped.game.log.entries[-1].action["units"] == "1 artillery"
    assert any(c.get("units") == "1 artillery" for c in candidates)


def test_in_a_team_turn_the_agent_to_act_is_a_member_with_an_action() -> None:
    env = aare_aarhe_v0.raw_env(max_cycles=3)
    env.reset(seed=3)
    rng = np.random.default_rng(0)
    game = env.game
    while not game.state.members:  # AARHE plays each side's powers together, after its set-up
        random_step(env, rng)
    steps = 0
    while game.state.members and steps < 30:
        assert env.agent_selection in game.to_act()
        assert env.player(env.agent_selection).legal_actions()
        steps += 1
        acting = env.agent_selection
        random_step(env, rng)
        assert game.log.entries[-1].action["power"] == acting
    assert steps > 0


def test_a_bot_plays_the_opponents_through_the_wrapper() -> None:
    env = JsonActions(aare_lhtr_v0.env(max_cycles=4))
    env.reset(seed=1)
    bot, learner, rng = make_bot("greedy", seed=1), {"Germany", "Japan"}, np.random.default_rng(1)
    played = {"bot": 0, "learner": 0}
    for agent in env.agent_iter():
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
        elif agent in learner:
            env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
            played["learner"] += 1
        else:
            env.step(bot.choose(env.unwrapped.player(agent)).to_json())
            played["bot"] += 1
    assert played["bot"] > 0 and played["learner"] > 0
    assert env.unwrapped.turns == 4


def test_shaped_reward_follows_the_victory_cities_a_side_holds() -> None:
    env = aare_lhtr_v0.raw_env(max_cycles=12, shaping=0.5)
    rng = np.random.default_rng(0)
    changes = 0
    for seed in range(3):
        env.reset(seed=seed)
        while env.agents and not changes:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                env.step(None)
                continue
            before = env.cities_held()
            random_step(env, rng)
            after = env.cities_held()
            for power in env.agents:
                side = env.sides[power]
                assert env.rewards[power] == 0.5 * (after[side] - before[side])
            changes += before != after
        if changes:
            break
    assert changes  # a victory city changed hands, and both sides' rewards said so


def test_candidate_features_describe_each_legal_action() -> None:
    env = aare_lhtr_v0.raw_env(max_cycles=3, candidate_features=True)
    env.reset(seed=4)
    while env.game.state.phase != "combat-move":
        env.step(0)  # end each phase before it
    obs = env.observe(env.agent_selection)
    rows, encoder = obs["candidates"], env.encoder
    candidates = env.infos[env.agent_selection]["candidates"]
    assert env.observation_space(env.agent_selection).contains(obs)
    moves = [i for i, c in enumerate(candidates) if c["type"] == "move"]
    assert moves and not rows[len(candidates):].any()
    i = moves[0]
    path, (count, unit) = candidates[i]["path"], candidates[i]["units"].split(" ", 1)
    assert rows[i, env.candidate_encoder.units_at - 2] == encoder.spaces.index(path[0]) + 1
    assert rows[i, env.candidate_encoder.units_at - 1] == encoder.spaces.index(path[-1]) + 1
    assert rows[i, env.candidate_encoder.units_at + encoder.units.index(unit)] == int(count)


def goals_chosen(choice: int) -> AareEnv:
    """An AARHE game with national victory in which the first power to choose has taken its `choice`-th
    candidate choice of goals and ended its phase: the next power is to choose."""
    env = aare_aarhe_v0.raw_env(options={"national_victory": True}, candidate_features=True)
    env.reset(seed=3)
    first = env.agent_selection
    env.step([i for i, c in enumerate(env.candidates) if c["type"] == "choose"][choice])
    while env.agent_selection == first:
        env.step(0)  # its only action left: end the phase
    return env


@pytest.mark.rule("AARHE-NATVICTORY-selection")
def test_no_agent_observes_another_powers_secret_national_goals() -> None:
    """Two games that differ only in the Soviet Union's secret choice of goals look the same to every other
    agent (features, mask, candidate features and infos); the Soviet Union's own observation tells them apart."""
    a, b = goals_chosen(0), goals_chosen(1)
    assert a.game is not None and b.game is not None
    assert a.game.state.extra != b.game.state.extra
    for agent in a.agents:
        seen_a, seen_b = a.observe(agent), b.observe(agent)
        same = seen_a.keys() == seen_b.keys() and all(np.array_equal(seen_a[k], seen_b[k]) for k in seen_a)
        assert same == (agent != "Russia"), agent
        assert a.infos[agent] == b.infos[agent]
