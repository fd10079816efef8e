"""What the machine a benchmark ran on is, printed with its figures: rates from different machines differ by more
than any change measured here (a processor three times faster, a disk flush twenty times cheaper), so a figure is
read with the machine it came from.

    python bench/machine.py [FOLDER]    # the facts as JSON; the flush timed in FOLDER (default: a temp)
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

FLUSHES = 50
"""Flushes timed by `flush_ms` (about 10 ms on a fast disk, 0.2 s on a slow one)."""


def cpu_model() -> str | None:
    """The processor's model name as Linux reports it (None elsewhere)."""
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.startswith("model name"):
                return line.partition(":")[2].strip()
    except OSError:
        pass
    return None


def flush_ms(folder: Path | None = None) -> float:
    """The median time of writing 4 kB and `fsync`-ing it in `folder`, in ms: what a database's commit waits for."""
    handle, name = tempfile.mkstemp(prefix="aare-flush-", dir=folder)
    try:
        block, times = b"\0" * 4096, []
        for _ in range(FLUSHES):
            start = time.perf_counter()
            os.write(handle, block)
            os.fsync(handle)
            times.append(time.perf_counter() - start)
        return round(1000 * statistics.median(times), 3)
    finally:
        os.close(handle)
        os.unlink(name)


def facts(folder: Path | None = None, flush: bool = True) -> dict[str, Any]:
    """The processor, its number of cores, the load average and (with `flush`) the flush time in `folder`."""
    out: dict[str, Any] = {"cpu_model": cpu_model(), "cpus": os.cpu_count(),
                           "load_average_1min": round(os.getloadavg()[0], 2)}
    if flush:
        out["flush_ms"] = flush_ms(folder)
    return out


if __name__ == "__main__":
    print(json.dumps(facts(Path(sys.argv[1]) if len(sys.argv) > 1 else None), indent=2))
