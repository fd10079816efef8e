"""The game service: creating, seating, viewing and exporting games, and the one guarded door through which
every action (a player's or a bot's) reaches a stored game.

`submit` checks the seat, the version and the rules, then writes the action, its events, the new version and
any dice commitment in one transaction. The version update is conditional (on the version, the state hash and
the seat the check relied on) and (game_id, seq) is a primary key, so of two submissions on the same version
exactly one lands; the other gets `VersionConflict`. Checks run on the game and seats this process saw last;
when the write finds them changed, the action is checked again on a fresh read (see docs/server.md).
"""

from __future__ import annotations

import asyncio
import contextvars
import json
import logging
import time
import uuid
from collections.abc import Callable, Iterable, Mapping
from concurrent.futures import Future
from dataclasses import dataclass, replace
from functools import lru_cache, partial
from typing import Any

from sqlalchemy import Connection, Engine, bindparam, delete, exists, insert, select, update
from sqlalchemy.exc import IntegrityError

from aare.actions import Bid, EndPhase, parse_action
from aare.ai import bot_names
from aare.engine import Game
from aare.errors import AareError
from aare.events import MemberFocused, apply_events
from aare.fair_dice import SCHEME, CommittedDice, commitment, new_seed
from aare.game_file import read_game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.player_view import log_view
from aare.rules.ruleset import load_ruleset, load_spec
from aare.server import db, ladder, timing
from aare.server.action_threads import ActionThreads
from aare.server.broker import Broker
from aare.server.errors import BadRequest, Forbidden, NotFound, Outdated, ServiceError, VersionConflict
from aare.server.live import LiveCache, LiveGame, game_row, load_live
from aare.server.schema import dice_turns, games, log_entries, seats, users
from aare.server.seats import (
    SEATINGS,
    Seat,
    acting_power,
    acting_powers,
    held_by,
    seat_names,
    seat_of,
    seat_powers,
)
from aare.server.views import HIDDEN_KEY, Rendered, dumps, entry_message, message_view, player_view, rendered

log = logging.getLogger("aare.server")
AXIS = "Axis"  # the side an agreed bid goes to
FRESH_TRIES = 3  # fresh reads an action is judged on when the game moved on meanwhile (a teammate's action)


SEATS = (select(seats.c.seat, seats.c.user_id, users.c.username, seats.c.bot)
         .outerjoin(users, users.c.id == seats.c.user_id).where(seats.c.game_id == bindparam("game_id")))
BUMP_VERSION = (
    update(games).where(games.c.id == bindparam("game_id"), games.c.version == bindparam("expected"))
    .values(version=bindparam("version"), state_hash=bindparam("state_hash"), winner=bindparam("winner"),
            updated_at=bindparam("updated_at"))
)
INSERT_ENTRY = insert(log_entries)
INSERT_TURN = insert(dice_turns)
REVEAL_TURN = (update(dice_turns).where(dice_turns.c.game_id == bindparam("b_game"),
                                        dice_turns.c.turn == bindparam("b_turn")).values(revealed=True))


def _seat_still_held(by_bot: bool) -> Any:
    """SQL: the seat `:seat` of the game is still held by the user `:user_id` (or by a bot)."""
    holder = seats.c.bot.is_not(None) if by_bot else seats.c.user_id == bindparam("user_id")
    return exists().where(seats.c.game_id == bindparam("game_id"), seats.c.seat == bindparam("seat"), holder)


# An action's version bump: the game is still at the version and state it was prepared on, and the actor still
# holds the seat (by a user, by a bot).
BUMP_CHECKED = {
    by_bot: BUMP_VERSION.where(games.c.state_hash == bindparam("expected_hash"), _seat_still_held(by_bot))
    for by_bot in (False, True)
}


@dataclass(frozen=True)
class Actor:
    """Who submits an action: a user (by id) or the bot holding `bot_seat`."""

    user_id: int | None = None
    bot_seat: str | None = None

    @property
    def label(self) -> str:
        return f"bot:{self.bot_seat}" if self.bot_seat else f"user:{self.user_id}"

    def holds(self, seat: Seat) -> bool:
        if self.bot_seat is not None:
            return seat.bot is not None and seat.name == self.bot_seat
        return seat.user_id is not None and seat.user_id == self.user_id


@dataclass(frozen=True)
class PreparedAction:
    """An action checked and applied to `work`, a copy of `live`, for `actor` holding `seat`; `new_turn`: it
    hands play to another nation; `bot_next`: a bot holds the seat that acts after it; `row`: its log entry,
    ready to insert; `message`: what is published once it is stored."""

    live: LiveGame
    work: LiveGame
    actor: Actor
    action: Any
    seat: str
    new_turn: bool
    bot_next: bool
    row: dict[str, Any]
    message: dict[str, Any]


class GameService:
    """Games stored in `engine`, replayed logs cached per process, new entries published on `broker`;
    `on_change(game_id)` is called after every committed change (the bot runner listens there);
    `action_threads`: the threads `submit_async` checks actions on; `group_commit`: actions waiting together
    share one transaction (False: one transaction each)."""

    def __init__(self, engine: Engine, broker: Broker, on_change: Callable[[str], None] | None = None,
                 action_threads: int = 2, group_commit: bool = True) -> None:
        self.engine = engine
        self.writer = db.Writer(engine, clean_errors=(Outdated, ServiceError),
                                max_batch=db.MAX_BATCH if group_commit else 1)
        self.actions = ActionThreads(action_threads)
        self.seats_seen: dict[str, dict[str, Seat]] = {}  # as last read; writes check them again
        self.broker = broker
        self.cache = LiveCache()
        self.on_change = on_change or (lambda game_id: None)

    def close(self) -> None:
        self.actions.shutdown(wait=True)
        self.writer.close()

    # -- creating -------------------------------------------------------------------------------------

    def create_game(self, user_id: int, ruleset: str, options: Mapping[str, Any], seating: str,
                    seat_spec: Mapping[str, str], ranked: bool = False, title_match: bool = False) -> str:
        """A new game; `seat_spec` maps seat names to "me", "open", "user:NAME" (a registered account) or a bot
        name (others stay open). `ranked`: it moves the ladder when it ends (`aare.server.ladder`: seated by
        side, one account a side); `title_match`: a ranked game for the champion's belt."""
        log = new_game(ruleset, options)
        ranking = Ranking(title_match=title_match) if ranked or title_match else None
        return self._store_new(user_id, log, seating, seat_spec, ranking)

    def create_match(self, user_id: int, ruleset: str, options: Mapping[str, Any], opponent: str, bid: int = 0,
                     title_match: bool = False) -> list[str]:
        """The community's match: two ranked games between the caller and `opponent`, sides swapped, both with
        the agreed `bid` for the Axis: the ruleset's `bid_axis` option, or, where the players bid before the game
        (a straight bid), those bids made for them (the Axis seat `bid`, the other one more)."""
        if bid < 0:
            raise BadRequest("the bid cannot be negative")
        agreed = dict(options)
        if bid and "bid_axis" in {o.key for o in load_spec(ruleset).option_specs}:
            agreed["bid_axis"] = bid
        sides = seat_names(ruleset, agreed, "sides")
        match_id = uuid.uuid4().hex
        ranking = Ranking(title_match=title_match, match_id=match_id, bid=bid)
        created = []
        for mine in sides:
            log = new_game(ruleset, agreed)
            if not _agree_bid(log, bid) and bid and "bid_axis" not in agreed:
                raise BadRequest(f"{ruleset} takes no agreed bid")
            seat_spec = {side: "me" if side == mine else f"user:{opponent}" for side in sides}
            created.append(self._store_new(user_id, log, "sides", seat_spec, ranking))
        return created

    def import_game(self, user_id: int, raw: Any, seating: str, seat_spec: Mapping[str, str]) -> str:
        """A game file (or export) brought onto the server; its entries so far keep the dice they had. Every entry
        is played again first (`aare.game_file`): a file with an edited action, event, die or order is refused.
        A server export's dice are its commitments' (`aare verify`), not a seed's."""
        exported = isinstance(raw, Mapping) and "server" in raw
        log = read_game(raw, dice_from_seed=False if exported else None)
        return self._store_new(user_id, log, seating, seat_spec)

    def import_posted(self, user_id: int, log: GameLog, seating: str, seat_spec: Mapping[str, str]) -> str:
        """A game played by post, already checked as `aare import` checks it (`aare.posts.post.read_post`), brought
        onto the table: it goes on here with the table's dice (docs/play-by-post.md)."""
        return self._store_new(user_id, GameLog(log.initial, log.entries), seating, seat_spec)

    def _store_new(self, user_id: int, log: GameLog, seating: str, seat_spec: Mapping[str, str],
                   ranking: Ranking | None = None) -> str:
        state = log.initial
        if seating not in SEATINGS:
            raise BadRequest(f"seating must be one of {list(SEATINGS)}")
        names = seat_names(state.ruleset, state.options, seating)
        unknown = sorted(set(seat_spec) - set(names))
        if unknown:
            raise BadRequest(f"no seat {unknown[0]!r}; the seats are {names}")
        if ranking is not None:
            ladder.check_ranked(seating, names, seat_spec, ranking.title_match)
        with db.read(self.engine) as conn:
            accounts = _accounts(conn, user_id, seat_spec.values())
            if ranking is not None:
                held = [accounts[seat_spec[n]] for n in names if seat_spec.get(n, "open") != "open"]
                if len(set(held)) != len(held):
                    raise BadRequest("a ranked game needs two different players")
                if ranking.title_match:
                    ladder.check_title_match(conn, [name for _, name in held])
        holders = {name: _holder(user_id, name, seat_spec.get(name, "open"), accounts) for name in names}
        game_id = uuid.uuid4().hex
        seed, now = new_seed(), time.time()
        live = LiveGame(game_id, seating, GameLog(state), state.hash(), len(log.entries), 0, 0, seed)
        hashes = []
        for entry in log.entries:
            live.advance(entry.action, entry.events)
            hashes.append(live.state_hash)
        with db.write(self.engine) as conn:
            conn.execute(insert(games).values(
                id=game_id, ruleset=state.ruleset, options=dumps(dict(state.options)), seating=seating,
                initial_state=dumps(state.to_json()), version=live.version, state_hash=live.state_hash,
                dice_from_seq=live.dice_from_seq, winner=live.state.winner, created_by=user_id, created_at=now,
                updated_at=now, **(ranking.columns() if ranking is not None else {}),
            ))
            conn.execute(insert(seats), [{"game_id": game_id, "seat": n, **h} for n, h in holders.items()])
            for seq, entry in enumerate(log.entries):
                self._insert_entry(conn, game_id, seq, entry.action, entry.events, hashes[seq], "import", now)
            self._insert_turn(conn, game_id, 0, live.state.nation, live.version, seed)
        self.cache.put(live)
        self.on_change(game_id)
        return game_id

    # -- reading --------------------------------------------------------------------------------------

    def load(self, game_id: str) -> tuple[LiveGame, dict[str, Seat], Any]:
        """The live game, its seats and its row, read in one transaction."""
        with db.read(self.engine) as conn:
            live, row = load_live(conn, game_id, self.cache)
            seat_map = self._seats(conn, game_id)
        self._saw_seats(game_id, seat_map)
        return live, seat_map, row

    def _saw_seats(self, game_id: str, seat_map: dict[str, Seat]) -> None:
        """Remember the seats as just read (actions are first checked on them)."""
        if len(self.seats_seen) > 10_000:
            self.seats_seen.clear()
        self.seats_seen[game_id] = seat_map

    def list_games(self, user_id: int | None, limit: int = 100) -> list[dict[str, Any]]:
        with db.read(self.engine) as conn:
            query = select(games).order_by(games.c.updated_at.desc()).limit(limit)
            if user_id is not None:
                query = query.where(games.c.id.in_(select(seats.c.game_id).where(seats.c.user_id == user_id)))
            rows = conn.execute(query).all()
            return [self._summary(row, self._seats(conn, row.id)) for row in rows]

    def view(self, game_id: str, user_id: int | None) -> dict[str, Any]:
        """The game as the caller sees it: its seats, who acts, the dice commitment and the player view."""
        with db.read(self.engine) as conn:
            live, row = load_live(conn, game_id, self.cache)
            seat_map = self._seats(conn, game_id)
            turn = self._turn_record(conn, game_id, live.turn)
        self._saw_seats(game_id, seat_map)
        mine = held_by(seat_map, user_id)
        state = live.state
        acting = acting_power(state)
        acting_seat = seat_of(state, live.seating, acting)
        everyone = acting_powers(state)
        seats_acting = [seat_of(state, live.seating, p) for p in everyone]
        return {
            **self._summary(row, seat_map),
            "to_act": acting,
            "acting_seat": acting_seat,
            "acting": everyone,
            "acting_seats": list(dict.fromkeys(seats_acting)),
            "your_seats": mine,
            "your_turn": any(s in mine for s in seats_acting) and state.winner is None,
            "dice": {"scheme": SCHEME, "turn": live.turn, "commitment": turn["commitment"] if turn else None},
            **player_view(state, mine),  # the state, its summary and the state hash the caller may see
        }

    def seen_by(self, game_id: str, user_id: int | None, message: Mapping[str, Any]) -> dict[str, Any]:
        """A published message (an action's answer, an undo) as the user's seats see it, judged on the game and
        seats this process saw last (no database read; without them, as a spectator sees it)."""
        live, seat_map = self.cache.get(game_id), self.seats_seen.get(game_id)
        if (live is not None and message.get("kind") == "entry" and HIDDEN_KEY not in message
                and live.version == message.get("version") and live.state_hash == message.get("state_hash")):
            return dict(message)  # an entry whose own state hides nothing (it lists none): as published
        state = live.state if live is not None else None
        viewer = seat_powers(state, held_by(seat_map, user_id)) if state is not None and seat_map else frozenset()
        return message_view(message, viewer, state)

    def legal(self, game_id: str, user_id: int, space: str | None = None,
              power: str | None = None) -> dict[str, Any]:
        """The legal actions of the caller now, for `power` (default: the first acting power whose seat the
        caller holds); none when it holds no acting seat."""
        live, seat_map, _ = self.load(game_id)
        caller = Actor(user_id=user_id)
        everyone = acting_powers(live.state)
        held = [p for p in everyone if caller.holds(seat_map[seat_of(live.state, live.seating, p)])]
        acting = power if power is not None else next(iter(held), acting_power(live.state))
        seat = seat_map.get(seat_of(live.state, live.seating, acting))
        mine = seat is not None and acting in held and live.state.winner is None
        actions = [a.to_json() for a in Game(live.log).legal_actions(space, acting)] if mine else []
        return {"version": live.version, "to_act": acting, "acting": everyone, "seat": seat.name if seat else None,
                "your_turn": mine, "actions": actions}

    def entries_since(self, game_id: str, version: int, user_id: int | None) -> list[dict[str, Any]]:
        """Messages for the stored entries after `version` (as live updates send them), as the user's seats see
        them now."""
        live, seat_map, _ = self.load(game_id)
        viewer = seat_powers(live.state, held_by(seat_map, user_id))
        version = max(version, 0)
        with db.read(self.engine) as conn:
            rows = {r.seq: r for r in conn.execute(select(log_entries.c.seq, log_entries.c.actor,
                                                          log_entries.c.state_hash).where(
                log_entries.c.game_id == game_id, log_entries.c.seq >= version))}
        out = []
        state = live.log.replay(version) if version < live.version else live.state
        for seq in range(version, live.version):
            entry = live.log.entries[seq]
            state = replace(apply_events(state, entry.events), version=seq + 1)
            row = rows.get(seq)
            message = entry_message(game_id, seq, entry, state, row.state_hash if row else state.hash(),
                                    row.actor if row else "?", acting_power(state))
            out.append(message_view(message, viewer, live.state))
        return out

    def export(self, game_id: str, user_id: int | None) -> dict[str, Any]:
        """The game file (`aare show` reads it) plus a `server` section: seats and every dice commitment, with
        the seeds of finished turns revealed (`aare verify` checks them). Before the game has ended it is the
        file as the user's seats see it (`aare.player_view.log_view`: marked, and refused by `aare verify`, when
        anything is hidden from them); after the end, the whole game."""
        with db.read(self.engine) as conn:
            live, row = load_live(conn, game_id, self.cache)
            seat_map = self._seats(conn, game_id)
            self._saw_seats(game_id, seat_map)
            turns = conn.execute(select(dice_turns).where(dice_turns.c.game_id == game_id)
                                 .order_by(dice_turns.c.turn)).all()
        data = log_view(live.log, seat_powers(live.state, held_by(seat_map, user_id)))
        data["server"] = {
            "game_id": game_id, "ruleset": row.ruleset, "seating": row.seating,
            "seats": [s.to_json() for s in seat_map.values()], "version": live.version, "exported_at": time.time(),
            "dice": {
                "scheme": SCHEME, "from_seq": row.dice_from_seq,
                "turns": [{"turn": t.turn, "nation": t.nation, "from_seq": t.from_seq, "commitment": t.commitment,
                           "seed": t.seed if t.revealed else None} for t in turns if t.turn <= live.turn],
            },
        }
        return data

    # -- seats ----------------------------------------------------------------------------------------

    def take_seat(self, game_id: str, user_id: int, seat: str) -> None:
        with db.write(self.engine) as conn:
            game_row(conn, game_id)
            done = conn.execute(update(seats).where(
                seats.c.game_id == game_id, seats.c.seat == seat, seats.c.user_id.is_(None), seats.c.bot.is_(None),
            ).values(user_id=user_id))
            if done.rowcount != 1:
                raise Forbidden(f"seat {seat!r} is not open")
        self.seats_seen.pop(game_id, None)
        self.on_change(game_id)

    def leave_seat(self, game_id: str, user_id: int, seat: str) -> None:
        with db.write(self.engine) as conn:
            done = conn.execute(update(seats).where(
                seats.c.game_id == game_id, seats.c.seat == seat, seats.c.user_id == user_id).values(user_id=None))
            if done.rowcount != 1:
                raise Forbidden(f"you do not hold seat {seat!r}")
        self.seats_seen.pop(game_id, None)

    # -- the guarded door -----------------------------------------------------------------------------

    def submit(self, game_id: str, actor: Actor, action: Any, version: int) -> dict[str, Any]:
        """Apply `action` for `actor` if it holds the acting seat, `version` is current and the rules allow it;
        stored in one transaction before this returns. Raises Forbidden, VersionConflict, IllegalAction or
        MalformedInput, and then nothing is stored."""
        return self.commit(self.prepare(game_id, actor, action, version))

    async def submit_async(self, game_id: str, actor: Callable[[], Actor], action: Any,
                           version: int) -> dict[str, Any]:
        """`submit` for the event loop: `actor()` (who is calling: it may read the database) and the rules run
        on the service's action threads, which hand the write to the writer's next batch themselves; the loop
        is woken once, when the action is stored or refused, and is free meanwhile. Few threads doing the CPU
        work keep requests in order instead of all slowing together."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()  # the request's timing spans
        outcome: asyncio.Future[dict[str, Any]] = loop.create_future()
        queued = time.perf_counter()
        handed: list[tuple[PreparedAction, float]] = []  # the prepared action, when it went to the writer

        def settle(result: dict[str, Any] | None, error: BaseException | None) -> None:  # on the loop
            if outcome.done():  # the request was given up
                return
            if error is None:
                outcome.set_result(result)  # type: ignore[arg-type]
            else:
                outcome.set_exception(error)

        def stored(written: Future[dict[str, Any]]) -> None:  # on the writer's thread
            error = written.exception()
            loop.call_soon_threadsafe(settle, None if error else written.result(), error)

        def checked() -> None:  # on an action thread
            timing.add("queue", time.perf_counter() - queued)
            try:
                prepared = self.prepare(game_id, actor(), action, version)
            except BaseException as exc:
                loop.call_soon_threadsafe(settle, None, exc)
                return
            handed.append((prepared, time.perf_counter()))
            self.commit_later(prepared).add_done_callback(stored)

        self.actions.post(partial(context.run, checked))
        try:
            try:
                message = await outcome
            finally:
                if handed:
                    timing.add("store", time.perf_counter() - handed[0][1])
        except Outdated:  # what this process saw last has changed: decide on the database's word
            message = await loop.run_in_executor(self.actions, context.run, self._commit_afresh, game_id,
                                                 handed[0][0].actor, action, version)
        except IntegrityError:
            current = await loop.run_in_executor(self.actions, self._current_version, game_id)
            raise VersionConflict(current) from None
        if handed[0][0].bot_next:  # off the loop: inline bots play right here
            await loop.run_in_executor(self.actions, self.on_change, game_id)
        return message

    def prepare(self, game_id: str, actor: Actor, action: Any, version: int, fresh: bool = False) -> PreparedAction:
        """Check and apply an action on a copy of the game; nothing is stored yet. Unless `fresh`, the game and
        seats this process saw last are trusted first (the write checks that they still hold); anything refused
        on them is decided again on what the database says now."""
        cached, seat_map = self.cache.get(game_id), self.seats_seen.get(game_id)
        if not fresh and cached is not None and seat_map is not None:
            try:
                return self._prepare_on(cached, seat_map, actor, action, version)
            except (AareError, ServiceError):
                pass
        with timing.span("load"):
            live, seat_map, _ = self.load(game_id)
        return self._prepare_on(live, seat_map, actor, action, version)

    def _prepare_on(self, live: LiveGame, seat_map: Mapping[str, Seat], actor: Actor, action: Any,
                    version: int) -> PreparedAction:
        parsed = parse_action(action)
        seat, power = self._check_turn(live, seat_map, actor, version, parsed.power or None)
        with timing.span("rules"):
            work = live.fork()
            before = work.state.nation
            Game(work.log, CommittedDice(work.seed, live.id, work.turn, work.dice_used)).apply(parsed, power)
            new_turn = work.appended(before)
            if new_turn:
                work.seed = new_seed()
            entry = work.log.entries[-1]
            events = rendered([e.to_json() for e in entry.events])
            row = _entry_row(live.id, live.version, entry.action, events, work.state_hash, actor.label, time.time())
            dice = None
            if new_turn:
                dice = {"turn": work.turn, "commitment": commitment(work.seed),
                        "revealed": {"turn": live.turn, "seed": live.seed.hex()}}
            after = acting_powers(work.state)
            message = entry_message(live.id, live.version, entry, work.state, work.state_hash, actor.label,
                                    next(iter(after), work.state.nation), dice, events)
        next_seats = [seat_map[seat_of(work.state, work.seating, p)] for p in after]
        return PreparedAction(live, work, actor, action, seat.name, new_turn, any(s.bot for s in next_seats), row,
                              message)

    def commit(self, prepared: PreparedAction) -> dict[str, Any]:
        """Store a prepared action in one transaction, if the game is still as it was prepared on (else
        VersionConflict); then publish it and wake the bots."""
        try:
            message = self.commit_later(prepared).result()
        except Outdated:  # prepared on what this process saw last, and that has changed: once more, afresh
            message = self._commit_afresh(prepared.live.id, prepared.actor, prepared.action, prepared.live.version)
        except IntegrityError:
            raise VersionConflict(self._current_version(prepared.live.id)) from None
        if prepared.bot_next:
            self.on_change(prepared.live.id)
        return message

    def _commit_afresh(self, game_id: str, actor: Actor, action: Any, version: int) -> dict[str, Any]:
        """Prepare on a fresh read of the game and its seats (the cached game is caught up, not rebuilt, when it
        is only behind), and store. In a team turn another member's action may land first again: the action is
        judged once more on what is stored then (the version check decides whether it still may be), at most
        `FRESH_TRIES` times in all."""
        tries = 1
        while True:
            prepared = self.prepare(game_id, actor, action, version, fresh=True)
            try:
                return self.commit_later(prepared).result()
            except (Outdated, IntegrityError) as exc:
                if isinstance(exc, IntegrityError) or tries == FRESH_TRIES or not prepared.live.state.members:
                    raise VersionConflict(self._current_version(game_id)) from None
            tries += 1

    def commit_later(self, prepared: PreparedAction) -> Future[dict[str, Any]]:
        """Hand a prepared action to the writer; the future gives the published message once it is stored (the
        caller wakes the bots). It fails with `Outdated` when the game or the seat changed since it was read."""
        live, work, game_id, version = prepared.live, prepared.work, prepared.live.id, prepared.live.version

        def store(conn: Connection) -> None:
            actor = prepared.actor
            done = conn.execute(BUMP_CHECKED[actor.bot_seat is not None], {
                "game_id": game_id, "expected": version, "expected_hash": live.state_hash, "seat": prepared.seat,
                "user_id": actor.user_id, "version": work.version, "state_hash": work.state_hash,
                "winner": work.state.winner, "updated_at": time.time()})
            if done.rowcount != 1:
                raise Outdated()
            conn.execute(INSERT_ENTRY, prepared.row)
            if prepared.new_turn:
                self._next_turn(conn, prepared)
            _game_ended(conn, prepared)

        def published(_: None) -> dict[str, Any]:
            self.cache.put(work)
            self._publish(game_id, prepared.message)
            return prepared.message

        return self.writer.submit(store, after=published, key=game_id, bulk=self._store_many, item=prepared)

    def _store_many(self, conn: Connection, batch: list[PreparedAction]) -> None:
        """Store prepared actions of different games at once: one version update, one insert (SQL made once per
        batch size, no statement compiled per batch); `Split` when a game or seat changed since its action was
        prepared (the actions are then stored one by one)."""
        now = time.time()
        params: dict[str, Any] = {}
        for k, prepared in enumerate(batch):
            live, work, actor = prepared.live, prepared.work, prepared.actor
            params.update({f"i{k}": live.id, f"e{k}": live.version, f"h{k}": live.state_hash,
                           f"s{k}": prepared.seat, f"u{k}": actor.user_id, f"b{k}": int(actor.bot_seat is not None),
                           f"v{k}": work.version, f"n{k}": work.state_hash, f"w{k}": work.state.winner,
                           f"t{k}": now})
        named = conn.dialect.name == "sqlite"  # sqlite3 takes :name with a dict; psycopg %(name)s
        if conn.exec_driver_sql(_bump_many(len(batch), named), params).rowcount != len(batch):
            raise db.Split()
        rows = {f"{column}{k}": value for k, prepared in enumerate(batch) for column, value in prepared.row.items()}
        conn.exec_driver_sql(_insert_many(len(batch), named), rows)
        for prepared in batch:
            if prepared.new_turn:
                self._next_turn(conn, prepared)
            _game_ended(conn, prepared)

    def _next_turn(self, conn: Connection, prepared: PreparedAction) -> None:
        """An action handed play to another nation: its turn's seed is revealed, the next turn's committed."""
        live, work = prepared.live, prepared.work
        conn.execute(REVEAL_TURN, {"b_game": live.id, "b_turn": live.turn})
        self._insert_turn(conn, live.id, work.turn, work.state.nation, work.version, work.seed)

    def undo(self, game_id: str, actor: Actor, version: int, power: str | None = None) -> dict[str, Any]:
        """Take back the caller's last action (within the phase, never past a die roll: `Game.undo`'s rules; in a
        team turn, the last action of `power` or of the caller's acting power, the others' later ones kept). A
        ranked game that has ended is not taken back: its result has moved the ladder."""
        live, seat_map, row = self.load(game_id)
        if live.state.winner is not None and row.ranked:
            raise Forbidden("a ranked game that has ended cannot be taken back: its result is on the ladder")
        _, acting = self._check_turn(live, seat_map, actor, version, power)
        work = live.fork()
        Game(work.log).undo(acting if live.state.members else None)
        return self._truncate(live, work, actor)

    def _truncate(self, live: LiveGame, work: LiveGame, actor: Actor) -> dict[str, Any]:
        """Store `work`, a copy of `live` with entries taken back (none with dice or a new turn): the stored
        entries from the first that differs on are replaced by `work`'s."""
        work.state_hash = work.state.hash()
        same = 0
        for old, new in zip(live.log.entries, work.log.entries, strict=False):
            if old.to_json() != new.to_json():
                break
            same += 1
        with db.write(self.engine) as conn:
            self._bump_version(conn, live.id, live.version, work)
            conn.execute(delete(log_entries).where(log_entries.c.game_id == live.id,
                                                   log_entries.c.seq >= same))
            state = work.log.replay(same)
            for seq in range(same, len(work.log.entries)):
                entry = work.log.entries[seq]
                state = replace(apply_events(state, entry.events), version=seq + 1)
                self._insert_entry(conn, live.id, seq, entry.action, entry.events, state.hash(), actor.label,
                                   time.time())
        self.cache.put(work, force=True)
        message = {"kind": "undo", "game_id": live.id, "version": work.version, "state_hash": work.state_hash,
                   "actor": actor.label, "to_act": acting_power(work.state)}
        self._publish(live.id, message)
        self.on_change(live.id)
        return message

    def _publish(self, game_id: str, message: dict[str, Any]) -> None:
        """Tell the live streams; the change is stored already, so a broker fault is only logged (streams
        catch up from the database when they reconnect)."""
        try:
            self.broker.publish(game_id, message)
        except Exception:
            log.exception("could not publish an update of game %s", game_id)

    def _check_turn(self, live: LiveGame, seat_map: Mapping[str, Seat], actor: Actor, version: int,
                    power: str | None = None) -> tuple[Seat, str]:
        """The seat and power the actor acts for: `power` if named, else the first acting power whose seat it
        holds (Forbidden when it holds none). `version` must be current, except in a team turn, where the
        entries since it may be other members' actions (two seats of a team act at once)."""
        state = live.state
        everyone = acting_powers(state)
        if power is not None:
            acting = load_ruleset(state.ruleset, state.options).board.resolve_power(power)
        else:
            acting = next((p for p in everyone if actor.holds(seat_map[seat_of(state, live.seating, p)])),
                          everyone[0] if everyone else state.nation)
        seat = seat_map[seat_of(state, live.seating, acting)]
        if not actor.holds(seat):
            raise Forbidden(f"{acting} is to act, and you do not hold the seat {seat.name!r} ({seat.holder})",
                            seat=seat.name, power=acting)
        if version != live.version and not _others_since(live, version, acting):
            raise VersionConflict(live.version)
        return seat, acting

    def _bump_version(self, conn: Connection, game_id: str, version: int, work: LiveGame) -> None:
        done = conn.execute(BUMP_VERSION, {"game_id": game_id, "expected": version, "version": work.version,
                                           "state_hash": work.state_hash, "winner": work.state.winner,
                                           "updated_at": time.time()})
        if done.rowcount != 1:
            current = conn.execute(select(games.c.version).where(games.c.id == game_id)).scalar()
            raise VersionConflict(int(current or 0))

    def _current_version(self, game_id: str) -> int:
        with db.read(self.engine) as conn:
            return int(game_row(conn, game_id).version)

    # -- bots -----------------------------------------------------------------------------------------

    def bot_seat_to_act(self, game_id: str) -> tuple[LiveGame, Seat, str] | None:
        """The live game, the first acting seat a bot holds and the power it acts for, while the game goes on."""
        live, seat_map, row = self.load(game_id)
        if live.state.winner is not None or row.bot_error:
            return None
        for power in acting_powers(live.state):
            seat = seat_map[seat_of(live.state, live.seating, power)]
            if seat.bot is not None:
                return live, seat, power
        return None

    def record_bot_error(self, game_id: str, message: str) -> None:
        with db.write(self.engine) as conn:
            conn.execute(update(games).where(games.c.id == game_id).values(bot_error=message[:2000]))

    def resume_bots(self, game_id: str, user_id: int) -> None:
        """Clear the game's `bot_error` so its bots play again; only for a user who holds a seat in the game or
        created it (else Forbidden)."""
        with db.write(self.engine) as conn:
            game = conn.execute(select(games.c.created_by).where(games.c.id == game_id)).first()
            if game is None:
                raise NotFound(f"no game {game_id!r}")
            seated = conn.execute(select(seats.c.seat).where(seats.c.game_id == game_id,
                                                             seats.c.user_id == user_id).limit(1)).first()
            if game.created_by != user_id and seated is None:
                raise Forbidden("only a player of the game or its creator may resume its bots")
            conn.execute(update(games).where(games.c.id == game_id).values(bot_error=None))
        self.on_change(game_id)

    def back_out_phase(self, live: LiveGame, actor: Actor) -> bool:
        """Take back this phase's undoable entries (as self-play does at a dead end); False if none."""
        keep = len(live.log.entries)
        while keep > live.dice_from_seq and _undoable(live.log.entries[keep - 1]):
            keep -= 1
        if keep == len(live.log.entries):
            return False
        work = live.fork()
        del work.log.entries[keep:]
        work.log.state = work.log.replay()
        self._truncate(live, work, actor)
        return True

    def games_with_bots(self) -> list[str]:
        """Unfinished games with a bot seat (the bot runner looks at them on start)."""
        with db.read(self.engine) as conn:
            rows = conn.execute(select(games.c.id).where(
                games.c.winner.is_(None), games.c.bot_error.is_(None),
                games.c.id.in_(select(seats.c.game_id).where(seats.c.bot.is_not(None))))).all()
        return [r.id for r in rows]

    # -- rows -----------------------------------------------------------------------------------------

    @staticmethod
    def _seats(conn: Connection, game_id: str) -> dict[str, Seat]:
        rows = conn.execute(SEATS, {"game_id": game_id}).all()
        return {r.seat: Seat(r.seat, r.user_id, r.username, r.bot) for r in rows}

    @staticmethod
    def _summary(row: Any, seat_map: Mapping[str, Seat]) -> dict[str, Any]:
        return {"id": row.id, "ruleset": row.ruleset, "options": json.loads(row.options), "seating": row.seating,
                "version": row.version, "winner": row.winner, "bot_error": row.bot_error,
                "seats": [s.to_json() for s in seat_map.values()], "ranked": bool(row.ranked),
                "title_match": bool(row.title_match), "match_id": row.match_id, "bid": row.bid}

    @staticmethod
    def _turn_record(conn: Connection, game_id: str, turn: int) -> dict[str, Any] | None:
        row = conn.execute(select(dice_turns.c.commitment).where(
            dice_turns.c.game_id == game_id, dice_turns.c.turn == turn)).first()
        return None if row is None else {"commitment": row.commitment}

    @staticmethod
    def _insert_entry(conn: Connection, game_id: str, seq: int, action: Any, events: Any, state_hash: str,
                      actor: str, now: float) -> None:
        conn.execute(INSERT_ENTRY, _entry_row(game_id, seq, action, [e.to_json() for e in events], state_hash,
                                              actor, now))

    @staticmethod
    def _insert_turn(conn: Connection, game_id: str, turn: int, nation: str, from_seq: int, seed: bytes) -> None:
        conn.execute(INSERT_TURN, {"game_id": game_id, "turn": turn, "nation": nation, "from_seq": from_seq,
                                   "commitment": commitment(seed), "seed": seed.hex(), "revealed": False})


def _entry_row(game_id: str, seq: int, action: Any, events: list[dict[str, Any]], state_hash: str, actor: str,
               now: float) -> dict[str, Any]:
    """The `log_entries` row of one entry (`events` in JSON)."""
    return {"game_id": game_id, "seq": seq, "action": None if action is None else dumps(action),
            "events": events.text if type(events) is Rendered else dumps(events), "state_hash": state_hash,
            "actor": actor, "created_at": now}


def _param(name: str, named: bool) -> str:
    """A parameter in the driver's own style for a dict of parameters: `:name` (sqlite3) or `%(name)s` (psycopg)."""
    return f":{name}" if named else f"%({name})s"


@lru_cache(maxsize=2 * db.MAX_BATCH)
def _bump_many(count: int, named: bool) -> str:
    """SQL: the version updates of `count` actions of different games at once (`BUMP_CHECKED` for each: the
    game still at the version and state hash the action was prepared on, its seat still held by the actor)."""
    def p(name: str, k: int) -> str:
        return _param(f"{name}{k}", named)

    rows = " UNION ALL ".join(
        f"SELECT CAST({p('i', k)} AS VARCHAR(32)) AS id, CAST({p('e', k)} AS INTEGER) AS expected, "
        f"CAST({p('h', k)} AS VARCHAR(64)) AS expected_hash, CAST({p('s', k)} AS VARCHAR(64)) AS seat, "
        f"CAST({p('u', k)} AS INTEGER) AS user_id, CAST({p('b', k)} AS INTEGER) AS by_bot, "
        f"CAST({p('v', k)} AS INTEGER) AS version, CAST({p('n', k)} AS VARCHAR(64)) AS state_hash, "
        f"CAST({p('w', k)} AS VARCHAR(64)) AS winner, CAST({p('t', k)} AS FLOAT) AS updated_at"
        for k in range(count))
    # it starts with UPDATE, so that the SQLite driver counts the rows it changed
    return ("UPDATE games SET version = v.version, state_hash = v.state_hash, winner = v.winner, "
            f"updated_at = v.updated_at FROM ({rows}) AS v "
            "WHERE games.id = v.id AND games.version = v.expected AND games.state_hash = v.expected_hash "
            "AND EXISTS (SELECT 1 FROM seats WHERE seats.game_id = v.id AND seats.seat = v.seat "
            "AND CASE WHEN v.by_bot = 1 THEN seats.bot IS NOT NULL ELSE seats.user_id = v.user_id END)")


ENTRY_COLUMNS = ("game_id", "seq", "action", "events", "state_hash", "actor", "created_at")


@lru_cache(maxsize=2 * db.MAX_BATCH)
def _insert_many(count: int, named: bool) -> str:
    """SQL: insert `count` log entries (`_entry_row`s, their columns numbered) in one statement."""
    rows = ", ".join("(" + ", ".join(_param(f"{c}{k}", named) for c in ENTRY_COLUMNS) + ")" for k in range(count))
    return f"INSERT INTO log_entries ({', '.join(ENTRY_COLUMNS)}) VALUES {rows}"


@dataclass(frozen=True)
class Ranking:
    """What makes a new game ranked: a title match, and the match (two games, sides swapped, a bid) it is of."""

    title_match: bool = False
    match_id: str | None = None
    bid: int | None = None

    def columns(self) -> dict[str, Any]:
        return {"ranked": True, "title_match": self.title_match, "match_id": self.match_id, "bid": self.bid}


def _agree_bid(log: GameLog, bid: int) -> bool:
    """Where the game opens with the players' bids for the Axis, make them for the agreed `bid`: the Axis seat
    bids it, the other seat one more, so the Axis seat keeps the Axis and receives `bid`. False if it does not."""
    game, done = Game(log), set()
    board = load_ruleset(log.state.ruleset, log.state.options).board
    while log.state.winner is None:
        power = acting_power(log.state)
        side = board.side_of(power)
        if side in done or not any(a.type == "bid" for a in game.legal_actions(None, power)):
            break
        game.apply(Bid(amount=bid if side == AXIS else bid + 1), power)
        game.apply(EndPhase(), power)
        done.add(side)
    return bool(done)


def _game_ended(conn: Connection, prepared: PreparedAction) -> None:
    """An action that ends its game moves the ladder, if the game is ranked (in the action's transaction)."""
    winner = prepared.work.state.winner
    if winner is not None and prepared.live.state.winner is None:
        ladder.record_finish(conn, prepared.live.id, winner)


def _accounts(conn: Connection, user_id: int, specs: Iterable[str]) -> dict[str, tuple[int, str]]:
    """The accounts a creation request seats: "me" and every "user:NAME" -> (user id, username)."""
    wanted = {spec.removeprefix("user:") for spec in specs if spec.startswith("user:")}
    rows = conn.execute(select(users.c.id, users.c.username).where(
        (users.c.id == user_id) | users.c.username.in_(sorted(wanted)))).all()
    found = {f"user:{r.username}": (r.id, r.username) for r in rows}
    missing = sorted(wanted - {r.username for r in rows})
    if missing:
        raise BadRequest(f"no account {missing[0]!r}")
    found["me"] = next(((r.id, r.username) for r in rows if r.id == user_id), (user_id, ""))
    return found


def _holder(user_id: int, seat: str, spec: str, accounts: Mapping[str, tuple[int, str]]) -> dict[str, Any]:
    """Seat columns for a creation request: "me", "open", "user:NAME" or a bot name (optionally "bot:NAME")."""
    name = spec.removeprefix("bot:")
    if spec == "me":
        return {"user_id": user_id, "bot": None}
    if spec == "open":
        return {"user_id": None, "bot": None}
    if spec in accounts:
        return {"user_id": accounts[spec][0], "bot": None}
    known = bot_names()
    if name in known:
        return {"user_id": None, "bot": name}
    raise BadRequest(f"seat {seat!r}: {spec!r} is not 'me', 'open', 'user:NAME' or a known bot"
                     f" (the bots: {', '.join(known)})")


def _others_since(live: LiveGame, version: int, power: str) -> bool:
    """Whether an action of `power` sent on the older `version` still means what its sender saw: in the team
    turn still being played, every entry after `version` is another power's action, and none touched the play
    `power` acts in now (its own place as a member, or the member's battle whose decision it answers: a defender's
    answer sent for one member's battle must not land in another's)."""
    if not live.state.members or not 0 <= version < live.version:
        return False
    member = Game(live.log).actors().get(power)
    if member is None:
        return False
    for entry in live.log.entries[version:]:
        if (entry.action or {}).get("power") in (None, power):
            return False
        for event in entry.events:
            if event.type in ("team_turn_started", "team_turn_ended"):
                return False
            if isinstance(event, MemberFocused) and event.power == member:
                return False
    return True


def _undoable(entry: Any) -> bool:
    action = entry.action or {}
    return action.get("type") != "end_phase" and not any(e.type == "dice_rolled" for e in entry.events)
