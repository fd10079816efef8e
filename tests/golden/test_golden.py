"""Golden games: self-play games recorded before the code was reorganised must load and play out the same.

Each recorded game file is read as any game file is (`aare.game_file.read_game`: hash chain, every action played
again through the engine, its events and seeded dice compared with those recorded), and the state after each entry
must hash as recorded when the games were first played. Record again (scripts/record_golden.py) only when a
change of behaviour is intended; `--again` rewrites the files after a format change and refuses if any hash moves.
"""

from __future__ import annotations

import gzip
import json
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from aare.game_file import read_game
from aare.game_log import GameLog

HERE = Path(__file__).resolve().parent


@cache
def _games(rules: str) -> tuple[dict[str, Any], ...]:
    with gzip.open(HERE / f"{rules}.json.gz", "rt", encoding="utf-8") as fh:
        data = json.load(fh)
    assert (data["format"], data["version"], data["rules"]) == ("aare-golden", 2, rules)
    return tuple(data["games"])


CASES = [(rules, game["seed"]) for rules in ("lhtr-1.3", "aare-5.0") for game in _games(rules)]


@pytest.mark.parametrize(("rules", "seed"), CASES)
def test_golden_game_plays_out_the_same(rules: str, seed: int) -> None:
    record = next(g for g in _games(rules) if g["seed"] == seed)
    log = read_game(record["game"])
    assert log.initial.ruleset == rules and log.initial.dice.seed == seed
    replayed = GameLog(log.initial)
    hashes = [replayed.append(e.action, e.events).hash()[:16] for e in log.entries]
    assert hashes == record["hashes"]
    assert log.state.winner == record["winner"]
