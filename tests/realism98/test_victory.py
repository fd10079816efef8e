"""Enhanced Realism '98 victory: only a surrender ends the game; a power without its capital still collects and
spends (with a complex); elimination at the start of a turn with no units and no complex; an eliminated power's
territories stay with the ally that liberates them."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.economy.capture import capture_territory_events
from aare.engine import Game
from aare.events import ControlChanged, apply_events
from aare.game_log import GameLog
from aare.state.unit_stacks import Stack
from tests.movement.helpers import rejected
from tests.realism98.common import CLASSIC, at

AXIS_HOLD = {"Russia": "Germany", "United Kingdom": "Germany"}


def end(game: Game) -> None:
    game.apply({"type": "end_phase"})


def without_units(game: Game, power: str, keep: tuple[str, ...] = ()) -> Game:
    """The position with every unit of `power` gone except those of the unit ids in `keep`."""
    state = game.state
    units = {space: tuple(s for s in stacks if s.owner != power or s.unit in keep) for space, stacks in
             state.units.items()}
    return Game(GameLog(replace(state, units={k: v for k, v in units.items() if v})))


@pytest.mark.rule("REAL98-VICTORY-surrender")
def test_only_a_surrender_ends_the_game() -> None:
    # the Axis hold two Allied capitals and more than 84 IPCs of income as the round ends: play goes on
    game = at("United States", "mobilize", {}, owners=AXIS_HOLD, clear=False)
    end(game)
    assert game.state.winner is None
    assert (game.state.round, game.state.nation) == (2, "Russia")
    base = at("United States", "collect-income", {}, owners=AXIS_HOLD, rules=CLASSIC, clear=False)
    end(base)
    assert base.state.winner == "Axis"
    # a side surrenders: the other wins
    game.apply({"type": "concede", "power": "Germany"})
    assert game.state.winner == "Allies"
    assert game.log.entries[-1].events[-1].rule_id == "REAL98-VICTORY-surrender"


@pytest.mark.rule("REAL98-VICTORY-capital-loss", "REAL98-VICTORY-income-conditions")
def test_a_power_without_its_capital_collects_and_spends() -> None:
    # the United Kingdom lost London but keeps India's complex
    game = at("Russia", "mobilize", {}, owners={"United Kingdom": "Germany"}, clear=False)
    while game.state.nation != "United Kingdom":
        end(game)
    assert game.state.banks["United Kingdom"] == 30 - 8
    end(game)  # collect income
    end(game)  # develop weapons
    game.apply({"type": "purchase", "units": "2 infantry"})
    assert game.state.banks["United Kingdom"] == 22 - 6
    base = at("United Kingdom", "purchase", {}, owners={"United Kingdom": "Germany"}, rules=CLASSIC, clear=False,
              banks={"United Kingdom": 20})
    rejected(base, {"type": "purchase", "units": "2 infantry"}, "CL-ECON-no-income-without-capital")


@pytest.mark.rule("REAL98-VICTORY-income-conditions")
def test_without_a_complex_income_is_counted_but_cannot_be_spent() -> None:
    game = without_units(at("United States", "mobilize", {}, clear=False, banks={"Russia": 0}), "Russia",
                         keep=("infantry",))
    while game.state.nation != "Russia":
        end(game)
    assert game.state.banks["Russia"] == 24
    end(game)
    end(game)
    rejected(game, {"type": "purchase", "units": "1 infantry"}, "REAL98-VICTORY-income-conditions", "no industrial")
    while game.state.phase != "mobilize":
        end(game)
    end(game)
    assert game.state.banks["Russia"] == 0  # lost at the end of the turn


@pytest.mark.rule("REAL98-VICTORY-elimination")
def test_no_units_and_no_complex_at_turn_start_eliminates_for_good() -> None:
    game = without_units(at("Germany", "mobilize", {}, clear=False), "Japan")
    assert any(owner == "Japan" for owner in game.state.owners.values())  # Japan still holds territory
    while game.state.nation in ("Germany", "United Kingdom"):
        end(game)
    assert game.state.nation == "United States"  # Japan's turn was skipped
    assert game.state.extra["eliminated"] == ["Japan"]
    # a Japanese unit appearing later (e.g. a liberation) does not revive it
    state = game.state
    revived = Game(GameLog(state.with_stacks("Japan", (*state.stacks("Japan"), Stack("Japan", "infantry", 1)))))
    while not (revived.state.round == 3 and revived.state.nation == "Russia"):
        end(revived)
        assert revived.state.nation != "Japan"


@pytest.mark.rule("REAL98-VICTORY-elimination")
@pytest.mark.parametrize("keep", [("factory",), ("infantry",)])
def test_a_complex_or_a_unit_keeps_a_power_in_the_game(keep: tuple[str, ...]) -> None:
    game = without_units(at("United Kingdom", "mobilize", {}, clear=False), "Japan", keep=keep)
    end(game)
    assert (game.state.nation, game.state.phase) == ("Japan", "collect-income")
    assert "eliminated" not in game.state.extra


@pytest.mark.rule("REAL98-VICTORY-liberated-by-ally")
def test_an_eliminated_powers_territory_goes_to_the_liberating_ally() -> None:
    game = at("United States", "conduct-combat", {}, owners={"India": "Japan"}, clear=False,
              extra={"eliminated": ["United Kingdom"]})
    events = capture_territory_events(game.state, game.ruleset, "India", "United States")
    control = [e for e in events if isinstance(e, ControlChanged)]
    assert [(e.space, e.owner, e.rule_id) for e in control] == [
        ("India", "United States", "REAL98-VICTORY-liberated-by-ally")]
    assert apply_events(game.state, events).owners["India"] == "United States"
    # a power still in the game gets its territory back as usual
    alive = at("United States", "conduct-combat", {}, owners={"India": "Japan"}, clear=False)
    assert apply_events(alive.state, capture_territory_events(alive.state, alive.ruleset, "India",
                                                              "United States")).owners["India"] == "United Kingdom"
