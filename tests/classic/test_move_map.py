"""The Classic board's adjacencies that movement relies on, proved by moves: West Canada on East Canada Sea Zone,
South Africa on Mozambique Sea Zone, no land route South Europe - Turkey, and the Rules Clarifications' notes."""

from __future__ import annotations

import pytest
from tests.classic.test_move_land import at
from tests.movement.helpers import boat, ld, load, move, mv, rejected, units_in


@pytest.mark.rule("CL-MAP-west-canada-east-sea")
def test_a_transport_in_east_canada_sea_zone_loads_from_west_canada() -> None:
    game = at("United Kingdom", "non-combat-move", {"West Canada": "United Kingdom: 1 infantry",
                                                    "East Canada Sea Zone": "United Kingdom: 1 transport"})
    load(game, "1 infantry", "West Canada", "East Canada Sea Zone")
    move(game, "1 transport, 1 infantry", "East Canada Sea Zone", "North Sea Zone")
    move(game, "1 infantry", "North Sea Zone", "United Kingdom")
    assert units_in(game, "United Kingdom") == {"infantry": 1}


@pytest.mark.rule("CL-MAP-south-africa-mozambique")
def test_a_transport_in_mozambique_sea_zone_unloads_into_south_africa() -> None:
    game = at("United Kingdom", "non-combat-move", {},
              stacks=[("Mozambique Sea Zone", boat("United Kingdom", "United Kingdom:infantry"))])
    move(game, "1 infantry", "Mozambique Sea Zone", "South Africa")
    assert units_in(game, "South Africa") == {"infantry": 1}


@pytest.mark.rule("CL-MAP-turkey-not-from-south-europe")
def test_armour_in_south_europe_cannot_move_directly_into_turkey() -> None:
    game = at("Germany", "combat-move", {"South Europe": "Germany: 1 armour"}, banks={"Germany": 10})
    rejected(game, mv("1 armour", "South Europe", "Turkey"), "CL-LANDMOVE-adjacent-steps", "not adjacent")
    assert game.state.banks["Germany"] == 10
    caucasus = at("Germany", "combat-move", {"Caucasus": "Germany: 1 armour"}, owners={"Caucasus": "Germany"},
                  banks={"Germany": 10})
    move(caucasus, "1 armour", "Caucasus", "Turkey")  # Turkey borders Caucasus, Persia and Syria Jordan
    assert units_in(caucasus, "Turkey") == {"armour": 1}


@pytest.mark.rule("CL-MAP-rc-adjacency-notes")
def test_the_rules_clarifications_adjacencies_hold_for_moves() -> None:
    japan = at("Japan", "non-combat-move", {},
               stacks=[("Japan Sea Zone", boat("Japan", "Japan:infantry")),
                       ("Kwangtung Sea Zone", boat("Japan", "Japan:infantry"))])
    rejected(japan, mv("1 infantry", "Japan Sea Zone", "Kwangtung"), "CL-TRANSPORT-load-unload", "not a territory next")
    move(japan, "1 infantry", "Kwangtung Sea Zone", "Kwangtung")
    assert units_in(japan, "Kwangtung") == {"infantry": 1}
    pacific = at("United States", "non-combat-move", {"New Zealand Sea Zone": "United States: 2 transport"})
    move(pacific, "1 transport", "New Zealand Sea Zone", "Peru Sea Zone")  # across the board edge, one move
    move(pacific, "1 transport", "New Zealand Sea Zone", "South Argentina Sea Zone")
    assert units_in(pacific, "Peru Sea Zone") == {"transport": 1}
    canada = at("United Kingdom", "non-combat-move", {"West Canada": "United Kingdom: 1 infantry",
                                                      "East Canada Sea Zone": "United Kingdom: 1 transport"})
    load(canada, "1 infantry", "West Canada", "East Canada Sea Zone")  # Hudson Bay
    panama = at("United States", "non-combat-move", {"Caribbean Sea Zone": "United States: 1 battleship"})
    move(panama, "1 battleship", "Caribbean Sea Zone", "West Panama Sea Zone", "Mexico Sea Zone")  # canal: 1 move
    assert units_in(panama, "Mexico Sea Zone") == {"battleship": 1}
    rejected(japan, ld("1 infantry", "Kwangtung", "Japan Sea Zone"), "CL-TRANSPORT-load-unload")
