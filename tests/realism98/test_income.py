"""Enhanced Realism '98 income: counted at the beginning of the turn, unspent IPCs lost, nothing to capture,
bombing losses taken off the next count; held neutrals worth 1."""

from __future__ import annotations

import pytest

from aare.economy.capture import capture_territory_events
from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.summary import income
from aare.engine import Game
from aare.events import BankChanged, UnitDamaged, apply_events
from aare.game_log import GameLog
from aare.game_setup import new_game
from tests.realism98.common import CLASSIC, REALISM, at


def end(game: Game) -> None:
    game.apply({"type": "end_phase"})


def bank_events(game: Game) -> list[BankChanged]:
    return [e for e in game.log.entries[-1].events if isinstance(e, BankChanged)]


@pytest.mark.rule("REAL98-INCOME-start-of-turn")
def test_income_is_counted_as_the_turn_begins_with_no_starting_treasury() -> None:
    game = Game(new_game(REALISM))
    assert game.ruleset.phase_table()[0].name == "collect-income"
    assert (game.state.nation, game.state.phase) == ("Russia", "collect-income")
    # the first power's count is its starting treasury; the others count when their turns begin
    assert game.state.banks == {"Russia": 24, "Germany": 0, "United Kingdom": 0, "Japan": 0, "United States": 0}
    while game.state.nation == "Russia":
        end(game)
    assert (game.state.nation, game.state.phase) == ("Germany", "collect-income")
    assert game.state.banks["Germany"] == 32
    # the classic game collects at the end of the turn instead
    base = Game(new_game(CLASSIC))
    assert [p.name for p in base.ruleset.phase_table()][-1] == "collect-income"


@pytest.mark.rule("REAL98-INCOME-start-of-turn")
def test_a_capture_counts_at_the_start_of_the_next_turn_not_at_the_end_of_this_one() -> None:
    # Germany took Karelia S.S.R. (3) this turn: nothing is collected as its turn ends
    game = at("Germany", "mobilize", {}, owners={"Karelia S.S.R.": "Germany"}, banks={"Germany": 0}, clear=False)
    end(game)
    assert game.state.banks["Germany"] == 0
    assert (game.state.nation, game.state.phase) == ("United Kingdom", "collect-income")
    # as Germany's next turn begins (the United States' mobilize ends the round) it counts 32 + 3
    kept = at("United States", "mobilize", {}, owners={"Karelia S.S.R.": "Germany"}, clear=False)
    while kept.state.nation != "Germany":
        end(kept)
    assert kept.state.phase == "collect-income"
    assert kept.state.banks["Germany"] == 35
    # Russia retook it in between: 32
    lost = at("United States", "mobilize", {}, clear=False)
    while lost.state.nation != "Germany":
        end(lost)
    assert lost.state.banks["Germany"] == 32


@pytest.mark.rule("REAL98-INCOME-no-savings")
def test_unspent_ipcs_are_lost_at_the_end_of_the_turn() -> None:
    # the United Kingdom had 30 and spent 27: the 3 left are lost as mobilize ends
    game = at("United Kingdom", "mobilize", {}, banks={"United Kingdom": 3}, clear=False)
    end(game)
    lost = [e for e in game.log.entries[-1].events if isinstance(e, BankChanged) and e.power == "United Kingdom"]
    assert [(e.delta, e.rule_id) for e in lost] == [(-3, "REAL98-INCOME-no-savings")]
    assert game.state.banks["United Kingdom"] == 0
    # its next count starts from 0
    while game.state.nation != "United Kingdom":
        end(game)
    assert game.state.banks["United Kingdom"] == 30
    base = at("United Kingdom", "mobilize", {}, banks={"United Kingdom": 3}, rules=CLASSIC, clear=False)
    end(base)
    assert base.state.banks["United Kingdom"] > 3  # the base saves it (and collects at the end)


@pytest.mark.rule("REAL98-INCOME-no-capture")
def test_capturing_a_capital_captures_no_ipcs() -> None:
    game = Game(new_game(REALISM))
    while game.state.nation == "Russia":
        end(game)
    assert game.state.banks["Russia"] == 0  # nothing saved, so nothing to take
    state = game.state
    events = capture_territory_events(state, game.ruleset, "Russia", "Germany")
    assert not [e for e in events if isinstance(e, BankChanged)]
    after = apply_events(state, events)
    assert after.owners["Russia"] == "Germany"
    assert after.banks["Germany"] == state.banks["Germany"] == 32


def _bombed(game: Game, territory: str, points: int) -> Game:
    stack = complex_stack(game.state, game.ruleset, territory)
    assert stack is not None
    return Game(GameLog(apply_events(game.state, [UnitDamaged(territory, stack, points, "test")])))


@pytest.mark.rule("REAL98-INCOME-bombing-deduction")
def test_bombing_losses_come_off_the_next_count_and_are_then_cleared() -> None:
    game = _bombed(at("United States", "mobilize", {}, clear=False), "Germany", 4)
    while game.state.nation != "Germany":
        end(game)
    assert game.state.banks["Germany"] == 32 - 4
    cleared = [e for e in game.log.entries[-1].events if isinstance(e, UnitDamaged)]
    assert [(e.space, e.points, e.rule_id) for e in cleared] == [("Germany", -4, "REAL98-INCOME-bombing-deduction")]
    assert complex_damage(game.state, game.ruleset, "Germany") == 0
    # the losses do not lower what the complex places meanwhile, and cannot be repaired
    bombed = _bombed(at("Germany", "purchase", {}, clear=False, banks={"Germany": 20}), "Germany", 4)
    assert not [a for a in bombed.legal_actions() if a.type == "repair"]


@pytest.mark.rule("REAL98-NEUTRAL-value")
def test_a_neutral_held_by_a_major_power_is_worth_one() -> None:
    game = at("United States", "mobilize", {}, owners={"Spain": "Germany", "Sweden": "Germany"}, clear=False)
    while game.state.nation != "Germany":
        end(game)
    assert game.state.banks["Germany"] == 32 + 2
    base = at("Germany", "mobilize", {}, owners={"Spain": "Germany"}, rules=CLASSIC, clear=False)
    assert income(base.state, base.ruleset, "Germany") == 32  # the base: a neutral is worth nothing
