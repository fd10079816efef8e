"""A game file is evidence: every kind of edit is refused with exit 2, naming the entry; the untampered file loads.

Edits that leave the hash chain broken are caught by the chain. A forger who rebuilds the chain is caught by the
replay: every action is played again and must give the events recorded, and a seeded game's dice must be the
seed's. (A game whose dice came from the operating system cannot prove its rolls offline: docs/game-files.md.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from tests.files.tampering import EDITS, played, tampered

RULE = "LHTR-TURN-all-dice-in-conduct-combat"


@pytest.fixture(scope="module")
def game_file() -> dict[str, Any]:
    return played()


def _show(tmp_path: Path, data: dict[str, Any]) -> tuple[int, str]:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    result = CliRunner().invoke(cli, ["show", str(path)])
    return result.exit_code, result.output


def test_the_untampered_file_loads(tmp_path: Path, game_file: dict[str, Any]) -> None:
    code, out = _show(tmp_path, game_file)
    assert code == 0, out


@pytest.mark.rule(RULE)
@pytest.mark.parametrize("kind", sorted(EDITS))
@pytest.mark.parametrize("rebuild_chain", [False, True], ids=["chain-broken", "chain-rebuilt"])
def test_every_kind_of_edit_is_refused_naming_the_entry(tmp_path: Path, game_file: dict[str, Any], kind: str,
                                                       rebuild_chain: bool) -> None:
    data, entry = tampered(game_file, EDITS[kind], rebuild_chain)
    code, out = _show(tmp_path, data)
    assert code == 2, out
    assert f"entry {entry}" in out, out


def test_a_rolled_die_that_is_not_the_seeds_is_named(tmp_path: Path, game_file: dict[str, Any]) -> None:
    data, entry = tampered(game_file, EDITS["die"], rebuild_chain=True)
    code, out = _show(tmp_path, data)
    assert code == 2 and f"entry {entry}" in out and "seeded dice give" in out, out
