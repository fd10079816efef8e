"""The action fuzzer against the server's door (`POST /games/{id}/actions`), on each database: random,
mutated, malformed and stale actions, stale versions and a caller without a seat, in short episodes (see
tests/fuzz/driver.py). No answer may be a 5xx, a refusal leaves the version and state hash as they were,
every accepted entry reaches the hash the server reports, and each game's export verifies."""

from __future__ import annotations

import uuid

import pytest
from hypothesis import given

from tests.fuzz.driver import MAX_ACTIONS, SERVER_RULESETS, Plan, Tally, register, server_episode
from tests.fuzz.strategies import fixed, plans
from tests.server.conftest import LiveServer, Player

EPISODES = 2


@pytest.mark.parametrize("rules", SERVER_RULESETS)
def test_the_server_door_survives_fuzzing(server: LiveServer, rules: str) -> None:
    owner = register(server.url, f"fuzz{uuid.uuid4().hex[:10]}")
    stranger = register(server.url, f"fuzz{uuid.uuid4().hex[:10]}")
    total = Tally()

    @fixed(EPISODES)
    @given(plans(rules))
    def episode(plan: Plan) -> None:
        tally = server_episode(plan, owner, stranger)
        total.add(tally)
        assert not tally.problems, "\n".join(tally.problems[:5])

    try:
        episode()
    finally:
        owner.close()
        stranger.close()
    assert total.actions >= 0.9 * EPISODES * MAX_ACTIONS, total.to_json()
    assert {"200", "400", "403", "409", "422"} <= set(total.statuses), total.statuses
    assert (total.server_errors, total.changed_on_refusal, total.replay_mismatches) == (0, 0, 0)


def test_a_unit_count_of_5000_digits_is_a_400(player: Player) -> None:
    """Found by the fuzzer: `int` refuses more than 4300 digits with ValueError, which the door answered 500."""
    game = player.new_game()
    assert player.act(game["id"], {"type": "end_phase"}, 0).status_code == 200
    before = player.view(game["id"])
    answer = player.act(game["id"], {"type": "purchase", "units": "9" * 5000 + " infantry"}, 1)
    assert answer.status_code == 400, answer.text
    assert "count too large" in answer.json()["message"]
    after = player.view(game["id"])
    assert (after["version"], after["state_hash"]) == (before["version"], before["state_hash"])
