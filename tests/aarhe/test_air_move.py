"""AARHE air movement: half the movement out to a battle and half back, unused range lost; ferry flights with two
more movement points in two half legs."""

from __future__ import annotations

import pytest

from aare.movement import flags
from tests.aarhe.move_common import after_combat, at
from tests.movement.helpers import move, mv, rejected, turn_began_with, units_in

R_OUT, R_BACK = "AARHE-AIRMOVE-combat-half-out", "AARHE-AIRMOVE-combat-half-back"
R_ROLL, R_PLUS, R_HALVES = "AARHE-AIRMOVE-no-rollover", "AARHE-AIRMOVE-ferry-plus-two", "AARHE-AIRMOVE-ferry-halves"
EAST = {t: "Germany" for t in ("Karelia S.S.R.", "West Russia", "Archangel", "Russia", "Evenki National Okrug",
                                "Novosibirsk")}


@pytest.mark.rule(R_OUT)
def test_fighter_attacks_two_away_not_three_bomber_three() -> None:
    units = {"Germany": "Germany: 1 fighter, 1 bomber", "West Russia": "Russia: 1 infantry",
             "Karelia S.S.R.": "Russia: 1 infantry"}
    game = at("Germany", "combat-move", units, owners={"West Russia": "Russia"})
    rejected(game, mv("1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia"), R_OUT,
             "at most half their movement (2)")
    move(game, "1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.")
    move(game, "1 bomber", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia")
    assert units_in(game, "West Russia", "Germany") == {"bomber": 1}
    assert units_in(game, "Karelia S.S.R.", "Germany") == {"fighter": 1}


@pytest.mark.rule(R_BACK, R_ROLL)
def test_fighter_that_attacked_one_away_returns_at_most_two() -> None:
    units = {"Eastern Europe": "Germany: 1 fighter", "Karelia S.S.R.": "Russia: 1 infantry"}
    game = at("Germany", "combat-move", units)
    move(game, "1 fighter", "Eastern Europe", "Karelia S.S.R.")
    back = after_combat(game, ("Karelia S.S.R.", "Russia"))
    rejected(back, mv("1 fighter", "Karelia S.S.R.", "Eastern Europe", "Germany", "Western Europe"), R_ROLL,
             "unused going out is lost")
    rejected(back, mv("1 fighter", "Karelia S.S.R.", "Eastern Europe", "Germany", "Western Europe", "SZ 6"), R_BACK)
    move(back, "1 fighter", "Karelia S.S.R.", "Eastern Europe", "Germany")
    assert units_in(back, "Germany") == {"fighter": 1}


@pytest.mark.rule(R_BACK, R_PLUS)
def test_return_flight_has_no_ferry_bonus_and_counts_every_leg() -> None:
    game = at("Germany", "combat-move", {"Germany": "Germany: 1 fighter", "Karelia S.S.R.": "Russia: 1 infantry"})
    move(game, "1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.")
    back = after_combat(game, ("Karelia S.S.R.", "Russia"))
    rejected(back, mv("1 fighter", "Karelia S.S.R.", "Eastern Europe", "Germany", "Western Europe"), R_BACK, "not 3")
    move(back, "1 fighter", "Karelia S.S.R.", "Eastern Europe")
    move(back, "1 fighter", "Eastern Europe", "Germany")
    rejected(back, mv("1 fighter", "Germany", "Western Europe"), R_BACK, "0 left")


@pytest.mark.rule(R_BACK)
def test_attack_needs_a_landing_spot_within_half_the_movement() -> None:
    soviet = {t: "Russia" for t in ("West Russia", "Belorussia", "Ukraine S.S.R.", "Eastern Europe", "Norway")}
    units = {"Karelia S.S.R.": "Germany: 1 fighter", "Archangel": "Russia: 1 infantry"}
    game = at("Germany", "combat-move", units, owners={**soviet, "Karelia S.S.R.": "Germany"})
    game = turn_began_with(game, {"Karelia S.S.R.": "Russia"})  # taken this turn: no landing there
    rejected(game, mv("1 fighter", "Karelia S.S.R.", "Archangel"), R_BACK, "no place to land within half")
    lhtr = turn_began_with(at("Germany", "combat-move", units, owners={**soviet, "Karelia S.S.R.": "Germany"},
                              rules="lhtr-1.3"), {"Karelia S.S.R.": "Russia"})
    move(lhtr, "1 fighter", "Karelia S.S.R.", "Archangel")  # Germany, 3 away, is in reach


@pytest.mark.rule(R_PLUS, R_HALVES)
def test_fighter_ferries_six_in_two_legs_of_three() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 1 fighter"}, owners=EAST)
    rejected(game, mv("1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia", "Russia"), R_HALVES,
             "at most half the extended movement (3)")
    move(game, "1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.", "Archangel")
    move(game, "1 fighter", "Archangel", "Russia", "Evenki National Okrug", "Novosibirsk")
    assert units_in(game, "Novosibirsk", "Germany") == {"fighter": 1}
    rejected(game, mv("1 fighter", "Novosibirsk", "Russia"), R_HALVES, "both legs")


@pytest.mark.rule(R_PLUS, R_HALVES)
def test_bomber_ferries_four_a_leg() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 1 bomber"}, owners=EAST)
    move(game, "1 bomber", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia", "Russia")
    [bomber] = [s for s in game.state.stacks("Russia") if s.unit == "bomber"]
    assert flags.values(bomber, "turn:aarhe-leg") == ("1",)


@pytest.mark.rule(R_OUT, R_PLUS, R_HALVES)
def test_lhtr_alone_has_full_ranges() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 1 fighter"}, owners=EAST, rules="lhtr-1.3")
    rejected(game, mv("1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia", "Russia",
                      "Novosibirsk"), "LHTR-AIRMOVE-range")
    move(game, "1 fighter", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia", "Russia")
