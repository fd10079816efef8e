"""Failed logins, counted per username and per client address within a sliding window: at the limit, further
attempts are refused (429) until the oldest counted failure leaves the window, even with the right password.
Kept in memory, so each server process counts on its own."""

from __future__ import annotations

import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable

from aare.server.errors import ServiceError


class TooManyLogins(ServiceError):
    """Too many failed logins lately; `retry_after`: seconds until the next attempt is allowed."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class LoginLimits:
    """At most `per_user` failed logins per username and `per_address` per client address in `window` seconds
    (0: no limit). An attempt is counted as a failure when it starts, so parallel guesses cannot slip past the
    limit; a success takes its count back and clears the username's failures. At most `size` usernames and
    addresses are remembered (the least recently failed are forgotten first)."""

    def __init__(self, per_user: int = 5, per_address: int = 20, window: float = 900.0, size: int = 100_000,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.per_user = per_user
        self.per_address = per_address
        self.window = window
        self.size = size
        self.clock = clock
        self._failures: OrderedDict[tuple[str, str], deque[float]] = OrderedDict()
        self._lock = threading.Lock()

    def attempt(self, username: str, address: str) -> float:
        """Start a login attempt: its stamp (for `succeeded`), or TooManyLogins when a limit is reached."""
        now = self.clock()
        keys = (("user", username), ("address", address))
        limits = (self.per_user, self.per_address)
        with self._lock:
            for key, limit in zip(keys, limits, strict=True):
                wait = self._wait(key, limit, now)
                if wait is not None:
                    raise TooManyLogins(f"too many failed logins for this {key[0]}; try again in {wait} seconds",
                                        wait)
            for key, limit in zip(keys, limits, strict=True):
                if limit > 0:
                    self._failures.setdefault(key, deque()).append(now)
                    self._failures.move_to_end(key)
            while len(self._failures) > self.size:
                self._failures.popitem(last=False)
        return now

    def succeeded(self, username: str, address: str, stamp: float) -> None:
        """The attempt started at `stamp` was right: forget the username's failures and this attempt's count."""
        with self._lock:
            self._failures.pop(("user", username), None)
            counted = self._failures.get(("address", address))
            if counted is not None and stamp in counted:
                counted.remove(stamp)

    def __len__(self) -> int:
        """How many usernames and addresses are remembered."""
        with self._lock:
            return len(self._failures)

    def _wait(self, key: tuple[str, str], limit: int, now: float) -> int | None:
        """Whole seconds until `key` may try again; None when it may now."""
        counted = self._failures.get(key)
        if limit <= 0 or counted is None:
            return None
        while counted and counted[0] <= now - self.window:
            counted.popleft()
        if not counted:
            del self._failures[key]
            return None
        if len(counted) < limit:
            return None
        return max(1, math.ceil(counted[-limit] + self.window - now))
