"""`aare ladder add-result` and `aare ladder table`: output, default file, clean one-line errors."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from aare.cli.main import cli


def run(*args: str, env: dict[str, str] | None = None) -> tuple[int, str, str]:
    result = CliRunner().invoke(cli, list(args), env=env)
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.rule("AARE-RANK-path-to-first", "AARE-RANK-title-match")
def test_add_results_and_show_the_table(tmp_path: Path) -> None:
    path = str(tmp_path / "ladder.json")
    for winner, loser in [("ann", "bob"), ("cy", "dee"), ("eve", "ann")]:
        code, out, err = run("ladder", "add-result", winner, loser, "--file", path)
        assert code == 0, err
    assert out.strip() == "eve 5 -> 1, ann 1 -> 2"  # 5 beats 1: eve is 1
    code, out, _ = run("ladder", "add-result", "bob", "eve", "--file", path, "--title-match", "--json")
    assert code == 0 and json.loads(out)["title_match"] is True
    code, out, _ = run("ladder", "table", "--file", path, "--json")
    data = json.loads(out)
    assert code == 0 and data["champion"] == "bob" and data["results"] == 4
    assert [p["rank"] for p in data["players"]] == [1, 2, 3, 4, 5]
    assert {p["name"] for p in data["players"]} == {"ann", "bob", "cy", "dee", "eve"}
    code, out, _ = run("ladder", "table", "--file", path)
    assert code == 0 and "eve" in out and "champion" in out and "AARe power ranking" in out


def test_default_file_in_cwd_and_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AARE_LADDER_FILE", raising=False)
    assert run("ladder", "add-result", "ann", "bob")[0] == 0
    assert (tmp_path / "ladder.json").is_file()
    other = str(tmp_path / "other.json")
    assert run("ladder", "add-result", "cy", "dee", env={"AARE_LADDER_FILE": other})[0] == 0
    code, out, _ = run("ladder", "table", "--json", env={"AARE_LADDER_FILE": other})
    assert code == 0 and [p["name"] for p in json.loads(out)["players"]] == ["cy", "dee"]


@pytest.mark.parametrize(
    "content",
    ["{oops", '{"format": "aare-ladder", "version": 1, "players": ["a", "a"], "results": []}', '{"players": 3}'],
)
@pytest.mark.parametrize("command", ["table", "add-result"])
def test_malformed_ladder_file_is_one_line_exit_2(tmp_path: Path, content: str, command: str) -> None:
    path = tmp_path / "ladder.json"
    path.write_text(content)
    args = ["ladder", command, "--file", str(path)] + (["x", "y"] if command == "add-result" else [])
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("error: ") and len(err.strip().splitlines()) == 1
    assert path.read_text() == content


@pytest.mark.parametrize(
    ("args", "fragment"),
    [
        (("ladder", "table"), "no such file"),
        (("ladder", "add-result", "ann", "ann"), "cannot play himself"),
        (("ladder", "add-result", " ", "ann"), "bad player name"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, args: tuple[str, ...], fragment: str
) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AARE_LADDER_FILE", raising=False)
    code, _, err = run(*args)
    assert code == 2 and fragment in err and len(err.strip().splitlines()) == 1
    assert not (tmp_path / "ladder.json").exists()


@pytest.mark.rule("AARE-RANK-title-match")
def test_title_match_without_the_champion_is_refused(tmp_path: Path) -> None:
    path = str(tmp_path / "ladder.json")
    assert run("ladder", "add-result", "ann", "bob", "--file", path, "--title-match")[0] == 0
    code, _, err = run("ladder", "add-result", "cy", "bob", "--file", path, "--title-match")
    assert code == 2 and "'ann' holds the belt" in err
