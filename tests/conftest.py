"""Shared test configuration: the repository root, the optional ../shared folder, a fresh LHTR game."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ["AARE_CHECK_REPLAY"] = "1"  # servers started by tests check their kept battles too
os.environ["AARE_CHECK_MOVE_MEMO"] = "1"  # and every kept move list against a fresh one
os.environ["AARE_CHECK_STATE_PARTS"] = "1"  # and every part of a state hashed before against a copy
os.environ["AARE_CHECK_BATTLE_MEMO"] = "1"  # and every battle site or battle start kept against a fresh one

import aare.combat.board_battle
import aare.movement.battles
import aare.movement.memo
import aare.phases.conduct_combat
import aare.state.game_state
from aare.game_log import GameLog
from aare.game_setup import new_game

aare.phases.conduct_combat.CHECK_REPLAY = True  # a battle kept in memory is rebuilt and compared anyway
aare.movement.memo.CHECK = True  # a move list kept from an earlier state is listed again and compared
aare.movement.battles.CHECK = True  # a battle site kept from an earlier state is read again and compared
aare.combat.board_battle.CHECK = True  # and so is whether a battle kept as able to begin begins
aare.state.game_state.CHECK_PARTS = True  # a part of a state hashed before is compared with a copy

pytest_plugins = ["pytester"]

REPO = Path(__file__).resolve().parents[1]
SHARED = (REPO / ".." / "shared").resolve()


@pytest.fixture
def shared_dir() -> Path:
    """`../shared` beside the repository; tests that need it skip when it is absent."""
    if not SHARED.is_dir():
        pytest.skip("../shared is not present")
    return SHARED


@pytest.fixture
def lhtr_game() -> GameLog:
    return new_game("lhtr-1.3", seed=42)
