"""Capture: plunder of a capital, liberation, the capital's return, infrastructure changing hands."""

from __future__ import annotations

import pytest

from aare.economy.capture import capture_territory_events
from aare.economy.production import producers
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import apply_events
from aare.invariants import check_step
from aare.scenario import scenario
from aare.state.game_state import GameState


def capture(game: Game, territory: str, power: str) -> GameState:
    events = capture_territory_events(game.state, game.ruleset, territory, power)
    after = apply_events(game.state, events)
    assert check_step(game.state, events, after) == []
    return after


@pytest.mark.rule("LHTR-ECON-capital-capture-plunder")
def test_capturing_a_capital_takes_the_whole_treasury_for_good() -> None:
    game = scenario(nation="Germany", phase="conduct-combat", banks={"Russia": 10, "Germany": 3})
    state = capture(game, "Russia", "Germany")
    assert (state.banks["Russia"], state.banks["Germany"]) == (0, 13) and state.owner("Russia") == "Germany"
    back = scenario(nation="Russia", phase="conduct-combat", owners={"Russia": "Germany"}, banks={"Germany": 13})
    state = capture(back, "Russia", "Russia")
    assert state.owner("Russia") == "Russia" and (state.banks["Russia"], state.banks["Germany"]) == (24, 13)


@pytest.mark.rule("LHTR-ECON-liberation-to-original-owner")
def test_a_liberated_territory_returns_to_its_original_owner() -> None:
    game = scenario(nation="Russia", phase="conduct-combat", owners={"Persia": "Germany"})
    state = capture(game, "Persia", "Russia")
    assert state.owner("Persia") == "United Kingdom"


@pytest.mark.rule("LHTR-ECON-liberation-capital-lost")
def test_the_liberator_keeps_it_while_the_original_owner_has_lost_its_capital() -> None:
    game = scenario(nation="United States", phase="conduct-combat",
                    owners={"India": "Japan", "United Kingdom": "Japan"})
    state = capture(game, "India", "United States")
    assert state.owner("India") == "United States"


@pytest.mark.rule("LHTR-ECON-capital-liberation-reversion")
def test_a_liberated_capital_brings_back_its_territories() -> None:
    game = scenario(nation="United States", phase="conduct-combat",
                    owners={"United Kingdom": "Germany", "India": "United States", "Persia": "Russia",
                            "Anglo Egypt": "Germany"},
                    units={"India": "United States: 1 aa gun"})
    state = capture(game, "United Kingdom", "United States")
    assert [state.owner(t) for t in ("United Kingdom", "India", "Persia", "Anglo Egypt")] == [
        "United Kingdom", "United Kingdom", "United Kingdom", "Germany"]
    assert {s.owner for s in state.stacks("India") if s.unit == "aa_gun"} == {"United Kingdom"}
    assert {s.owner for s in state.stacks("United Kingdom") if s.unit in ("factory", "aa_gun")} == {"United Kingdom"}


@pytest.mark.rule("LHTR-ECON-infrastructure-captured")
def test_complexes_and_aa_guns_change_hands_and_produce_next_turn() -> None:
    game = scenario(nation="Germany", phase="conduct-combat", clear=["Caucasus"],
                    units={"Caucasus": "Russia: 1 factory, 1 aa gun"})
    state = capture(game, "Caucasus", "Germany")
    assert {(s.owner, s.unit) for s in state.stacks("Caucasus")} == {("Germany", "factory"), ("Germany", "aa_gun")}
    next_turn = scenario(nation="Germany", phase="mobilize", owners={"Caucasus": "Germany"}, clear=["Caucasus"],
                         units={"Caucasus": "Germany: 1 factory, 1 aa gun"})
    assert producers(next_turn.state, next_turn.ruleset, "Germany")["Caucasus"] == 4


@pytest.mark.rule("LHTR-TURN-alliances")
def test_allies_do_not_capture_from_each_other() -> None:
    game = scenario(nation="United States", phase="conduct-combat")
    with pytest.raises(IllegalAction):
        capture_territory_events(game.state, game.ruleset, "India", "United States")
    assert capture_territory_events(game.state, game.ruleset, "Eastern United States", "United States") == []
