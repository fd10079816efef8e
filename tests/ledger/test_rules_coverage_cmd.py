"""`aare rules coverage`, `aare rules list` and `aare rules show`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from aare.cli import rules_cmd
from aare.cli.main import cli
from aare.ledger.ledger import default_ledger_dir


def _report(tmp_path: Path, passed: list[str], failed: list[str] | None = None, **tests: Any) -> Path:
    path = tmp_path / "report.json"
    path.write_text(json.dumps({"passed": passed, "failed": failed or [], "tests": tests}), encoding="utf-8")
    return path


def _invoke(*args: str) -> Result:
    return CliRunner().invoke(cli, ["rules", *args])


def test_coverage_json_shape(ledger_dir: Path, tmp_path: Path) -> None:
    report = _report(tmp_path, ["AAA-ONE-first", "AAA-TWO-third", "AAA-TWO-gone"], ["BBB-X-alpha"])
    result = _invoke("coverage", "--ledger", str(ledger_dir), "--report", str(report), "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == {
        "ledgers": {
            "a.yaml": {"items": 3, "proven": 2, "unproven": ["AAA-ONE-second"]},
            "b.yaml": {"items": 1, "proven": 0, "unproven": ["BBB-X-alpha"]},
            "c.yaml": {"items": 1, "proven": 0, "unproven": ["CCC-Z-lonely"]},
        },
        "unknown": [],
    }


def test_coverage_table(ledger_dir: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rules_cmd, "UNPROVEN_SHOWN", 1)
    (ledger_dir / "c.yaml").write_text(
        "- {id: CCC-Z-lonely, title: L, phase: [any]}\n- {id: CCC-Z-other, title: O, phase: [any]}\n",
        encoding="utf-8",
    )
    report = _report(tmp_path, ["AAA-ONE-first"])
    result = _invoke("coverage", "--ledger", str(ledger_dir), "--report", str(report), "--areas")
    assert result.exit_code == 0, result.output
    out = result.stdout
    for row in ("│ a.yaml ", "│ 3 ", "│ 1 ", "33.3%", "│ total ", "│ 6 ", "16.7%", "AAA-TWO", "BBB-X"):
        assert row in out
    assert "c.yaml: 2 unproven\n  CCC-Z-lonely\n  ... and 1 more (use --all)" in out
    result = _invoke("coverage", "--ledger", str(ledger_dir), "--report", str(report), "--all")
    assert "c.yaml: 2 unproven\n  CCC-Z-lonely\n  CCC-Z-other\n" in result.stdout
    assert "more (use --all)" not in result.stdout


def test_unknown_ids_exit_2_after_output(ledger_dir: Path, tmp_path: Path) -> None:
    report = _report(
        tmp_path,
        ["AAA-ONE-first", "AAA-ONE-frist"],
        ["ZZZ-Q-typo"],
        **{"t.py::test_x": {"outcome": "skipped", "rules": ["YYY-Q-skipped"]}},
    )
    result = _invoke("coverage", "--ledger", str(ledger_dir), "--report", str(report), "--json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["unknown"] == ["AAA-ONE-frist", "YYY-Q-skipped", "ZZZ-Q-typo"]
    assert data["ledgers"]["a.yaml"]["proven"] == 1
    assert "AAA-ONE-frist (closest known: AAA-ONE-first" in result.stderr
    human = _invoke("coverage", "--ledger", str(ledger_dir), "--report", str(report))
    assert human.exit_code == 2
    assert "│ a.yaml " in human.stdout and "ZZZ-Q-typo" in human.stderr


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (None, "cannot read rule report"),
        ("{not json", "rule report is not JSON"),
        ("[]", "must be a JSON object"),
        ('{"passed": "AAA-ONE-first", "failed": []}', "passed: expected a list of rule IDs"),
        ('{"passed": [], "failed": [], "tests": {"t": {"rules": 3}}}', "tests: t: expected a rules list"),
    ],
)
def test_bad_report(ledger_dir: Path, tmp_path: Path, content: str | None, message: str) -> None:
    path = tmp_path / "report.json"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    result = _invoke("coverage", "--ledger", str(ledger_dir), "--report", str(path))
    assert result.exit_code == 2
    assert result.stderr.startswith("error: ") and message in result.stderr
    assert result.stderr.count("\n") == 1


def test_bad_ledger_dir(tmp_path: Path) -> None:
    report = _report(tmp_path, [])
    result = _invoke("coverage", "--ledger", str(tmp_path / "missing"), "--report", str(report))
    assert result.exit_code == 2
    assert "missing: ledger: not a folder" in result.stderr


def test_list(ledger_dir: Path) -> None:
    result = _invoke("list", "--ledger", str(ledger_dir), "--area", "aaa-two", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout) == [
        {"id": "AAA-TWO-third", "title": "Third rule", "phase": ["any"], "ledger": "a.yaml", "status": None}
    ]
    result = _invoke("list", "--ledger", str(ledger_dir), "--all")
    assert result.exit_code == 0
    for item_id in ("AAA-ONE-first", "BBB-X-beta", "CCC-Z-lonely"):
        assert item_id in result.stdout
    result = _invoke("list", "--ledger", str(ledger_dir), "--area", "AAA-TOW")
    assert result.exit_code == 2 and "unknown area 'AAA-TOW' (closest known: AAA-TWO" in result.stderr


def test_show(ledger_dir: Path) -> None:
    result = _invoke("show", "--ledger", str(ledger_dir), "AAA-ONE-first")
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert out.startswith("AAA-ONE-first: First rule\n")
    assert "phase: purchase" in out
    assert "rule:\n  Something holds." in out
    assert "test idea:\n  Check it." in out
    assert "ambiguity:\n  Read it the obvious way." in out
    table = _invoke("show", "--ledger", str(ledger_dir), "AAA-TWO-third")
    assert "rule:\n  table:\n  - 1\n  - 2" in table.stdout
    missing = _invoke("show", "--ledger", str(ledger_dir), "AAA-ONE-frist")
    assert missing.exit_code == 2 and "closest known: AAA-ONE-first" in missing.stderr


def test_real_ledgers_all_listed(tmp_path: Path) -> None:
    folder = default_ledger_dir()
    if folder is None:
        pytest.skip("no shared rule ledgers next to this checkout")
    report = _report(tmp_path, [])
    result = _invoke("coverage", "--ledger", str(folder), "--report", str(report), "--json")
    assert result.exit_code == 0, result.output
    data = json.loads(result.stdout)
    files = sorted(p.name for p in folder.glob("*.yaml"))
    assert sorted(data["ledgers"]) == files
    assert len(files) >= 6
    for row in data["ledgers"].values():
        assert row["proven"] == 0 and len(row["unproven"]) == row["items"] > 0
    assert data["unknown"] == []


def test_without_ledgers_the_error_says_where_they_go(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("AARE_LEDGER_DIR", raising=False)
    monkeypatch.setattr(rules_cmd, "default_ledger_dir", lambda: None)
    monkeypatch.setattr(rules_cmd, "shared_ledger_dir", lambda: tmp_path / "shared" / "rules")
    result = _invoke("list", "--area", "LHTR-ECON")
    assert result.exit_code == 2
    message = result.stderr
    assert "../shared/rules" in message and str(tmp_path / "shared" / "rules") in message
    assert "--ledger DIR" in message and "AARE_LEDGER_DIR" in message
