"""The action fuzzer against the engine's door (`Game.apply`): random, mutated, malformed and stale actions in
short episodes of lhtr-1.3, aare-5.0 and the team-turn test ruleset (see tests/fuzz/driver.py for what is
submitted and checked). A fixed set of Hypothesis examples: 15 episodes of 200 actions a ruleset."""

from __future__ import annotations

import pytest
from hypothesis import given

from tests.fuzz.driver import ENGINE_RULESETS, MAX_ACTIONS, Plan, Tally, engine_episode
from tests.fuzz.strategies import fixed, plans

EPISODES = 15


@pytest.mark.parametrize("rules", ENGINE_RULESETS)
def test_the_engine_door_survives_fuzzing(rules: str) -> None:
    total = Tally()

    @fixed(EPISODES)
    @given(plans(rules))
    def episode(plan: Plan) -> None:
        tally = engine_episode(plan)
        total.add(tally)
        assert not tally.problems, "\n".join(tally.problems[:5])

    episode()
    assert total.episodes == EPISODES
    assert total.actions >= 0.9 * EPISODES * MAX_ACTIONS, total.to_json()
    assert total.refused > 0 and total.accepted > 0
    assert (total.server_errors, total.changed_on_refusal, total.replay_mismatches) == (0, 0, 0)


def test_an_episode_is_replayed_exactly() -> None:
    """A plan is a reproducible episode: the fuzzer's choices and the game's dice come from its seed."""
    plan = Plan("lhtr-1.3", seed=11, actions=60, legal_share=0.5)
    first, again = engine_episode(plan), engine_episode(plan)
    assert (first.kinds, first.accepted, first.refused) == (again.kinds, again.accepted, again.refused)
    assert first.actions == 60
