"""Group commit on and off (`AARE_GROUP_COMMIT`): the same actions store the same logs."""

from __future__ import annotations

import threading
import uuid
from typing import Any

import pytest
from sqlalchemy import select

from aare import fair_dice
from aare.ai import NoLegalAction, make_bot
from aare.engine import Game
from aare.rules.registry import default_ruleset
from aare.server import service
from aare.server.accounts import create_user
from aare.server.broker import make_broker
from aare.server.db import MAX_BATCH, make_engine, read, write
from aare.server.migrate import upgrade
from aare.server.schema import games, log_entries
from aare.server.service import Actor, GameService
from aare.server.settings import Settings
from tests.server.conftest import NATIONS

GAMES = 6
ACTIONS = 25


@pytest.fixture
def same_dice(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every game rolls the same dice for the same turn and index (the seed and the game id fixed), so two
    servers given the same actions must store the same logs."""
    die = fair_dice.die
    monkeypatch.setattr(service, "new_seed", lambda: bytes(32))
    monkeypatch.setattr(fair_dice, "die", lambda seed, game_id, turn, index, sides=6: die(seed, "g", turn, index,
                                                                                          sides))


def play(database_url: str, group_commit: bool) -> dict[int, list[tuple[Any, ...]]]:
    """`GAMES` games played at once by random bots (one thread per game), `ACTIONS` actions each; the stored
    log of each game, by the bot's seed, and its version."""
    engine = make_engine(database_url)
    upgrade(engine)
    games_service = GameService(engine, make_broker(None), group_commit=group_commit)
    assert games_service.writer.max_batch == (MAX_BATCH if group_commit else 1)
    with write(engine) as conn:  # the seats are a user's (no bot runner of another test plays these games)
        user = create_user(conn, f"g{uuid.uuid4().hex[:12]}", "not a password hash")
    ids = [games_service.create_game(user.id, default_ruleset(), {}, "nations", dict.fromkeys(NATIONS, "me"))
           for _ in range(GAMES)]
    start = threading.Barrier(GAMES)

    def bot_plays(seed: int) -> None:
        bot = make_bot("random", seed)
        start.wait()
        for _ in range(ACTIONS):
            live, _, _ = games_service.load(ids[seed])
            try:
                action = bot.choose(Game(live.log)).to_json()
            except NoLegalAction:
                action = {"type": "end_phase"}
            games_service.submit(ids[seed], Actor(user_id=user.id), action, live.version)

    threads = [threading.Thread(target=bot_plays, args=(seed,)) for seed in range(GAMES)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    games_service.close()
    stored = {}
    with read(engine) as conn:
        for seed, game_id in enumerate(ids):
            rows = conn.execute(select(log_entries.c.seq, log_entries.c.action, log_entries.c.events,
                                       log_entries.c.state_hash).where(log_entries.c.game_id == game_id)
                                .order_by(log_entries.c.seq)).all()
            version = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
            stored[seed] = [tuple(r) for r in rows] + [("version", version)]
    engine.dispose()
    return stored


@pytest.mark.usefixtures("same_dice")
def test_group_commit_on_and_off_store_the_same_logs(database_url: str) -> None:
    grouped = play(database_url, group_commit=True)
    alone = play(database_url, group_commit=False)
    assert grouped == alone
    assert all(log[-1] == ("version", ACTIONS) for log in grouped.values())


def test_the_group_commit_setting(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("AARE_GROUP_COMMIT", raising=False)
    assert Settings.from_env(database_url="sqlite://").group_commit is True
    for off in ("0", "off", "false", "no"):
        monkeypatch.setenv("AARE_GROUP_COMMIT", off)
        assert Settings.from_env(database_url="sqlite://").group_commit is False
    monkeypatch.setenv("AARE_GROUP_COMMIT", "1")
    assert Settings.from_env(database_url="sqlite://").group_commit is True
    monkeypatch.setenv("AARE_GROUP_COMMIT", "sometimes")
    with pytest.raises(ValueError, match="AARE_GROUP_COMMIT"):
        Settings.from_env(database_url="sqlite://")
