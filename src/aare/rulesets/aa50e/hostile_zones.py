"""AA50E naval units starting in a hostile sea zone (module `aa50e_hostile_zones`, seed 7).

The Anniversary rules already make such ships leave in combat move or fight there
(AA50-COMBATMOVE-start-in-hostile-sea; AA50E-MOVE-hostile-start-exit-in-combat-move). AA50E lets a ship that left
into a friendly zone complete its turn in either movement phase, not both: one that stopped in the first zone it
entered finishes in non-combat move (a transport loads and unloads then), one that moved on in combat move has
finished its turn (the core's `aare.phases.hostile_start`; AA50E-MOVE-hostile-start-finish-one-phase)."""

from __future__ import annotations

from typing import Any

from aare.movement import flags
from aare.movement.move_checks import Leg, Violation
from aare.phases.hostile_start import FINISH
from aare.rules.rule_module import RuleModule, register_module

R_EXIT = "AA50E-MOVE-hostile-start-exit-in-combat-move"


def leave_in_combat_move(leg: Leg) -> Violation | None:
    """A ship still in the hostile zone it started in, unmoved and without a battle, moves in combat move only."""
    stack, view = leg.stack, leg.view
    if leg.combat or leg.domain != "sea" or stack.moved or flags.has(stack, flags.COMBAT):
        return None
    if not view.hostile(leg.start):
        return None
    return Violation(f"{leg.where} started its turn in a hostile sea zone: it leaves in combat move", R_EXIT)


def _move_checks(checks: list[Any], **_: Any) -> list[Any]:
    return [leave_in_combat_move, *checks]


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    return [*found, FINISH] if phase == "non-combat-move" else found


MODULE = register_module(
    RuleModule(
        id="aa50e_hostile_zones",
        title="Anniversary Edition - Enhanced: naval units starting in hostile sea zones",
        rule_ids=(R_EXIT, "AA50E-MOVE-hostile-start-finish-one-phase"),
        hooks={"phase_actions": _phase_actions, "move_checks": _move_checks},
        requires=("aa50_movement",),
    )
)
