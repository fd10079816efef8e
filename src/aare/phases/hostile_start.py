"""Ships that left a hostile start zone in combat move may finish their turn in non-combat move instead (a phase
extension for rulesets that allow it, e.g. AARe and Anniversary Enhanced).

The core makes a ship that starts in a hostile sea zone leave it in combat move or fight there (the move marks it
`turn:withdrew`) and keeps a ship that moved in combat move out of non-combat move. With this extension, a ship
that stopped in the first zone it entered (one space moved) and neither unloaded nor bombarded sheds its combat
mark when non-combat move begins, so it may move on, and a transport may load and unload. One that went further
in combat move has finished its turn there.
"""

from __future__ import annotations

from aare.events import UnitsChanged
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext

FIRST_ZONE = 1  # movement spent by leaving into the first zone
BOMBARDED = "turn:bombarded"  # a ship that bombarded has taken part in combat


class FinishInNonCombatMove(PhaseExtension):
    """Non-combat move: ships that only left their hostile start zone may complete their turn now."""

    name = "hostile-zone-release"

    def on_enter(self, ctx: TurnContext) -> None:
        units = ctx.ruleset.units
        for space, stacks in sorted(ctx.state.units.items()):
            for stack in stacks:
                if (stack.owner == ctx.power and units[stack.unit].domain == "sea"
                        and flags.has(stack, flags.WITHDREW) and flags.has(stack, flags.COMBAT)
                        and stack.moved == FIRST_ZONE and flags.value(stack, flags.UNLOADED) is None
                        and not flags.has(stack, BOMBARDED)):
                    ctx.emit(UnitsChanged(space, stack, flags.with_flags(stack, drop=[flags.COMBAT])))


FINISH = FinishInNonCombatMove()
