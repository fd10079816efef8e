"""Two server processes on one database (as `aare serve --workers 2` runs): each trusts the game and seats it
saw last, and the write checks that they still hold, so what one worker does is never undone or ignored by the
other."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from aare.server import timing
from aare.server.login_cache import LoginCache
from aare.server.settings import Settings
from tests.server.conftest import NATIONS, LiveServer, Player

END = {"type": "end_phase"}


@pytest.fixture(scope="module")
def second(database_url: str, server: LiveServer) -> Iterator[LiveServer]:
    """Another server on the same database as `server`, with its own caches."""
    with LiveServer(Settings(database_url, bot_mode="inline")) as live:
        yield live


def same_user_on(worker: LiveServer, player: Player) -> Player:
    """`player`'s session, talking to `worker`."""
    return Player(httpx.Client(base_url=worker.url, cookies=player.http.cookies, timeout=60), player.username,
                  player.csrf)


def entries(player: Player, game_id: str) -> list[Any]:
    return [e["action"] for e in player.http.get(f"/games/{game_id}/export").json()["entries"]]


def test_a_worker_catches_up_with_moves_made_on_the_other(player: Player, second: LiveServer) -> None:
    game = player.new_game()
    assert player.act(game["id"], END, 0).status_code == 200  # this worker now holds version 1 in its cache
    other = same_user_on(second, player)
    assert other.act(game["id"], END, 1).status_code == 200  # the other worker moves the game to version 2
    stale = player.act(game["id"], END, 1)
    assert stale.status_code == 409 and stale.json()["version"] == 2
    current = player.act(game["id"], END, 2)
    assert current.status_code == 200, current.text
    assert current.json()["version"] == 3
    assert entries(player, game["id"]) == [END] * 3
    other.http.close()


def test_a_history_rewritten_on_the_other_worker_is_not_built_upon(player: Player, second: LiveServer) -> None:
    game = player.new_game()
    gid = game["id"]
    assert player.act(gid, END, 0).status_code == 200  # Russia's purchase
    buy_infantry = {"type": "purchase", "units": "1 infantry"}
    buy_armour = {"type": "purchase", "units": "1 armour"}
    assert player.act(gid, buy_infantry, 1).status_code == 200  # this worker caches version 2 after infantry
    other = same_user_on(second, player)
    assert other.post(f"/games/{gid}/undo", {"version": 2}).status_code == 200
    assert other.act(gid, buy_armour, 1).status_code == 200  # version 2 again, with another history
    answer = player.act(gid, END, 2)  # this worker's cached version 2 is not the stored one
    assert answer.status_code == 200, answer.text
    assert entries(player, gid) == [END, buy_armour, END]
    view = player.view(gid)
    assert view["state_hash"] == answer.json()["state_hash"]
    other.http.close()


def test_seats_changed_on_the_other_worker_count_at_once(player: Player, other_player: Player,
                                                         second: LiveServer) -> None:
    game = player.new_game({"Russia": "open"} | {n: "me" for n in NATIONS[1:]})
    gid = game["id"]
    assert other_player.act(gid, END, 0).status_code == 403  # this worker now knows Russia's seat as open
    there = same_user_on(second, other_player)
    assert there.post(f"/games/{gid}/seats/Russia/take").status_code == 204
    assert other_player.act(gid, END, 0).status_code == 200  # taken on the other worker: good here too
    assert there.post(f"/games/{gid}/seats/Russia/leave").status_code == 204
    refused = other_player.act(gid, END, 1)  # this worker last saw the seat held by this player
    assert refused.status_code == 403, refused.text
    assert entries(player, gid) == [END]
    there.http.close()


def test_an_action_answer_says_where_the_time_went(player: Player) -> None:
    game = player.new_game()
    answer = player.act(game["id"], END, 0)
    spans = timing.parse(answer.headers["server-timing"])
    assert {"app", "rules", "store"} <= set(spans) and all(v >= 0 for v in spans.values())
    assert spans["app"] >= spans["store"]


def test_timing_header_round_trip() -> None:
    assert timing.parse(timing.header(12.5, {"rules": 1.25, "store": 3.0})) == {"app": 12.5, "rules": 1.25,
                                                                               "store": 3.0}
    assert timing.parse("cache;desc=hit, app;dur=2") == {"app": 2.0}


def test_login_cache_forgets_after_its_time_and_when_cleared(monkeypatch: pytest.MonkeyPatch) -> None:
    now = [100.0]
    monkeypatch.setattr("aare.server.login_cache.time.monotonic", lambda: now[0])
    cache = LoginCache(ttl=2.0, size=2)
    cache.put("token", "a", "alice")
    assert cache.get("token", "a") == "alice" and cache.get("session", "a") is None
    now[0] += 2.5
    assert cache.get("token", "a") is None
    cache.put("token", "a", "alice")
    cache.put("token", "b", "bob")
    cache.put("token", "c", "carol")  # the oldest goes
    assert cache.get("token", "a") is None and cache.get("token", "c") == "carol"
    cache.clear()
    assert cache.get("token", "c") is None
    off = LoginCache(ttl=0)
    off.put("token", "a", "alice")
    assert off.get("token", "a") is None
