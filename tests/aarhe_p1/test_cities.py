"""AARHE Phase 1 victory cities: seven a nation, 5/3/2/2/1/1/1 points, each in a territory its nation holds."""

from __future__ import annotations

from collections import Counter

import pytest

from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe_p1.cities import CITIES, side_points
from tests.aarhe_p1.common import GER, JAP, RULES, RUS, UK, US

# (nation, city, points, territory) as the proposal lists them
TABLE = [
    (RUS, "Moscow", 5, "Russia"), (RUS, "Stalingrad", 3, "Caucasus"), (RUS, "Leningrad", 2, "Karelia S.S.R."),
    (RUS, "Novosibirsk", 2, "Novosibirsk"), (RUS, "Archangel", 1, "Archangel"), (RUS, "Almaty", 1, "Kazakh S.S.R."),
    (RUS, "Vladivostok", 1, "Buryatia S.S.R."),
    (GER, "Berlin", 5, "Germany"), (GER, "Rome", 3, "Southern Europe"), (GER, "Paris", 2, "Western Europe"),
    (GER, "Kiev", 2, "Ukraine S.S.R."), (GER, "Warsaw", 1, "Eastern Europe"), (GER, "Oslo", 1, "Norway"),
    (GER, "Kursk", 1, "West Russia"),
    (UK, "London", 5, "United Kingdom"), (UK, "Toronto", 3, "Eastern Canada"), (UK, "Calcutta", 2, "India"),
    (UK, "Sydney", 2, "Australia"), (UK, "Cairo", 1, "Anglo Egypt"), (UK, "Damascus", 1, "Trans-Jordan"),
    (UK, "Cape Town", 1, "Union of South Africa"),
    (JAP, "Tokyo", 5, "Japan"), (JAP, "Changchun", 3, "Manchuria"), (JAP, "Shanghai", 2, "Kwantung"),
    (JAP, "Singapore", 2, "French Indochina"), (JAP, "Manila", 1, "Philipine Islands"),
    (JAP, "Guadalcanal", 1, "Solomon Islands"), (JAP, "Milne Bay", 1, "New Guinea"),
    (US, "Washington", 5, "Eastern United States"), (US, "Los Angeles", 3, "Western United States"),
    (US, "Chicago", 2, "Central United States"), (US, "Chongqing", 2, "China"), (US, "Ürümqi", 1, "Sinkiang"),
    (US, "Honolulu", 1, "Hawaiian Islands"), (US, "Sao Paulo", 1, "Brazil"),
]


@pytest.mark.rule("AARHEP1-VC-table")
def test_the_board_holds_the_proposals_victory_cities_each_where_its_nation_starts() -> None:
    ruleset = load_ruleset(RULES)
    board = ruleset.board
    state = new_game(RULES).state
    assert len(CITIES) == len(TABLE) == 35
    for nation, name, vcp, territory in TABLE:
        found = CITIES[board.resolve(territory)]
        assert (found.name, found.points, found.nation) == (name, vcp, nation)
        assert state.owners[board.resolve(territory)] == nation
    assert ruleset.victory_cities() == {t: c.name for t, c in CITIES.items()}


@pytest.mark.rule("AARHEP1-VC-structure", "AARHEP1-VC-table")
def test_every_nation_has_seven_cities_worth_fifteen_and_the_axis_start_with_30_of_75() -> None:
    for nation in (RUS, GER, UK, JAP, US):
        mine = [c for c in CITIES.values() if c.nation == nation]
        assert sorted((c.points for c in mine), reverse=True) == [5, 3, 2, 2, 1, 1, 1]
        assert Counter(c.category for c in mine) == {"capital": 1, "major": 1, "moderate": 2, "minor": 3}
    assert sum(c.points for c in CITIES.values()) == 75
    assert side_points(load_ruleset(RULES), new_game(RULES).state) == {"Axis": 30, "Allies": 45}
