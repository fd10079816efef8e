"""Recently checked credentials: an API token or session cookie found valid is trusted for `ttl` seconds
without asking the database again. Logging out and revoking a token clear the cache of this process; other
worker processes notice within `ttl`."""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from typing import Any


class LoginCache:
    """A bounded map of (kind, secret) to what the database said of it, each entry kept `ttl` seconds."""

    def __init__(self, ttl: float = 2.0, size: int = 10_000) -> None:
        self.ttl = ttl
        self.size = size
        self._entries: OrderedDict[tuple[str, str], tuple[float, Any]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, kind: str, secret: str) -> Any | None:
        with self._lock:
            found = self._entries.get((kind, secret))
            if found is None:
                return None
            if found[0] < time.monotonic():
                del self._entries[(kind, secret)]
                return None
            return found[1]

    def put(self, kind: str, secret: str, value: Any) -> None:
        if self.ttl <= 0:
            return
        with self._lock:
            self._entries[(kind, secret)] = (time.monotonic() + self.ttl, value)
            self._entries.move_to_end((kind, secret))
            while len(self._entries) > self.size:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
