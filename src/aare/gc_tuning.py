"""The cyclic garbage collector, tuned for long runs of the engine (an environment's steps, a server's actions).

Each action makes and drops many small containers while the engine's caches keep many more alive, so at
Python's default first threshold (700 net allocations) the collector runs every few actions and its passes over
the surviving objects take about a tenth of the time. `tune_collector` raises that threshold once per process (the
RL environment calls it). The server goes further (`aare.server.collector`: survivors frozen, a periodic sweep),
which suits a process that runs for days with a thread to spare."""

from __future__ import annotations

import gc

FIRST_THRESHOLD = 10_000
"""Net allocations of tracked objects between two passes of the youngest generation."""


def tune_collector(first: int = FIRST_THRESHOLD) -> tuple[int, int, int]:
    """Raise the collector's first threshold to `first`, never lower it, and leave a disabled collector (threshold
    0) as it is; the older generations' thresholds stay. Process-wide. Returns the thresholds now in force."""
    now = gc.get_threshold()
    if 0 < now[0] < first:
        gc.set_threshold(first, now[1], now[2])
    return gc.get_threshold()
