"""Self-play: short random games keep every invariant and replay bit for bit; bots and the CLI."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.ai import NoLegalAction, PassBot, RandomBot, make_bot
from aare.cli.main import cli
from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.rules.ruleset import load_spec
from aare.selfplay import play_game, random_options


@pytest.mark.rule("LHTR-TURN-power-order", "LHTR-TURN-phase-sequence")
def test_random_games_keep_the_invariants_and_replay_exactly() -> None:
    for seed in (11, 12, 13):
        result = play_game(seed=seed, rounds=3)
        assert result.violations == [] and result.rounds_played == 3
        log = result.log
        assert log.replay().hash() == log.state.hash()
        assert GameLog.from_json(json.loads(json.dumps(log.to_json()))).state.hash() == log.state.hash()
        assert (log.state.round, log.state.nation) == (4, "Russia")
        assert any(e.action and e.action["type"] == "place" for e in log.entries)


def test_the_same_seed_plays_the_same_game() -> None:
    a, b = play_game(seed=5, rounds=2), play_game(seed=5, rounds=2)
    assert a.log.state.hash() == b.log.state.hash() and a.actions == b.actions


@pytest.mark.rule("LHTR-SETUP-bid-placement", "LHTR-SETUP-first-round")
def test_a_game_with_bids_plays_cleanly() -> None:
    result = play_game(seed=3, rounds=2, options={"bid_axis": 12, "bid_allies": 7})
    assert result.violations == [] and result.rounds_played == 2
    assert any(e.action and e.action["type"] == "place" for e in result.log.entries[:6])


def test_the_pass_bot_only_ends_phases() -> None:
    result = play_game(seed=1, rounds=2, bot=PassBot())
    assert result.violations == [] and result.rounds_played == 2
    assert {e.action["type"] for e in result.log.entries if e.action} == {"end_phase"}
    assert result.log.state.banks["Germany"] == 40 + 2 * 40


class StuckBot:
    name = "stuck"

    def choose(self, game: Game) -> Any:
        raise NoLegalAction("nothing to do")


def test_dead_ends_are_backed_out_and_reported() -> None:
    result = play_game(seed=1, rounds=1, bot=StuckBot(), max_stuck=3)
    assert result.stuck == ["nothing to do"] * 4 and result.violations == []
    assert result.log.state.phase == "conduct-combat"  # three phases were ended for it, then play stopped


def test_bots_choose_legal_actions() -> None:
    game = Game(new_game("lhtr-1.3", seed=2))
    bot = RandomBot(4, end_probability=0.0)
    for _ in range(60):
        action = bot.choose(game)
        assert game.is_legal(action)
        game.apply(action)
    with pytest.raises(ValueError):
        make_bot("clever")


def test_selfplay_command_reports_json() -> None:
    result = CliRunner().invoke(cli, ["selfplay", "--games", "2", "--rounds", "1", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert {"games", "finished", "rounds_played", "winners", "invariant_violations", "seconds_per_game"} <= set(report)
    assert report["games"] == 2 and report["invariant_violations"] == 0
    table = CliRunner().invoke(cli, ["selfplay", "--games", "1", "--rounds", "1", "--bot", "pass"])
    assert table.exit_code == 0 and "invariant violations" in table.output


def test_selfplay_shows_progress_on_stderr_and_the_json_report_on_stdout(tmp_path: Path) -> None:
    aare = Path(sys.executable).with_name("aare")
    if not aare.exists():
        pytest.skip("the aare command is not installed")
    env = {**os.environ, "FORCE_COLOR": "1"}  # a terminal, as far as the progress bar can tell
    done = subprocess.run([str(aare), "selfplay", "--games", "2", "--rounds", "1", "--bot", "pass", "--json"],
                          capture_output=True, text=True, env=env, cwd=tmp_path, timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["games"] == 2  # stdout is the report alone
    assert "self-play" in done.stderr and "2/2" in done.stderr


def test_random_options_are_drawn_from_the_seed() -> None:
    drawn = [random_options("aa50e-1941", seed) for seed in range(40)]
    assert drawn[7] == random_options("aa50e-1941", 7)
    specs = {o.key: o for o in load_spec("aa50e-1941").option_specs}
    assert set(drawn[0]) == {k for k, o in specs.items() if o.type is bool or o.choices}  # bids keep their defaults
    for key in drawn[0]:
        values = {d[key] for d in drawn}
        assert values == ({False, True} if specs[key].type is bool else set(specs[key].choices)), key


def test_selfplay_command_draws_options_per_game() -> None:
    args = ["selfplay", "--rules", "aa50e-1942", "--games", "2", "--rounds", "1", "--seed", "4", "--bot", "pass",
            "--random-options", "--option", "national_advantages=true", "--json"]
    result = CliRunner().invoke(cli, args)
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert set(report["options_by_seed"]) == {"4", "5"} and report["replayed"] == 2
    for seed, options in report["options_by_seed"].items():
        assert options == {**random_options("aa50e-1942", int(seed)), "national_advantages": "true"}
