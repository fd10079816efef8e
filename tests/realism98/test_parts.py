"""The ruleset lists the parts of the full Enhanced Realism rules and which of them it implements."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.rules.ruleset import load_ruleset

PARTS = [
    ("Introduction & Overview", False),
    ("Section I: Basic Rule Changes", True),
    ("Section II: Artillery", False),
    ("Section III: Combat Losses", False),
    ("Section IV: Advanced Air Power Rules", False),
    ("Section V: Advanced Naval Rules", False),
    ("Section VI: Advanced Retreat Rules", False),
    ("Section VII: Industrial Capacity & Scenarios", False),
    ("Section VIII: History & Politics", False),
    ("Section IX: Revised Action Sequence", False),
    ("Advanced Weapons Development", False),
    ("Section X: Game Turn Time-line Analysis", False),
    ("Frequently Asked Questions", False),
]


@pytest.mark.rule("REAL98-ABSENT-contents-table", "REAL98-META-scope")
def test_the_thirteen_parts_with_their_presence() -> None:
    described = load_ruleset("realism-98").describe()
    assert [(p["name"], p["present"]) for p in described["parts"]] == PARTS
    assert "parts" not in load_ruleset("classic-2e").describe()


@pytest.mark.rule("REAL98-ABSENT-contents-table")
def test_aare_rulesets_shows_the_parts() -> None:
    result = CliRunner().invoke(cli, ["rulesets", "--json"])
    assert result.exit_code == 0, result.output
    realism = next(r for r in json.loads(result.output) if r["id"] == "realism-98")
    assert len(realism["parts"]) == 13
    text = CliRunner().invoke(cli, ["rulesets"]).output
    assert "Section I: Basic Rule Changes (in the ruleset)" in " ".join(text.split())
