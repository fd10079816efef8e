"""A small ledger folder for the ledger tooling tests."""

from __future__ import annotations

from pathlib import Path

import pytest

LEDGERS = {
    "a.yaml": """\
- id: AAA-ONE-first
  title: First rule
  rule: Something holds.
  phase: [purchase]
  test_idea: Check it.
  ambiguity: Read it the obvious way.
- id: AAA-ONE-second
  title: Second rule
  rule: Something else holds.
  phase: [combat-move, any]
  test_idea: Check that too.
- id: AAA-TWO-third
  title: Third rule
  rule: {table: [1, 2]}
  phase: [any]
  test_idea: Look it up.
- id: AAA-TWO-gone
  title: Missing text
  rule: Not in the source.
  phase: [any]
  test_idea: None.
  status: absent-from-seed
""",
    "b.yaml": """\
- id: BBB-X-alpha
  title: Alpha
  rule: Alpha rule.
  phase: [setup]
  test_idea: Alpha test.
- id: BBB-X-beta
  title: Beta
  rule: Not written yet.
  phase: [setup]
  test_idea: None.
  status: under-construction
""",
    "c.yaml": """\
- id: CCC-Z-lonely
  title: Lonely
  rule: Nobody tests this.
  phase: [mobilize]
  test_idea: Some day.
""",
}


def write_ledgers(folder: Path, ledgers: dict[str, str] = LEDGERS) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, text in ledgers.items():
        (folder / name).write_text(text, encoding="utf-8")
    return folder


@pytest.fixture
def ledger_dir(tmp_path: Path) -> Path:
    """A folder with ledgers a.yaml (one item absent-from-seed), b.yaml (one under-construction), c.yaml."""
    return write_ledgers(tmp_path / "rules")
