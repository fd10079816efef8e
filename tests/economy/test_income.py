"""Collect income and the end of a turn: income, no income without the capital, clearing the turn's marks,
battleship repair."""

from __future__ import annotations

import pytest

from aare.events import BankChanged
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.economy.helpers import act, end, with_stack


@pytest.mark.rule("LHTR-ECON-income-sum")
def test_income_counts_territories_captured_this_turn() -> None:
    game = scenario(nation="Germany", phase="mobilize", owners={"Karelia S.S.R.": "Germany", "Anglo Egypt": "Germany"},
                    banks={"Germany": 0})
    events = act(game, {"type": "end_phase"})
    assert game.state.banks["Germany"] == 44
    assert [(e.delta, e.reason) for e in events if isinstance(e, BankChanged)] == [(44, "income")]


@pytest.mark.rule("LHTR-ECON-no-income-capital-lost")
def test_no_income_while_the_capital_is_enemy_held() -> None:
    game = scenario(nation="Russia", phase="mobilize", owners={"Russia": "Germany"}, banks={"Russia": 5})
    act(game, {"type": "end_phase"})
    assert game.state.phase == "collect-income" and game.state.banks["Russia"] == 5
    assert game.state.owner("Caucasus") == "Russia"


@pytest.mark.rule("LHTR-ECON-capitals")
def test_the_five_capitals_are_victory_cities() -> None:
    game = scenario()
    board = game.ruleset.board
    assert board.capitals() == {"Russia": "Russia", "Germany": "Germany", "United Kingdom": "United Kingdom",
                                "Japan": "Japan", "Eastern United States": "United States"}
    assert set(board.capitals()) <= set(game.ruleset.victory_cities())


@pytest.mark.rule("LHTR-NAVALCOMBAT-battleship-repair")
def test_every_damaged_battleship_is_repaired_when_a_turn_ends() -> None:
    game = scenario(nation="United Kingdom", phase="collect-income")
    game = with_stack(game, "SZ 5", Stack("Germany", "battleship", 1, damage=1))
    game = with_stack(game, "SZ 2", Stack("United Kingdom", "battleship", 1, damage=1))
    act(game, {"type": "end_phase"})
    assert game.state.nation == "Japan"
    assert all(s.damage == 0 for st in game.state.units.values() for s in st)


@pytest.mark.rule("LHTR-TURN-phase-sequence")
def test_the_end_of_a_turn_clears_movement_and_turn_flags() -> None:
    game = scenario(nation="Germany", phase="collect-income")
    game = with_stack(game, "Ukraine S.S.R.", Stack("Germany", "armour", 2, moved=2, flags=("turn:blitzed",)))
    game = with_stack(game, "SZ 5", Stack("Germany", "submarine", 1, flags=("submerged", "turn:fought")))
    act(game, {"type": "end_phase"})
    stacks = [s for st in game.state.units.values() for s in st]
    assert all(s.moved == 0 and not any(f.startswith("turn:") for f in s.flags) for s in stacks)
    assert Stack("Germany", "submarine", 1, flags=("submerged",)) in game.state.stacks("SZ 5")


@pytest.mark.rule("LHTR-TURN-all-dice-in-conduct-combat")
def test_no_dice_in_purchase_mobilize_or_income() -> None:
    game = scenario(nation="Russia", phase="develop-weapons")
    end(game)
    act(game, {"type": "purchase", "units": "2 infantry, 1 submarine"})
    end(game, 4)
    act(game, {"type": "place", "units": "2 infantry", "space": "Russia"})
    act(game, {"type": "place", "units": "1 submarine", "space": "SZ 16"})
    end(game, 2)
    assert game.state.nation == "Germany"
    assert not any(e.type == "dice_rolled" for entry in game.log.entries for e in entry.events)
