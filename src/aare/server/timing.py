"""Where a request's time goes: named spans collected per request and sent back in the `Server-Timing` header
(`app` is the whole; `load`, `rules`, `store` and `publish` are the parts of an action), so clients and
benchmarks can tell a slow disk from slow rules."""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_spans: ContextVar[dict[str, float] | None] = ContextVar("aare_timing", default=None)


def start_request() -> dict[str, float]:
    """Begin collecting spans for the current request (the dict is shared with worker threads)."""
    spans: dict[str, float] = {}
    _spans.set(spans)
    return spans


@contextmanager
def span(name: str) -> Iterator[None]:
    """Time the block and add it to the request's span `name` (no-op outside a request)."""
    spans = _spans.get()
    if spans is None:
        yield
        return
    start = time.perf_counter()
    try:
        yield
    finally:
        spans[name] = spans.get(name, 0.0) + (time.perf_counter() - start) * 1000


def add(name: str, seconds: float) -> None:
    """Add `seconds` to the request's span `name` (no-op outside a request)."""
    spans = _spans.get()
    if spans is not None:
        spans[name] = spans.get(name, 0.0) + seconds * 1000


def header(total_ms: float, spans: dict[str, float]) -> str:
    """The `Server-Timing` value: `app;dur=…` first, then each span."""
    return ", ".join([f"app;dur={total_ms:.2f}", *(f"{k};dur={v:.2f}" for k, v in spans.items())])


def parse(value: str) -> dict[str, float]:
    """A `Server-Timing` value as {name: milliseconds} (metrics without a duration are left out)."""
    out: dict[str, float] = {}
    for metric in value.split(","):
        name, *params = (p.strip() for p in metric.split(";"))
        for param in params:
            key, _, number = param.partition("=")
            if key == "dur" and name:
                out[name] = float(number)
    return out
