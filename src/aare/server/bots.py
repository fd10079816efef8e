"""Server-side bots: whenever play reaches a seat a bot holds, the bot chooses an action and submits it
through the same guarded door as a player. `background` mode runs them on one worker thread, taking games
in turn; `inline` mode runs them before the triggering request answers (deterministic, for tests).

A bot plans a phase when it starts and plays the plan out action by action, so the runner keeps one bot per
(game, seat, power) in `BotCache` while the game only moves forward; after a restart, an undo or when the
cache misses, it builds the bot afresh, seeded from the game id and the version it is built at."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import OrderedDict, deque
from dataclasses import dataclass

from aare.actions import EndPhase
from aare.ai import Bot, NoLegalAction, make_bot
from aare.engine import Game
from aare.errors import AareError
from aare.game_log import LogEntry
from aare.server.errors import VersionConflict
from aare.server.live import LiveGame
from aare.server.seats import Seat
from aare.server.service import Actor, GameService

log = logging.getLogger("aare.server.bots")


def bot_seed(game_id: str, version: int) -> int:
    """A bot's random seed at one moment of one game: bots replay the same after a restart."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{version}".encode()).digest()[:8], "big")


@dataclass
class _Held:
    """A kept bot: its name and the game as it last saw it (the version and that version's last entry)."""

    bot: Bot
    name: str
    version: int
    last: LogEntry | None


class BotCache:
    """One bot per (game, seat, power), kept while the game only moves forward, so that a bot that plans a
    phase plays its plan out (and a searching bot's budget runs per power-turn). Bounded: the least recently
    used bots go first; a finished game's bots are dropped. `budget` (seconds) and `work` go to `make_bot`."""

    def __init__(self, size: int = 300, budget: float | None = None, work: int | None = None) -> None:
        self.size = size
        self.budget = budget
        self.work = work
        self._held: OrderedDict[tuple[str, str, str], _Held] = OrderedDict()
        self._lock = threading.Lock()
        self._stripes = [threading.Lock() for _ in range(64)]

    def game_lock(self, game_id: str) -> threading.Lock:
        """A lock held while a game's bot steps (two request threads never drive one bot at once)."""
        return self._stripes[int(hashlib.sha256(game_id.encode()).hexdigest()[:8], 16) % len(self._stripes)]

    def bot(self, live: LiveGame, seat: str, name: str, power: str) -> Bot:
        """The bot of `seat` playing `power`: the kept one if the game moved only forward since it last looked
        (its last seen entry is still in place), else a new one seeded from the game id and the version now."""
        key, entries = (live.id, seat, power), live.log.entries
        seen, last = len(entries), (entries[-1] if entries else None)
        with self._lock:
            held = self._held.get(key)
            if held is not None and (held.name != name or held.version > seen
                                     or (held.version and entries[held.version - 1] != held.last)):
                held = None
            if held is None:
                held = _Held(make_bot(name, bot_seed(live.id, live.version), budget=self.budget, work=self.work),
                             name, seen, last)
            held.version, held.last = seen, last
            self._held[key] = held
            self._held.move_to_end(key)
            while len(self._held) > self.size:
                self._held.popitem(last=False)
            return held.bot

    def forget(self, game_id: str, seat: str | None = None, power: str | None = None) -> None:
        """Drop the game's bots (only that seat's bot for `power`, if given)."""
        with self._lock:
            for key in [k for k in self._held if k[0] == game_id and seat in (None, k[1]) and power in (None, k[2])]:
                del self._held[key]

    def __len__(self) -> int:
        return len(self._held)

    def __contains__(self, key: object) -> bool:
        return key in self._held


def bot_step(service: GameService, game_id: str, bots: BotCache | None = None) -> bool:
    """Let the bot whose seat must act take one step; False when no bot is to act."""
    bots = bots if bots is not None else BotCache(size=0)
    with bots.game_lock(game_id):
        found = service.bot_seat_to_act(game_id)
        if found is None:
            live = service.cache.get(game_id)
            if live is None or live.state.winner is not None:
                bots.forget(game_id)
            return False
        return _step(service, bots, *found)


def _step(service: GameService, bots: BotCache, live: LiveGame, seat: Seat, power: str) -> bool:
    game_id, name = live.id, seat.bot or "random"
    actor = Actor(bot_seat=seat.name)
    try:
        try:
            bot = bots.bot(live, seat.name, name, power)
            player = Game(live.fork().log).acting_as(power)
            action = bot.choose(player)
            if live.state.members:
                action = action.model_copy(update={"power": power})
        except NoLegalAction:
            if service.back_out_phase(live, actor):
                return True
            action = EndPhase(power=power if live.state.members else "")
        service.submit(game_id, actor, action, live.version)
    except VersionConflict:
        bots.forget(game_id, seat.name, power)  # its plan went one step on in vain: plan again
        return True  # someone else moved the game on: look again
    except AareError as exc:
        bots.forget(game_id, seat.name, power)
        log.warning("bot %s in game %s stopped: %s", seat.bot, game_id, exc)
        service.record_bot_error(game_id, f"{seat.name} ({seat.bot}): {exc}")
        return False
    except Exception as exc:  # an engine fault: stop this game's bots, keep every other game going
        bots.forget(game_id, seat.name, power)
        log.exception("bot %s in game %s failed", seat.bot, game_id)
        service.record_bot_error(game_id, f"{seat.name} ({seat.bot}): {type(exc).__name__}: {exc}")
        return False
    return True


class BotRunner:
    """Runs bot steps for games that `notify` names, keeping their bots in `bots` (a `BotCache`; `budget`:
    a searching bot's seconds per power-turn, `work`: the same counted in work, reproducible)."""

    def __init__(self, service: GameService, mode: str = "background", max_inline_steps: int = 20_000,
                 budget: float | None = None, work: int | None = None, cache_size: int = 300) -> None:
        self.service = service
        self.mode = mode
        self.bots = BotCache(cache_size, budget, work)
        self.max_inline_steps = max_inline_steps
        self._queue: deque[str] = deque()
        self._queued: set[str] = set()
        self._cond = threading.Condition()
        self._busy = 0
        self._stop = False
        self._thread: threading.Thread | None = None
        self._inline = threading.local()

    def notify(self, game_id: str) -> None:
        """A game changed: its bots may have to act."""
        if self.mode == "off":
            return
        if self.mode == "inline":
            self._run_inline(game_id)
            return
        with self._cond:
            if game_id not in self._queued:
                self._queued.add(game_id)
                self._queue.append(game_id)
                self._cond.notify()

    def _run_inline(self, game_id: str) -> None:
        pending: set[str] | None = getattr(self._inline, "pending", None)
        if pending is not None:  # called back from a bot's own submission: the outer loop goes on
            pending.add(game_id)
            return
        self._inline.pending = pending = {game_id}
        try:
            steps = 0
            while pending and steps < self.max_inline_steps:
                current = pending.pop()
                while steps < self.max_inline_steps and self._safe_step(current):
                    steps += 1
                    pending.discard(current)
        finally:
            self._inline.pending = None

    def _safe_step(self, game_id: str) -> bool:
        """A bot step that never fails the request that triggered it (that action is already stored)."""
        try:
            return bot_step(self.service, game_id, self.bots)
        except Exception:
            log.exception("bot step failed in game %s", game_id)
            return False

    def start(self) -> None:
        """Start the worker thread and look at every unfinished game with a bot."""
        if self.mode == "off":
            return
        for game_id in self.service.games_with_bots():
            self.notify(game_id)
        if self.mode == "background" and self._thread is None:
            self._stop = False
            self._thread = threading.Thread(target=self._work, name="aare-bots", daemon=True)
            self._thread.start()

    def stop(self) -> None:
        with self._cond:
            self._stop = True
            self._cond.notify_all()
        if self._thread is not None:
            self._thread.join(timeout=10)
            self._thread = None

    def wait_idle(self, timeout: float = 60.0) -> bool:
        """Wait until no game waits for a bot (True) or `timeout` passes (False)."""
        with self._cond:
            return self._cond.wait_for(lambda: not self._queue and not self._busy, timeout)

    def _work(self) -> None:
        while True:
            with self._cond:
                self._cond.wait_for(lambda: self._queue or self._stop)
                if self._stop:
                    return
                game_id = self._queue.popleft()
                self._queued.discard(game_id)
                self._busy += 1
            again = self._safe_step(game_id)
            with self._cond:
                self._busy -= 1
                if again and game_id not in self._queued:
                    self._queued.add(game_id)
                    self._queue.append(game_id)
                self._cond.notify_all()
