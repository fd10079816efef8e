"""Rate limits on logging in and registering, counted per key (a username, a client address) within a
sliding window: at the limit, further attempts are refused (429) until the oldest counted attempt leaves the
window, even with the right password.

The counts live in a store: `MemoryCounts` (this process only) or, when Redis is configured, `RedisCounts`
(shared by every worker of the server, so `--workers N` does not multiply the allowed attempts)."""

from __future__ import annotations

import hashlib
import itertools
import math
import threading
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Sequence
from typing import Any, Protocol

from aare.server.errors import ServiceError

REDIS_PREFIX = "aare:limit:"


class RateLimited(ServiceError):
    """Too many attempts lately; `retry_after`: seconds until the next attempt is allowed."""

    status = 429

    def __init__(self, message: str, retry_after: int) -> None:
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class TooManyLogins(RateLimited):
    """Too many failed logins lately."""


class TooManyRegistrations(RateLimited):
    """Too many accounts registered from this address lately."""


class Full(Exception):
    """Internal: counter `index` of a `take` is at its limit; `wait`: seconds until it has room."""

    def __init__(self, index: int, wait: int) -> None:
        super().__init__(index, wait)
        self.index = index
        self.wait = wait


class Counts(Protocol):
    """Counters of stamped attempts within a sliding window."""

    def take(self, counters: Sequence[tuple[str, int]], window: float) -> str:
        """Count an attempt on every (key, limit) with limit > 0, unless one is at its limit (`Full`, nothing
        counted). Returns the attempt's ticket (for `give_back`)."""
        ...

    def give_back(self, key: str, ticket: str) -> None:
        """Take back the attempt `ticket` from `key`'s count."""
        ...

    def forget(self, key: str) -> None:
        """Forget every attempt counted on `key`."""
        ...

    def close(self) -> None: ...


class MemoryCounts:
    """Counts in this process. At most `size` keys are remembered (the least recently counted go first)."""

    def __init__(self, size: int = 100_000, clock: Callable[[], float] = time.monotonic) -> None:
        self.size = size
        self.clock = clock
        self._counts: OrderedDict[str, deque[tuple[float, str]]] = OrderedDict()
        self._tickets = itertools.count()
        self._lock = threading.Lock()

    def take(self, counters: Sequence[tuple[str, int]], window: float) -> str:
        now = self.clock()
        ticket = str(next(self._tickets))
        with self._lock:
            for index, (key, limit) in enumerate(counters):
                wait = self._wait(key, limit, now, window)
                if wait is not None:
                    raise Full(index, wait)
            for key, limit in counters:
                if limit > 0:
                    self._counts.setdefault(key, deque()).append((now, ticket))
                    self._counts.move_to_end(key)
            while len(self._counts) > self.size:
                self._counts.popitem(last=False)
        return ticket

    def give_back(self, key: str, ticket: str) -> None:
        with self._lock:
            counted = self._counts.get(key)
            if counted is not None:
                for item in counted:
                    if item[1] == ticket:
                        counted.remove(item)
                        break

    def forget(self, key: str) -> None:
        with self._lock:
            self._counts.pop(key, None)

    def __len__(self) -> int:
        with self._lock:
            return len(self._counts)

    def close(self) -> None:
        pass

    def _wait(self, key: str, limit: int, now: float, window: float) -> int | None:
        """Whole seconds until `key` may count again; None when it may now."""
        counted = self._counts.get(key)
        if limit <= 0 or counted is None:
            return None
        while counted and counted[0][0] <= now - window:
            counted.popleft()
        if not counted:
            del self._counts[key]
            return None
        if len(counted) < limit:
            return None
        return max(1, math.ceil(counted[-limit][0] + window - now))


# KEYS: the counters (sorted sets of tickets scored by time); ARGV: window, ticket, then each key's limit.
# Redis's own clock is used, so every worker counts on the same time.
_TAKE = """
local t = redis.call('TIME')
local now = tonumber(t[1]) + tonumber(t[2]) / 1000000
local window = tonumber(ARGV[1])
for i, key in ipairs(KEYS) do
  local limit = tonumber(ARGV[2 + i])
  if limit > 0 then
    redis.call('ZREMRANGEBYSCORE', key, '-inf', now - window)
    local count = redis.call('ZCARD', key)
    if count >= limit then
      local oldest = redis.call('ZRANGE', key, count - limit, count - limit, 'WITHSCORES')
      return {i, tostring(tonumber(oldest[2]) + window - now)}
    end
  end
end
for i, key in ipairs(KEYS) do
  if tonumber(ARGV[2 + i]) > 0 then
    redis.call('ZADD', key, now, ARGV[2])
    redis.call('PEXPIRE', key, math.ceil(window * 1000))
  end
end
return {0, '0'}
"""


class RedisCounts:
    """Counts in Redis, shared by every process of one server: sorted sets `aare:limit:<namespace>:<key>`
    (the namespace is made from the database URL, so servers on other databases count apart), each expiring
    a window after its last attempt."""

    def __init__(self, url: str, namespace: str) -> None:
        import redis

        self._redis = redis.Redis.from_url(url)
        self._take: Any = self._redis.register_script(_TAKE)
        self.prefix = f"{REDIS_PREFIX}{hashlib.sha256(namespace.encode()).hexdigest()[:16]}:"
        self._tickets = itertools.count()
        self._me = hashlib.sha256(f"{id(self)}{time.time_ns()}".encode()).hexdigest()[:12]

    def take(self, counters: Sequence[tuple[str, int]], window: float) -> str:
        ticket = f"{self._me}:{next(self._tickets)}"
        keys = [self.prefix + key for key, _ in counters]
        index, wait = self._take(keys=keys, args=[window, ticket, *(limit for _, limit in counters)])
        if int(index):
            raise Full(int(index) - 1, max(1, math.ceil(float(wait))))
        return ticket

    def give_back(self, key: str, ticket: str) -> None:
        self._redis.zrem(self.prefix + key, ticket)

    def forget(self, key: str) -> None:
        self._redis.delete(self.prefix + key)

    def close(self) -> None:
        self._redis.close()


def make_counts(redis_url: str | None, namespace: str) -> Counts:
    """Counts in Redis when it is configured, else in this process."""
    return RedisCounts(redis_url, namespace) if redis_url else MemoryCounts()


class LoginLimits:
    """At most `per_user` failed logins per username and `per_address` per client address in `window` seconds
    (0: no limit). An attempt is counted as a failure when it starts, so parallel guesses cannot slip past the
    limit; a success takes its count back and clears the username's failures."""

    def __init__(self, per_user: int = 5, per_address: int = 20, window: float = 900.0, size: int = 100_000,
                 clock: Callable[[], float] = time.monotonic, counts: Counts | None = None) -> None:
        self.per_user = per_user
        self.per_address = per_address
        self.window = window
        self.counts: Counts = counts if counts is not None else MemoryCounts(size, clock)

    def attempt(self, username: str, address: str) -> str:
        """Start a login attempt: its ticket (for `succeeded`), or TooManyLogins when a limit is reached."""
        counters = ((f"login:user:{username}", self.per_user), (f"login:address:{address}", self.per_address))
        try:
            return self.counts.take(counters, self.window)
        except Full as full:
            what = ("user", "address")[full.index]
            raise TooManyLogins(f"too many failed logins for this {what}; try again in {full.wait} seconds",
                                full.wait) from None

    def succeeded(self, username: str, address: str, ticket: str) -> None:
        """The attempt `ticket` was right: forget the username's failures and this attempt's count."""
        self.counts.forget(f"login:user:{username}")
        self.counts.give_back(f"login:address:{address}", ticket)

    def not_tried(self, username: str, address: str, ticket: str) -> None:
        """The attempt `ticket` could not be checked (the server was busy): it counts for neither key."""
        self.counts.give_back(f"login:user:{username}", ticket)
        self.counts.give_back(f"login:address:{address}", ticket)

    def __len__(self) -> int:
        """How many usernames and addresses are remembered (in-process counts only)."""
        return len(self.counts) if isinstance(self.counts, MemoryCounts) else 0


class RegistrationLimits:
    """At most `per_address` registrations (tried or done) per client address in `window` seconds (0: no
    limit)."""

    def __init__(self, per_address: int = 10, window: float = 3600.0, counts: Counts | None = None) -> None:
        self.per_address = per_address
        self.window = window
        self.counts: Counts = counts if counts is not None else MemoryCounts()

    def attempt(self, address: str) -> str | None:
        """Count a registration from `address`: its ticket (None when not limited); TooManyRegistrations when
        the address is at its limit."""
        if self.per_address <= 0:
            return None
        try:
            return self.counts.take(((f"register:address:{address}", self.per_address),), self.window)
        except Full as full:
            raise TooManyRegistrations(f"too many accounts registered from this address; try again in "
                                       f"{full.wait} seconds", full.wait) from None

    def give_back(self, address: str, ticket: str | None) -> None:
        """Take back a registration that the server could not serve (busy), so it does not count."""
        if ticket is not None:
            self.counts.give_back(f"register:address:{address}", ticket)
