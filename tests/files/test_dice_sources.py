"""Dice no one can foresee: a game made without a seed rolls the operating system's dice and records each roll;
its file holds no value that predicts the next one. A seeded game says its dice are predictable."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from aare.cli.main import cli
from aare.dice import SeededDice
from aare.engine import Game
from aare.events import DiceRolled
from aare.game_file import load_game
from aare.game_log import GameLog
from aare.game_setup import new_game


def _numbers_under_seed_keys(value: Any, key: str = "") -> list[int]:
    if isinstance(value, dict):
        return [n for k, v in value.items() for n in _numbers_under_seed_keys(v, k)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers_under_seed_keys(v, key)]
    return [value] if "seed" in key.lower() and isinstance(value, int) and not isinstance(value, bool) else []


def _run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_a_game_without_a_seed_holds_nothing_that_predicts_its_dice(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert _run("new", "--rules", "lhtr-1.3", "-o", str(path))[0] == 0
    raw = json.loads(path.read_text())
    assert _numbers_under_seed_keys(raw) == []
    assert raw["initial"]["dice"] == {"counter": 0}
    rich = replace(new_game("lhtr-1.3").state, banks={"Russia": 200})  # enough for 20 research dice
    path.write_text(json.dumps(GameLog(rich).to_json()))
    # two copies of the file roll independently: 20 dice the same in both would be a 1 in 6**20 chance
    rolls = []
    for copy in ("a", "b"):
        other = tmp_path / f"{copy}.json"
        other.write_text(path.read_text())
        code, _, err = _run("act", str(other), '{"type": "research", "dice": 20, "tech": "rockets"}')
        assert code == 0, err
        log = load_game(other)
        rolls.append([v for e in log.entries[-1].events if isinstance(e, DiceRolled) for v in e.values])
    assert rolls[0] != rolls[1]
    # nor does any number in the file, taken as a seed, give those dice
    numbers = {n for n in _all_numbers(json.loads((tmp_path / "a.json").read_text())) if n >= 0}
    assert all(list(SeededDice(n, 0).roll(20)) != rolls[0] for n in numbers)


def _all_numbers(value: Any) -> list[int]:
    if isinstance(value, dict):
        return [n for v in value.values() for n in _all_numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _all_numbers(v)]
    return [value] if isinstance(value, int) and not isinstance(value, bool) else []


def test_rolls_are_recorded_and_the_file_replays(tmp_path: Path) -> None:
    game = Game(new_game("lhtr-1.3"))
    game.apply({"type": "research", "dice": 3, "tech": "rockets"})
    path = tmp_path / "g.json"
    path.write_text(json.dumps(game.log.to_json()))
    assert load_game(path).state == game.state


def test_a_seeded_game_warns_that_its_dice_are_predictable(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    assert _run("new", "--rules", "lhtr-1.3", "--seed", "5", "-o", str(path))[0] == 0
    code, out, err = _run("show", str(path), "--json")
    assert code == 0 and json.loads(out)["dice"] == {"predictable": True}
    code, out, err = _run("show", str(path))
    assert code == 0 and "seeded dice" in err
    unseeded = tmp_path / "os.json"
    _run("new", "--rules", "lhtr-1.3", "-o", str(unseeded))
    code, out, err = _run("show", str(unseeded), "--json")
    assert code == 0 and "seeded dice" not in err and json.loads(out)["dice"] == {"predictable": False}
