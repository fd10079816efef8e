"""Live games: the replayed `GameLog` of each game, rebuilt from the database and kept per process.

A cached game is reused while its (version, state hash) matches the database row; a newer row is caught up
by appending the missing entries, anything else is rebuilt from scratch. Logs are never changed in place:
play works on a `fork` and the fork replaces the cached game once its transaction has committed.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Connection, bindparam, select

from aare.errors import ReplayMismatch
from aare.events import Event, event_from_json
from aare.fair_dice import dice_count, turn_after
from aare.game_log import GameLog
from aare.server.errors import NotFound
from aare.server.schema import dice_turns, games, log_entries
from aare.state.game_state import GameState


@dataclass
class LiveGame:
    """A game's log plus the dice cursor: the turn in force, dice rolled in it so far and its secret seed."""

    id: str
    seating: str
    log: GameLog
    state_hash: str
    dice_from_seq: int
    turn: int
    dice_used: int
    seed: bytes

    @property
    def state(self) -> GameState:
        return self.log.state

    @property
    def version(self) -> int:
        return self.log.state.version

    def fork(self) -> LiveGame:
        """A copy whose log can be appended to without touching this one."""
        log = object.__new__(type(self.log))  # copy.copy, without its reduce protocol
        log.__dict__.update(self.log.__dict__)
        log.entries = list(self.log.entries)
        return LiveGame(self.id, self.seating, log, self.state_hash, self.dice_from_seq, self.turn,
                        self.dice_used, self.seed)

    def advance(self, action: Any, events: tuple[Event, ...]) -> bool:
        """Append one entry and move the dice cursor; True if it handed play to another nation (a new turn:
        the caller must then set `seed`)."""
        before = self.log.state.nation
        self.log.append(action, events)
        return self.appended(before)

    def appended(self, before: str) -> bool:
        """Account for the entry just appended to the log (`before`: the nation to move before it)."""
        events = self.log.entries[-1].events
        self.state_hash = self.log.state.hash()
        if self.version <= self.dice_from_seq:
            return False  # an imported entry: its dice came from elsewhere
        self.dice_used += dice_count(events)
        if turn_after(before, events)[1]:
            self.turn += 1
            self.dice_used = 0
            return True
        return False


class LiveCache:
    """A bounded, thread-safe map of game id to its latest known `LiveGame`."""

    def __init__(self, size: int = 2000) -> None:
        self.size = size
        self._games: OrderedDict[str, LiveGame] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, game_id: str) -> LiveGame | None:
        with self._lock:
            game = self._games.get(game_id)
            if game is not None:
                self._games.move_to_end(game_id)
            return game

    def put(self, game: LiveGame, force: bool = False) -> None:
        """Keep `game` unless a newer version of it is already cached (`force`: keep it anyway, after undo)."""
        with self._lock:
            old = self._games.get(game.id)
            if old is not None and old.version > game.version and not force:
                return
            self._games[game.id] = game
            self._games.move_to_end(game.id)
            while len(self._games) > self.size:
                self._games.popitem(last=False)

    def drop(self, game_id: str) -> None:
        with self._lock:
            self._games.pop(game_id, None)


GAME_ROW = select(
    games.c.id, games.c.ruleset, games.c.options, games.c.seating, games.c.version, games.c.state_hash,
    games.c.dice_from_seq, games.c.winner, games.c.bot_error, games.c.ranked, games.c.title_match,
    games.c.match_id, games.c.bid,
).where(games.c.id == bindparam("game_id"))
INITIAL_STATE = select(games.c.initial_state).where(games.c.id == bindparam("game_id"))
ENTRIES = (
    select(log_entries.c.action, log_entries.c.events)
    .where(log_entries.c.game_id == bindparam("game_id"), log_entries.c.seq >= bindparam("from_seq"))
    .order_by(log_entries.c.seq)
)
SEED = select(dice_turns.c.seed).where(dice_turns.c.game_id == bindparam("game_id"),
                                       dice_turns.c.turn == bindparam("turn"))


def game_row(conn: Connection, game_id: str) -> Any:
    """The game's row (all but its initial state); NotFound if there is none."""
    row = conn.execute(GAME_ROW, {"game_id": game_id}).first()
    if row is None:
        raise NotFound(f"no game {game_id!r}")
    return row


def load_live(conn: Connection, game_id: str, cache: LiveCache) -> tuple[LiveGame, Any]:
    """The game as the database has it now (from the cache when that is current), and its row."""
    row = game_row(conn, game_id)
    cached = cache.get(game_id)
    if cached is not None and cached.version == row.version and cached.state_hash == row.state_hash:
        return cached, row
    if cached is not None and cached.version < row.version:
        live = cached.fork()
        for entry in _entry_rows(conn, game_id, live.version):
            if live.advance(entry[0], entry[1]):
                live.seed = _seed(conn, game_id, live.turn)
        if live.version == row.version and live.state_hash == row.state_hash:
            cache.put(live)
            return live, row
    live = _rebuild(conn, row)
    cache.put(live)
    return live, row


def _rebuild(conn: Connection, row: Any) -> LiveGame:
    initial = conn.execute(INITIAL_STATE, {"game_id": row.id}).scalar_one()
    log = GameLog(GameState.from_json(json.loads(initial)))
    live = LiveGame(row.id, row.seating, log, log.state.hash(), row.dice_from_seq, 0, 0, b"")
    for action, events in _entry_rows(conn, row.id, 0):
        live.advance(action, events)
    live.seed = _seed(conn, row.id, live.turn)
    if live.version != row.version or live.state_hash != row.state_hash:
        raise ReplayMismatch(f"game {row.id}: the stored log replays to version {live.version} "
                             f"{live.state_hash[:12]}, the game row records {row.version} {row.state_hash[:12]}")
    return live


def _entry_rows(conn: Connection, game_id: str, from_seq: int) -> list[tuple[Any, tuple[Event, ...]]]:
    rows = conn.execute(ENTRIES, {"game_id": game_id, "from_seq": from_seq})
    return [
        (None if r.action is None else json.loads(r.action), tuple(event_from_json(e) for e in json.loads(r.events)))
        for r in rows
    ]


def _seed(conn: Connection, game_id: str, turn: int) -> bytes:
    seed = conn.execute(SEED, {"game_id": game_id, "turn": turn}).scalar()
    if seed is None:
        raise ReplayMismatch(f"game {game_id}: no dice seed stored for turn {turn}")
    return bytes.fromhex(seed)
