"""Tests of the benchmark scripts in `bench/`, and how tests load them (they are scripts, not a package)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def bench_module(name: str) -> ModuleType:
    """The script `bench/<name>.py` loaded as a module (as `aare_bench_<name>`)."""
    spec = importlib.util.spec_from_file_location(f"aare_bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module
