"""AARe combat on the board: conduct-combat builds battles through the ruleset's hooks, so detection dice,
the early submerge and the air/sub rule work in a game."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.movement import flags
from aare.state.unit_stacks import Stack, count_units
from tests.aare.common import position


def move(game: Game, units: str, *path: str) -> None:
    game.apply({"type": "move", "units": units, "path": list(path)})


def dice_rolled(game: Game) -> list[tuple[int, ...]]:
    return [tuple(e.values) for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
            if e.type == "dice_rolled"]


def rejected(game: Game, action: dict[str, Any], rule_id: str) -> None:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert err.value.rule_id == rule_id, err.value


@pytest.mark.rule("AARE-NAVALSEQ-occupy", "AARE-SUBDET-undetected-hits-stick", "AARE-SUBDET-one-roll-per-dd")
def test_a_sea_battle_in_a_game_rolls_detection_and_the_winner_holds_the_zone() -> None:
    game = position("Germany", "combat-move", {"SZ 5": "Germany: 1 submarine, 1 destroyer",
                                               "SZ 6": "United Kingdom: 1 destroyer"})
    move(game, "1 submarine, 1 destroyer", "SZ 5", "SZ 6")
    game = Game(game.log, ScriptedDice([6, 1]))  # UK detection 6 (missed); the undetected sub hits
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "SZ 6"})
    assert game.state.pending is None
    assert dice_rolled(game) == [(6,), (1,)]  # one detection die, one sub die; the UK destroyer never fired
    assert count_units(game.state.stacks("SZ 6")) == {"submarine": 1, "destroyer": 1}
    assert {s.owner for s in game.state.stacks("SZ 6")} == {"Germany"}


@pytest.mark.rule("AARE-SUBDET-undetected-submerge")
def test_the_early_submerge_is_a_decision_of_the_game() -> None:
    game = position("Germany", "combat-move", {"SZ 5": "Germany: 1 submarine",
                                               "SZ 6": "United Kingdom: 2 destroyers"})
    move(game, "1 submarine", "SZ 5", "SZ 6")
    game = Game(game.log, ScriptedDice([6, 5, 6]))  # detection 6, 5: missed; the sub misses
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "SZ 6"})
    assert game.state.pending is not None and game.state.pending["kind"] == "submerge"
    assert game.state.pending["power"] == "Germany"
    game.apply({"type": "submerge", "units": "1 submarine"})
    assert game.state.pending is None
    [sub] = [s for s in game.state.stacks("SZ 6") if s.unit == "submarine"]
    assert flags.submerged(sub) and sub.owner == "Germany"
    assert count_units(game.state.stacks("SZ 6"), "United Kingdom") == {"destroyer": 2}


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-only", "AARE-AIRSUB-air-with-naval-vs-subs-only")
def test_aircraft_need_a_ship_to_attack_a_zone_of_submarines() -> None:
    placed = {"United Kingdom": "United Kingdom: 2 fighters", "SZ 7": "Germany: 2 submarines",
              "SZ 6": "United Kingdom: 1 transport"}
    game = position("United Kingdom", "combat-move", placed)
    rejected(game, {"type": "move", "units": "2 fighters", "path": ["United Kingdom", "SZ 7"]},
             "AARE-AIRSUB-air-only-vs-subs-only")
    move(game, "1 transport", "SZ 6", "SZ 7")  # any ship will do, a transport too
    move(game, "2 fighters", "United Kingdom", "SZ 7")


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-and-surface")
def test_aircraft_alone_may_attack_subs_with_a_surface_ship() -> None:
    placed = {"United Kingdom": "United Kingdom: 2 fighters", "SZ 7": "Germany: 2 submarines, 1 transport"}
    move(position("United Kingdom", "combat-move", placed), "2 fighters", "United Kingdom", "SZ 7")
    strict = position("United Kingdom", "combat-move", placed)
    options = {**strict.state.options, "air_attack_transports_are_surface": False}
    strict = Game(GameLog(replace(strict.state, options=options)))
    rejected(strict, {"type": "move", "units": "2 fighters", "path": ["United Kingdom", "SZ 7"]},
             "AARE-AIRSUB-air-only-vs-subs-only")


AIR_VS_SUBS = {"United Kingdom": "United Kingdom: 2 fighters", "SZ 7": "Germany: 2 submarines"}


def fly_in(placed: dict[str, str]) -> Game:
    """Combat move: the UK fighters fly into SZ 7, where own ships are already (or moved first)."""
    game = position("United Kingdom", "combat-move", placed)
    move(game, "2 fighters", "United Kingdom", "SZ 7")
    return game


def sail_away(game: Game, units: str, rule_id: str) -> None:
    before = game.state.hash()
    rejected(game, {"type": "move", "units": units, "path": ["SZ 7", "SZ 6"]}, rule_id)
    assert game.state.hash() == before


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-only", "AARE-AIRSUB-air-with-naval-vs-subs-only")
def test_the_last_ship_may_not_leave_aircraft_alone_against_submarines() -> None:
    game = fly_in({**AIR_VS_SUBS, "SZ 7": "Germany: 2 submarines; United Kingdom: 1 destroyer"})
    sail_away(game, "1 destroyer", "AARE-AIRSUB-air-only-vs-subs-only")
    game = fly_in({**AIR_VS_SUBS, "SZ 7": "Germany: 2 submarines; United Kingdom: 1 destroyer, 1 battleship"})
    sail_away(game, "1 destroyer, 1 battleship", "AARE-AIRSUB-air-only-vs-subs-only")  # together: none stays
    move(game, "1 destroyer", "SZ 7", "SZ 6")
    sail_away(game, "1 battleship", "AARE-AIRSUB-air-only-vs-subs-only")
    game.apply({"type": "end_phase"})
    assert game.is_legal({"type": "fight", "space": "SZ 7"})


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-only", "LHTR-COMBAT-one-battle-per-unit")
def test_a_ship_that_moved_in_with_the_aircraft_cannot_move_on() -> None:
    game = position("United Kingdom", "combat-move", {**AIR_VS_SUBS, "SZ 6": "United Kingdom: 1 transport"})
    move(game, "1 transport", "SZ 6", "SZ 7")
    move(game, "2 fighters", "United Kingdom", "SZ 7")
    sail_away(game, "1 transport", "LHTR-COMBAT-one-battle-per-unit")


@pytest.mark.rule("AARE-AIRSUB-air-with-naval-vs-subs-only")
def test_a_ship_may_leave_while_another_own_ship_stays() -> None:
    game = position("United Kingdom", "combat-move",
                    {**AIR_VS_SUBS, "SZ 7": "Germany: 2 submarines; United Kingdom: 1 destroyer",
                     "SZ 6": "United Kingdom: 1 transport"})
    move(game, "1 transport", "SZ 6", "SZ 7")
    move(game, "2 fighters", "United Kingdom", "SZ 7")
    move(game, "1 destroyer", "SZ 7", "SZ 6")
    game.apply({"type": "end_phase"})
    assert game.is_legal({"type": "fight", "space": "SZ 7"})


@pytest.mark.rule("AARE-AIRSUB-air-only-vs-subs-and-surface")
def test_the_last_ship_may_leave_when_an_enemy_surface_ship_is_there() -> None:
    placed = {**AIR_VS_SUBS, "SZ 7": "Germany: 2 submarines, 1 transport; United Kingdom: 1 destroyer"}
    move(fly_in(placed), "1 destroyer", "SZ 7", "SZ 6")
    strict = position("United Kingdom", "combat-move", placed)
    options = {**strict.state.options, "air_attack_transports_are_surface": False}
    strict = Game(GameLog(replace(strict.state, options=options)))
    move(strict, "2 fighters", "United Kingdom", "SZ 7")
    sail_away(strict, "1 destroyer", "AARE-AIRSUB-air-only-vs-subs-only")


@pytest.mark.rule("AARE-AIRSUB-combat-move-only")
def test_ships_may_leave_the_aircraft_in_non_combat_move() -> None:
    fought = Stack("United Kingdom", "fighter", 2, flags=(flags.COMBAT,))
    game = position("United Kingdom", "non-combat-move",
                    {"SZ 7": "Germany: 2 submarines; United Kingdom: 1 destroyer"}, stacks=[("SZ 7", fought)])
    move(game, "1 destroyer", "SZ 7", "SZ 6")
    assert count_units(game.state.stacks("SZ 6")) == {"destroyer": 1}


@pytest.mark.rule("LHTR-COMBAT-battle-order", "AARE-AIRSUB-air-only-vs-subs-only")
def test_aircraft_that_did_not_move_in_may_be_left_by_their_carrier() -> None:
    game = position("United Kingdom", "combat-move",
                    {"SZ 7": "Germany: 2 submarines; United Kingdom: 1 carrier, 2 fighters"})
    move(game, "1 carrier", "SZ 7", "SZ 6")  # the fighters made no attack move: the carrier may go
    game.apply({"type": "end_phase"})
    assert not game.is_legal({"type": "fight", "space": "SZ 7"})  # conduct-combat passes over that zone
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
