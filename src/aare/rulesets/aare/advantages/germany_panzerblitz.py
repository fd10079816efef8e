"""Panzerblitz (seed NATIONAL ADVANTAGES / GERMANY 3): German armour that survives a battle the attackers won in
its first cycle may move one territory in non-combat move.

A battle "won in one cycle" ended with the attacker's win in cycle 1 (conduct-combat records how each battle
ended); taking an empty territory, or one with only an AA gun or complex, counts (the battle ends at once). The
armour may have used all its movement in combat move and may have landed from the sea. The extra move is an
ordinary non-combat move otherwise: one territory, into friendly territory. At the start of non-combat move the
armour of each such battle is counted (`extra["panzerblitz"]`); each Panzerblitz move uses up as many of them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from typing import Any

from aare.events import ExtraSet, UnitsChanged
from aare.movement import flags
from aare.movement.move_checks import Leg, Violation, not_committed, within_allowance
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conduct_combat import combat_record
from aare.rulesets.aare.advantages.base import in_force
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

GERMANY = "Germany"
PB = "panzerblitz"
KEY = "panzerblitz"  # state.extra: {"round", "eligible": {territory: armour}, "used": {territory: armour}}
R_MOVE = "AARE-NA-GER-pb-bonus-move"
R_FULL = "AARE-NA-GER-pb-after-full-move"
R_EMPTY = "AARE-NA-GER-pb-empty-or-aa-ic"
R_AMPHIBIOUS = "AARE-NA-GER-pb-amphibious"


def _armour(ruleset: Any, stack: Stack) -> bool:
    return stack.owner == GERMANY and ruleset.units[stack.unit].has("blitz") and flags.has(stack, flags.COMBAT)


def won_at_once(state: GameState) -> list[str]:
    """Territories whose battle this turn the German attackers won in the first cycle."""
    ended: Mapping[str, Any] = combat_record(state).get("ended") or {}
    return sorted(space for space, how in ended.items()
                  if "|" not in space and how.get("result") == "attacker" and how.get("cycle") == 1
                  and state.owners.get(space) == GERMANY)


def record(state: GameState) -> dict[str, Any]:
    raw = state.extra.get(KEY)
    if isinstance(raw, Mapping) and raw.get("round") == state.round and state.nation == GERMANY:
        return {"round": raw["round"], "eligible": dict(raw.get("eligible") or {}), "used": dict(raw.get("used") or {})}
    return {"round": state.round, "eligible": {}, "used": {}}


def left(state: GameState, territory: str) -> int:
    """Armour in `territory` that may still make the Panzerblitz move."""
    rec = record(state)
    return int(rec["eligible"].get(territory, 0)) - int(rec["used"].get(territory, 0))


def may_blitz_on(leg: Leg) -> bool:
    """A one-territory non-combat move of German armour that fought in a battle won in its first cycle."""
    state = leg.view.state
    return (not leg.combat and leg.cost == 1 and state.nation == GERMANY and in_force(state, GERMANY, PB)
            and _armour(leg.view.ruleset, leg.stack) and left(state, leg.start) >= leg.stack.count)


def _unless_panzerblitz(check: Callable[[Leg], Violation | None]) -> Callable[[Leg], Violation | None]:
    def wrapped(leg: Leg) -> Violation | None:
        return None if may_blitz_on(leg) else check(leg)

    wrapped.__name__ = check.__name__
    wrapped.__doc__ = f"{check.__doc__ or check.__name__} Panzerblitz armour may make its one move ({R_MOVE})."
    return wrapped


WRAPPED = {not_committed: _unless_panzerblitz(not_committed), within_allowance: _unless_panzerblitz(within_allowance)}


def move_checks(checks: list[Any], **_: Any) -> list[Any]:
    """AARE-NA-GER-pb-after-full-move, -pb-amphibious: the armour's spent movement and its landing from the sea do
    not stop the Panzerblitz move."""
    return [WRAPPED.get(check, check) for check in checks]


def movement_left(found: int, view: Any, stack: Stack, space: str | None = None, **_: Any) -> int:
    """Panzerblitz armour has one territory left in non-combat move (for the moves offered)."""
    state = view.state
    if space is None or state.phase != "non-combat-move" or state.nation != GERMANY or not in_force(state, GERMANY, PB):
        return found
    if _armour(view.ruleset, stack) and left(state, space) >= 1:
        return max(found, 1)
    return found


class PanzerblitzMoves(PhaseExtension):
    """Non-combat move: count the armour of the battles won in one cycle, and what each Panzerblitz move uses."""

    name = "non-combat-move"

    def on_enter(self, ctx: TurnContext) -> None:
        state, units = ctx.state, ctx.ruleset.units
        eligible = {}
        for space in won_at_once(state):
            n = sum(s.count for s in state.stacks(space) if _armour(ctx.ruleset, s) and units[s.unit].domain == "land")
            if n:
                eligible[space] = n
        if eligible:  # a battle against nothing, or only an AA gun or complex, ends in cycle 1 too (R_EMPTY)
            ctx.emit(ExtraSet(KEY, {"round": state.round, "eligible": eligible, "used": {}}, R_MOVE))

    def after(self, ctx: TurnContext, action: Any) -> None:
        if action.type != "move":
            return
        rec = record(ctx.state)
        if not rec["eligible"]:
            return
        used = dict(rec["used"])
        for event in _moves(ctx.events):
            if event.to_space and _armour(ctx.ruleset, event.before) and event.space in rec["eligible"] \
                    and event.before.moved + 1 == event.after.moved:
                used[event.space] = int(used.get(event.space, 0)) + event.before.count
        if used != rec["used"]:
            rule = R_AMPHIBIOUS if any(flags.value(e.before, flags.AMPHIBIOUS) for e in _moves(ctx.events)) else R_FULL
            ctx.emit(ExtraSet(KEY, {**rec, "used": used}, rule))


def _moves(events: Iterable[Any]) -> list[UnitsChanged]:
    return [e for e in events if isinstance(e, UnitsChanged) and e.to_space]


PANZERBLITZ_MOVES = PanzerblitzMoves()


def phase_actions(found: list[Any], phase: str, state: GameState, **_: Any) -> list[Any]:
    if phase == "non-combat-move" and state.nation == GERMANY and in_force(state, GERMANY, PB):
        return [*found, PANZERBLITZ_MOVES]
    return found
