"""AARHE unit values (module `aarhe_unit_values`): the seed's unit table where it differs from Revised (destroyer
10 IPCs, move 3, 2/2; carrier move 3, 1/1 and two hits; battleship 20 IPCs), a carrier's defence rising by one
per aircraft aboard (`naval_values.fire_groups`), and damaged battleships and carriers repaired at the start of
their owner's turn only in a sea zone next to a friendly industrial complex or victory city (AARHE-UNIT-table,
AARHE-UNIT-carrier, AARHE-UNIT-capital-ship-repair).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.board.units import UnitCatalogue
from aare.events import UnitsChanged
from aare.movement.graph import graph_of
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.victory import cities_on
from aare.state.game_state import GameState

R_TABLE = "AARHE-UNIT-table"
R_CARRIER = "AARHE-UNIT-carrier"
R_REPAIR = "AARHE-UNIT-capital-ship-repair"

REPAIRS = "repairs"  # the tag of units LHTR repairs at the end of every turn (none here)
VALUES: dict[str, dict[str, Any]] = {
    "destroyer": {"cost": 10, "move": 3, "attack": 2, "defense": 2},
    "carrier": {"cost": 16, "move": 3, "attack": 1, "defense": 1, "hits": 2},
    "battleship": {"cost": 20, "move": 2, "attack": 4, "defense": 4, "hits": 2},
}


def _units(catalogue: UnitCatalogue, **_: Any) -> UnitCatalogue:
    """AARHE-UNIT-table: the seed's values; battleships and carriers take two hits and are not repaired at every
    turn's end (AARHE-UNIT-capital-ship-repair)."""
    changes: dict[str, dict[str, Any]] = {}
    for unit, values in VALUES.items():
        if unit not in catalogue:
            continue
        tags = set(catalogue[unit].tags) - {REPAIRS}
        if values.get("hits", 1) > 1:
            tags.add("two_hit")
        changes[unit] = {**values, "tags": tags}
    return catalogue.with_overrides(changes)


def bases(state: GameState, ruleset: Ruleset, power: str) -> set[str]:
    """Territories `power`'s side holds with an industrial complex or a victory city (where its damaged units are
    repaired)."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    return {t for t, owner in state.owners.items() if board.side_of(owner) == side and board.spaces[t].is_land and (
        t in cities_on(ruleset.board) or any(units[s.unit].has("factory") for s in state.stacks(t)))}


def ports(state: GameState, ruleset: Ruleset, power: str) -> set[str]:
    """Sea zones next to a territory of `power`'s side with an industrial complex or a victory city."""
    graph = graph_of(ruleset.board)
    return {z for t in bases(state, ruleset, power) for z in graph.sea_nbrs.get(t, ())}


class Repairs(PhaseExtension):
    """AARHE-UNIT-capital-ship-repair: as the power's turn begins, its damaged battleships and carriers in a sea
    zone next to a friendly industrial complex or victory city are set upright."""

    name = "purchase"

    def on_enter(self, ctx: TurnContext) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        found = ports(state, ruleset, power)
        for zone in sorted(found):
            for stack in state.stacks(zone):
                if stack.owner == power and stack.damage and ruleset.units[stack.unit].hits > 1:
                    ctx.emit(UnitsChanged(zone, stack, replace(stack, damage=0)))


AARHE_UNIT_VALUES = register_module(
    RuleModule(
        id="aarhe_unit_values",
        title="AARHE unit values: destroyers, carriers with two hits and their aircraft's defence, repairs in port",
        rule_ids=(R_TABLE, R_CARRIER, R_REPAIR),
        hooks={"unit_catalogue": _units, "phase_actions": by_phase(Repairs())},
    )
)
