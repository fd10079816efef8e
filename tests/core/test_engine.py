"""The engine's door: phases advance in order, turns and rounds follow the power order, victory is
checked only at the end of a round, illegal or malformed actions change nothing, undo stops at dice."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.errors import IllegalAction, MalformedInput
from aare.events import DiceRolled
from aare.game_log import GameLog
from aare.scenario import scenario

PHASES = ["develop-weapons", "purchase", "combat-move", "conduct-combat", "non-combat-move", "mobilize",
          "collect-income"]
AXIS_NINE = {"Russia": "Germany", "Karelia S.S.R.": "Germany", "India": "Japan"}


def end(game: Game, n: int = 1) -> None:
    for _ in range(n):
        game.apply({"type": "end_phase"})


@pytest.mark.rule("LHTR-TURN-phase-sequence")
def test_phases_follow_the_table_and_cannot_be_revisited(lhtr_game: GameLog) -> None:
    game = Game(lhtr_game)
    seen = [game.state.phase]
    for _ in range(6):
        end(game)
        seen.append(game.state.phase)
    assert seen == PHASES
    with pytest.raises(IllegalAction, match="cannot be revisited"):
        game.undo()


@pytest.mark.rule("LHTR-TURN-power-order")
def test_turns_follow_power_order_and_round_advances_after_us(lhtr_game: GameLog) -> None:
    game = Game(lhtr_game)
    order = []
    for _ in range(5):
        order.append(game.state.nation)
        end(game, 7)
    assert order == ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
    assert (game.state.round, game.state.nation, game.state.phase) == (2, "Russia", "develop-weapons")


@pytest.mark.rule("LHTR-VICTORY-check-end-of-round", "LHTR-VICTORY-levels")
def test_victory_only_at_end_of_round_then_no_more_actions() -> None:
    game = scenario(nation="Japan", phase="collect-income", owners=AXIS_NINE)
    end(game)  # Japan's turn ends: holding 9 cities mid-round does not win
    assert game.state.winner is None and game.state.nation == "United States"
    end(game, 7)
    assert game.state.winner == "Axis"
    with pytest.raises(IllegalAction, match="game is over"):
        end(game)


@pytest.mark.rule("LHTR-VICTORY-levels")
def test_victory_level_option_is_respected() -> None:
    game = scenario(nation="United States", phase="collect-income", owners=AXIS_NINE,
                    options={"victory_cities": 10})
    end(game)
    assert game.state.winner is None and game.state.round == 2


def test_illegal_and_malformed_actions_change_nothing(lhtr_game: GameLog) -> None:
    game = Game(lhtr_game)
    before = game.state.hash()
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "fight", "space": "Germany"})
    assert err.value.rule_id == "LHTR-TURN-phase-sequence"
    with pytest.raises(MalformedInput):
        game.apply('{"type": "end_phase"')
    with pytest.raises(MalformedInput):
        game.apply({"type": "move", "units": "1 infantry"})
    assert game.state.hash() == before and not game.log.entries


@pytest.mark.rule("LHTR-TURN-all-dice-in-conduct-combat")
def test_undo_never_reaches_past_a_roll(lhtr_game: GameLog) -> None:
    game = Game(lhtr_game)
    game.log.append({"type": "research", "dice": 1}, [DiceRolled("research", (4,), 6, 1)])
    with pytest.raises(IllegalAction, match="dice were rolled"):
        game.undo()
    game.log.append({"type": "purchase", "units": "1 infantry"}, [])
    game.undo()
    assert game.state.version == 1


def test_legal_actions_offer_end_phase(lhtr_game: GameLog) -> None:
    assert Game(lhtr_game).legal_actions()[0].type == "end_phase"
