"""Where the bots' aircraft land (`aare.ai.landing`), and `greedy` placing every unit of a step split one by one."""

from __future__ import annotations

import pytest

from aare.actions import EndPhase, Fight, Move
from aare.ai import GreedyBot, PlannerBot
from aare.ai.bot import Bot
from aare.ai.landing import stranded
from aare.economy.pool import PURCHASED, pool
from aare.engine import Game
from aare.movement.situation import situation
from aare.scenario import scenario
from tests.ai.positions import EAST, KARELIA
from tests.ai.test_planner_phases import play_phase

WORK = 200


def fighters_in_taken_territory() -> Game:
    """Germany's non-combat move after 2 fighters and 1 infantry took Karelia (1 Russian infantry) this turn:
    the turn begins at the purchase, so the engine knows Karelia was Russian when it began."""
    game = scenario("lhtr-1.3", nation="Germany", phase="purchase", clear=True, dice=[1, 1, 1, 6],
                    units={"Germany": "Germany: 2 infantry, 2 fighters", EAST: "Germany: 1 infantry",
                           KARELIA: "Russia: 1 infantry"})
    while game.state.phase != "combat-move":
        game.apply(EndPhase())
    game.apply(Move(units="1 infantry", path=[EAST, KARELIA]))
    game.apply(Move(units="2 fighters", path=["Germany", EAST, KARELIA]))
    game.apply(EndPhase())
    game.apply(Fight(space=KARELIA))  # three hits against one miss: Karelia is taken
    while game.state.phase != "non-combat-move":
        game.apply(EndPhase())
    return game


def fighters(game: Game, space: str) -> int:
    return sum(s.count for s in game.state.units.get(space, ()) if s.owner == "Germany" and s.unit == "fighter")


def test_fighters_in_a_territory_taken_this_turn_are_stranded() -> None:
    game = fighters_in_taken_territory()
    assert game.state.owners[KARELIA] == "Germany"
    assert not situation(game.state, game.ruleset, "Germany").held_since_start(KARELIA)
    assert stranded(game.state, game.ruleset, "Germany") == {KARELIA: {"fighter": 2}}


@pytest.mark.parametrize("bot", [GreedyBot(), PlannerBot(work=WORK)], ids=["greedy", "planner"])
def test_bots_fly_stranded_fighters_to_a_territory_held_since_the_turn_began(bot: Bot) -> None:
    game = fighters_in_taken_territory()
    play_phase(game, bot)
    assert stranded(game.state, game.ruleset, "Germany") == {}
    assert fighters(game, KARELIA) == 0
    view = situation(game.state, game.ruleset, "Germany")
    landed = {s: fighters(game, s) for s in game.state.units if fighters(game, s)}
    assert sum(landed.values()) == 2 and all(view.held_since_start(s) for s in landed)
    game.apply(EndPhase())  # the engine's landing check keeps them
    assert sum(fighters(game, s) for s in game.state.units) == 2


def test_greedy_places_every_unit_when_no_complex_takes_them_all() -> None:
    # 14 infantry: the capital's complex places 10, Southern Europe's the other 4, one at a time
    game = scenario("lhtr-1.3", nation="Germany", phase="mobilize",
                    extra={PURCHASED: {"Germany": {"infantry": 14}}})
    before = {s: sum(st.count for st in game.state.units[s] if st.unit == "infantry")
              for s in ("Germany", "Southern Europe")}
    play_phase(game, GreedyBot())
    assert pool(game.state, "Germany") == {}
    after = {s: sum(st.count for st in game.state.units[s] if st.unit == "infantry")
             for s in ("Germany", "Southern Europe")}
    assert after == {"Germany": before["Germany"] + 10, "Southern Europe": before["Southern Europe"] + 4}


def fighters_with_different_moves_left() -> Game:
    """As above, but one fighter came from Western Europe (one move left in Karelia), one from Germany (two)."""
    game = scenario("lhtr-1.3", nation="Germany", phase="purchase", clear=True, dice=[1, 1, 1, 6],
                    units={"Germany": "Germany: 2 infantry, 1 fighter", "Western Europe": "Germany: 1 fighter",
                           EAST: "Germany: 1 infantry", KARELIA: "Russia: 1 infantry"})
    while game.state.phase != "combat-move":
        game.apply(EndPhase())
    game.apply(Move(units="1 infantry", path=[EAST, KARELIA]))
    game.apply(Move(units="1 fighter", path=["Germany", EAST, KARELIA]))
    game.apply(Move(units="1 fighter", path=["Western Europe", "Germany", EAST, KARELIA]))
    game.apply(EndPhase())
    game.apply(Fight(space=KARELIA))
    while game.state.phase != "non-combat-move":
        game.apply(EndPhase())
    return game


@pytest.mark.parametrize("bot", [GreedyBot(), PlannerBot(work=WORK)], ids=["greedy", "planner"])
def test_the_fighter_with_fewer_moves_left_still_finds_a_landing(bot: Bot) -> None:
    game = fighters_with_different_moves_left()
    assert game.state.owners[KARELIA] == "Germany"
    assert stranded(game.state, game.ruleset, "Germany") == {KARELIA: {"fighter": 2}}
    play_phase(game, bot)
    game.apply(EndPhase())
    assert sum(fighters(game, s) for s in game.state.units) == 2
