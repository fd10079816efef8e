"""The value of a position for a side, and of a territory to whoever holds it.

Unit value (cost of the units on the board, buildings excepted), income (the ruleset's `income` and
`income_bonuses` hooks through `aare.economy.summary.income`), victory cities (the `victory_cities` hook) and the
capitals held; `victory_standing` records that name a side count as a bonus."""

from __future__ import annotations

from aare.economy.summary import income
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

CITY_WORTH = 40.0  # IPCs a victory city is worth beyond its income (cities decide games)
CAPITAL_WORTH = 20.0  # IPCs a capital is worth beyond its income (the bank it would lose, its factory)
INCOME_TURNS = 2.0  # a territory's income counted for this many turns


def territory_worth(ruleset: Ruleset, space: str) -> float:
    """What holding `space` is worth in IPCs: its income for a few turns, more for a victory city or capital."""
    board = ruleset.board
    worth = board.spaces[space].ipc * INCOME_TURNS
    if space in ruleset.victory_cities():
        worth += CITY_WORTH
    if space in board.capitals():
        worth += CAPITAL_WORTH
    return worth


def units_value(counts: dict[str, int], ruleset: Ruleset) -> float:
    """The cost of `counts` (unit id -> count)."""
    return float(sum(ruleset.units[u].cost * n for u, n in counts.items()))


def position_value(state: GameState, ruleset: Ruleset, side: str) -> float:
    """A side's position in IPCs: unit value, income for a few turns, victory cities and capitals held, and
    the ruleset's objectives (income bonuses through `income`, victory standing records naming the side)."""
    board, units = ruleset.board, ruleset.units
    powers = [p.name for p in board.powers if board.side_of(p.name) == side]
    value = float(sum(stack.count * units[stack.unit].cost for stacks in state.units.values() for stack in stacks
                      if stack.owner in powers and units[stack.unit].domain != "building"))
    value += INCOME_TURNS * sum(income(state, ruleset, p) for p in powers)
    value += CITY_WORTH * sum(1 for t in ruleset.victory_cities() if state.owners.get(t) in powers)
    value += CAPITAL_WORTH * sum(1 for t in board.capitals() if state.owners.get(t) in powers)
    standing = ruleset.modify("victory_standing", [], state=state)
    value += CITY_WORTH * sum(1 for record in standing if isinstance(record, dict) and record.get("side") == side
                              and record.get("met"))
    return value


def evaluate(state: GameState, ruleset: Ruleset, side: str) -> float:
    """`side`'s position minus its opponents' (the planner maximises this)."""
    sides = {ruleset.board.side_of(p.name) for p in ruleset.board.powers}
    return position_value(state, ruleset, side) - sum(position_value(state, ruleset, s) for s in sides if s != side)
