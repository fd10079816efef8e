"""Classic mobilisation (part of module `classic`): what each complex may produce and where new units go.

- A complex of the starting set-up in a territory held by its original owner places any number of units; a
  complex built during the game, or one held by another power than the territory's original owner (captured),
  places at most the territory's IPC value a turn (CL-MOBILIZE-production-limits, a `production` effect; with the
  option `starting_complexes_unlimited` off, or replaced by a later module, every complex is limited).
- New fighters go to the complex's territory, never onto carriers at sea (CL-MOBILIZE-new-fighters-not-on-carriers).
- New ships go to a sea zone next to the complex that holds no enemy ship; the printed optional rule
  `naval_placement_in_enemy_zones` lets them in (CL-MOBILIZE-naval-adjacent).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from aare.actions import Place
from aare.board.board import Board
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Context, Effect

R_LIMITS = "CL-MOBILIZE-production-limits"
R_FIGHTERS = "CL-MOBILIZE-new-fighters-not-on-carriers"
R_NAVAL = "CL-MOBILIZE-naval-adjacent"
ENEMY_ZONES = "naval_placement_in_enemy_zones"
UNLIMITED_START = "starting_complexes_unlimited"
UNLIMITED = 1000  # a starting complex's capacity: more units than any treasury buys


@cache
def starting_complexes(board: Board) -> frozenset[str]:
    """The territories where an industrial complex stands in the board's starting set-up."""
    return frozenset(g.space for g in board.setup if g.units.get("factory"))


def _original_complex(context: Context) -> bool:
    """The complex was there at the start of the game and its territory is held by its original owner (while the
    option `starting_complexes_unlimited` is in the ruleset and on)."""
    territory, ruleset = context.get("territory"), context.get("ruleset")
    if territory is None or ruleset is None or not ruleset.options.get(UNLIMITED_START, False):
        return False
    board = ruleset.board
    return territory in starting_complexes(board) and context.get("power") == board.spaces[territory].owner


EFFECTS = (Effect("production", "*", "set", UNLIMITED, R_LIMITS, "complex of the starting set-up",
                  _original_complex),)


class ClassicPlacement(PhaseExtension):
    """Mobilize: no new aircraft at sea, no new ships beside enemy ships (unless the optional rule allows it)."""

    name = "classic-placement"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            return
        ruleset = ctx.ruleset
        board, units = ruleset.board, ruleset.units
        space = board.resolve(action.space)
        if not board.spaces[space].is_sea:
            return
        if any(units[u].domain == "air" for u in parse_units(action.units, units)):
            raise IllegalAction(f"new aircraft are placed in the territory of the complex, not at sea in {space}",
                                R_FIGHTERS)
        if ruleset.options.get(ENEMY_ZONES, False):
            return
        side = board.side_of(ctx.power)
        if any(board.side_of(s.owner) != side and units[s.unit].domain == "sea" for s in ctx.state.stacks(space)):
            raise IllegalAction(f"{space} holds enemy ships: new units cannot be placed there", R_NAVAL)


CLASSIC_PLACEMENT = ClassicPlacement()
