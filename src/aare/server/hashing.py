"""Password hashing behind a bounded pool. An argon2id hash takes ~64 MiB and tens of milliseconds of a core;
on the request threads a burst of registrations or logins would run forty at once (gigabytes of memory, every
other request waiting for the CPU). Here a few threads hash (one per core by default) and at most `queue`
more hashes wait; beyond that a request is answered 503 with `Retry-After` at once. On Linux the hashing
threads run at a lower priority (niceness 10; argon2's own lane threads inherit it), so a flood of hashes
takes the CPU the rest of the server leaves idle instead of stalling every other request."""

from __future__ import annotations

import contextlib
import os
import sys
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from aare.server.errors import ServiceError

T = TypeVar("T")
RETRY_AFTER = 1  # seconds: a queue of hashes is gone within about a second
NICENESS = 10  # of the hashing threads (Linux)


class ServerBusy(ServiceError):
    """Too many password hashes are waiting already; try again after `retry_after` seconds."""

    status = 503

    def __init__(self, message: str, retry_after: int = RETRY_AFTER) -> None:
        super().__init__(message, retry_after=retry_after)
        self.retry_after = retry_after
        self.headers = {"Retry-After": str(retry_after)}


class HashPool:
    """Runs password hashes on `threads` threads (0: one per core) at niceness `nice`; at most `queue` more
    may wait."""

    def __init__(self, threads: int = 0, queue: int = 16, nice: int = NICENESS) -> None:
        self.threads = threads or os.cpu_count() or 1
        self.queue = queue
        self.nice = nice
        self._executor = ThreadPoolExecutor(self.threads, thread_name_prefix="aare-hash",
                                            initializer=self._lower_priority)
        self._inside = 0
        self._lock = threading.Lock()

    @property
    def inside(self) -> int:
        """Hashes running or waiting now."""
        with self._lock:
            return self._inside

    def call(self, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` on a hashing thread (the caller waits for it); ServerBusy when the queue is full."""
        with self._lock:
            if self._inside >= self.threads + self.queue:
                raise ServerBusy("the server is busy checking passwords; try again in a moment")
            self._inside += 1
        try:
            return self._executor.submit(fn, *args).result()
        finally:
            with self._lock:
                self._inside -= 1

    def _lower_priority(self) -> None:
        if sys.platform == "linux" and self.nice > 0:  # elsewhere PRIO_PROCESS would renice the whole process
            with contextlib.suppress(OSError):
                os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), self.nice)

    def close(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)
