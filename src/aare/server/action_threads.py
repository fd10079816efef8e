"""The threads that check submitted actions: a fixed number of threads taking calls in order from one queue.

`post(fn)` hands a call on without a future, for the action path: `ThreadPoolExecutor.submit` makes a future and
a work item, takes the executor's locks and its idle-thread semaphore on every call (some 20 µs when the
threads are busy, against well under 1 µs for a queue put). `submit` is the `Executor` one, for
`loop.run_in_executor` on the rarer paths.
"""

from __future__ import annotations

import logging
import queue
import threading
from collections.abc import Callable
from concurrent.futures import Executor, Future
from typing import Any, TypeVar

log = logging.getLogger("aare.server")
T = TypeVar("T")


class ActionThreads(Executor):
    """`count` threads named `name`-N running posted calls in the order they came."""

    def __init__(self, count: int, name: str = "aare-actions") -> None:
        self._calls: queue.SimpleQueue[Callable[[], Any] | None] = queue.SimpleQueue()
        self._closed = False
        self._threads = [threading.Thread(target=self._work, name=f"{name}-{n}", daemon=True)
                         for n in range(max(1, count))]
        for thread in self._threads:
            thread.start()

    def post(self, call: Callable[[], Any]) -> None:
        """Run `call()` on one of the threads; what it raises is logged (it should handle its errors)."""
        if self._closed:
            raise RuntimeError("the action threads have been shut down")
        self._calls.put(call)

    def submit(self, fn: Callable[..., T], /, *args: Any, **kwargs: Any) -> Future[T]:
        future: Future[T] = Future()

        def run() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                result = fn(*args, **kwargs)
            except BaseException as exc:
                future.set_exception(exc)
            else:
                future.set_result(result)

        self.post(run)
        return future

    def shutdown(self, wait: bool = True, *, cancel_futures: bool = False) -> None:
        """Stop the threads once the calls already posted have run (`wait`: return when they have)."""
        if not self._closed:
            self._closed = True
            for _ in self._threads:
                self._calls.put(None)
        if wait:
            for thread in self._threads:
                if thread is not threading.current_thread():
                    thread.join()

    def _work(self) -> None:
        while True:
            call = self._calls.get()
            if call is None:
                return
            try:
                call()
            except BaseException:
                log.exception("an action thread's call failed")
