"""bench/machine.py: the machine facts printed with every benchmark's figures."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

BENCH = Path(__file__).resolve().parents[2] / "bench"


def machine_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("aare_bench_machine", BENCH / "machine.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_facts_name_the_cores_and_time_a_flush_in_the_folder_asked(tmp_path: Path) -> None:
    machine = machine_module()
    found = machine.facts(tmp_path)
    assert found["cpus"] >= 1 and found["load_average_1min"] >= 0
    assert found["flush_ms"] > 0
    assert list(tmp_path.iterdir()) == []  # the file it flushed is gone
    assert "flush_ms" not in machine.facts(flush=False)
