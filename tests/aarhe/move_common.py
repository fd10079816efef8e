"""Positions for the AARHE movement tests: an empty Revised board under `aarhe`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.engine import Game
from tests.classic.test_move_land import at as board_at
from tests.realism98.air_common import after_combat

RULES = "aarhe"

__all__ = ["after_combat", "at"]


def at(
    nation: str,
    phase: str,
    units: Mapping[str, str],
    *,
    owners: Mapping[str, str] | None = None,
    options: Mapping[str, Any] | None = None,
    extra: Mapping[str, Any] | None = None,
    dice: Iterable[int] | None = None,
    rules: str = RULES,
) -> Game:
    """An empty Revised board under AARHE with `units` ("Power: unit list"); the turn began with the owners given."""
    return board_at(nation, phase, units, owners=owners, options=options, extra=extra, dice=dice, rules=rules)
