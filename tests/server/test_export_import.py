"""Export and import: a server game as a game file, and a game file brought onto the server."""

from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from aare.cli.main import cli
from aare.engine import Game
from aare.game_log import GameLog, load_log
from aare.game_setup import new_game
from aare.server.verify import verify_export
from tests.server.conftest import Player

END = {"type": "end_phase"}


def file_game() -> GameLog:
    """A game played offline: Russia researches (seeded dice) and ends two phases."""
    game = Game(new_game("lhtr-1.3", seed=5))
    for action in ({"type": "research", "dice": 1, "tech": "rockets"}, END, END):
        game.apply(action)
    return game.log


def test_export_is_a_game_file(player: Player, tmp_path: Path) -> None:
    game = player.new_game()
    for version in range(3):
        assert player.act(game["id"], END, version).status_code == 200
    export = player.http.get(f"/games/{game['id']}/export").json()
    path = tmp_path / "export.json"
    path.write_text(json.dumps(export))
    log = load_log(path)
    assert log.state.hash() == player.view(game["id"])["state_hash"]
    assert [e.action for e in log.entries] == [END] * 3
    assert export["server"]["game_id"] == game["id"]
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0 and "Russia" in shown.output


def test_import_brings_a_file_game_onto_the_server(player: Player) -> None:
    log = file_game()
    answer = player.post("/games/import", {"game": log.to_json(), "seats": {"Russia": "me"}})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert game["version"] == 3 and game["state_hash"] == log.state.hash()
    assert game["to_act"] == "Russia" and game["your_turn"]
    assert player.act(game["id"], END, 3).status_code == 200
    export = player.http.get(f"/games/{game['id']}/export").json()
    assert export["entries"][:3] == log.to_json()["entries"]
    report = verify_export(export)
    assert report.ok, report.problems
    assert report.unverifiable_entries == 3  # dice rolled before the import came from the file's own seed


def test_import_rejects_a_file_that_does_not_replay(player: Player) -> None:
    raw = file_game().to_json()
    raw["state_hash"] = "0" * 64
    answer = player.post("/games/import", {"game": raw})
    assert answer.status_code == 400
    assert answer.json()["error"] == "replay_mismatch"
    assert player.post("/games/import", {"game": {"format": "something else"}}).status_code == 400
