"""AARHE sea transport (module `aarhe_sea_transport`): land units carried by a transport are loaded and put ashore
in the same turn (AARHE-SEATRANS-same-turn). Non-combat move does not end while a power's land units aboard a
transport at sea could still go ashore; those that cannot (their transport where no unload is possible) are lost as
the phase ends. Lend-lease IPCs aboard are not land units (AARHE-LENDLEASE-route)."""

from __future__ import annotations

from aare.errors import AareError, IllegalAction
from aare.events import UnitsAdded, UnitsRemoved
from aare.movement import flags
from aare.movement.situation import Situation
from aare.movement.transport import unload_events
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_SAME_TURN = "AARHE-SEATRANS-same-turn"
# a transport whose cargo stayed aboard when its landing failed: it keeps the cargo into its owner's next turn
# (AARHE-AMPHIB-offload-condition)
STAYED_ABOARD = "turn:stayed-aboard"


def aboard(ctx: TurnContext) -> list[tuple[str, Stack]]:
    """The transports (sea zone, stack) holding land units of `ctx.power` (but those whose landing failed this
    turn)."""
    return [(space, s) for space, stacks in sorted(ctx.state.units.items()) for s in stacks
            if ctx.ruleset.units[s.unit].domain == "sea" and any(o == ctx.power for o, _ in flags.cargo(s))
            and not flags.has(s, STAYED_ABOARD)]


def can_go_ashore(view: Situation, sea: str, stack: Stack) -> bool:
    """Whether some land unit of the mover aboard `stack` in `sea` may be put ashore now."""
    for owner, unit in flags.cargo(stack):
        if owner != view.power:
            continue
        for territory in view.graph.coast[sea]:
            try:
                unload_events(view, False, sea, territory, {unit: 1})
            except AareError:
                continue
            return True
    return False


class UnloadBeforeTurnEnds(PhaseExtension):
    """Non-combat move ends only once the power's land units aboard transports are ashore, or cannot get there."""

    name = "non-combat-move"

    def can_end(self, ctx: TurnContext) -> None:
        view = Situation(ctx.state, ctx.ruleset, ctx.power)
        ready = sorted({sea for sea, stack in aboard(ctx) if can_go_ashore(view, sea, stack)})
        if ready:
            raise IllegalAction(f"land units are still aboard transports in {', '.join(ready)}: they must go ashore "
                                f"this turn", R_SAME_TURN)

    def on_exit(self, ctx: TurnContext) -> None:
        """Land units that could not go ashore are lost: their transports leave the game loaded and come back
        without them."""
        for sea, stack in aboard(ctx):
            kept = [(o, u) for o, u in flags.cargo(stack) if o != ctx.power]
            ctx.emit(UnitsRemoved(sea, stack, R_SAME_TURN), UnitsAdded(sea, flags.with_cargo(stack, kept), R_SAME_TURN))


AARHE_SEA_TRANSPORT = register_module(
    RuleModule(
        id="aarhe_sea_transport",
        title="AARHE sea transport: loaded and unloaded in one turn",
        rule_ids=(R_SAME_TURN,),
        hooks={"phase_actions": by_phase(UnloadBeforeTurnEnds())},
    )
)
