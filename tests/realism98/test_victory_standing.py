"""How victory stands in an Enhanced Realism '98 game: by surrender only, in `aare show` (text and --json) and on
the online table, where the Classic rules show capitals and an income level."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from aare.cli.main import cli
from aare.game_log import save_log
from aare.game_setup import new_game
from tests.web.test_pages import CSRF, client, create, player, server  # noqa: F401  (fixtures)

RULES = "realism-98"
SURRENDER = {"kind": "surrender", "rule_id": "REAL98-VICTORY-surrender", "text": "victory: by surrender only"}


@pytest.mark.rule("REAL98-VICTORY-surrender")
def test_show_says_victory_comes_by_surrender_only(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_log(new_game(RULES, None, 1), path)
    out = CliRunner().invoke(cli, ["show", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["victory"] == {"standing": [SURRENDER]}
    out = CliRunner().invoke(cli, ["show", str(path)])
    assert out.exit_code == 0, out.output
    assert "victory: by surrender only" in out.output
    assert "capitals held" not in out.output and "income level" not in out.output
    assert "victory cities" not in out.output


@pytest.mark.rule("REAL98-VICTORY-surrender")
def test_the_table_says_victory_comes_by_surrender_only(player: TestClient) -> None:  # noqa: F811
    game_id = create(player, CSRF[0], ruleset=RULES)
    side = player.get(f"/play/{game_id}/side").text
    nations = side[side.index('id="nations"'):side.index('id="seats"')]
    assert "victory: by surrender only" in nations
    assert "capitals held" not in nations and "Victory cities" not in nations
