"""Enhanced Realism '98 armour (module `realism_armour`): no blitz in the combat move and the second armour
move (seed "ARMOR AND THE SECOND ARMOR MOVE").

- In the regular combat move armour attacks only a territory adjacent to where it stands (REAL98-ARMOR-adjacent-only).
- After combat comes the second armour move with its own combats, then non-combat move (REAL98-ARMOR-second-move-step;
  the phases are in `armour_phases`): only armour moves in it; a tank that attacked this turn (even if it
  retreated) moves 1 and attacks again (REAL98-ARMOR-veterans-move-one), a tank that has not moved moves 1 or 2 and
  attacks (REAL98-ARMOR-fresh-move-two; blitzing through an empty enemy territory too, unless the option
  `second_armour_move_blitz` is off).
- A tank that attacked without using both of its moves moves 1 in non-combat move (REAL98-ARMOR-noncombat-one).
- A tank carried by sea this turn does not move on its own any more (REAL98-ARMOR-sea-transported).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from aare.movement import flags
from aare.movement.move_checks import Leg, Violation, not_committed
from aare.movement.pathing import blitzed, remaining
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec
from aare.rulesets.classic.realism.armour_phases import (
    ARMOUR_COMBAT,
    ARMOUR_MOVE,
    ARMOUR_MOVED,
    R_STEP,
    armour_candidates,
    is_armour,
)
from aare.state.game_state import GameState

R_ADJACENT = "REAL98-ARMOR-adjacent-only"
R_VETERANS = "REAL98-ARMOR-veterans-move-one"
R_FRESH = "REAL98-ARMOR-fresh-move-two"
R_NONCOMBAT = "REAL98-ARMOR-noncombat-one"
R_SEA = "REAL98-ARMOR-sea-transported"
BLITZ_OPTION = "second_armour_move_blitz"
SEABORNE = (flags.AMPHIBIOUS, flags.LANDED)


def _phase_table(phases: list[PhaseSpec], **_: Any) -> list[PhaseSpec]:
    """The second armour move and its combats follow the combat phase (REAL98-ARMOR-second-move-step)."""
    out: list[PhaseSpec] = []
    for spec in phases:
        out.append(spec)
        if spec.name == "conduct-combat":
            out += [PhaseSpec(ARMOUR_MOVE, R_STEP, "Second armour move"),
                    PhaseSpec(ARMOUR_COMBAT, R_STEP, "Second armour combat")]
    return out


def _seaborne(leg: Leg) -> bool:
    return any(flags.value(leg.stack, f) is not None for f in SEABORNE)


def armour_limits(leg: Leg) -> Violation | None:
    """What armour (and, in the armour move, every other unit) may do in each move of a Realism turn."""
    view, stack, phase = leg.view, leg.stack, leg.view.state.phase
    armour = is_armour(view, stack)
    if phase == ARMOUR_MOVE:
        if not armour:
            return Violation(f"only armour moves in the second armour move, not {leg.name}", R_STEP)
        if _seaborne(leg):
            return Violation(f"{leg.where} cannot move: carried by sea this turn", R_SEA)
        if flags.has(stack, ARMOUR_MOVED):
            return Violation(f"{leg.where} has made its second armour move", R_STEP)
        if flags.has(stack, flags.COMBAT) and leg.cost > 1:
            return Violation(f"{leg.where} attacked this turn: it moves 1 territory in the second armour move",
                             R_VETERANS)
        if leg.cost > 1 and blitzed(view, leg.path) and not view.ruleset.options.get(BLITZ_OPTION, True):
            return Violation("armour does not blitz in the second armour move (option second_armour_move_blitz)",
                             R_FRESH)
        return None
    if not armour:
        return None
    if leg.combat:
        if leg.cost > 1 and view.is_land(leg.start):
            return Violation(f"armour attacks only an adjacent territory in the combat move ({leg.end} is "
                             f"{leg.cost} away); it may go further in the second armour move", R_ADJACENT)
        return None
    if _seaborne(leg):
        return Violation(f"{leg.where} cannot move: carried by sea this turn", R_SEA)
    if flags.has(stack, flags.COMBAT):
        if remaining(view, stack, leg.start) == 0:
            return Violation(f"{leg.where} attacked using both of its moves: it stays", R_NONCOMBAT)
        if leg.cost > 1:
            return Violation(f"{leg.where} attacked this turn: it moves 1 territory in non-combat move", R_NONCOMBAT)
    return None


def _may_move_on(leg: Leg) -> bool:
    """Armour in the armour move, or armour that attacked moving on in non-combat move (`armour_limits` judged
    both): the core's "moved in combat move" does not hold it."""
    state = leg.view.state
    if not is_armour(leg.view, leg.stack) or _seaborne(leg):
        return False
    return state.phase == ARMOUR_MOVE or (not leg.combat and flags.has(leg.stack, flags.COMBAT))


def _unless_armour(check: Callable[[Leg], Violation | None]) -> Callable[[Leg], Violation | None]:
    def wrapped(leg: Leg) -> Violation | None:
        return None if _may_move_on(leg) else check(leg)

    wrapped.__name__ = check.__name__
    wrapped.__doc__ = f"{check.__doc__ or check.__name__} Armour moves on in the second armour move ({R_STEP}) " \
        f"and after attacking in non-combat move ({R_NONCOMBAT})."
    return wrapped


def _move_checks(checks: list[Any], **_: Any) -> list[Any]:
    """`armour_limits` first; the core's `not_committed` (as an earlier module may have wrapped it, keeping its
    name) lets armour move on."""
    return [armour_limits, *(_wrapped(c) if getattr(c, "__name__", "") == not_committed.__name__ else c
                             for c in checks)]


_WRAPPED: dict[Callable[[Leg], Violation | None], Callable[[Leg], Violation | None]] = {}


def _wrapped(check: Callable[[Leg], Violation | None]) -> Callable[[Leg], Violation | None]:
    found = _WRAPPED.get(check)
    if found is None:
        found = _WRAPPED[check] = _unless_armour(check)
    return found


class NonCombatArmour(PhaseExtension):
    """Non-combat move: the moves of armour that attacked and has a move left (the core offers none for units
    that moved in combat)."""

    name = "non-combat-move"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        return armour_candidates(ctx, space, False, 1, only=flags.COMBAT)


NON_COMBAT_ARMOUR = NonCombatArmour()


def _phase_actions(found: list[Any], phase: str, state: GameState, **_: Any) -> list[Any]:
    return [*found, NON_COMBAT_ARMOUR] if phase == "non-combat-move" else found


MODULE = register_module(
    RuleModule(
        id="realism_armour",
        title="Enhanced Realism '98 armour",
        rule_ids=(R_ADJACENT, R_STEP, R_VETERANS, R_FRESH, R_NONCOMBAT, R_SEA),
        hooks={
            "phase_table": _phase_table,
            "move_checks": _move_checks,
            "phase_actions": _phase_actions,
        },
        options=(
            OptionSpec(
                key=BLITZ_OPTION,
                type=bool,
                default=True,
                help="whether armour that has not moved may blitz through an empty enemy territory in the second "
                "armour move (the seed says only 'move one or two and attack')",
                rule_id=R_FRESH,
            ),
        ),
    )
)
