"""Positions for the AARHE movement tests: an empty Revised board under `aarhe` (`at`, with `rules` to compare
another ruleset), and the same position in non-combat move after the battles (`after_combat`)."""

from __future__ import annotations

from functools import partial

from tests.classic.test_move_land import at as board_at
from tests.realism98.air_common import after_combat

RULES = "aarhe"

at = partial(board_at, rules=RULES)

__all__ = ["after_combat", "at"]
