"""A railway (`Railway`): in one phase (non-combat move) a power's units of some types that begin the turn in a
railway territory may move up to `moves` territories, only within the railway territories and only into or
through friendly ones. A rail move is one move, made by a unit that has not moved this turn; a move within the
unit's own allowance is an ordinary move. A rule module plugs `movement_left` and `move_checks` into its hooks.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation, within_allowance
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack


@dataclass(frozen=True)
class Railway:
    """`power`'s railway over `network` for units `units`, with the rule behind each check."""

    power: str
    network: frozenset[str]
    units: frozenset[str]
    move_rule: str  # `moves` territories at most
    network_rule: str  # within the network
    friendly_rule: str  # through friendly territories
    start_rule: str  # from where the unit began the turn, unmoved
    moves: int = 2
    phase: str = "non-combat-move"
    active: Callable[[GameState], bool] = field(default=lambda state: True, compare=False)

    def rail_unit(self, view: Situation, stack: Stack) -> bool:
        """A unit of the railway's power and types, in its phase, with the railway in use."""
        return (stack.owner == self.power == view.power and stack.unit in self.units and view.state.phase == self.phase
                and self.active(view.state))

    def movement_left(self, value: int, view: Situation, stack: Stack, space: str | None = None, **_: Any) -> int:
        """A unit that may ride the railway from where it stands has `moves` moves (a `movement_left` hook)."""
        if space is None or space not in self.network or stack.moved or flags.has(stack, flags.COMBAT):
            return value
        return max(value, self.moves) if self.rail_unit(view, stack) else value

    def rail_route(self, leg: Leg) -> Violation | None:
        """A move longer than a rail unit's own allowance is a rail move: from where it began the turn on the
        network, within the network, through friendly territories only, `moves` territories at most."""
        view, stack = leg.view, leg.stack
        if leg.combat or leg.domain != "land" or not self.rail_unit(view, stack):
            return None
        if leg.cost <= max(0, allowance(view, view.unit(stack), stack.owner) - stack.moved):
            return None
        if leg.start not in self.network or stack.moved or flags.has(stack, flags.COMBAT):
            reason = f"{leg.where}: only units that begin the turn in a railway territory, unmoved, ride the railway"
            return Violation(reason, self.start_rule)
        off = next((s for s in leg.path if s not in self.network), None)
        if off is not None:
            return Violation(f"{off} is not a railway territory ({', '.join(sorted(self.network))})", self.network_rule)
        foreign = next((s for s in leg.path[1:] if not view.friendly_land(s)), None)
        if foreign is not None:
            return Violation(f"the railway runs through friendly territories only, not {foreign}", self.friendly_rule)
        if leg.cost > self.moves:
            reason = f"a rail move covers {self.moves} territories at most, this one {leg.cost}"
            return Violation(reason, self.move_rule)
        return None

    def move_checks(self, checks: list[Check], **_: Any) -> list[Check]:
        """The railway check, before the movement allowance (so that a refused rail move names its rule); a
        `move_checks` hook."""
        out = list(checks)
        names = [getattr(c, "__name__", "") for c in out]  # another rule may have wrapped it
        at = names.index(within_allowance.__name__) if within_allowance.__name__ in names else len(out)
        out.insert(at, self.rail_route)
        return out
