"""Small positions the bots' tests share: Germany's combat move beside Karelia, a battle after one round."""

from __future__ import annotations

from aare.actions import EndPhase, Fight, Move
from aare.ai.bot import Bot
from aare.engine import Game
from aare.scenario import scenario

EAST, KARELIA = "Eastern Europe", "Karelia S.S.R."


def combat_move(units: dict[str, str]) -> Game:
    """Germany's combat move on a cleared board: 4 infantry at home and `units`."""
    return scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True,
                    units={"Germany": "Germany: 4 infantry", **units})


def moves_into(game: Game, bot: Bot, target: str) -> list[Move]:
    """The moves the bot makes into `target` before it ends the phase (each applied)."""
    found = []
    for _ in range(50):
        action = bot.choose(game)
        if isinstance(action, EndPhase):
            break
        if isinstance(action, Move) and action.path[-1] == target:
            found.append(action)
        game.apply(action)
    return found


def battle_after_one_round(dice: list[int], bot: Bot) -> Game:
    """Germany's 3 infantry attack 2 Russian infantry; the scripted dice decide the first round."""
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True, dice=dice,
                    units={"Germany": "Germany: 2 infantry", EAST: "Germany: 3 infantry",
                           KARELIA: "Russia: 2 infantry"})
    game.apply(Move(units="3 infantry", path=[EAST, KARELIA]))
    game.apply(EndPhase())
    game.apply(Fight(space=KARELIA))
    while game.state.pending is not None and game.state.pending["kind"] != "press_or_retreat":
        game.apply(bot.choose(game))
    return game
