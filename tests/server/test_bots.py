"""Server-side bots: they play their seats after each human action, inline or on the background thread."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from aare.game_log import GameLog
from aare.server.api import create_app
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import NATIONS, LiveServer, Player

END = {"type": "end_phase"}


def play_round_one(player: Player, gid: str) -> dict[str, Any]:
    """End Russia's phases (answering any decision with the first legal action) while the bots play their seats,
    until round 2; the view then."""
    while player.view(gid)["state"]["round"] == 1:
        view = player.view(gid)
        assert view["to_act"] == "Russia" and view["your_turn"], view["bot_error"]
        action = END
        if view["state"]["pending"] is not None:  # e.g. Russia defends and chooses its casualties
            legal = player.http.get(f"/games/{gid}/legal").json()
            assert legal["your_turn"] and legal["actions"]
            action = legal["actions"][0]
        answer = player.act(gid, action, view["version"])
        assert answer.status_code == 200, answer.text
    return player.view(gid)


def test_bots_play_their_seats_after_a_human_action(player: Player) -> None:
    seats = {n: "random" for n in NATIONS} | {"Russia": "me"}
    game = player.new_game(seats)
    gid = game["id"]
    view = play_round_one(player, gid)
    assert view["state"]["round"] == 2 and view["to_act"] == "Russia" and view["your_turn"]
    export = player.http.get(f"/games/{gid}/export").json()
    actors = set(_actors(player, gid))
    assert {"bot:Germany", "bot:United Kingdom", "bot:Japan", "bot:United States"} <= actors
    assert GameLog.from_json(export).state.hash() == view["state_hash"]


def _actors(player: Player, gid: str) -> list[str]:
    with player.http.stream("GET", f"/games/{gid}/events", params={"after": 0}) as stream:
        actors = []
        total = player.view(gid)["version"]
        for line in stream.iter_lines():
            if line.startswith("data: "):
                message = json.loads(line[6:])
                actors.append(message["actor"])
                if message["version"] == total:
                    break
    return actors


def test_background_bots_play_and_resume_after_a_restart(tmp_path: Path) -> None:
    settings = Settings(sqlite_url(tmp_path), bot_mode="background")
    with LiveServer(settings) as first:
        owner = Player.register(first.url)
        game = owner.new_game(dict.fromkeys(NATIONS, "random"))
        deadline = time.monotonic() + 60
        while owner.view(game["id"])["version"] < 40 and time.monotonic() < deadline:
            time.sleep(0.1)
        reached = owner.view(game["id"])["version"]
        assert reached >= 40, owner.view(game["id"])["bot_error"]
        owner.http.close()
    with LiveServer(settings) as second:  # the same database: bots pick the game up again
        watcher = Player.register(second.url)
        deadline = time.monotonic() + 60
        while watcher.view(game["id"])["version"] < reached + 20 and time.monotonic() < deadline:
            time.sleep(0.1)
        view = watcher.view(game["id"])
        assert view["version"] >= reached + 20, view["bot_error"]
        export = watcher.http.get(f"/games/{game['id']}/export").json()
        assert GameLog.from_json(export).state.version >= reached + 20
        watcher.http.close()


def _end_turn(player: Player, gid: str, nation: str) -> None:
    """Play `nation`'s turn to its end: end every phase (taking the first legal choice when one is pending)."""
    while (view := player.view(gid))["to_act"] == nation:
        action = END
        if view["state"]["pending"] is not None:
            action = player.http.get(f"/games/{gid}/legal").json()["actions"][0]
        answer = player.act(gid, action, view["version"])
        assert answer.status_code == 200, answer.text


def test_resume_bots_after_a_bot_error(server: LiveServer, player: Player, other_player: Player) -> None:
    gid = player.new_game({n: "random" for n in NATIONS} | {"Russia": "open"})["id"]  # the creator holds no seat
    assert other_player.post(f"/games/{gid}/seats/Russia/take").status_code == 204
    server.service.record_bot_error(gid, "x")
    assert other_player.view(gid)["bot_error"] == "x"
    _end_turn(other_player, gid, "Russia")
    stopped = other_player.view(gid)
    assert stopped["to_act"] == "Germany" and stopped["bot_error"] == "x"  # the bots wait
    stranger = Player.register(server.url)
    refused = stranger.post(f"/games/{gid}/bots/resume")
    assert refused.status_code == 403 and refused.json()["error"] == "forbidden"
    assert stranger.post("/games/no-such-game/bots/resume").status_code == 404
    stranger.http.close()
    assert other_player.view(gid)["bot_error"] == "x"
    assert other_player.post(f"/games/{gid}/bots/resume").status_code == 204  # a seated player
    moved = other_player.view(gid)
    assert moved["bot_error"] is None
    assert moved["to_act"] == "Russia" and moved["version"] > stopped["version"]
    server.service.record_bot_error(gid, "y")
    assert player.post(f"/games/{gid}/bots/resume").status_code == 204  # the creator
    assert player.view(gid)["bot_error"] is None


def test_openapi_documents_resuming_bots(tmp_path: Path) -> None:
    spec = create_app(Settings(sqlite_url(tmp_path), bot_mode="off")).openapi()
    resume = spec["paths"]["/games/{game_id}/bots/resume"]["post"]
    assert resume["summary"] and {"204", "401", "403", "404"} <= set(resume["responses"])
