"""Enhanced Realism '98 one sea zone rule (game option `one_sea_zone`, on by default): aircraft flying to a battle
enter at most one sea zone, and at most one on the way back."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.rules.ruleset import load_ruleset
from tests.movement.helpers import move, mv, rejected, units_in
from tests.realism98.air_common import RULES, after_combat, at

OFF = {"one_sea_zone": False}


@pytest.mark.rule("REAL98-ONESEA-outbound", "REAL98-ONESEA-return")
def test_the_rule_is_a_game_option_on_by_default() -> None:
    assert load_ruleset(RULES).options["one_sea_zone"] is True
    assert load_ruleset(RULES, OFF).options["one_sea_zone"] is False


@pytest.mark.rule("REAL98-ONESEA-outbound")
def test_bomber_crossing_two_sea_zones_to_its_target_is_refused() -> None:
    units = {"Algeria": "Germany: 1 bomber", "West Europe": "Germany: 1 bomber",
             "United Kingdom": "United Kingdom: 1 factory"}
    game = at("Germany", "combat-move", units)
    rejected(game, mv("1 bomber", "Algeria", "West Spain Sea Zone", "North Sea Zone", "United Kingdom", raid=True),
             "REAL98-ONESEA-outbound", "West Spain Sea Zone, North Sea Zone")
    move(game, "1 bomber", "West Europe", "North Sea Zone", "United Kingdom", raid=True)
    off = at("Germany", "combat-move", units, options=OFF)
    move(off, "1 bomber", "Algeria", "West Spain Sea Zone", "North Sea Zone", "United Kingdom", raid=True)
    assert units_in(off, "United Kingdom", "Germany") == {"bomber": 1}


@pytest.mark.rule("REAL98-ONESEA-outbound")
def test_a_sea_zone_fought_in_is_the_one_sea_zone() -> None:
    units = {"Germany": "Germany: 1 fighter", "North Sea Zone": "United Kingdom: 1 transport"}
    game = at("Germany", "combat-move", units)
    rejected(game, mv("1 fighter", "Germany", "Baltic Sea Zone", "North Sea Zone"), "REAL98-ONESEA-outbound")
    move(at("Germany", "combat-move", units, options=OFF), "1 fighter", "Germany", "Baltic Sea Zone", "North Sea Zone")
    move(game, "1 fighter", "Germany", "West Europe", "North Sea Zone")


def _raid_on_west_europe(options: dict[str, bool] | None = None) -> Game:
    game = at("United Kingdom", "combat-move", {"United Kingdom": "United Kingdom: 1 bomber",
                                                "West Europe": "Germany: 1 factory"}, options=options)
    move(game, "1 bomber", "United Kingdom", "North Sea Zone", "West Europe", raid=True)
    return after_combat(game)


@pytest.mark.rule("REAL98-ONESEA-return")
def test_aircraft_returning_over_two_sea_zones_is_refused() -> None:
    back = _raid_on_west_europe()
    path = ("West Europe", "West Spain Sea Zone", "North Sea Zone", "United Kingdom")
    rejected(back, mv("1 bomber", *path), "REAL98-ONESEA-return", "West Spain Sea Zone, North Sea Zone")
    move(back, "1 bomber", "West Europe", "North Sea Zone", "United Kingdom")
    off = _raid_on_west_europe(OFF)
    move(off, "1 bomber", *path)
    assert units_in(off, "United Kingdom") == {"bomber": 1}


@pytest.mark.rule("REAL98-ONESEA-return")
def test_the_sea_zone_of_the_battle_is_not_entered_again() -> None:
    game = at("United Kingdom", "combat-move", {"United Kingdom": "United Kingdom: 1 fighter",
                                                "North Sea Zone": "Germany: 1 transport"})
    move(game, "1 fighter", "United Kingdom", "North Sea Zone")
    back = after_combat(game, ("North Sea Zone", "Germany"))
    move(back, "1 fighter", "North Sea Zone", "East Canada Sea Zone", "East Canada")
    assert units_in(back, "East Canada") == {"fighter": 1}


@pytest.mark.rule("REAL98-ONESEA-return")
def test_aircraft_that_did_not_fight_fly_over_any_number_of_sea_zones() -> None:
    game = at("United Kingdom", "non-combat-move", {"United Kingdom": "United Kingdom: 1 fighter"})
    move(game, "1 fighter", "United Kingdom", "North Sea Zone", "East Canada Sea Zone", "East Canada")
    assert units_in(game, "East Canada") == {"fighter": 1}
