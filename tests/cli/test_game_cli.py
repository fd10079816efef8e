"""`aare new`, `aare show`, `aare board`: the machine-readable contracts and clean errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.cli.main import cli


def run(*args: str) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.rule(
    "LHTR-SETUP-starting-income", "LHTR-SETUP-starting-treasury", "LHTR-VICTORY-cities", "LHTR-TURN-power-order"
)
def test_new_lhtr_game_shows_banks_incomes_and_cities(tmp_path: Path) -> None:
    game = tmp_path / "game.json"
    code, out, _ = run("new", "--rules", "lhtr-1.3", "--seed", "5", "-o", str(game))
    assert code == 0, out
    code, out, _ = run("show", str(game), "--json")
    assert code == 0
    data = json.loads(out)
    assert (data["ruleset"], data["round"], data["nation"]) == ("lhtr-1.3", 1, "Russia")
    expected = {"Russia": 24, "Germany": 40, "United Kingdom": 30, "Japan": 30, "United States": 42}
    assert {n: v["bank"] for n, v in data["nations"].items()} == expected
    assert {n: v["income"] for n, v in data["nations"].items()} == expected
    assert sum(v["victory_cities"] for v in data["nations"].values()) == 12
    assert data["victory_cities"] == {"total": 12, "by_side": {"Allies": 6, "Axis": 6}}
    assert data["spaces"]["Germany"]["owner"] == "Germany"
    assert "infantry" in data["spaces"]["Germany"]["units"]
    code, out, _ = run("show", str(game))
    assert code == 0 and "Russia" in out and "Nations" in out


def test_options_are_stored_in_the_game(tmp_path: Path) -> None:
    game = tmp_path / "g.json"
    assert run("new", "--rules", "lhtr-1.3", "--option", "victory_cities=12", "-o", str(game))[0] == 0
    assert json.loads(run("show", str(game), "--json")[1])["options"]["victory_cities"] == 12


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("new", "--rules", "chess", "-o", "x.json"), "unknown ruleset 'chess'"),
        (("new", "--rules", "lhtr-1.3", "--option", "fog=yes", "-o", "x.json"), "unknown option(s) fog"),
        (("new", "--rules", "lhtr-1.3", "--option", "victory_cities=7", "-o", "x.json"), "must be one of"),
        (("show", "missing.json"), "no such file"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: tuple[str, ...], fragment: str, tmp_path: Path,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*args)
    assert code == 2
    assert fragment in err
    assert len(err.strip().splitlines()) == 1
    assert "Traceback" not in err + out


def test_malformed_game_file_is_rejected(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "aare-game", "format_version": 1, "entries": "x"}')
    code, _, err = run("show", str(bad))
    assert code == 2 and "entries must be a list" in err
    bad.write_text("[1, 2")
    assert run("show", str(bad))[0] == 2


def test_board_json_lists_every_space_with_neighbours() -> None:
    code, out, _ = run("board", "--rules", "lhtr-1.3", "--json")
    assert code == 0
    spaces = json.loads(out)["spaces"]
    assert len(spaces) == 143
    by_name = {s["name"]: s for s in spaces}
    assert set(spaces[0]) >= {"name", "kind", "ipc", "owner", "neighbors"}
    assert by_name["Germany"]["kind"] == "land" and by_name["Germany"]["ipc"] == 10
    assert "Germany" in by_name["Western Europe"]["neighbors"]
    assert sum(1 for s in spaces if s["kind"] == "sea") == 64


def test_rulesets_lists_options() -> None:
    code, out, _ = run("rulesets", "--json")
    assert code == 0
    keys = {o["key"] for r in json.loads(out) for o in r["option_specs"]}
    assert "victory_cities" in keys
