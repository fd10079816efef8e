"""Server-side bots: whenever play reaches a seat a bot holds, the bot chooses an action and submits it
through the same guarded door as a player. `background` mode runs them on one worker thread, taking games
in turn; `inline` mode runs them before the triggering request answers (deterministic, for tests)."""

from __future__ import annotations

import hashlib
import logging
import threading
from collections import deque

from aare.actions import EndPhase
from aare.ai import NoLegalAction, make_bot
from aare.engine import Game
from aare.errors import AareError
from aare.server.errors import VersionConflict
from aare.server.service import Actor, GameService

log = logging.getLogger("aare.server.bots")


def bot_seed(game_id: str, version: int) -> int:
    """A bot's random seed at one moment of one game: bots replay the same after a restart."""
    return int.from_bytes(hashlib.sha256(f"{game_id}:{version}".encode()).digest()[:8], "big")


def bot_step(service: GameService, game_id: str) -> bool:
    """Let the bot whose seat must act take one step; False when no bot is to act."""
    found = service.bot_seat_to_act(game_id)
    if found is None:
        return False
    live, seat, power = found
    actor = Actor(bot_seat=seat.name)
    bot = make_bot(seat.bot or "random", bot_seed(game_id, live.version))
    try:
        try:
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
        return True  # someone else moved the game on: look again
    except AareError as exc:
        log.warning("bot %s in game %s stopped: %s", seat.bot, game_id, exc)
        service.record_bot_error(game_id, f"{seat.name} ({seat.bot}): {exc}")
        return False
    except Exception as exc:  # an engine fault: stop this game's bots, keep every other game going
        log.exception("bot %s in game %s failed", seat.bot, game_id)
        service.record_bot_error(game_id, f"{seat.name} ({seat.bot}): {type(exc).__name__}: {exc}")
        return False
    return True


class BotRunner:
    """Runs bot steps for games that `notify` names."""

    def __init__(self, service: GameService, mode: str = "background", max_inline_steps: int = 20_000) -> None:
        self.service = service
        self.mode = mode
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
            return bot_step(self.service, game_id)
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
