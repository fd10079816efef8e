"""The odds() API and the `aare odds` command."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.errors import MalformedInput
from aare.odds import odds


def test_api_accepts_text_or_counts() -> None:
    a = odds("2 infantry, 1 armour", "2 infantry")
    b = odds({"infantry": 2, "armour": 1}, {"infantry": 2})
    assert a.attacker_win == b.attacker_win
    with pytest.raises(MalformedInput):
        odds("2 dragons", "1 infantry")
    with pytest.raises(MalformedInput):
        odds("1 destroyer", "1 infantry")


def test_cli_json_contract(tmp_path: Path) -> None:
    plot = tmp_path / "s.svg"
    args = ["odds", "--rules", "lhtr-1.3", "--attacker", "3 infantry, 1 artillery, 2 armour, 1 fighter",
            "--defender", "4 infantry, 1 fighter", "--json", "--plot", str(plot), "--explain"]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    keys = ("method", "attacker_win", "defender_win", "draw", "stalemate", "expected_cycles", "attacker_ipc_lost")
    for key in (*keys, "defender_ipc_lost", "attacker_survivors", "defender_survivors", "seconds"):
        assert key in data
    assert "ci95" not in data and data["method"] == "exact"
    assert set(data["attacker_survivors"][0]) == {"units", "p"}
    assert plot.read_text().startswith("<svg")
    mc = CliRunner().invoke(cli, ["odds", "--attacker", "2 infantry", "--defender", "1 infantry", "--method", "mc",
                                  "--runs", "2000", "--seed", "5", "--json"])  # fmt: skip
    assert "ci95" in json.loads(mc.output)


def test_cli_amphibious_with_bombard_and_aa() -> None:
    args = ["odds", "--attacker", "2 infantry, 1 fighter", "--defender", "2 infantry", "--battle", "amphibious",
            "--bombard", "1 battleship", "--defender-aa", "--explain"]  # fmt: skip
    res = CliRunner().invoke(cli, args)
    assert res.exit_code == 0 and "bombardment" in res.output


def test_cli_bad_input_exits_2() -> None:
    res = CliRunner().invoke(cli, ["odds", "--attacker", "2 dragons", "--defender", "1 infantry"])
    assert res.exit_code == 2
    res = CliRunner().invoke(cli, ["odds", "--attacker", "1 battleship", "--defender", "1 infantry"])
    assert res.exit_code == 2


def test_monte_carlo_stands_in_when_the_exact_engine_runs_out_of_time() -> None:
    units = ("3 infantry, 1 armour, 1 fighter", "3 infantry, 1 fighter")
    exact = odds(*units, "aarhe")  # no limit through the API by default
    assert exact.method == "exact" and not exact.note
    rolled = odds(*units, "aarhe", exact_limit=1e-9, runs=300, seed=2)
    assert rolled.method == "mc" and rolled.runs == 300 and "too large for the exact method" in rolled.note
    assert rolled.ci95 is not None
    low, high = rolled.ci95["attacker_win"]
    assert low - 0.05 <= exact.attacker_win <= high + 0.05
    # a battle the fast paths solve never falls back
    assert odds("6 infantry, 3 armour", "8 infantry", "lhtr-1.3", exact_limit=1e-9).method == "exact"


def test_the_command_line_limits_the_exact_engine_and_says_so() -> None:
    args = ["odds", "--rules", "aarhe", "--attacker", "3 infantry, 1 armour, 1 fighter", "--defender",
            "3 infantry, 1 fighter", "--exact-limit", "0.000001", "--runs", "200"]
    out = CliRunner().invoke(cli, args).output
    assert "method: mc" in out and "raise --exact-limit" in out
    found = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert found["method"] == "mc" and found["runs"] == 200 and "too large" in found["note"]
    assert json.loads(CliRunner().invoke(cli, [*args[:-4], "--json"]).output)["method"] == "exact"
