"""Live updates: server-sent events per game, in-process and through Redis across two workers."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path
from typing import Any

import httpx

from aare.server.broker import LocalBroker, RedisBroker
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import LiveServer, Player

END = {"type": "end_phase"}


class EventReader:
    """Reads a game's event stream on a thread until it has `count` events."""

    def __init__(self, url: str, count: int, headers: dict[str, str] | None = None,
                 params: dict[str, Any] | None = None) -> None:
        self.url, self.count, self.headers, self.params = url, count, headers or {}, params or {}
        self.events: list[tuple[str, str, dict[str, Any]]] = []
        self.ready = threading.Event()
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._read, daemon=True)

    def __enter__(self) -> EventReader:
        self.thread.start()
        assert self.ready.wait(15), "the event stream did not open"
        return self

    def __exit__(self, *exc: object) -> None:
        self.thread.join(timeout=20)

    def _read(self) -> None:
        try:
            with httpx.stream("GET", self.url, headers=self.headers, params=self.params, timeout=20) as stream:
                assert stream.headers["content-type"].startswith("text/event-stream")
                fields: dict[str, str] = {}
                for line in stream.iter_lines():
                    if line.startswith("retry:"):
                        self.ready.set()  # sent once the subscription is live
                    elif line.startswith(("id: ", "event: ", "data: ")):
                        key, _, value = line.partition(": ")
                        fields[key] = value
                    elif line == "" and "data" in fields:
                        self.events.append((fields["id"], fields["event"], json.loads(fields["data"])))
                        fields = {}
                        if len(self.events) >= self.count:
                            return
        except BaseException as exc:  # reported by the test
            self.error = exc
            self.ready.set()


def test_event_stream_pushes_each_new_entry(server: LiveServer, player: Player) -> None:
    game = player.new_game()
    with EventReader(f"{server.url}/games/{game['id']}/events", 3) as reader:
        for version in range(3):
            assert player.act(game["id"], END, version).status_code == 200
    assert reader.error is None
    assert [(i, kind) for i, kind, _ in reader.events] == [("1", "entry"), ("2", "entry"), ("3", "entry")]
    assert [m["seq"] for _, _, m in reader.events] == [0, 1, 2]
    assert reader.events[-1][2]["state_hash"] == player.view(game["id"])["state_hash"]


def test_event_stream_resumes_after_last_event_id(server: LiveServer, player: Player) -> None:
    game = player.new_game()
    for version in range(4):
        assert player.act(game["id"], END, version).status_code == 200
    with EventReader(f"{server.url}/games/{game['id']}/events", 3, headers={"Last-Event-ID": "1"}) as reader:
        pass
    assert [m["version"] for _, _, m in reader.events] == [2, 3, 4]
    with EventReader(f"{server.url}/games/{game['id']}/events", 5, params={"after": 0}) as reader:
        assert player.act(game["id"], END, 4).status_code == 200
    assert [m["version"] for _, _, m in reader.events] == [1, 2, 3, 4, 5]


def test_event_stream_reports_undo(server: LiveServer, player: Player) -> None:
    game = player.new_game()
    assert player.act(game["id"], END, 0).status_code == 200
    with EventReader(f"{server.url}/games/{game['id']}/events", 2) as reader:
        assert player.act(game["id"], {"type": "purchase", "units": "1 infantry"}, 1).status_code == 200
        assert player.post(f"/games/{game['id']}/undo", {"version": 2}).status_code == 200
    assert [(kind, m["version"]) for _, kind, m in reader.events] == [("entry", 2), ("undo", 1)]
    with EventReader(f"{server.url}/games/{game['id']}/events", 1, headers={"Last-Event-ID": "2"}) as reader:
        pass  # the client saw version 2, which was taken back: it is told
    assert [(kind, m["version"]) for _, kind, m in reader.events] == [("undo", 1)]


def test_local_broker_delivers_to_subscribers_of_the_game() -> None:
    broker = LocalBroker()

    async def scenario() -> list[Any]:
        async with broker.subscribe("g1") as one, broker.subscribe("g2") as other:
            await asyncio.to_thread(broker.publish, "g1", {"kind": "entry", "version": 1})
            return [await one.get(2), await other.get(0.2)]

    assert asyncio.run(scenario()) == [{"kind": "entry", "version": 1}, None]


def test_redis_broker_reaches_another_worker(redis_url: str) -> None:
    worker_a, worker_b = RedisBroker(redis_url), RedisBroker(redis_url)

    async def scenario() -> list[Any]:
        async with worker_b.subscribe("game-x") as sub, worker_a.subscribe("game-x") as own:
            worker_a.publish("game-x", {"kind": "entry", "version": 7})
            worker_a.publish("game-y", {"kind": "entry", "version": 8})
            return [await sub.get(5), await own.get(5), await sub.get(0.3)]

    try:
        assert asyncio.run(scenario()) == [{"kind": "entry", "version": 7}, {"kind": "entry", "version": 7}, None]
    finally:
        worker_a.close()
        worker_b.close()


def test_two_servers_share_live_updates_through_redis(redis_url: str, tmp_path: Path) -> None:
    """Two server processes' worth of app on one database: an action on one reaches a stream on the other."""
    settings = Settings(sqlite_url(tmp_path), redis_url=redis_url, bot_mode="off")
    with LiveServer(settings) as one, LiveServer(settings) as two:
        player = Player.register(one.url)
        game = player.new_game()
        with EventReader(f"{two.url}/games/{game['id']}/events", 2) as reader:
            assert player.act(game["id"], END, 0).status_code == 200
            assert player.act(game["id"], END, 1).status_code == 200
        assert reader.error is None
        assert [m["version"] for _, _, m in reader.events] == [1, 2]
        player.http.close()


def test_an_unreadable_last_event_id_is_ignored(server: LiveServer, player: Player) -> None:
    """Found by fuzzing-minded review: `"²".isdigit()` is true and `int` cannot read it (nor 5000 digits); such
    an id was a 500, it is now ignored like any other unreadable id (the stream starts from now)."""
    game = player.new_game()
    for odd in ("²".encode("latin-1"), b"9" * 5000, b"-1", b"1.5"):
        with httpx.stream("GET", f"{server.url}/games/{game['id']}/events", headers={"Last-Event-ID": odd},
                          timeout=20) as stream:
            assert stream.status_code == 200, odd
            assert stream.headers["content-type"].startswith("text/event-stream")
