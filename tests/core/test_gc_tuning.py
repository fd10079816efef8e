"""The collector's tuning for long runs (`aare.gc_tuning`)."""

from __future__ import annotations

import gc
from collections.abc import Iterator

import pytest

from aare.gc_tuning import FIRST_THRESHOLD, SECOND_THRESHOLD, tune_collector


@pytest.fixture(autouse=True)
def _kept_thresholds() -> Iterator[None]:
    before = gc.get_threshold()
    yield
    gc.set_threshold(*before)


def test_the_first_two_thresholds_are_raised_and_the_last_kept() -> None:
    gc.set_threshold(700, 11, 12)
    assert tune_collector() == (FIRST_THRESHOLD, SECOND_THRESHOLD, 12)


def test_a_higher_threshold_or_a_disabled_collector_is_left_alone() -> None:
    gc.set_threshold(500_000, 50, 10)
    assert tune_collector() == (500_000, 50, 10)
    gc.set_threshold(0, 10, 10)
    assert tune_collector() == (0, 10, 10)


def test_the_environment_tunes_the_collector_unless_told_not_to() -> None:
    env_module = pytest.importorskip("aare.rl.env", reason="needs the rl extra (pip install -e '.[rl]')")
    gc.set_threshold(700, 10, 10)
    env_module.AareEnv("lhtr-1.3", "aare_lhtr_v0", tune_gc=False)
    assert gc.get_threshold()[0] == 700
    env_module.AareEnv("lhtr-1.3", "aare_lhtr_v0")
    assert gc.get_threshold()[0] == FIRST_THRESHOLD
