"""Strategic victory in Anniversary Enhanced: 14 victory cities or 8 national objectives, checked at the end of the
United States' and China's turn (the end of the round)."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import GameEnded
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aa50e.modules import objectives_by_side
from aare.scenario import scenario

GER, SOV, JPN, UK, ITA, US = "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States"
RULES = "aa50e-1941"
# the Axis hold 14 cities (6 at the start of 1941)
AXIS_14 = {"Russia": GER, "Karelia S.S.R.": GER, "Caucasus": GER, "India": JPN, "Australia": JPN,
           "Kwangtung": JPN, "Philippine Islands": JPN, "Hawaiian Islands": JPN}
# every Axis objective met (Germany 3, Japan 3, Italy 2) with 10 cities
AXIS_8 = {"Baltic States": GER, "East Poland": GER, "Belorussia": GER, "Karelia S.S.R.": GER,
          "Manchuria": JPN, "Kiangsu": JPN, "French Indo-China Thailand": JPN, "Kwangtung": JPN, "East Indies": JPN,
          "Borneo": JPN, "Philippine Islands": JPN, "India": JPN,
          "Egypt": ITA, "Trans-Jordan": ITA, "Gibraltar": ITA, "Balkans": ITA, "Morocco Algeria": ITA, "Libya": ITA}
# Soviet Union 2, United Kingdom 3, United States 3 objectives with the 12 cities the Allies start with
ALLIES_8 = {"Norway": SOV, "Finland": SOV, "Balkans": SOV, "Okinawa": UK}


def end_of(power: str, owners: dict[str, str], **kw: Any) -> Game:
    """`power` ends its 1941 turn (from collect income) on an empty board with the territories held as given."""
    game = scenario(RULES, nation=power, phase="collect-income", clear=True, owners=owners, **kw)
    game.apply({"type": "end_phase"})
    return game


def ended_by(game: Game) -> GameEnded:
    return next(e for e in game.log.entries[-1].events if isinstance(e, GameEnded))


@pytest.mark.rule("AA50E-VICTORY-cities-14")
@pytest.mark.parametrize("rules", ["aa50e-1941", "aa50e-1942"])
def test_fourteen_cities_for_either_side_and_no_level_to_choose(rules: str) -> None:
    ruleset = load_ruleset(rules)
    assert ruleset.modify("victory_thresholds", {}) == {"Axis": 14, "Allies": 14}
    assert len(ruleset.victory_cities()) == 18
    assert "victory_cities" not in {o.key for o in ruleset.spec.option_specs}


@pytest.mark.rule("AA50E-VICTORY-cities-14")
def test_fourteen_cities_win_only_when_held_at_the_end_of_the_us_and_china_turn() -> None:
    after_japan = end_of(JPN, AXIS_14)
    assert after_japan.state.winner is None and after_japan.state.nation == UK
    thirteen = end_of(US, {**AXIS_14, "Hawaiian Islands": US})  # the US retook Hawaii before the round ended
    assert thirteen.state.winner is None and (thirteen.state.round, thirteen.state.nation) == (2, GER)
    won = end_of(US, AXIS_14)
    assert won.state.winner == "Axis"
    assert (ended_by(won).reason, ended_by(won).rule_id) == ("victory cities", "AA50E-VICTORY-cities-14")
    assert won.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over: Axis won"):
        won.apply({"type": "end_phase"})


@pytest.mark.rule("AA50E-VICTORY-objectives-8")
def test_eight_objectives_summed_over_the_side_win_at_the_end_of_the_round() -> None:
    game = end_of(US, AXIS_8)
    assert game.state.winner == "Axis"
    assert (ended_by(game).reason, ended_by(game).rule_id) == ("national objectives", "AA50E-VICTORY-objectives-8")
    # Italy down to one objective (Trans-Jordan and Gibraltar British again): 7 in all
    seven = {**AXIS_8, "Trans-Jordan": UK, "Gibraltar": UK}
    probe = scenario(RULES, clear=True, owners=seven)
    assert objectives_by_side(probe.ruleset, probe.state)["Axis"] == 7
    assert end_of(US, seven).state.winner is None
    # met during the round but not at its end: no win
    assert end_of(ITA, AXIS_8).state.winner is None
    # without its capital a power's objectives do not count (AA50-NO-capital-required)
    assert end_of(US, {**AXIS_8, "Italy": UK}).state.winner is None


@pytest.mark.rule("AA50E-VICTORY-objectives-8", "AA50E-VICTORY-two-paths")
def test_the_allies_win_by_objectives_with_their_twelve_cities() -> None:
    probe = scenario(RULES, clear=True, owners=ALLIES_8)
    assert objectives_by_side(probe.ruleset, probe.state) == {"Axis": 2, "Allies": 8}
    game = end_of(US, ALLIES_8)
    assert game.state.winner == "Allies" and ended_by(game).reason == "national objectives"
    # national objectives switched off: that path is closed
    off = end_of(US, ALLIES_8, options={"national_objectives": False})
    assert off.state.winner is None


@pytest.mark.rule("AA50E-VICTORY-two-paths")
def test_either_condition_suffices_and_the_cities_are_named_first() -> None:
    both = {**AXIS_8, **AXIS_14}  # 14 cities and 8 objectives at once: the cities are the reason recorded
    probe = scenario(RULES, clear=True, owners=both)
    assert objectives_by_side(probe.ruleset, probe.state)["Axis"] >= 8
    game = end_of(US, both)
    assert game.state.winner == "Axis" and ended_by(game).rule_id == "AA50E-VICTORY-cities-14"
    cities_only = end_of(US, AXIS_14)
    assert cities_only.state.winner == "Axis"
    assert end_of(US, {}).state.winner is None  # the 1941 start: neither
