"""Remaining turn rules: no national advantages in base LHTR."""

from __future__ import annotations

import pytest

from aare.actions import ACTION_TYPES
from aare.engine import Game
from aare.game_setup import new_game
from aare.rules.ruleset import load_spec


@pytest.mark.rule("LHTR-TURN-national-advantages-not-base")
def test_base_lhtr_has_no_national_advantages() -> None:
    spec = load_spec("lhtr-1.3")
    assert [m.id for m in spec.modules] == ["lhtr", "lhtr_trusted"]
    assert not any("advantage" in o.key or o.key.startswith("na_") for o in spec.option_specs)
    # the action contract knows NAs (AARe), but an LHTR game never accepts one
    game = Game(new_game("lhtr-1.3", seed=1))
    assert any("advantage" in t.__name__.lower() for t in ACTION_TYPES)
    assert not game.is_legal({"type": "declare_advantage", "advantage": "russian_winter"})
    assert not [a for a in game.legal_actions() if a.type in ("declare_advantage", "place_free")]
