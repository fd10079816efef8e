"""bench/machine.py: the machine facts printed with every benchmark's figures."""

from __future__ import annotations

from pathlib import Path

from tests.bench import bench_module


def test_the_facts_name_the_cores_and_time_a_flush_in_the_folder_asked(tmp_path: Path) -> None:
    machine = bench_module("machine")
    found = machine.facts(tmp_path)
    assert found["cpus"] >= 1 and found["load_average_1min"] >= 0
    assert found["flush_ms"] > 0
    assert list(tmp_path.iterdir()) == []  # the file it flushed is gone
    assert "flush_ms" not in machine.facts(flush=False)
