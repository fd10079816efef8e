"""Any registered bot holds a seat: the API validates the bot's name, the runner keeps one bot per seat while the
game moves forward (a planning bot plans each phase once), and the server's time budget reaches the bots."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any, ClassVar

import pytest

from aare.ai import GreedyBot, bot_names, register_bot, unregister_bot
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.server.bots import BotCache, bot_step
from aare.server.live import LiveGame
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import LiveServer, Player
from tests.server.test_bots import play_round_one

COUNTING = "counting-greedy"
WORK = 12  # exact-odds evaluations per power-turn: small, and the same game on any machine


class CountingGreedy(GreedyBot):
    """`greedy`, noting every phase it plans and every action it is asked for."""

    name = COUNTING
    plans: ClassVar[list[tuple[Any, ...]]] = []
    chosen = 0
    made: ClassVar[list[tuple[float | None, int | None]]] = []

    def _make_plan(self, *args: Any, **kwargs: Any) -> list[Any]:
        assert self._cursor is not None
        CountingGreedy.plans.append(self._cursor)
        return super()._make_plan(*args, **kwargs)

    def choose(self, game: Any) -> Any:
        CountingGreedy.chosen += 1
        return super().choose(game)


def _counting(seed: int, budget: float | None, work: int | None) -> CountingGreedy:
    CountingGreedy.made.append((budget, work))
    return CountingGreedy(seed)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Bots inline (deterministic) with a small budget counted in work, and a counting `greedy` on offer."""
    register_bot(COUNTING, _counting)
    settings = Settings(sqlite_url(tmp_path_factory.mktemp("bot-seats")), bot_mode="inline",
                        register_address_limit=0, bot_seconds=30, bot_work=WORK)
    try:
        with LiveServer(settings) as live:
            yield live
    finally:
        unregister_bot(COUNTING)


@pytest.fixture
def player(server: LiveServer) -> Iterator[Player]:
    p = Player.register(server.url)
    yield p
    p.http.close()


def _published(player: Player, gid: str) -> list[dict[str, Any]]:
    """Every message the game's live stream publishes from the start, up to the current version."""
    total = player.view(gid)["version"]
    messages = []
    with player.http.stream("GET", f"/games/{gid}/events", params={"after": 0}) as stream:
        for line in stream.iter_lines():
            if line.startswith("data: "):
                messages.append(json.loads(line[6:]))
                if messages[-1]["version"] == total:
                    break
    return messages


def test_greedy_and_planner_seats_play_to_the_human_turn(player: Player) -> None:
    seats = {"Russia": "me", "Germany": "planner", "United Kingdom": "greedy", "Japan": "planner",
             "United States": "greedy"}
    game = player.new_game(seats)
    assert {s["seat"]: s["bot"] for s in game["seats"] if s["bot"]} == {
        "Germany": "planner", "United Kingdom": "greedy", "Japan": "planner", "United States": "greedy"}
    view = play_round_one(player, game["id"])
    assert view["state"]["round"] == 2 and view["your_turn"] and view["bot_error"] is None
    messages = _published(player, game["id"])
    assert [m["version"] for m in messages] == list(range(1, view["version"] + 1))  # every bot action went live
    actors = {m["actor"] for m in messages}
    assert {"bot:Germany", "bot:United Kingdom", "bot:Japan", "bot:United States"} <= actors


def test_an_unknown_bot_is_refused_and_nothing_is_created(player: Player) -> None:
    answer = player.post("/games", {"seats": {"Russia": "me", "Germany": "deep-blue"}})
    assert answer.status_code == 400
    body = answer.json()
    assert "deep-blue" in body["message"] and all(name in body["message"] for name in bot_names())
    assert player.http.get("/games", params={"mine": True}).json() == []


def test_the_runner_keeps_one_bot_per_seat_which_plans_each_phase_once(server: LiveServer, player: Player) -> None:
    CountingGreedy.plans.clear()
    CountingGreedy.made.clear()
    CountingGreedy.chosen = 0
    seats = {"Russia": "me", "Germany": COUNTING, "United Kingdom": "pass", "Japan": COUNTING,
             "United States": "pass"}
    gid = player.new_game(seats)["id"]
    view = play_round_one(player, gid)
    assert view["state"]["round"] == 2 and view["bot_error"] is None
    plans = CountingGreedy.plans
    assert {p[1] for p in plans} >= {"Germany", "Japan"}
    assert len(plans) == len(set(plans)), "a phase was planned more than once"
    assert CountingGreedy.chosen > len(plans)  # several actions played out of one plan
    assert CountingGreedy.made and set(CountingGreedy.made) == {(30.0, WORK)}  # the server's budget reaches the bot
    assert len(CountingGreedy.made) == 2  # one bot per seat, kept through the whole round
    assert (gid, "Germany", "Germany") in server.bots.bots and (gid, "Japan", "Japan") in server.bots.bots


def _live(log: GameLog, game_id: str = "g") -> LiveGame:
    return LiveGame(game_id, "nations", log, log.state.hash(), 0, 0, 0, b"\0" * 32)


def test_the_cache_keeps_a_bot_while_the_game_moves_forward_and_rebuilds_it_otherwise() -> None:
    from aare.engine import Game

    cache = BotCache(size=2)
    live = _live(new_game("lhtr-1.3"))
    first = cache.bot(live, "Russia", "greedy", "Russia")
    assert cache.bot(live, "Russia", "greedy", "Russia") is first
    moved = live.fork()
    Game(moved.log).apply(Game(moved.log).legal_actions()[0])
    again = cache.bot(moved, "Russia", "greedy", "Russia")
    assert again is first  # forward: the same bot, its plan kept
    assert cache.bot(live, "Russia", "greedy", "Russia") is not first  # the game went back (an undo): a new bot
    assert cache.bot(moved, "Russia", "random", "Russia").name == "random"  # another bot's name: a new bot
    cache.bot(live, "Germany", "greedy", "Germany")
    cache.bot(live, "Japan", "greedy", "Japan")
    assert len(cache) == 2 and ("g", "Russia", "Russia") not in cache  # least recently used first out


def test_a_finished_games_bots_are_dropped() -> None:
    cache = BotCache()
    live = _live(new_game("lhtr-1.3"))
    cache.bot(live, "Germany", "greedy", "Germany")
    finished = SimpleNamespace(state=SimpleNamespace(winner="Allies"))
    service: Any = SimpleNamespace(bot_seat_to_act=lambda _: None, cache=SimpleNamespace(get=lambda _: finished))
    assert bot_step(service, "g", cache) is False
    assert len(cache) == 0


def test_bot_settings_come_from_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    assert Settings(sqlite_url(tmp_path)).bot_seconds == 10.0 and Settings(sqlite_url(tmp_path)).bot_work is None
    monkeypatch.setenv("AARE_BOT_SECONDS", "2.5")
    monkeypatch.setenv("AARE_BOT_WORK", "40")
    settings = Settings.from_env(tmp_path)
    assert (settings.bot_seconds, settings.bot_work) == (2.5, 40)
    with pytest.raises(ValueError, match="bot_seconds"):
        Settings(sqlite_url(tmp_path), bot_seconds=-1)
