"""AARHE Phase 1 purchase and mobilisation: infantry bought for a victory city and raised there, capped and priced by
the city; complexes priced 15 less value x points, bought for a place, capped at four times the value in IPCs."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.production import has_complex
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe_p1.production import RECORD, ic_cost, infantry_cap
from tests.aarhe_p1.common import GER, JAP, RULES, RUS, UK, US, at, buy, place, purchase, refused, to
from tests.classic.test_move_land import at as board_at
from tests.classic.test_move_land import fight_all
from tests.movement.helpers import move


def units_of(g: Any, space: str, power: str) -> dict[str, int]:
    return {s.unit: s.count for s in g.state.stacks(space) if s.owner == power}


def captured_this_turn(power: str, territory: str, before: str) -> dict[str, Any]:
    """The keyword arguments of `at` for `territory` taken by `power` this turn from `before`."""
    g = at(power)
    owners = {**g.state.owners, territory: before}
    turn = {"round": 2, "power": power, "owners": owners, "placed": {}, "damage": {}}
    return {"owners": {territory: power}, "extra": {"turn": turn}}


@pytest.mark.rule("AARHEP1-IC-cost-formula", "AARHEP1-IC-cost-examples")
@pytest.mark.parametrize(("power", "territory", "cost"), [
    (UK, "India", 9), (JAP, "French Indochina", 9), (JAP, "Kwangtung", 9), (GER, "Western Europe", 3),
    (US, "Central United States", 3), (GER, "Norway", 12), (GER, "Libya", 15), (UK, "Persia", 15)])
def test_a_complex_costs_15_less_the_territory_value_times_its_points(power: str, territory: str, cost: int) -> None:
    assert ic_cost(territory, load_ruleset(RULES).board) == cost
    g = at(power, clear=[territory])
    assert buy(g, "1 industrial complex", territory) == cost
    assert g.state.extra[RECORD][power]["orders"] == {territory: {"factory": 1}}


@pytest.mark.rule("AARHEP1-IC-declare-location")
def test_a_complex_is_bought_for_its_territory_and_placed_there() -> None:
    g = at(UK, clear=["India"])
    assert refused(g, purchase("1 industrial complex")) == "AARHEP1-IC-declare-location"
    buy(g, "1 industrial complex", "India")
    to(g, "mobilize")
    assert refused(g, place("1 industrial complex", "Persia")) == "AARHEP1-IC-declare-location"
    g.apply(place("1 industrial complex", "India"))
    assert has_complex(g.state, g.ruleset, "India")


@pytest.mark.rule("AARHEP1-IC-owned-at-start")
def test_a_complex_needs_a_territory_held_since_the_turn_began() -> None:
    assert refused(at(UK), purchase("1 industrial complex", "Norway")) == "AARHEP1-IC-owned-at-start"
    g = at(UK, **captured_this_turn(UK, "Norway", GER))
    assert refused(g, purchase("1 industrial complex", "Norway")) == "AARHEP1-IC-owned-at-start"
    g = at(UK, owners={"Norway": UK}, clear=["Norway"])
    assert buy(g, "1 industrial complex", "Norway") == 12


@pytest.mark.rule("AARHEP1-IC-no-build-first-turn")
def test_a_new_complex_builds_nothing_the_turn_it_is_placed() -> None:
    g = at(UK)
    buy(g, "1 industrial complex", "Persia")
    g.apply(purchase("1 armour"))
    to(g, "mobilize")
    g.apply(place("1 industrial complex", "Persia"))
    assert refused(g, place("1 armour", "Persia")) != ""
    assert units_of(g, "Persia", UK).get("armour", 0) == 0
    g.apply(place("1 armour", "United Kingdom"))


@pytest.mark.rule("AARHEP1-IC-non-inf-cap")
def test_a_complex_mobilises_at_most_four_times_its_value_in_ipcs() -> None:
    g = at(RUS)
    g.apply(purchase("4 armour, 1 artillery"))
    to(g, "mobilize")
    before = units_of(g, "Caucasus", RUS).get("armour", 0)
    g.apply(place("3 armour", "Caucasus"))  # 15 of 16: more units than Caucasus's value of 4 is no limit
    assert refused(g, place("1 artillery", "Caucasus")) == "AARHEP1-IC-non-inf-cap"
    assert units_of(g, "Caucasus", RUS)["armour"] == before + 3
    g = at(JAP)
    g.apply(purchase("1 fighter, 1 armour"))
    to(g, "mobilize")
    g.apply(place("1 fighter", "Manchuria"))  # 10 of 12
    assert refused(g, place("1 armour", "Manchuria")) == "AARHEP1-IC-non-inf-cap"


@pytest.mark.rule("AARHEP1-IC-independent-caps")
def test_infantry_at_a_city_do_not_count_against_the_complex_there() -> None:
    g = at(GER)
    before = units_of(g, "Germany", GER)
    assert buy(g, "5 infantry", "Germany") == 10
    g.apply(purchase("4 fighters, 1 artillery"))
    to(g, "mobilize")
    g.apply(place("5 infantry", "Germany"))
    g.apply(place("4 fighters", "Germany"))  # 40 = 4 x 10
    assert refused(g, place("1 artillery", "Germany")) == "AARHEP1-IC-non-inf-cap"
    after = units_of(g, "Germany", GER)
    assert (after["infantry"] - before.get("infantry", 0), after["fighter"] - before.get("fighter", 0)) == (5, 4)


@pytest.mark.rule("AARHEP1-IC-initial")
def test_every_capital_and_major_city_starts_with_a_complex() -> None:
    g = new_game(RULES)
    ruleset = load_ruleset(RULES)
    for territory in ("Russia", "Caucasus", "Germany", "Southern Europe", "United Kingdom", "Eastern Canada",
                      "Japan", "Manchuria", "Eastern United States", "Western United States"):
        assert has_complex(g.state, ruleset, territory), territory
    lhtr = new_game("lhtr-1.3").state
    assert not has_complex(lhtr, ruleset, "Manchuria") and not has_complex(lhtr, ruleset, "Eastern Canada")


@pytest.mark.rule("AARHEP1-INF-vc-only")
def test_infantry_are_raised_only_at_victory_cities() -> None:
    g = at(GER)
    assert refused(g, purchase("1 infantry")) == "AARHEP1-INF-assign-at-purchase"
    assert refused(g, purchase("1 infantry", "Libya")) == "AARHEP1-INF-vc-only"
    g = at(UK, clear=["Anglo Egypt"])
    assert not has_complex(g.state, g.ruleset, "Anglo Egypt")
    assert buy(g, "1 infantry", "Anglo Egypt") == 3
    to(g, "mobilize")
    g.apply(place("1 infantry", "Anglo Egypt"))
    assert units_of(g, "Anglo Egypt", UK) == {"infantry": 1}


@pytest.mark.rule("AARHEP1-INF-held-at-start")
def test_infantry_need_a_city_held_since_the_turn_began() -> None:
    g = at(RUS, **captured_this_turn(RUS, "Ukraine S.S.R.", GER))
    assert refused(g, purchase("1 infantry", "Ukraine S.S.R.")) == "AARHEP1-INF-held-at-start"
    g = at(RUS, owners={"Ukraine S.S.R.": RUS})
    assert buy(g, "1 infantry", "Ukraine S.S.R.") == 4


@pytest.mark.rule("AARHEP1-INF-assign-at-purchase", "AARHEP1-INFCOST-rule")
def test_infantry_are_bought_for_a_named_city_and_placed_there() -> None:
    g = at(GER)
    assert buy(g, "2 infantry", "Germany") + buy(g, "1 infantry", "Ukraine S.S.R.") == 7
    to(g, "mobilize")
    assert refused(g, place("3 infantry", "Germany")) == "AARHEP1-INF-assign-at-purchase"
    g.apply(place("2 infantry", "Germany"))
    assert refused(g, place("1 infantry", "Germany")) == "AARHEP1-INF-assign-at-purchase"
    g.apply(place("1 infantry", "Ukraine S.S.R."))


@pytest.mark.rule("AARHEP1-INFCOST-table", "AARHEP1-INFCOST-rule")
def test_infantry_cost_2_at_the_capital_3_at_home_and_4_in_captured_territory() -> None:
    g = at(UK, owners={"Western Europe": UK})
    assert buy(g, "1 infantry", "United Kingdom") == 2
    assert buy(g, "1 infantry", "India") == 3
    assert buy(g, "1 infantry", "Western Europe") == 4
    assert buy(at(US), "3 infantry", "Eastern United States") == 6
    g = at(GER)
    assert buy(g, "3 infantry", "Germany") + buy(g, "2 infantry", "Southern Europe") == 12


def cap(power: str, territory: str, owners: dict[str, str] | None = None) -> int:
    g = at(power, owners=owners or {})
    return infantry_cap(g.state, g.ruleset, power, g.ruleset.board.resolve(territory))[0]


@pytest.mark.rule("AARHEP1-INF-cap-table")
@pytest.mark.parametrize(("power", "territory", "expected"), [
    (RUS, "Russia", 5), (US, "Eastern United States", 3), (UK, "United Kingdom", 3), (GER, "Germany", 5),
    (UK, "Eastern Canada", 3), (UK, "Australia", 2), (JAP, "Japan", 5), (JAP, "Manchuria", 2), (RUS, "Caucasus", 3),
    (GER, "Norway", 0), (JAP, "Philippine Islands", 0), (US, "China", 2)])
def test_the_infantry_cap_of_each_city(power: str, territory: str, expected: int) -> None:
    assert cap(power, territory) == expected


@pytest.mark.rule("AARHEP1-INF-cap-table", "AARHEP1-INF-cap-captured")
def test_a_captured_city_raises_half_its_points_rounded_down() -> None:
    assert cap(UK, "Anglo Egypt", {"Anglo Egypt": GER}) == 1  # the UK's own city
    assert cap(GER, "Anglo Egypt", {"Anglo Egypt": GER}) == 0
    assert cap(GER, "Karelia S.S.R.", {"Karelia S.S.R.": GER}) == 1
    assert cap(GER, "Archangel", {"Archangel": GER}) == 0
    assert cap(GER, "Russia", {"Russia": GER}) == 2
    assert cap(RUS, "Ukraine S.S.R.", {"Ukraine S.S.R.": RUS}) == 1


@pytest.mark.rule("AARHEP1-INF-cap-original")
def test_an_original_city_raises_its_points() -> None:
    g = at(RUS)
    assert buy(g, "2 infantry", "Caucasus") == 6
    g.apply(purchase("1 infantry", "Caucasus"))
    assert refused(g, purchase("1 infantry", "Caucasus")) == "AARHEP1-INF-cap-original"


@pytest.mark.rule("AARHEP1-INF-cap-disconnected")
def test_russia_germany_and_japan_raise_one_less_at_a_city_cut_off_from_the_capital() -> None:
    assert cap(GER, "Norway") == 0
    assert cap(GER, "Norway", {"Karelia S.S.R.": GER}) == 1
    assert cap(JAP, "Philippine Islands") == 0
    assert cap(RUS, "Buryatia S.S.R.") == 1
    assert cap(RUS, "Buryatia S.S.R.", {"Yakut S.S.R.": JAP, "Soviet Far East": JAP, "Novosibirsk": JAP}) == 0
    assert cap(UK, "Australia") == 2  # the Western Allies keep the full cap
    g = at(GER)
    assert refused(g, purchase("1 infantry", "Norway")) == "AARHEP1-INF-cap-disconnected"


@pytest.mark.rule("AARHEP1-INF-cap-western-capital")
def test_the_uk_and_us_capitals_raise_three() -> None:
    g = at(US)
    assert refused(g, purchase("4 infantry", "Eastern United States")) == "AARHEP1-INF-cap-western-capital"
    assert buy(g, "3 infantry", "Eastern United States") == 6
    g = at(UK)
    assert refused(g, purchase("4 infantry", "United Kingdom")) == "AARHEP1-INF-cap-western-capital"


def take(territory: str, defender: str, **options: Any) -> Any:
    """Germany's armour from a neighbour takes `territory`, empty but for `defender`'s complex."""
    g = board_at(GER, "combat-move", {territory: f"{defender}: 1 industrial complex", "Persia": "Germany: 1 armour"},
                 rules=RULES, options={"first_turn_levy": "none", **options})
    move(g, "1 armour", "Persia", territory)
    fight_all(g)
    return g


@pytest.mark.rule("AARHEP1-IC-purchased-destructible", "AARHEP1-IC-initial")
def test_a_bought_complex_is_destroyed_when_its_territory_falls_an_initial_one_is_captured() -> None:
    g = take("India", UK)
    assert g.state.owners["India"] == GER and not has_complex(g.state, g.ruleset, "India")
    g = take("India", UK, bought_complexes="captured")
    assert units_of(g, "India", GER).get("factory") == 1
    g = take("Caucasus", RUS)
    assert units_of(g, "Caucasus", GER).get("factory") == 1
