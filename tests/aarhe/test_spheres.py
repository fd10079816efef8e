"""AARHE Stalinist xenophobia and Axis co-operation in movement."""

from __future__ import annotations

import pytest

from tests.aarhe.move_common import at
from tests.movement.helpers import move, mv, rejected, units_in

R_XENO, R_LIB, R_COOP = "AARHE-XENO-no-entry", "AARHE-XENO-liberation", "AARHE-AXISCOOP-separation"


@pytest.mark.rule(R_XENO)
def test_british_fighter_may_not_fly_over_karelia_until_russia_falls() -> None:
    units = {"Norway": "United Kingdom: 1 fighter"}
    game = at("United Kingdom", "non-combat-move", units, owners={"Norway": "United Kingdom"})
    rejected(game, mv("1 fighter", "Norway", "Karelia S.S.R.", "Archangel"), R_XENO, "until the Axis capture Russia")
    rejected(game, mv("1 fighter", "Norway", "Karelia S.S.R.", "Eastern Europe"), R_XENO)
    fallen = at("United Kingdom", "non-combat-move", units, owners={"Norway": "United Kingdom", "Russia": "Germany"})
    move(fallen, "1 fighter", "Norway", "Karelia S.S.R.", "Archangel")
    assert units_in(fallen, "Archangel") == {"fighter": 1}


@pytest.mark.rule(R_XENO)
def test_xenophobia_bars_american_land_units_and_not_soviet_ones() -> None:
    owners = {"Persia": "United States"}
    game = at("United States", "non-combat-move", {"Persia": "United States: 1 infantry"}, owners=owners)
    rejected(game, mv("1 infantry", "Persia", "Caucasus"), R_XENO, "United States units may not enter Caucasus")
    soviet = at("Russia", "non-combat-move", {"Persia": "Russia: 1 infantry"}, owners=owners)
    move(soviet, "1 infantry", "Persia", "Caucasus")


@pytest.mark.rule(R_LIB)
def test_british_territory_liberated_by_the_soviet_union_becomes_soviet() -> None:
    owners = {"Trans-Jordan": "Germany", "Anglo Egypt": "Germany"}
    game = at("Russia", "combat-move", {"Persia": "Russia: 1 armour"}, owners={**owners, "Persia": "Russia"})
    move(game, "1 armour", "Persia", "Trans-Jordan", "Anglo Egypt")
    assert game.state.owners["Trans-Jordan"] == "Russia"
    british = at("United Kingdom", "combat-move", {"Persia": "United Kingdom: 1 armour"}, owners=owners)
    move(british, "1 armour", "Persia", "Trans-Jordan", "Anglo Egypt")
    assert british.state.owners["Trans-Jordan"] == "United Kingdom"


@pytest.mark.rule(R_COOP)
def test_japanese_fighter_may_not_land_beside_german_units_until_germany_falls() -> None:
    units = {"Kazakh S.S.R.": "Japan: 1 fighter", "Caucasus": "Germany: 1 infantry"}
    owners = {"Kazakh S.S.R.": "Japan", "Caucasus": "Germany"}
    game = at("Japan", "non-combat-move", units, owners=owners)
    rejected(game, mv("1 fighter", "Kazakh S.S.R.", "Caucasus"), R_COOP, "may not share Caucasus with Germany")
    fallen = at("Japan", "non-combat-move", units, owners={**owners, "Germany": "United Kingdom"})
    move(fallen, "1 fighter", "Kazakh S.S.R.", "Caucasus")
    assert units_in(fallen, "Caucasus", "Japan") == {"fighter": 1}
    german = at("Germany", "non-combat-move", {"Caucasus": "Germany: 1 infantry", "Kazakh S.S.R.": "Japan: 1 fighter"},
                owners=owners)
    rejected(german, mv("1 infantry", "Caucasus", "Kazakh S.S.R."), R_COOP, "with Japan")


@pytest.mark.rule(R_COOP, "LHTR-TRANSPORT-cm-load-must-assault")
def test_a_coast_only_reached_beside_japanese_ships_is_no_assault_a_german_transport_must_make() -> None:
    """German armour loaded and carried to SZ 15 for Anglo Egypt; German armour then takes Anglo Egypt by blitz.
    The only enemy coast left in reach is Caucasus, beside SZ 16 where a Japanese destroyer is: a German transport
    may not end its move there, so the armour stays aboard and combat move may end (no position without a way on)."""
    game = at("Germany", "combat-move", {
        "SZ 14": "Germany: 1 transport", "Southern Europe": "Germany: 1 armour", "Libya": "Germany: 1 armour",
        "SZ 16": "Japan: 1 destroyer"},
        owners={"Anglo Egypt": "United Kingdom", "Trans-Jordan": "Germany", "Turkey": "Germany",
                "Italian East Africa": "United Kingdom"})
    game.apply({"type": "load", "units": "1 armour", "territory": "Southern Europe", "sea_zone": "SZ 14"})
    move(game, "1 armour, 1 transport", "SZ 14", "SZ 15")
    rejected(game, mv("1 armour, 1 transport", "SZ 15", "SZ 16"), R_COOP, "may not share SZ 16")
    move(game, "1 armour", "Libya", "Anglo Egypt", "Italian East Africa")  # a blitz through Anglo Egypt
    assert game.state.owners["Anglo Egypt"] == "Germany"
    assert game.is_legal({"type": "end_phase"})
