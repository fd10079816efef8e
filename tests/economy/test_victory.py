"""Victory: twelve cities, a level chosen before play, checked only at the end of a round; nothing else wins."""

from __future__ import annotations

import pytest

from aare.economy.capture import capture_territory_events
from aare.economy.summary import victory_cities_held
from aare.engine import Game
from aare.errors import IllegalAction
from aare.scenario import scenario
from tests.economy.helpers import end

AXIS_NINE = {"Russia": "Germany", "Karelia S.S.R.": "Germany", "India": "Japan"}


def by_side(game: Game) -> dict[str, int]:
    state, ruleset = game.state, game.ruleset
    out: dict[str, int] = {}
    for power, cities in victory_cities_held(state, ruleset).items():
        side = ruleset.board.side_of(power)
        out[side] = out.get(side, 0) + len(cities)
    return out


@pytest.mark.rule("LHTR-VICTORY-cities")
def test_twelve_cities_six_each_at_the_start() -> None:
    game = scenario()
    assert len(game.ruleset.victory_cities()) == 12
    assert by_side(game) == {"Axis": 6, "Allies": 6}
    taken = scenario(owners={"Karelia S.S.R.": "Germany"})
    assert by_side(taken) == {"Axis": 7, "Allies": 5}


@pytest.mark.rule("LHTR-VICTORY-levels")
@pytest.mark.parametrize(("level", "cities", "won"), [(9, 9, True), (9, 8, False), (8, 8, True), (10, 9, False)])
def test_the_chosen_level_decides(level: int, cities: int, won: bool) -> None:
    owners = dict(AXIS_NINE) if cities == 9 else {"Russia": "Germany", "Karelia S.S.R.": "Germany"}
    game = scenario(nation="United States", phase="collect-income", owners=owners, options={"victory_cities": level})
    end(game)
    assert (game.state.winner == "Axis") is won


@pytest.mark.rule("LHTR-VICTORY-check-end-of-round")
def test_holding_the_cities_mid_round_does_not_win() -> None:
    game = scenario(nation="Japan", phase="collect-income", owners=AXIS_NINE)
    end(game)
    assert game.state.winner is None and game.state.nation == "United States"
    game.log.append(None, capture_territory_events(game.state, game.ruleset, "India", "United States"))
    assert game.state.owner("India") == "United Kingdom"  # liberated during the US turn
    end(game, 7)
    assert game.state.winner is None and game.state.round == 2


@pytest.mark.rule("LHTR-VICTORY-no-capital-rule")
def test_capitals_alone_do_not_win() -> None:
    game = scenario(nation="United States", phase="collect-income",
                    owners={"Russia": "Germany", "United Kingdom": "Germany"})
    assert by_side(game)["Axis"] == 8
    end(game)
    assert game.state.winner is None


@pytest.mark.rule("LHTR-VICTORY-no-capital-rule")
@pytest.mark.parametrize("rules", ["lhtr-1.3", "aare-5.0", "aarhe"])
def test_players_may_concede_and_the_other_side_wins(rules: str) -> None:
    game = scenario(rules, nation="Germany", phase="combat-move", round=3)
    assert "concede" not in {a.type for a in game.legal_actions()}  # never offered: bots play on
    game.apply({"type": "concede", "power": "Russia"})  # not Russia's turn: a side may concede at any time
    assert game.state.winner == "Axis"
    ended = [e for e in game.log.entries[-1].events if e.type == "game_ended"]
    assert [(e.winner, e.rule_id) for e in ended] == [("Axis", "LHTR-VICTORY-no-capital-rule")]
    with pytest.raises(IllegalAction, match="game is over"):
        game.apply({"type": "end_phase"})


@pytest.mark.rule("LHTR-VICTORY-check-end-of-round")
def test_a_finished_game_accepts_no_more_actions() -> None:
    game = scenario(nation="United States", phase="collect-income", owners=AXIS_NINE)
    end(game)
    assert game.state.winner == "Axis"
    for action in ({"type": "end_phase"}, {"type": "purchase", "units": "1 infantry"}):
        with pytest.raises(IllegalAction, match="game is over"):
            game.apply(action)
    assert game.legal_actions() == []
