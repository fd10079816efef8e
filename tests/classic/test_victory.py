"""Classic victory, checked when the United States end their turn: capitals (the Axis two of the three Allied ones,
the Allies both Axis ones, each side holding its own), the Axis economic level of 84, no Allied economic victory
unless chosen, and no power ever eliminated."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.rulesets.classic.modules import side_income
from aare.scenario import scenario

RULES = "classic-2e"
CAPITALS = {"Russia", "Germany", "United Kingdom", "Japan", "East US"}


def end_of_turn(power: str, owners: dict[str, str], **kw: Any) -> Game:
    """`power` ends its turn (from collect income) with `owners` changed."""
    game = scenario(RULES, nation=power, phase="collect-income", owners=owners, **kw)
    game.apply({"type": "end_phase"})
    return game


def worth(game: Game, owners: tuple[str, ...], value: int) -> list[str]:
    """Non-capital territories of `owners` at the start worth exactly `value` together."""
    board = game.ruleset.board
    ways: dict[int, list[str]] = {0: []}
    for name in sorted(board.owners):
        ipc = board.spaces[name].ipc
        if board.owners[name] in owners and name not in CAPITALS and ipc:
            ways.update({total + ipc: [*picked, name] for total, picked in list(ways.items()) if total + ipc
                         not in ways})
    return ways[value]


@pytest.mark.rule("CL-VICTORY-axis-military", "CL-VICTORY-check-end-of-round")
def test_the_axis_win_with_two_allied_capitals_at_the_end_of_the_round() -> None:
    game = end_of_turn("United States", {"Russia": "Germany", "East US": "Japan"})
    assert game.state.winner == "Axis"
    game = end_of_turn("United States", {"Russia": "Germany", "United Kingdom": "Germany"})
    assert game.state.winner == "Axis"


@pytest.mark.rule("CL-VICTORY-axis-military")
def test_one_allied_capital_or_a_lost_axis_capital_does_not_win() -> None:
    game = end_of_turn("United States", {"Russia": "Germany"})
    assert game.state.winner is None and (game.state.round, game.state.nation) == (2, "Russia")
    game = end_of_turn("United States", {"Russia": "Germany", "East US": "Japan", "Japan": "United Kingdom"})
    assert game.state.winner is None


@pytest.mark.rule("CL-VICTORY-allied-military")
def test_the_allies_win_with_both_axis_capitals_while_holding_their_own() -> None:
    game = end_of_turn("United States", {"Germany": "United Kingdom", "Japan": "United States"})
    assert game.state.winner == "Allies"
    game = end_of_turn("United States", {"Germany": "United Kingdom"})
    assert game.state.winner is None
    game = end_of_turn("United States", {"Germany": "United Kingdom", "Japan": "United States", "Russia": "Germany"})
    assert game.state.winner is None


@pytest.mark.rule("CL-VICTORY-check-end-of-round", "CL-VICTORY-axis-military")
def test_a_condition_met_mid_round_and_undone_before_its_end_does_not_win() -> None:
    game = end_of_turn("Germany", {"Russia": "Germany", "United Kingdom": "Germany"})
    assert game.state.winner is None and game.state.nation == "United Kingdom"
    liberated = replace(game.state, owners={**game.state.owners, "United Kingdom": "United Kingdom"},
                        nation="United States", phase="collect-income")
    game = Game(GameLog(liberated))
    game.apply({"type": "end_phase"})
    assert game.state.winner is None and (game.state.round, game.state.nation) == (2, "Russia")


@pytest.mark.rule("CL-VICTORY-axis-economic", "CL-VICTORY-check-end-of-round")
def test_the_axis_win_at_an_income_level_of_84() -> None:
    start = scenario(RULES)
    assert side_income(start.ruleset, start.state, "Axis") == 57
    for value, winner in ((27, "Axis"), (26, None)):
        taken = worth(start, ("United Kingdom", "United States"), value)
        game = end_of_turn("United States", dict.fromkeys(taken, "Germany"), banks={"Germany": 0, "Japan": 0})
        assert game.state.winner == winner, value
    # mid-round the level does not count
    game = end_of_turn("Japan", dict.fromkeys(worth(start, ("United Kingdom", "United States"), 27), "Japan"))
    assert game.state.winner is None and game.state.nation == "United States"


@pytest.mark.rule("CL-VICTORY-axis-economic")
def test_the_level_is_income_not_treasuries() -> None:
    game = end_of_turn("United States", {}, banks={"Germany": 100, "Japan": 100})
    assert game.state.winner is None


@pytest.mark.rule("CL-VICTORY-allied-economic-off")
def test_no_allied_economic_victory_unless_chosen() -> None:
    start = scenario(RULES)
    taken = dict.fromkeys(worth(start, ("Germany", "Japan"), 30), "United Kingdom")
    game = end_of_turn("United States", taken)
    assert side_income(game.ruleset, game.state, "Allies") == 120 and game.state.winner is None
    game = end_of_turn("United States", taken, options={"allied_economic_victory": 110})
    assert game.state.winner == "Allies"


@pytest.mark.rule("CL-VICTORY-no-elimination")
def test_a_power_with_nothing_left_still_takes_its_turn() -> None:
    start = scenario(RULES)
    russian = [t for t, o in start.ruleset.board.owners.items() if o == "Russia"]
    game = end_of_turn("United States", dict.fromkeys(russian, "Germany"),
                       clear=[s for s, stacks in start.state.units.items() if any(u.owner == "Russia" for u in stacks)])
    assert game.state.winner is None
    assert (game.state.round, game.state.nation, game.state.phase) == (2, "Russia", "develop-weapons")
    phases = []
    while game.state.nation == "Russia":
        phases.append(game.state.phase)
        game.apply({"type": "end_phase"})
    assert phases == ["develop-weapons", "purchase", "combat-move", "conduct-combat", "non-combat-move", "mobilize",
                      "collect-income"]
    assert game.state.nation == "Germany" and game.state.banks["Russia"] == 24  # no income
