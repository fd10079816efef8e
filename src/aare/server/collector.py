"""Cyclic garbage collection for a server process: short pauses, often, instead of long ones.

The cached games make a large heap of long-lived containers, and every action leaves more of them alive (states,
log entries, remembered texts). CPython's youngest collection scans every tracked container made since the last
one: at a threshold of 50,000 new containers each took 50–250 ms with 1,000 games cached, stalling every request
meanwhile. Here the youngest generation is collected after `YOUNG` new containers, and what survives a
collection is frozen at once (`gc.freeze`), so no later collection scans it again: a pause is a few
milliseconds, and in all the scanning costs less (measured in `docs/server.md`). Garbage cycles frozen while
they were still in use are freed by a sweep every `sweep_seconds`: one full collection of everything, unfrozen,
on a thread of its own.
"""

from __future__ import annotations

import gc
import threading
import time
from typing import Any

YOUNG = 1_000
"""New tracked containers between two collections of the youngest generation (CPython's default: 700)."""


class Freezer:
    """A `gc.callbacks` hook freezing what survives each collection, and the sweeper's switch: while a sweep
    runs, nothing is frozen."""

    installed: Freezer | None = None

    def __init__(self) -> None:
        self.sweeping = False

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and not self.sweeping:
            gc.freeze()

    def sweep(self) -> None:
        """One full collection of the whole heap (garbage cycles frozen since the last are freed), then freeze."""
        self.sweeping = True
        try:
            gc.unfreeze()
            gc.collect()
        finally:
            self.sweeping = False
            gc.freeze()


def quieter_garbage_collection(sweep_seconds: float = 600.0, young: int = YOUNG) -> None:
    """Set this process's collection policy (above): freeze what is loaded now, collect the youngest generation
    every `young` new containers freezing its survivors, sweep everything every `sweep_seconds`."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(young, 10, 10)
    if Freezer.installed is None:
        freezer = Freezer.installed = Freezer()
        gc.callbacks.append(freezer)
        threading.Thread(target=_sweeper, args=(freezer, sweep_seconds), name="aare-gc-sweep", daemon=True).start()


def _sweeper(freezer: Freezer, every: float) -> None:
    while True:
        time.sleep(every)
        freezer.sweep()
