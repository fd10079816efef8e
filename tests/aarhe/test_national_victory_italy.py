"""Italy's national goals (AARHE-NATVICTORY-ita-*), with the Italy player (option `italy`): Italy chooses three of
its four goals before play as the other powers do; each goal judged on the board and the public record."""

from __future__ import annotations

from typing import Any

import pytest

from aare.errors import AareError
from aare.game_setup import new_game
from aare.player_view import HIDDEN, player_view
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe import diplomacy
from aare.rulesets.aarhe.national_goals import goal_met
from aare.rulesets.aarhe.national_victory import KEY
from aare.state.game_state import GameState
from tests.aarhe.common import GER, JAP, RUS, UK, US, game
from tests.aarhe.test_national_victory import collections, owning

ITA = "Italy"
OPTIONS: dict[str, Any] = {"national_victory": True, "italy": True}
R = "AARHE-NATVICTORY-"


def italy_plays() -> bool:
    try:
        return ITA in [p.name for p in load_ruleset("aarhe", OPTIONS).board.powers]
    except AareError:
        return False


pytestmark = pytest.mark.skipif(not italy_plays(), reason="the Italy player (option italy) is not in this build")


def start() -> GameState:
    return new_game("aarhe", OPTIONS, seed=3).state


def met(state: GameState, goal: str) -> bool:
    return goal_met(load_ruleset("aarhe", OPTIONS), state, ITA, goal)


@pytest.mark.rule(R + "selection")
def test_italy_chooses_three_of_its_four_goals_in_secret() -> None:
    g = game(OPTIONS)
    for power in (RUS, GER, UK, JAP, US):
        assert g.state.nation == power
        g.apply(g.legal_actions()[0])
        g.apply({"type": "end_phase"})
    assert (g.state.round, g.state.nation, g.state.phase) == (0, ITA, "national-goals")
    assert len(g.legal_actions()) == 4
    g.apply({"type": "choose", "option": "novum-imperium, mare-nostrum, tripartite"})
    g.apply({"type": "end_phase"})
    assert g.state.round == 1
    assert player_view(g.state, GER)["extra"][KEY][ITA] == HIDDEN
    assert player_view(g.state, ITA)["extra"][KEY][ITA] == ["novum-imperium", "mare-nostrum", "tripartite"]


@pytest.mark.rule(R + "ita-novum-imperium")
def test_novum_imperium_romanum() -> None:
    state = owning(start(), ITA, "Trans-Jordan", "Anglo Egypt", "Algeria")
    assert met(state, "novum-imperium")  # Spain still neutral
    assert not met(owning(state, GER, "Spain"), "novum-imperium")
    assert met(owning(state, ITA, "Spain"), "novum-imperium")
    assert not met(owning(state, GER, "Balkans"), "novum-imperium")


@pytest.mark.rule(R + "ita-tripartite")
def test_tripartite_pact_looks_at_the_last_collection() -> None:
    assert met(collections(start(), ita=25), "tripartite")
    assert not met(collections(start(), ita=24), "tripartite")
    assert not met(collections(collections(start(), ita=30), ita=20), "tripartite")


@pytest.mark.rule(R + "ita-mare-nostrum")
def test_mare_nostrum() -> None:
    state = owning(start(), ITA, "Gibraltar", "Algeria", "Trans-Jordan", "Anglo Egypt")
    assert met(state, "mare-nostrum")
    assert not met(owning(state, GER, "Gibraltar"), "mare-nostrum")


@pytest.mark.rule(R + "ita-minor-axis-allies")
def test_minor_axis_allies() -> None:
    africa = ("Anglo Egypt", "Belgian Congo", "French Equatorial Africa", "French Madagascar", "French West Africa",
              "Italian East Africa", "Kenya", "Union of South Africa", "Angola", "Mozambique", "Rio De Oro", "Sahara")
    state = owning(owning(start(), GER, *africa), ITA, "Spain", "Turkey")
    assert met(state, "minor-axis-allies")
    assert not met(owning(state, None, "Turkey"), "minor-axis-allies")  # Turkey still neutral
    assert not met(owning(state, UK, "Kenya"), "minor-axis-allies")
    # a neutral at diplomatic position -3 or lower is in the Axis camp too (the ruling)
    neutral = owning(state, None, "Turkey")
    leaning = {"positions": {"Turkey": -3}, "movers": {}, "used": {}}
    assert met(neutral.evolve(extra={**neutral.extra, diplomacy.RECORD: leaning}), "minor-axis-allies")
    leaning = {"positions": {"Turkey": -2}, "movers": {}, "used": {}}
    assert not met(neutral.evolve(extra={**neutral.extra, diplomacy.RECORD: leaning}), "minor-axis-allies")


@pytest.mark.rule(R + "ita-novum-imperium")
@pytest.mark.rule(R + "ger-lebensraum")
@pytest.mark.rule(R + "uk-contain-communism")
def test_on_the_italy_map_southern_europe_in_a_goal_is_italy_and_southern_europe() -> None:
    state = owning(start(), ITA, "Trans-Jordan", "Anglo Egypt", "Algeria")
    assert not met(owning(state, UK, "Italy"), "novum-imperium")
    rules = load_ruleset("aarhe", OPTIONS)
    assert goal_met(rules, start(), GER, "lebensraum")  # Italy's own territories count for Germany
    assert not goal_met(rules, owning(start(), UK, "Italy"), GER, "lebensraum")
    allied = owning(start(), UK, "Western Europe", "Southern Europe", "Norway")
    assert not goal_met(rules, allied, UK, "contain-communism")
    assert goal_met(rules, owning(allied, US, "Italy"), UK, "contain-communism")
