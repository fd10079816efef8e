"""AA50E Rockets: AA guns strike enemy complexes within 3 spaces, one gun per territory, each complex once a
turn, damage capped as raids; the gun that fired stays put in non-combat move; Radar AA guns and jets defend."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.complex_damage import complex_damage
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import UnitDamaged, apply_events
from aare.game_log import GameLog
from aare.invariants import check_log
from aare.scenario import scenario
from aare.state.unit_stacks import count_units

RULES = "aa50e-1942"
GER, UK = "Germany", "United Kingdom"
LONDON = "United Kingdom"


def rockets(units: dict[str, str], dice: list[int], techs: dict[str, list[str]] | None = None,
            **kw: Any) -> Game:
    return scenario(RULES, nation=GER, phase="conduct-combat", clear=True, units=units, dice=dice,
                    techs={GER: ["rockets"], **(techs or {})}, **kw)


def fire(game: Game, launcher: str, target: str = LONDON) -> None:
    game.apply({"type": "rocket", "launcher": launcher, "target": target})


def purposes(game: Game) -> list[str]:
    return [e.purpose for e in game.log.entries[-1].events if e.type == "dice_rolled"]  # type: ignore[attr-defined]


TARGETS = {"United Kingdom": "United Kingdom: 1 factory", "Karelia S.S.R.": "Soviet Union: 1 factory"}


@pytest.mark.rule("AA50E-TECH-rockets-enable")
def test_an_aa_gun_strikes_an_enemy_complex() -> None:
    game = rockets({"Germany": "Germany: 1 aa gun", **TARGETS}, [4])
    fire(game, "Germany")
    assert complex_damage(game.state, game.ruleset, LONDON) == 4 and not check_log(game.log)
    with pytest.raises(IllegalAction, match="has not developed Rockets"):
        rockets({"Germany": "Germany: 1 aa gun", **TARGETS}, [4], techs={GER: []}).apply(
            {"type": "rocket", "launcher": "Germany", "target": LONDON})


@pytest.mark.rule("AA50E-TECH-rockets-one-per-territory")
def test_one_gun_per_territory_fires() -> None:
    game = rockets({"Germany": "Germany: 2 aa gun", **TARGETS}, [4, 4])
    fire(game, "Germany")
    with pytest.raises(IllegalAction, match="one launch per territory"):
        fire(game, "Germany", "Karelia S.S.R.")


@pytest.mark.rule("AA50E-TECH-rockets-range-3")
def test_targets_within_3_spaces() -> None:
    game = rockets({"Germany": "Germany: 1 aa gun", "Russia": "Soviet Union: 1 factory", **TARGETS}, [4])
    with pytest.raises(IllegalAction, match="within 3 spaces"):
        fire(game, "Germany", "Russia")  # 4 spaces away
    fire(game, "Germany", "Karelia S.S.R.")  # 3 spaces away
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 4


@pytest.mark.rule("AA50E-TECH-rockets-target-once")
def test_each_complex_is_struck_once_a_turn() -> None:
    game = rockets({"Germany": "Germany: 1 aa gun", "Northwestern Europe": "Germany: 1 aa gun", **TARGETS}, [3, 2])
    fire(game, "Northwestern Europe")
    with pytest.raises(IllegalAction, match="attacked by one rocket a turn"):
        fire(game, "Germany")
    fire(game, "Germany", "Karelia S.S.R.")  # another complex
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 2


@pytest.mark.rule("AA50E-TECH-rockets-damage-cap")
def test_rocket_damage_is_capped_as_raids() -> None:
    game = rockets({"Germany": "Germany: 1 aa gun", **TARGETS}, [6])
    state = game.state
    stack = next(s for s in state.stacks("Karelia S.S.R.") if s.unit == "factory")
    state = apply_events(state, [UnitDamaged("Karelia S.S.R.", stack, 3, "test")])
    game = Game(GameLog(state), game.dice)
    fire(game, "Germany", "Karelia S.S.R.")
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 4  # worth 2: at most 4


@pytest.mark.rule("AA50E-TECH-rockets-no-ncm")
def test_the_gun_that_fired_does_not_move_in_non_combat_move() -> None:
    game = rockets({"Germany": "Germany: 2 aa gun", **TARGETS}, [4])
    fire(game, "Germany")
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    game.apply({"type": "move", "units": "1 aa gun", "path": ["Germany", "Poland"]})  # the other gun moves
    with pytest.raises(IllegalAction):
        game.apply({"type": "move", "units": "1 aa gun", "path": ["Germany", "Poland"]})
    assert count_units(game.state.stacks("Germany"), GER) == {"aa_gun": 1}


@pytest.mark.rule("AA50E-TECH-radar-rocket-defence")
def test_a_radar_aa_gun_shoots_down_a_rocket_on_2() -> None:
    guarded = {**TARGETS, "United Kingdom": "United Kingdom: 1 factory, 1 aa gun"}
    game = rockets({"Germany": "Germany: 1 aa gun", **guarded}, [2], techs={UK: ["radar"]})
    fire(game, "Germany")
    assert complex_damage(game.state, game.ruleset, LONDON) == 0 and len(purposes(game)) == 1
    assert game.state.extra["combat"]["downed"] == {"Germany": "AA50E-TECH-radar-rocket-defence"}
    game = rockets({"Germany": "Germany: 1 aa gun", **guarded}, [3, 5], techs={UK: ["radar"]})
    fire(game, "Germany")
    assert complex_damage(game.state, game.ruleset, LONDON) == 5  # missed on 3
    game = rockets({"Germany": "Germany: 1 aa gun", **guarded}, [2])
    fire(game, "Germany")
    assert complex_damage(game.state, game.ruleset, LONDON) == 2  # no Radar: no roll at the rocket
    assert not check_log(game.log)


@pytest.mark.rule("AA50E-TECH-jet-intercept-roll")
def test_jets_roll_at_a_rocket_aimed_at_their_territory() -> None:
    jets = {**TARGETS, "United Kingdom": "United Kingdom: 1 factory, 2 fighter"}
    game = rockets({"Germany": "Germany: 1 aa gun", **jets}, [6, 1], techs={UK: ["jet_fighters"]})
    fire(game, "Germany")
    assert complex_damage(game.state, game.ruleset, LONDON) == 0
    game = rockets({"Germany": "Germany: 1 aa gun", **jets}, [6, 6, 3], techs={UK: ["jet_fighters"]})
    fire(game, "Germany")
    assert complex_damage(game.state, game.ruleset, LONDON) == 3
