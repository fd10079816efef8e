"""The battles a combat move sets up: attackers from several spaces in one battle, retreat options, capture
only with land units, allies never attacking together, one battle per unit."""

from __future__ import annotations

import pytest

from aare.movement.battles import pending_battles
from tests.movement.helpers import move, mv, position, rejected


@pytest.mark.rule("LHTR-COMBAT-attack-from-several-spaces", "LHTR-COMBAT-retreat-destination")
def test_attackers_from_several_spaces_fight_one_battle() -> None:
    game = position("Germany", "combat-move", {
        "Belorussia": "Germany: 1 infantry", "Eastern Europe": "Germany: 1 armour", "Norway": "Germany: 1 fighter",
        "Karelia S.S.R.": "Russia: 2 infantry",
    })
    move(game, "1 infantry", "Belorussia", "Karelia S.S.R.")
    move(game, "1 armour", "Eastern Europe", "Karelia S.S.R.")
    move(game, "1 fighter", "Norway", "Karelia S.S.R.")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.attacker) == ("Karelia S.S.R.", "land", "Germany")
    assert sorted(s.unit for s in site.attackers) == ["armour", "fighter", "infantry"]
    assert site.retreat_to == ("Belorussia", "Eastern Europe")  # not Norway: only a fighter came from there
    assert {o: [s.unit for s in st] for o, st in site.defenders.items()} == {"Russia": ["infantry"]}


@pytest.mark.rule("LHTR-COMBAT-one-battle-per-unit")
def test_a_unit_moved_to_one_battle_cannot_move_on_to_another() -> None:
    game = position("Germany", "combat-move", {
        "Norway": "Germany: 1 fighter", "Eastern Europe": "Germany: 1 armour",
        "Karelia S.S.R.": "Russia: 1 infantry", "Archangel": "Russia: 1 infantry",
    })
    move(game, "1 fighter", "Norway", "Karelia S.S.R.")
    move(game, "1 armour", "Eastern Europe", "Karelia S.S.R.")
    rejected(game, mv("1 fighter", "Karelia S.S.R.", "Archangel"), "LHTR-COMBAT-one-battle-per-unit")
    rejected(game, mv("1 armour", "Karelia S.S.R.", "Archangel"), "LHTR-COMBAT-one-battle-per-unit")


@pytest.mark.rule("LHTR-COMBAT-capture")
def test_aircraft_alone_can_fight_but_never_capture() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Germany: 1 fighter, 1 bomber", "Archangel": "Russia: 1 infantry",
    }, owners={"Karelia S.S.R.": "Germany"})
    move(game, "1 fighter, 1 bomber", "Karelia S.S.R.", "Archangel")
    [site] = pending_battles(game.state, game.ruleset)
    assert site.space == "Archangel" and not site.can_capture and site.retreat_to == ()
    empty = position("Germany", "combat-move", {"Karelia S.S.R.": "Germany: 1 fighter"},
                     owners={"Karelia S.S.R.": "Germany"})
    rejected(empty, mv("1 fighter", "Karelia S.S.R.", "Archangel"), "LHTR-COMBAT-capture", "cannot take")


@pytest.mark.rule("LHTR-COMBAT-no-joint-attacks")
def test_allied_units_never_join_an_attack() -> None:
    game = position("United States", "combat-move", {
        "Karelia S.S.R.": "United Kingdom: 1 infantry; United States: 1 armour", "Belorussia": "Germany: 1 infantry",
    })
    rejected(game, mv("1 infantry", "Karelia S.S.R.", "Belorussia"), "LHTR-LANDMOVE-movement-allowance",
             "United States has 0 infantry")
    move(game, "1 armour", "Karelia S.S.R.", "Belorussia")
    [site] = pending_battles(game.state, game.ruleset)
    assert [s.owner for s in site.attackers] == ["United States"]
