"""Golden games: self-play logs recorded before a change of structure must play out the same afterwards.

Each recorded game is played again from a new game with the same seed: every action goes through
`Game.apply`, and the state after it must hash as recorded. Record again (scripts/record_golden.py) only when a
change of behaviour is intended.
"""

from __future__ import annotations

import gzip
import json
from pathlib import Path
from typing import Any

import pytest

from aare.engine import Game
from aare.game_setup import new_game

HERE = Path(__file__).resolve().parent


def _games(rules: str) -> list[dict[str, Any]]:
    with gzip.open(HERE / f"{rules}.json.gz", "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    assert data["rules"] == rules
    games: list[dict[str, Any]] = data["games"]
    return games


CASES = [(rules, game["seed"]) for rules in ("lhtr-1.3", "aare-5.0") for game in _games(rules)]


@pytest.mark.parametrize(("rules", "seed"), CASES)
def test_golden_game_plays_out_the_same(rules: str, seed: int) -> None:
    game_record = next(g for g in _games(rules) if g["seed"] == seed)
    game = Game(new_game(rules, None, seed))
    assert game.state.hash() == game_record["initial_hash"]
    for i, (action, expected) in enumerate(zip(game_record["actions"], game_record["hashes"], strict=True)):
        game.apply(action)
        assert game.state.hash()[:16] == expected, f"{rules} seed {seed}: action {i} {action} diverged"
    assert game.state.hash() == game_record["final_hash"]
    assert game.state.winner == game_record["winner"]
