"""AARHE game modes and victory cities: the 81 victory city points, minor cities, the mode chosen at set-up,
total, city and economic victory and the bid of rounds."""

from __future__ import annotations

from typing import Any

import pytest

from aare.errors import IllegalAction, MalformedInput
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe.victory import (
    CITIES,
    city_points,
    is_minor,
    round_bid,
    territory_values,
    total_winner,
    victory_by,
)
from aare.scenario import scenario
from tests.aarhe.common import GER, RULES, RUS, UK, end_turn, game

# the cities each power starts with, and their points (AARHE-VC-table)
TOTALS = {"Germany": 18, "Japan": 15, "Russia": 18, "United Kingdom": 12, "United States": 14, None: 4}
AXIS_GAINS = {"Russia": GER, "Caucasus": GER, "Anglo Egypt": GER, "Karelia S.S.R.": GER}  # 6 + 4 + 1 + 3


def winner(options: dict[str, Any] | None = None, owners: dict[str, str] | None = None,
           round_: int = 1) -> tuple[str, str, str] | None:
    g = scenario(RULES, nation=RUS, phase="diplomacy", owners=owners, options=options, round=round_)
    return victory_by(g.ruleset, g.state)


@pytest.mark.rule("AARHE-VC-table")
def test_the_victory_city_points_add_up_as_the_table_says() -> None:
    ruleset = load_ruleset(RULES)
    board = ruleset.board
    by_power: dict[str | None, int] = {}
    for territory, (_city, vcp) in CITIES.items():
        owner = board.spaces[territory].owner  # the power that starts with it; None: a neutral
        by_power[owner] = by_power.get(owner, 0) + vcp
    assert by_power == TOTALS and sum(by_power.values()) == 81 and len(CITIES) == 35
    assert city_points(ruleset, game().state) == {"Axis": 33, "Allies": 44}
    assert ruleset.victory_cities()["Southern Europe"] == "Rome" and len(ruleset.victory_cities()) == 35


@pytest.mark.rule("AARHE-VC-minor-definition")
def test_a_minor_victory_city_is_worth_one_point() -> None:
    assert is_minor("Ukraine S.S.R.")  # Kiev
    assert not is_minor("Eastern Europe")  # Warsaw, 2
    assert not is_minor("Norway")  # no city at all
    assert sorted(CITIES[t][0] for t in CITIES if is_minor(t)) == [
        "Almaty", "Archangel", "Batavia", "Cairo", "Calcutta", "Cape Town", "Chungking", "Kiev", "Manila",
        "Rio de Janeiro", "Shanghai", "Sydney", "Tehran", "Vladivostok", "Ürümqi"]


@pytest.mark.rule("AARHE-MODE-select")
def test_one_mode_is_chosen_at_set_up_and_its_check_decides() -> None:
    assert load_ruleset(RULES).options["victory_mode"] == "city"
    with pytest.raises(MalformedInput, match="victory_mode must be one of"):
        load_ruleset(RULES, {"victory_mode": "cities"})
    # 47 victory city points for the Axis: a city victory, but neither a total nor (before the last round) an
    # economic one
    assert winner({"victory_mode": "city"}, AXIS_GAINS) is not None
    assert winner({"victory_mode": "total"}, AXIS_GAINS) is None
    assert winner({"victory_mode": "economic", "economic_rounds": 5}, AXIS_GAINS) is None


@pytest.mark.rule("AARHE-MODE-city")
def test_city_victory_at_45_points_for_the_axis_and_55_for_the_allies() -> None:
    assert winner() is None
    found = winner(owners=AXIS_GAINS)
    assert found is not None and found[0] == "Axis" and found[2] == "AARHE-MODE-city" and "47" in found[1]
    assert winner(owners={"Russia": GER, "Caucasus": GER, "Anglo Egypt": GER}) is None  # 44
    allied = {"Germany": RUS, "Southern Europe": UK, "Western Europe": UK}  # 44 + 6 + 5 + 2 = 57
    found = winner(owners=allied)
    assert found is not None and found[0] == "Allies"
    assert winner(owners={"Germany": RUS, "Southern Europe": UK}) == ("Allies", "city victory: 55 victory city "
                                                                    "points", "AARHE-MODE-city")


@pytest.mark.rule("AARHE-MODE-city", "AARHE-MODE-select")
def test_the_check_comes_at_the_end_of_the_round_and_ends_the_game() -> None:
    g = scenario(RULES, nation=RUS, phase="diplomacy", owners=AXIS_GAINS)
    end_turn(g)
    assert g.state.winner == "Axis"
    ended = [e for e in g.log.entries[-1].events if e.type == "game_ended"]
    assert ended and getattr(ended[0], "rule_id", "") == "AARHE-MODE-city"
    # the same board in total mode plays on
    g = scenario(RULES, nation=RUS, phase="diplomacy", owners=AXIS_GAINS, options={"victory_mode": "total"})
    end_turn(g)
    assert g.state.winner is None and g.state.round == 2


@pytest.mark.rule("AARHE-MODE-total")
def test_total_victory_needs_every_territory_but_the_uncontrolled_neutrals() -> None:
    options = {"victory_mode": "total"}
    g = scenario(RULES, nation=RUS, phase="diplomacy", options=options)
    everything = {t: GER for t in g.state.owners}
    assert "Sweden" not in everything  # still neutral
    found = winner(options, everything)
    assert found is not None and found[0] == "Axis" and found[2] == "AARHE-MODE-total"
    assert winner(options, {**everything, "Alaska": "United States"}) is None
    g = scenario(RULES, nation=RUS, phase="diplomacy", owners=everything, options=options)
    assert total_winner(g.ruleset, g.state) == "Axis"
    # off in city mode: every territory is not a win unless the cities are
    assert winner({"victory_mode": "city"}, everything)[0] == "Axis"  # type: ignore[index]


@pytest.mark.rule("AARHE-MODE-economic-bid")
def test_the_higher_bid_of_rounds_takes_the_axis_and_sets_the_length() -> None:
    assert round_bid({"Ann": 8, "Bob": 10}) == ("Bob", 10)
    assert round_bid({"Ann": 12, "Bob": 10}) == ("Ann", 12)
    with pytest.raises(IllegalAction, match="bid again"):
        round_bid({"Ann": 9, "Bob": 9})
    assert round_bid({"Ann": 9, "Bob": 9}, {"Ann": 9, "Bob": 11}) == ("Bob", 11)
    rolls = iter([4, 4, 2, 5])
    assert round_bid({"Ann": 9, "Bob": 9}, {"Ann": 9, "Bob": 9}, lambda: next(rolls)) == ("Bob", 9)
    with pytest.raises(IllegalAction, match="at least 1 round"):
        round_bid({"Ann": 0, "Bob": 3})
    # the winning bid is the game's length
    assert load_ruleset(RULES, {"victory_mode": "economic", "economic_rounds": 8}).options["economic_rounds"] == 8
    with pytest.raises(MalformedInput):
        load_ruleset(RULES, {"economic_rounds": 0})


@pytest.mark.rule("AARHE-MODE-economic-end")
def test_after_the_last_round_the_majority_of_territory_ipcs_wins() -> None:
    options = {"victory_mode": "economic", "economic_rounds": 3}
    g = scenario(RULES, nation=RUS, phase="diplomacy", options=options, round=3)
    values = territory_values(g.ruleset, g.state)
    assert sum(values.values()) == sum(g.ruleset.board.spaces[t].ipc for t in g.state.owners)
    leader = max(values, key=lambda s: values[s])
    assert winner(options, round_=2) is None  # before the last round nothing is decided, even on a lead
    found = winner(options, round_=3)
    assert found is not None and found[0] == leader and found[2] == "AARHE-MODE-economic-end"
    # 70 to 96 at the start: with Washington and Moscow the Axis hold 90 against 76 and win
    axis_up = {"Eastern United States": GER, "Russia": GER}
    assert territory_values(g.ruleset, scenario(RULES, owners=axis_up).state) == {"Axis": 90, "Allies": 76}
    assert winner(options, axis_up, round_=3) == ("Axis", "economic victory: 90 IPCs (Axis) to 76 (Allies)",
                                                  "AARHE-MODE-economic-end")
    tie = {"Russia": GER, "Caucasus": GER, "Persia": GER}  # 83 each
    assert winner(options, tie, round_=3) == ("draw", "economic victory: a tie at 83 IPCs each",
                                              "AARHE-MODE-economic-end")
    # the game ends at the end of the bid round, with the mode's rule
    g = scenario(RULES, nation=RUS, phase="diplomacy", options={**options, "economic_rounds": 1})
    end_turn(g)
    assert g.state.winner == leader
