"""Enhanced Realism '98 flight range limits: in combat move a bomber raiding a complex flies at most 3 to its
target, a fighter launched from a carrier 1, every other aircraft 2; an aircraft that fought flies back at most
that limit; one that did not attack has its full range in non-combat move."""

from __future__ import annotations

import pytest

from aare.movement import flags
from tests.movement.helpers import move, mv, rejected, stacks_of, units_in
from tests.realism98.air_common import after_combat, at


@pytest.mark.rule("REAL98-AIR-range-table", "REAL98-AIR-sbr-range", "REAL98-AIR-combat-range")
def test_bomber_raids_a_complex_three_away_but_attacks_only_two_away() -> None:
    units = {"Germany": "Germany: 1 bomber", "United Kingdom": "United Kingdom: 1 factory, 1 infantry"}
    raid = at("Germany", "combat-move", units)
    move(raid, "1 bomber", "Germany", "West Europe", "North Sea Zone", "United Kingdom", raid=True)
    assert units_in(raid, "United Kingdom", "Germany") == {"bomber": 1}
    attack = at("Germany", "combat-move", units)
    rejected(attack, mv("1 bomber", "Germany", "West Europe", "North Sea Zone", "United Kingdom"),
             "REAL98-AIR-combat-range", "at most 2")


@pytest.mark.rule("REAL98-AIR-sbr-range")
def test_bomber_raid_four_away_is_refused() -> None:
    game = at("Germany", "combat-move", {"West Europe": "Germany: 1 bomber", "Russia": "Russia: 1 factory"})
    rejected(game, mv("1 bomber", "West Europe", "Germany", "East Europe", "Karelia S.S.R.", "Russia", raid=True),
             "REAL98-AIR-sbr-range", "at most 3")
    near = at("Germany", "combat-move", {"East Europe": "Germany: 1 bomber", "Russia": "Russia: 1 factory"})
    move(near, "1 bomber", "East Europe", "Karelia S.S.R.", "Russia", raid=True)


@pytest.mark.rule("REAL98-AIR-combat-range")
def test_land_based_fighter_attacks_two_away_not_three() -> None:
    units = {"Germany": "Germany: 2 fighters", "Caucasus": "Russia: 1 infantry", "Karelia S.S.R.": "Russia: 1 infantry"}
    game = at("Germany", "combat-move", units)
    rejected(game, mv("1 fighter", "Germany", "East Europe", "Ukraine S.S.R.", "Caucasus"), "REAL98-AIR-combat-range",
             "at most 2")
    move(game, "1 fighter", "Germany", "East Europe", "Karelia S.S.R.")
    [fighter] = stacks_of(game, "Karelia S.S.R.", "fighter")
    assert flags.has(fighter, flags.COMBAT)


@pytest.mark.rule("REAL98-AIR-carrier-fighter-range", "REAL98-AIR-range-table")
def test_carrier_fighter_attacks_only_next_to_its_carrier() -> None:
    units = {"Japan Sea Zone": "Japan: 1 carrier, 2 fighters", "Manchuria": "Russia: 1 infantry",
             "Soviet Far East": "Russia: 1 infantry"}
    owners = {"Manchuria": "Russia"}
    game = at("Japan", "combat-move", units, owners=owners)
    rejected(game, mv("1 fighter", "Japan Sea Zone", "Soviet Far East Sea Zone", "Soviet Far East"),
             "REAL98-AIR-carrier-fighter-range", "at most 1")
    move(game, "1 fighter", "Japan Sea Zone", "Manchuria")
    assert units_in(game, "Manchuria", "Japan") == {"fighter": 1}


@pytest.mark.rule("REAL98-AIR-return-range", "REAL98-AIR-range-table")
def test_fighter_that_attacked_one_away_returns_at_most_two() -> None:
    game = at("Germany", "combat-move", {"East Europe": "Germany: 1 fighter", "Karelia S.S.R.": "Russia: 1 infantry"})
    move(game, "1 fighter", "East Europe", "Karelia S.S.R.")
    back = after_combat(game, ("Karelia S.S.R.", "Russia"))
    rejected(back, mv("1 fighter", "Karelia S.S.R.", "East Europe", "Germany", "West Europe"),
             "REAL98-AIR-return-range", "at most 2")
    move(back, "1 fighter", "Karelia S.S.R.", "East Europe", "Germany")
    assert units_in(back, "Germany") == {"fighter": 1}


@pytest.mark.rule("REAL98-AIR-return-range")
def test_return_range_counts_every_non_combat_flight() -> None:
    game = at("Germany", "combat-move", {"East Europe": "Germany: 1 bomber", "Karelia S.S.R.": "Russia: 1 infantry"})
    move(game, "1 bomber", "East Europe", "Karelia S.S.R.")
    back = after_combat(game, ("Karelia S.S.R.", "Russia"))
    move(back, "1 bomber", "Karelia S.S.R.", "East Europe")
    rejected(back, mv("1 bomber", "East Europe", "Germany", "West Europe"), "REAL98-AIR-return-range", "1 left")
    move(back, "1 bomber", "East Europe", "Germany")
    assert not any(m.path[0] == "Germany" for m in back.legal_actions() if m.type == "move")


@pytest.mark.rule("REAL98-AIR-return-range", "REAL98-AIR-sbr-range")
def test_raiding_bomber_returns_up_to_three() -> None:
    game = at("Germany", "combat-move", {"East Europe": "Germany: 1 bomber", "Russia": "Russia: 1 factory"})
    move(game, "1 bomber", "East Europe", "Karelia S.S.R.", "Russia", raid=True)
    back = after_combat(game)
    rejected(back, mv("1 bomber", "Russia", "Karelia S.S.R.", "East Europe", "Germany", "West Europe"),
             "REAL98-AIR-return-range", "at most 3")
    move(back, "1 bomber", "Russia", "Karelia S.S.R.", "East Europe", "Germany")


@pytest.mark.rule("REAL98-AIR-full-range-if-idle")
def test_aircraft_that_did_not_attack_fly_their_full_range() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 1 fighter, 1 bomber"})
    move(game, "1 fighter", "Germany", "West Europe", "West Mediterranean Sea Zone", "Algeria", "Libya")
    assert units_in(game, "Libya") == {"fighter": 1}
    move(game, "1 bomber", "Germany", "East Europe", "Karelia S.S.R.", "Caucasus", "Persia", "India",
         "French Indo China")
    assert units_in(game, "French Indo China") == {"bomber": 1}
