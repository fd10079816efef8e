"""AARHE sea movement: land units go ashore the turn they are loaded; submarines pass hostile sea zones."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.movement import flags
from tests.aarhe.common import refused
from tests.aarhe.move_common import at
from tests.movement.helpers import boat, end, load, move, units_in

R_SAME_TURN, R_PASS = "AARHE-SEATRANS-same-turn", "AARHE-SUBMOVE-pass-hostile"


@pytest.mark.rule(R_SAME_TURN)
def test_non_combat_move_does_not_end_with_land_units_aboard() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 2 infantry", "SZ 5": "Germany: 1 transport"})
    load(game, "2 infantry", "Germany", "SZ 5")
    assert refused(game, {"type": "end_phase"}) == R_SAME_TURN
    move(game, "2 infantry", "SZ 5", "Norway")
    assert units_in(game, "Norway", "Germany") == {"infantry": 2}
    end(game)
    assert game.state.phase != "non-combat-move"


@pytest.mark.rule(R_SAME_TURN)
def test_land_units_that_cannot_go_ashore_are_lost_as_the_phase_ends() -> None:
    game = at("Germany", "non-combat-move", {})
    state = game.state
    game = Game(GameLog(state.with_stacks("SZ 8", (boat("Germany", "Germany:infantry"),))))
    end(game)
    [transport] = game.state.stacks("SZ 8")
    assert transport.unit == "transport" and not flags.cargo(transport)


@pytest.mark.rule(R_PASS)
def test_submarine_passes_a_sea_zone_of_enemy_ships_without_destroyers() -> None:
    units = {"SZ 5": "Germany: 2 submarines", "SZ 6": "United Kingdom: 1 battleship",
             "SZ 7": "United Kingdom: 1 transport"}
    game = at("Germany", "combat-move", units)
    move(game, "1 submarine", "SZ 5", "SZ 6", "SZ 7")
    assert units_in(game, "SZ 7", "Germany") == {"submarine": 1}
    later = at("Germany", "non-combat-move", {s: u for s, u in units.items() if s != "SZ 7"})
    move(later, "1 submarine", "SZ 5", "SZ 6", "SZ 7")
    assert units_in(later, "SZ 7", "Germany") == {"submarine": 1}
