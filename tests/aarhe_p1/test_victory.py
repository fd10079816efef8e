"""AARHE Phase 1 victory: total, major (Axis 45, Allies 55 VCP) or minor (more VCP after the rounds bid), chosen
before the game and checked at the end of each United States turn."""

from __future__ import annotations

from typing import Any

import pytest

from aare.errors import IllegalAction
from aare.game_setup import new_game
from aare.rulesets.aarhe.victory import round_bid
from aare.rulesets.aarhe_p1.victory import victory_by
from tests.aarhe.common import end_phase
from tests.aarhe_p1.common import GER, JAP, RULES, RUS, UK, US, at

SOVIET_CITIES = ["Russia", "Caucasus", "Karelia S.S.R.", "Novosibirsk", "Archangel", "Kazakh S.S.R.",
                 "Buryatia S.S.R."]  # 15 VCP


def winner(owners: dict[str, str], round: int = 2, **options: Any) -> str | None:
    g = at(US, "develop-weapons", owners=owners, round=round, options=options)
    found = victory_by(g.ruleset, g.state)
    return None if found is None else found[0]


def end_of_turn(power: str, owners: dict[str, str], **options: Any) -> str | None:
    """The winner once `power` ends its turn (its last phase) with `owners`."""
    g = at(power, "develop-weapons", owners=owners, options=options)
    end_phase(g)
    return g.state.winner


@pytest.mark.rule("AARHEP1-VICTORY-select")
def test_the_victory_condition_is_one_of_three_chosen_before_the_game() -> None:
    assert new_game(RULES).state is not None
    for mode in ("total", "major", "minor"):
        assert new_game(RULES, {"victory_mode": mode}).state is not None
    with pytest.raises(Exception):  # noqa: B017  (the options' own error)
        new_game(RULES, {"victory_mode": "economic"})
    axis_45 = {**dict.fromkeys(SOVIET_CITIES, GER)}
    assert winner(axis_45, victory_mode="major") == "Axis"
    assert winner(axis_45, victory_mode="total") is None
    assert winner(axis_45, victory_mode="minor", minor_turns=8) is None


@pytest.mark.rule("AARHEP1-VICTORY-major")
def test_major_victory_axis_at_45_and_allies_at_55_at_the_end_of_a_us_turn() -> None:
    assert winner({}) is None  # 30 and 45 at the start
    assert winner(dict.fromkeys(SOVIET_CITIES, GER)) == "Axis"  # 45
    assert winner(dict.fromkeys(SOVIET_CITIES[:-1], GER)) is None  # 44
    assert winner({"Germany": RUS, "Southern Europe": UK, "Western Europe": US}) == "Allies"  # 55
    assert winner({"Germany": RUS, "Southern Europe": UK, "Norway": UK}) is None  # 54
    owners = dict.fromkeys(SOVIET_CITIES, GER)
    assert end_of_turn(JAP, owners) is None  # Japan's turn ends, not the round
    assert end_of_turn(US, owners) == "Axis"


@pytest.mark.rule("AARHEP1-VICTORY-total")
def test_total_victory_needs_every_territory_at_the_end_of_a_us_turn() -> None:
    g = at(US)
    allied = {t: GER for t, owner in g.state.owners.items() if g.ruleset.board.side_of(owner) == "Allies"}
    assert winner(allied, victory_mode="total") == "Axis"
    assert winner({**allied, "Brazil": US}, victory_mode="total") is None
    assert end_of_turn(JAP, allied, victory_mode="total") is None
    assert end_of_turn(US, allied, victory_mode="total") == "Axis"


@pytest.mark.rule("AARHEP1-VICTORY-minor-bid")
def test_minor_victory_the_higher_bid_plays_the_axis_and_ends_the_game_after_its_round() -> None:
    assert round_bid({"Ann": 6, "Bob": 8}) == ("Bob", 8)
    with pytest.raises(IllegalAction):
        round_bid({"Ann": 7, "Bob": 7})
    assert winner({}, round=7, victory_mode="minor", minor_turns=8) is None
    assert winner({}, round=8, victory_mode="minor", minor_turns=8) == "Allies"


@pytest.mark.rule("AARHEP1-VICTORY-minor-majority")
def test_minor_victory_goes_to_the_majority_of_points_at_the_end_not_to_a_threshold_reached_before() -> None:
    axis_38 = {"Russia": GER, "Caucasus": GER, "Archangel": GER}  # 30 + 9 = 39, Allies 36
    assert winner(axis_38, round=8, victory_mode="minor", minor_turns=8) == "Axis"
    axis_50 = dict.fromkeys([*SOVIET_CITIES, "India", "Australia", "China"], JAP)  # 51
    assert winner(axis_50, round=4, victory_mode="minor", minor_turns=8) is None
    assert winner({"Kazakh S.S.R.": GER}, round=8, victory_mode="minor", minor_turns=8) == "Allies"  # 31 to 44
