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
from aare.state.unit_stacks import count_units
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
