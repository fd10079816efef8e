"""The cyclic garbage collector, tuned for long runs of the engine (an environment's steps, a server's actions).

Each action makes and drops many small containers while the engine's caches keep many more alive, so at
Python's default thresholds (a pass over the youngest generation every 700 net allocations, over the middle one
every 10 of those) the collector runs every few actions and its passes over the surviving objects take about a
tenth of the time. `tune_collector` raises the first two thresholds once per process (the RL environment calls
it): in random play of `aare_lhtr_v0` the collector's share of the time went from 9-10 % (first threshold 10,000)
to about 4 %. The server goes further (`aare.server.collector`: survivors frozen, a periodic sweep), which suits a
process that runs for days with a thread to spare."""

from __future__ import annotations

import gc

FIRST_THRESHOLD = 100_000
"""Net allocations of tracked objects between two passes of the youngest generation."""
SECOND_THRESHOLD = 20
"""Passes of the youngest generation between two of the middle one."""


def tune_collector(first: int = FIRST_THRESHOLD, second: int = SECOND_THRESHOLD) -> tuple[int, int, int]:
    """Raise the collector's first two thresholds to `first` and `second`, never lower them, and leave a disabled
    collector (first threshold 0) as it is; the oldest generation's threshold stays. Process-wide. Returns the
    thresholds now in force."""
    now = gc.get_threshold()
    if now[0] > 0:
        gc.set_threshold(max(now[0], first), max(now[1], second), now[2])
    return gc.get_threshold()
