"""`aare bot`: a bot plays a game file's decisions for some powers, and the file stays a checked game file."""

from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from aare.cli.main import cli
from aare.game_file import load_game


def new_file(tmp_path: Path) -> Path:
    path = tmp_path / "game.json"
    result = CliRunner().invoke(cli, ["new", "--rules", "lhtr-1.3", "--seed", "5", "-o", str(path)])
    assert result.exit_code == 0, result.output
    return path


def bot(*args: str) -> str:
    result = CliRunner().invoke(cli, ["bot", *args])
    assert result.exit_code == 0, result.output
    return result.output


def test_without_until_round_the_bot_plays_the_current_turn(tmp_path: Path) -> None:
    path = new_file(tmp_path)
    output = bot(str(path), "--bot", "greedy")
    state = load_game(path).state  # the written file is checked: every entry plays again
    assert (state.round, state.nation, state.phase) == (1, "Germany", "develop-weapons")
    assert "greedy played" in output
    entries = load_game(path).entries
    assert entries and all((e.action or {}).get("type") != "concede" for e in entries)


def test_until_round_plays_every_power_until_that_round_begins(tmp_path: Path) -> None:
    path = new_file(tmp_path)
    bot(str(path), "--bot", "greedy", "--until-round", "2")
    state = load_game(path).state
    assert (state.round, state.nation) == (2, "Russia")


def test_the_bot_plays_only_the_powers_named(tmp_path: Path) -> None:
    path = new_file(tmp_path)
    bot(str(path), "--bot", "random", "--power", "Russia", "--until-round", "3")
    log = load_game(path)
    assert (log.state.round, log.state.nation) == (1, "Germany")  # it stops where Germany must decide
    assert {(e.action or {}).get("power", "Russia") for e in log.entries} <= {"Russia", ""}
    assert bot(str(path), "--bot", "greedy", "--power", "Russia").startswith("greedy played 0 action(s)")
