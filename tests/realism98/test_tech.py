"""Enhanced Realism '98 weapons development: none at all, or one free roll a turn while the capital is held and
no dice bought; sections of the rules that were not supplied are not available."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import UnknownName
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from tests.movement.helpers import rejected
from tests.realism98.common import REALISM, at


def research(dice: int = 1) -> dict[str, Any]:
    return {"type": "research", "dice": dice}


@pytest.mark.rule("REAL98-TECH-mode")
def test_free_roll_mode_gives_one_free_die_a_turn() -> None:
    game = at("Germany", "develop-weapons", {}, banks={"Germany": 32}, clear=False, dice=[6, 2])
    rejected(game, research(dice=2), "REAL98-TECH-mode", "one free")
    game.apply(research())
    assert game.state.banks["Germany"] == 32  # the die is free
    rejected(game, research(), "REAL98-TECH-mode", "has made its free")
    game.apply({"type": "end_phase"})  # the die is rolled (the base procedure): a 6, then the chart's 2
    assert [e.values for e in game.log.entries[-1].events if e.type == "dice_rolled"] == [(6,), (2,)]
    assert "rockets" in game.state.techs["Germany"]
    assert game.state.banks["Germany"] == 32


@pytest.mark.rule("REAL98-TECH-mode")
def test_no_roll_without_the_capital() -> None:
    game = at("Germany", "develop-weapons", {}, owners={"Germany": "Russia"}, banks={"Germany": 32}, clear=False)
    rejected(game, research(), "REAL98-TECH-mode", "does not hold its capital")
    assert not [a for a in game.legal_actions() if a.type == "research"]


@pytest.mark.rule("REAL98-TECH-mode")
def test_no_weapons_development_mode_has_no_development_phase() -> None:
    game = Game(new_game(REALISM, {"weapons_development_mode": "none"}))
    phases = [p.name for p in game.ruleset.phase_table()]
    assert "develop-weapons" not in phases
    assert phases[:2] == ["collect-income", "purchase"]
    assert "develop-weapons" in [p.name for p in load_ruleset(REALISM).phase_table()]
    spec = next(s for s in load_ruleset(REALISM).spec.option_specs if s.key == "weapons_development_mode")
    assert (spec.default, spec.choices) == ("free-roll", ("none", "free-roll"))


@pytest.mark.rule("REAL98-META-scope")
def test_sections_not_supplied_are_not_available() -> None:
    keys = {s.key for s in load_ruleset(REALISM).spec.option_specs}
    assert "weapons_development" not in keys  # the base's buying of dice is replaced by the mode
    assert "axis_economic_victory" not in keys  # no automatic victory
    with pytest.raises(UnknownName, match="not available"):
        new_game(REALISM, {"advanced_weapons_development": True})
