"""Server-side bots: they play their seats after each human action, inline or on the background thread."""

from __future__ import annotations

import json
import time
from pathlib import Path

from aare.game_log import GameLog
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import NATIONS, LiveServer, Player

END = {"type": "end_phase"}


def test_bots_play_their_seats_after_a_human_action(player: Player) -> None:
    seats = {n: "random" for n in NATIONS} | {"Russia": "me"}
    game = player.new_game(seats)
    gid = game["id"]
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
    view = player.view(gid)
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
