"""`aare odds --battle raid|rocket`: the damage report in text, JSON and SVG."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.cli.main import cli


def run(*args: str) -> tuple[int, str]:
    res = CliRunner().invoke(cli, ["odds", *args])
    return res.exit_code, res.output


@pytest.mark.rule("LHTR-AA-sbr-fire")
@pytest.mark.rule("LHTR-SBR-turn-cap")
def test_raid_json_and_plot(tmp_path: Path) -> None:
    plot = tmp_path / "damage.svg"
    code, out = run("--rules", "lhtr-1.3", "--battle", "raid", "--attacker", "1 bomber", "--territory-value", "4",
                    "--json", "--plot", str(plot))  # fmt: skip
    assert code == 0, out
    data = json.loads(out)
    assert data["expected_damage"] == pytest.approx(2.5)
    expected = {0: 6 / 36, 1: 5 / 36, 2: 5 / 36, 3: 5 / 36, 4: 15 / 36}
    assert {row["damage"]: row["p"] for row in data["damage"]} == pytest.approx(expected)
    assert [row["damage"] for row in data["damage"]] == sorted(expected)
    assert data["attacker_ipc_lost"] == pytest.approx(2.5)
    svg = plot.read_text()
    assert svg.startswith("<svg") and 'xmlns="http://www.w3.org/2000/svg"' in svg and 'class="damage"' in svg


@pytest.mark.rule("LHTR-SBR-damage-roll")
@pytest.mark.rule("LHTR-ECON-economic-damage-from-treasury")
def test_raid_text_without_aa_and_treasury_cap() -> None:
    code, out = run("--rules", "lhtr-1.3", "--battle", "bombing", "--attacker", "2 bombers", "--no-aa",
                    "--treasury", "3")  # fmt: skip
    assert code == 0, out
    assert f"{(2 + 3 * 35) / 36:.4f} IPC expected" in out and "2 bombers" in out and "IPC lost: attacker 0.00" in out
    assert "attacker_win" not in out


@pytest.mark.rule("AARE-TECH-jet-intercept-roll")
@pytest.mark.rule("AARE-TECH-rockets-cap")
def test_rocket_text_and_monte_carlo() -> None:
    code, out = run("--rules", "aare-5.0", "--battle", "rocket", "--defender", "1 fighter", "--defender-tech",
                    "jet_fighters", "--territory-value", "6")  # fmt: skip
    assert code == 0, out
    assert f"{5 / 6 * 3.5:.4f} IPC expected" in out and "survivors" not in out
    code, out = run("--rules", "lhtr-1.3", "--battle", "rocket", "--method", "mc", "--runs", "600", "--json")
    assert code == 0, out
    data = json.loads(out)
    assert data["method"] == "mc" and "expected_damage" in data["ci95"]
    assert {row["damage"] for row in data["damage"]} == set(range(1, 7))


@pytest.mark.rule("LHTR-SBR-eligibility")
def test_illegal_raid_exits_2() -> None:
    code, out = run("--rules", "lhtr-1.3", "--battle", "raid", "--attacker", "1 bomber, 1 fighter")
    assert code == 2 and "only bombers may raid" in out
    code, out = run("--rules", "aare-5.0", "--battle", "raid", "--attacker", "1 bomber", "--defender", "1 fighter")
    assert code == 2 and "jet_fighters" in out


def test_land_battle_still_takes_defender_aa_flag() -> None:
    code, out = run("--attacker", "1 infantry, 1 fighter", "--defender", "1 infantry", "--defender-aa", "--explain")
    assert code == 0 and "aa fire" in out and "damage" not in out
