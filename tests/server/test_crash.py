"""A short run of bench/crash_test.py: SIGKILL `aare serve` mid-play, restart, lose no acknowledged action."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

import pytest

from tests.server.conftest import REPO


def crash_test_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("aare_crash_test", REPO / "bench" / "crash_test.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_no_acknowledged_action_is_lost_when_the_server_is_killed(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgres" else None
    report = crash_test_module().run(kills=4, seed=7, min_life=0.3, max_life=1.0, data_dir=tmp_path,
                                     database_url=url)
    assert report["ok"], report["problems"]
    assert report["kills"] == 4
    assert report["acknowledged"] > 0
    assert report["lost_or_changed"] == 0
    assert report["checked_after_restart"] >= report["acknowledged"]
