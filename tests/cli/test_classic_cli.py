"""The command line with the Classic rulesets: `aare rulesets` lists them, `aare new` starts a game on the Classic
board, `aare odds --rules ...` calculates a battle with the Classic units."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.cli.main import cli

CLASSIC = ("classic-2e", "realism-98")


def run(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout


def test_the_rulesets_command_lists_both_classic_rulesets() -> None:
    code, out = run("rulesets")
    assert code == 0
    assert all(f"{ruleset}:" in out for ruleset in CLASSIC)


@pytest.mark.parametrize("ruleset", CLASSIC)
def test_a_new_game_on_the_classic_board(tmp_path: Path, ruleset: str) -> None:
    game = tmp_path / "game.json"
    code, out = run("new", "--rules", ruleset, "--seed", "3", "-o", str(game))
    assert code == 0, out
    code, out = run("show", str(game), "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["ruleset"], data["round"], data["nation"]) == (ruleset, 1, "Russia")
    assert data["spaces"]["East US"]["owner"] == "United States"
    assert data["victory_cities"]["total"] == 0


@pytest.mark.parametrize("ruleset", CLASSIC)
def test_the_calculator_runs_with_the_classic_units(ruleset: str) -> None:
    code, out = run("odds", "--rules", ruleset, "--attacker", "3 infantry, 2 armour", "--defender", "4 infantry",
                    "--json")
    assert code == 0, out
    odds = json.loads(out)
    assert odds["attacker_win"] + odds["defender_win"] + odds["draw"] == pytest.approx(1)
    code, out = run("odds", "--rules", ruleset, "--battle", "sea", "--attacker", "1 battleship, 1 submarine",
                    "--defender", "1 carrier, 1 fighter")
    assert code == 0, out
    code, out = run("odds", "--rules", ruleset, "--attacker", "2 artillery", "--defender", "1 infantry")
    assert code != 0  # no artillery in the Classic catalogue
