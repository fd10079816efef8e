"""The Classic family's rulesets are registered and start a game."""

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.rules.ruleset import available_rulesets


@pytest.mark.parametrize("rules", ["classic-2e", "realism-98"])
def test_ruleset_registered_and_starts(rules: str) -> None:
    assert rules in available_rulesets()
    game = Game(new_game(rules))
    assert game.state.round == 1
    assert game.state.nation == "Russia"
