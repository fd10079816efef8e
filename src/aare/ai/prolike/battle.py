"""Battle decisions: press or retreat by the description's formula (the others as `greedy` answers them)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.ai.bot import legal_or_stuck
from aare.ai.greedy import side_units
from aare.ai.prolike.odds import Judge, estimate
from aare.ai.prolike.reading import has_factory, units_at, value_of
from aare.engine import Game
from aare.errors import AareError
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def retreats(pending: Mapping[str, Any], state: GameState, ruleset: Ruleset, judge: Judge) -> bool:
    """Whether the attacker retreats: `tuv_swing + win x 2 x production x (1 + factory) x (1 + capital) < 0`
    (Monte Carlo from the battle as it stands), never while the strength estimate is above 50 (unless only
    aircraft are left in a land battle)."""
    battle = "land" if pending.get("battle") == "land" else "sea"
    try:
        attackers = side_units(pending.get("attacker"), ruleset)
        defenders = side_units(pending.get("defender"), ruleset)
    except AareError:
        return False
    if not defenders:
        return False
    only_air = battle == "land" and all(ruleset.units[u].domain == "air" for u in attackers)
    if estimate(attackers, defenders, ruleset) > 50 and not only_air:
        return False
    space = ruleset.board.spaces[str(pending.get("space"))]
    verdict = judge.attack(attackers, defenders, ruleset, battle)
    capital = space.name in ruleset.board.capitals().values()
    worth = 2 * space.ipc * (1 + has_factory(state, ruleset, space.name)) * (1 + capital)
    return verdict.swing + verdict.win * worth < 0


def retreat_to(options: list[Any], state: GameState, ruleset: Ruleset, me: str) -> Any:
    """The capital if it is offered, else the neighbour holding the most of the side's unit value."""
    capital = ruleset.board.capital_of(me)
    side = ruleset.board.side_of(me)
    return max(options, key=lambda a: (a.to == capital and capital is not None,
                                       value_of(units_at(state, ruleset, a.to, side, ours=True), ruleset)
                                       if a.to else 0, a.to))


def press_or_retreat(judge: Judge, game: Game, state: GameState, ruleset: Ruleset, me: str) -> Any:
    """The answer to a press-or-retreat decision: the attacker retreats by `retreats`, else presses on."""
    pending = state.pending or {}
    legal = legal_or_stuck(game)
    press = [a for a in legal if a.type == "press"]
    back = [a for a in legal if a.type == "retreat"]
    if press and back and pending.get("side") == "attacker" and retreats(pending, state, ruleset, judge):
        return retreat_to(back, state, ruleset, me)
    return (press or legal)[0]
