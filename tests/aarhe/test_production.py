"""AARHE purchase and deployment: complexes priced by their victory city, scorched earth, infantry raised at
victory cities at authoritarian and democratic prices, at most a city's points a turn, and complexes mobilising
at most four times their territory's value in IPCs."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.production import has_complex
from aare.engine import Game
from aare.game_log import GameLog
from aare.rulesets.aarhe.production import RECORD, ic_cost
from aare.scenario import scenario
from tests.aarhe.common import GER, JAP, RULES, RUS, UK, US, end_phase, refused

BANK = 200


def at(power: str, rules: str = RULES, **kwargs: Any) -> Game:
    return scenario(rules, nation=power, phase="purchase", banks={power: BANK}, round=2, **kwargs)


def buy(g: Game, units: str, where: str = "") -> int:
    """Buy `units` (at `where`); what they cost."""
    before = g.state.banks[g.state.nation]
    g.apply({"type": "purchase", "units": units, **({"at": where} if where else {})})
    return before - g.state.banks[g.state.nation]



def purchase(units: str, where: str = "") -> dict[str, Any]:
    return {"type": "purchase", "units": units, **({"at": where} if where else {})}


def place(units: str, space: str) -> dict[str, Any]:
    return {"type": "place", "units": units, "space": space}


def to(g: Game, phase: str) -> Game:
    while g.state.phase != phase:
        end_phase(g)
    return g


@pytest.mark.rule("AARHE-PURCH-ic-cost-table", "AARHE-PURCH-ic-cost")
@pytest.mark.parametrize(("power", "territory", "cost"), [
    (GER, "Eastern Europe", 5), (RUS, "Archangel", 10), (GER, "Norway", 15), (UK, "Persia", 10)])
def test_a_complex_costs_by_the_victory_city_where_it_will_stand(power: str, territory: str, cost: int) -> None:
    assert ic_cost(territory) == cost
    g = at(power)
    assert buy(g, "1 industrial complex", territory) == cost
    assert g.state.extra[RECORD][power]["orders"] == {territory: {"factory": 1}}


@pytest.mark.rule("AARHE-PURCH-ic-cost")
def test_the_place_of_a_complex_is_named_when_bought_and_kept_at_mobilize() -> None:
    g = at(GER)
    assert refused(g, purchase("1 industrial complex")) == "AARHE-PURCH-ic-cost"
    assert refused(g, purchase("1 industrial complex", "Germany")) == "AARHE-PURCH-ic-cost"  # one there already
    assert refused(g, purchase("1 industrial complex", "Russia")) == "AARHE-PURCH-ic-cost"  # not Germany's
    assert refused(g, purchase("2 industrial complex", "Norway")) == "AARHE-PURCH-inf-at-vc"
    buy(g, "1 industrial complex", "Norway")
    assert refused(g, purchase("1 industrial complex", "Norway")) == "AARHE-PURCH-ic-cost"
    to(g, "mobilize")
    assert refused(g, place("1 industrial complex", "Eastern Europe")) == "AARHE-PURCH-ic-cost"
    g.apply(place("1 industrial complex", "Norway"))
    assert has_complex(g.state, g.ruleset, "Norway", GER)
    # LHTR: one price, placed anywhere held
    lhtr = at(GER, "lhtr-1.3")
    assert buy(lhtr, "1 industrial complex") == 15


@pytest.mark.rule("AARHE-PURCH-scorched-select")
def test_a_complex_marked_for_scorched_earth_stands_until_mobilize() -> None:
    g = at(RUS)
    scorch = {"type": "designate", "advantage": "scorch", "units": "1 industrial complex", "space": "Caucasus"}
    g.apply(scorch)
    assert g.state.extra[RECORD][RUS]["scorched"] == ["Caucasus"]
    assert refused(g, scorch) == "AARHE-PURCH-scorched-select"
    assert refused(g, {**scorch, "space": "Archangel"}) == "AARHE-PURCH-scorched-select"  # no complex there
    assert refused(g, {**scorch, "space": "Germany"}) == "AARHE-PURCH-scorched-select"  # not its own
    to(g, "combat-move")
    assert has_complex(g.state, g.ruleset, "Caucasus", RUS)


def _scorched(options: dict[str, Any] | None = None) -> Game:
    g = at(RUS, options=options)
    g.apply({"type": "designate", "advantage": "scorch", "units": "1 industrial complex", "space": "Caucasus"})
    buy(g, "1 armour")
    buy(g, "1 infantry", "Caucasus")
    return g


@pytest.mark.rule("AARHE-PURCH-scorched-remove")
def test_a_scorched_complex_goes_as_mobilize_begins_and_nothing_is_mobilised_there() -> None:
    g = to(_scorched(), "mobilize")
    assert not has_complex(g.state, g.ruleset, "Caucasus")
    removed = [e for e in g.log.entries[-1].events if e.type == "units_removed"]
    assert [getattr(e, "rule_id", "") for e in removed] == ["AARHE-PURCH-scorched-remove"]
    assert refused(g, place("1 armour", "Caucasus")) == "AARHE-PURCH-scorched-remove"
    assert refused(g, place("1 infantry", "Caucasus")) == "AARHE-PURCH-scorched-remove"
    g.apply(place("1 armour", "Russia"))
    # the option lets the city still raise its infantry
    g = to(_scorched({"scorched_city_infantry": True}), "mobilize")
    assert refused(g, place("1 armour", "Caucasus")) == "AARHE-PURCH-scorched-remove"
    g.apply(place("1 infantry", "Caucasus"))


@pytest.mark.rule("AARHE-PURCH-scorched-remove")
def test_a_complex_lost_before_mobilize_stays_with_the_captor() -> None:
    g = to(_scorched(), "non-combat-move")
    taken = Game(GameLog(replace(g.state, owners={**g.state.owners, "Caucasus": GER})))
    end_phase(taken)
    assert taken.state.phase == "mobilize"
    assert has_complex(taken.state, taken.ruleset, "Caucasus")


@pytest.mark.rule("AARHE-PURCH-inf-at-vc")
def test_infantry_are_raised_at_victory_cities_other_units_built_at_complexes() -> None:
    g = at(GER, units={"Norway": "Germany: 1 industrial complex"})
    assert refused(g, purchase("1 infantry")) == "AARHE-PURCH-inf-at-vc"
    assert refused(g, purchase("1 infantry", "Norway")) == "AARHE-PURCH-inf-at-vc"  # a complex, no city
    assert refused(g, purchase("1 infantry", "Russia")) == "AARHE-PURCH-inf-at-vc"  # not Germany's
    assert refused(g, purchase("1 infantry, 1 armour", "Eastern Europe")) == "AARHE-PURCH-inf-at-vc"
    buy(g, "2 infantry", "Eastern Europe")  # Warsaw, no complex
    buy(g, "1 armour")
    to(g, "mobilize")
    assert refused(g, place("1 infantry", "Germany")) == "AARHE-PURCH-inf-at-vc"  # raised at Warsaw
    assert refused(g, place("1 armour", "Eastern Europe")) == "LHTR-MOBILIZE-at-owned-complex"
    g.apply(place("2 infantry", "Eastern Europe"))
    g.apply(place("1 armour", "Germany"))
    assert refused(g, place("1 infantry", "Eastern Europe")) == "AARHE-PURCH-inf-at-vc"  # both placed


@pytest.mark.rule("AARHE-PURCH-inf-cost-authoritarian-table", "AARHE-PURCH-inf-cost-authoritarian")
def test_authoritarian_infantry_cost_2_at_the_capital_3_connected_4_elsewhere() -> None:
    cut = {"Yakut S.S.R.": JAP, "Soviet Far East": JAP}  # Vladivostok cut off from Moscow
    g = at(RUS, owners=cut)
    assert [buy(g, "1 infantry", t) for t in ("Russia", "Caucasus", "Buryatia S.S.R.")] == [2, 3, 4]
    assert buy(g, "2 infantry", "Russia") == 4  # every one at the capital costs 2
    # Japan: 2 at Tokyo and 1 at Manila (across the sea) = 8
    japan = at(JAP)
    assert buy(japan, "2 infantry", "Japan") + buy(japan, "1 infantry", "Philippine Islands") == 8
    # connected through the side's territory: Germany's Kiev, through Eastern Europe
    germany = at(GER)
    assert buy(germany, "1 infantry", "Ukraine S.S.R.") == 3


@pytest.mark.rule("AARHE-PURCH-inf-cost-democratic-table", "AARHE-PURCH-inf-cost-democratic")
def test_democratic_infantry_cost_rises_with_numbers_at_each_city() -> None:
    us = at(US)
    assert buy(us, "3 infantry", "Eastern United States") == 2 + 3 + 4
    assert buy(us, "1 infantry", "Brazil") == 3  # a minor city
    assert buy(us, "1 infantry", "Eastern United States") == 4  # the fourth there this turn
    uk = at(UK)
    assert buy(uk, "2 infantry", "United Kingdom") + buy(uk, "2 infantry", "Eastern Canada") == 10
    # LHTR: 3 each, bought without a place
    lhtr = at(US, "lhtr-1.3")
    assert buy(lhtr, "3 infantry") == 9


@pytest.mark.rule("AARHE-MOBIL-inf-vc-cap")
def test_a_city_raises_at_most_its_points_in_infantry_a_turn() -> None:
    g = at(GER)
    assert refused(g, purchase("2 infantry", "Ukraine S.S.R.")) == "AARHE-MOBIL-inf-vc-cap"  # Kiev, 1 point
    buy(g, "1 infantry", "Ukraine S.S.R.")
    assert refused(g, purchase("1 infantry", "Ukraine S.S.R.")) == "AARHE-MOBIL-inf-vc-cap"
    buy(g, "6 infantry", "Germany")  # Berlin, 6 points
    assert refused(g, purchase("1 infantry", "Germany")) == "AARHE-MOBIL-inf-vc-cap"
    to(g, "mobilize")
    g.apply(place("6 infantry", "Germany"))
    g.apply(place("1 infantry", "Ukraine S.S.R."))


@pytest.mark.rule("AARHE-MOBIL-ic-spend-cap")
def test_a_complex_mobilises_at_most_four_times_its_territory_value_in_ipcs() -> None:
    g = at(GER)  # Germany is worth 10: 40 IPCs a turn
    buy(g, "3 bomber, 3 armour, 1 artillery, 1 destroyer")
    to(g, "mobilize")
    assert refused(g, place("3 bomber", "Germany")) == "AARHE-MOBIL-ic-spend-cap"  # 45
    g.apply(place("2 bomber, 1 armour", "Germany"))  # 35
    g.apply(place("1 armour", "Germany"))  # 40
    assert refused(g, place("1 artillery", "Germany")) == "AARHE-MOBIL-ic-spend-cap"
    assert refused(g, place("1 destroyer", "SZ 5")) == "AARHE-MOBIL-ic-spend-cap"  # a ship counts too
    assert g.state.extra[RECORD][GER]["spent"] == {"Germany": 40}
    g.apply(place("1 armour", "Southern Europe"))  # worth 6: 24 there
    # LHTR: ten units at Germany, whatever their price
    lhtr = at(GER, "lhtr-1.3")
    buy(lhtr, "3 bomber")
    to(lhtr, "mobilize").apply(place("3 bomber", "Germany"))


@pytest.mark.rule("AARHE-PURCH-inf-at-vc", "AARHE-PURCH-ic-cost")
def test_a_purchase_at_a_place_in_text_notation() -> None:
    from aare.action_text import format_action, parse_action_text

    ruleset = at(RUS).ruleset
    action = parse_action_text("Russia: buy 2 infantry at Russia", ruleset)
    assert action == {"type": "purchase", "units": "2 infantry", "at": "Russia", "power": RUS}
    assert format_action(action) == "Russia: buy 2 infantry at Russia"
    assert parse_action_text("buy 2 infantry", ruleset) == {"type": "purchase", "units": "2 infantry"}
