"""The ladder on the server: ranked games move it when they end.

A ranked game is seated by side, one registered account on each side. When it ends (victory or concession) the
winner's and the loser's ladder places move by the AARe power-ranking formula (`aare.ladder`: the same rules as
the `aare ladder` file, players named by their username) and their openskill ratings (Plackett-Luce) are rated
beside it; both, before and after, are kept in `ladder_results`, in the same transaction as the game's last
action. A game moves the ladder once; games that are not ranked, or whose sides are not held by two different
accounts when they end, leave it alone.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from sqlalchemy import Connection, delete, insert, select, update

from aare.errors import AareError
from aare.ladder import Ladder, LadderError
from aare.server.errors import BadRequest
from aare.server.schema import games, ladder_players, ladder_results, seats, users

log = logging.getLogger("aare.server.ladder")
LOCK_KEY = 0x4C4144444552  # PostgreSQL advisory lock: one ladder update at a time
SEATING = "sides"


@lru_cache(maxsize=1)
def model() -> Any:
    """The openskill model the ratings use (Plackett-Luce, openskill's defaults)."""
    from openskill.models import PlackettLuce

    return PlackettLuce()


def ordinal(mu: float, sigma: float) -> float:
    """The displayed rating: openskill's ordinal, a conservative skill estimate (mu - 3 sigma)."""
    return round(float(model().rating(mu=mu, sigma=sigma).ordinal()), 3)


@dataclass
class Entry:
    """A ladder player's row: rank, belt, openskill mu and sigma, wins and losses."""

    name: str
    rank: int
    champion: bool
    mu: float
    sigma: float
    wins: int = 0
    losses: int = 0

    @classmethod
    def new(cls, name: str) -> Entry:
        fresh = model().rating()
        return cls(name, 0, False, float(fresh.mu), float(fresh.sigma))

    @property
    def rating(self) -> float:
        return ordinal(self.mu, self.sigma)

    def to_json(self) -> dict[str, Any]:
        return {"rank": self.rank, "name": self.name, "champion": self.champion, "wins": self.wins,
                "losses": self.losses, "games": self.wins + self.losses, "rating": self.rating,
                "mu": round(self.mu, 3), "sigma": round(self.sigma, 3)}


# -- creating ranked games ----------------------------------------------------------------------------------


def check_ranked(seating: str, names: list[str], seat_spec: Mapping[str, str], title_match: bool) -> None:
    """Refuse a ranked game that could not count: it is seated by side, two sides, no bots, and two different
    accounts (a seat may stay open for one to take); a title match names both players."""
    if seating != SEATING:
        raise BadRequest("a ranked game is seated by side (seating 'sides'): one account per side")
    if len(names) != 2:
        raise BadRequest(f"a ranked game has two sides, not {len(names)}")
    holders = [seat_spec.get(name, "open") for name in names]
    for holder in holders:
        if holder != "me" and holder != "open" and not holder.startswith("user:"):
            raise BadRequest(f"a ranked game is played by accounts, not bots ({holder!r})")
    if holders[0] == holders[1] and holders[0] != "open":
        raise BadRequest("a ranked game needs two different players")
    if title_match and "open" in holders:
        raise BadRequest("a title match names both players")


def check_title_match(conn: Connection, players: list[str]) -> None:
    """A title match must include the champion, when there is one."""
    champion = conn.execute(select(ladder_players.c.name).where(ladder_players.c.champion.is_(True))).scalar()
    if champion is not None and champion not in players:
        raise BadRequest(f"{champion!r} holds the belt: a title match must include him")


# -- a ranked game ends -------------------------------------------------------------------------------------


def record_finish(conn: Connection, game_id: str, winner: str) -> dict[str, Any] | None:
    """Move the ladder for a game that has just ended with `winner` (a side), if it is ranked; returns the stored
    result, or None when the game does not count. Inside the transaction that stores the game's end."""
    game = conn.execute(select(games.c.ranked, games.c.title_match, games.c.seating)
                        .where(games.c.id == game_id)).first()
    if game is None or not game.ranked or game.seating != SEATING:
        return None
    if conn.execute(select(ladder_results.c.id).where(ladder_results.c.game_id == game_id)).first() is not None:
        return None
    held = {r.seat: r.username for r in conn.execute(
        select(seats.c.seat, users.c.username).join(users, users.c.id == seats.c.user_id)
        .where(seats.c.game_id == game_id))}
    losers = [name for seat, name in held.items() if seat != winner]
    if winner not in held or len(held) != 2 or len(losers) != 1 or held[winner] == losers[0]:
        log.info("ranked game %s ended without two players holding its sides: the ladder stays", game_id)
        return None
    try:
        return record_result(conn, held[winner], losers[0], title_match=bool(game.title_match), game_id=game_id)
    except AareError as exc:  # the game's end is stored all the same
        log.warning("ranked game %s could not move the ladder: %s", game_id, exc)
        return None


def record_result(conn: Connection, winner: str, loser: str, *, title_match: bool = False,
                  game_id: str | None = None, source: str = "game", now: float | None = None) -> dict[str, Any]:
    """`winner` beat `loser`: both move by the formula (`aare.ladder.Ladder.add_result`) and are rated."""
    _lock(conn)
    entries = load_entries(conn)
    ladder = Ladder([e.name for e in entries], next((e.name for e in entries if e.champion), None))
    if title_match and ladder.champion is not None and ladder.champion not in (winner, loser):
        title_match = False  # the belt moved since the game was made: it is an ordinary ranked game now
    try:
        change = ladder.add_result(winner, loser, title_match=title_match)
    except LadderError:
        change = ladder.add_result(winner, loser)
    by_name = {e.name: e for e in entries}
    new = {name: Entry.new(name) for name in (winner, loser) if name not in by_name}
    by_name.update(new)
    won, lost = by_name[winner], by_name[loser]
    before = rate(won, lost)
    stamp = time.time() if now is None else now
    for rank, name in enumerate(ladder.players, start=1):
        entry = by_name[name]
        moved = entry.rank != rank or entry.champion != (name == ladder.champion) or name in (winner, loser)
        entry.rank, entry.champion = rank, name == ladder.champion
        if name in new:
            conn.execute(insert(ladder_players).values(_row(entry, stamp)))
        elif moved:
            conn.execute(update(ladder_players).where(ladder_players.c.name == name).values(_row(entry, stamp)))
    row = {"game_id": game_id, "winner": winner, "loser": loser, "winner_before": change.winner_before,
           "loser_before": change.loser_before, "winner_after": change.winner_after,
           "loser_after": change.loser_after, "winner_rating_before": before[0], "loser_rating_before": before[1],
           "winner_rating_after": won.rating, "loser_rating_after": lost.rating,
           "title_match": change.title_match, "source": source, "created_at": stamp}
    conn.execute(insert(ladder_results).values(row))
    return row


def rate(won: Entry, lost: Entry) -> tuple[float, float]:
    """Rate one game (openskill) and count it; returns both players' ratings before it."""
    before = won.rating, lost.rating
    [[w], [lo]] = model().rate([[model().rating(mu=won.mu, sigma=won.sigma)],
                                [model().rating(mu=lost.mu, sigma=lost.sigma)]])
    won.mu, won.sigma, won.wins = float(w.mu), float(w.sigma), won.wins + 1
    lost.mu, lost.sigma, lost.losses = float(lo.mu), float(lo.sigma), lost.losses + 1
    return before


def _row(entry: Entry, now: float) -> dict[str, Any]:
    return {"name": entry.name, "rank": entry.rank, "champion": entry.champion, "mu": entry.mu,
            "sigma": entry.sigma, "wins": entry.wins, "losses": entry.losses, "updated_at": now}


def _lock(conn: Connection) -> None:
    """One ladder update at a time (SQLite's write transactions are one at a time already)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({LOCK_KEY})")


# -- reading ------------------------------------------------------------------------------------------------


def load_entries(conn: Connection) -> list[Entry]:
    """The ladder's players, best first."""
    rows = conn.execute(select(ladder_players).order_by(ladder_players.c.rank, ladder_players.c.name)).all()
    return [Entry(r.name, r.rank, bool(r.champion), r.mu, r.sigma, r.wins, r.losses) for r in rows]


def standings(conn: Connection) -> dict[str, Any]:
    """The ladder table: every ranked player, best first."""
    entries = load_entries(conn)
    return {"players": [e.to_json() for e in entries],
            "champion": next((e.name for e in entries if e.champion), None)}


def history(conn: Connection, name: str) -> dict[str, Any] | None:
    """A player's ladder entry and his results, newest first; None when he has never played a ranked game."""
    entry = conn.execute(select(ladder_players).where(ladder_players.c.name == name)).first()
    if entry is None:
        return None
    found = Entry(entry.name, entry.rank, bool(entry.champion), entry.mu, entry.sigma, entry.wins, entry.losses)
    rows = conn.execute(select(ladder_results).where((ladder_results.c.winner == name)
                                                     | (ladder_results.c.loser == name))
                        .order_by(ladder_results.c.id.desc())).all()
    games_played = []
    for r in rows:
        won = r.winner == name
        games_played.append({
            "result": "won" if won else "lost", "opponent": r.loser if won else r.winner,
            "rank_before": r.winner_before if won else r.loser_before,
            "rank_after": r.winner_after if won else r.loser_after,
            "opponent_rank_before": r.loser_before if won else r.winner_before,
            "rating_before": r.winner_rating_before if won else r.loser_rating_before,
            "rating_after": r.winner_rating_after if won else r.loser_rating_after,
            "title_match": bool(r.title_match), "game_id": r.game_id, "source": r.source,
            "at": r.created_at,
        })
    return {"player": found.to_json(), "history": games_played}


# -- importing the `aare ladder` file -----------------------------------------------------------------------


def import_ladder(conn: Connection, ladder: Ladder, replace: bool = False) -> int:
    """Bring an `aare ladder` file onto the server: its players in their order, its champion, its results (with
    openskill ratings rated along them). Refused when the server's ladder has players, unless `replace` (the
    server's ladder is then dropped first). Returns the number of players."""
    _lock(conn)
    if conn.execute(select(ladder_players.c.name).limit(1)).first() is not None:
        if not replace:
            raise BadRequest("the server's ladder has players already (replace it explicitly)")
        conn.execute(delete(ladder_results))
        conn.execute(delete(ladder_players))
    entries = {name: Entry.new(name) for name in ladder.players}
    now = time.time()
    for result in ladder.results:
        won, lost = entries[result.winner], entries[result.loser]
        before = rate(won, lost)
        conn.execute(insert(ladder_results).values(
            game_id=None, winner=result.winner, loser=result.loser, winner_before=result.winner_before,
            loser_before=result.loser_before, winner_after=result.winner_after, loser_after=result.loser_after,
            winner_rating_before=before[0], loser_rating_before=before[1], winner_rating_after=won.rating,
            loser_rating_after=lost.rating, title_match=result.title_match, source="import", created_at=now))
    for rank, name in enumerate(ladder.players, start=1):
        entry = entries[name]
        entry.rank, entry.champion = rank, name == ladder.champion
        conn.execute(insert(ladder_players).values(_row(entry, now)))
    return len(entries)
