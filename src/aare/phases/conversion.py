"""Units changing hands by a rule (a Lend-Lease conversion): one power's units standing in a space become
another's, their damage and cargo kept."""

from __future__ import annotations

from aare.errors import IllegalAction
from aare.events import Event, UnitsAdded, UnitsRemoved
from aare.movement import flags
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack


def convert_stacks(state: GameState, space: str, unit: str, n: int, giver: str, taker: str, rule: str,
                   name: str = "", short_rule: str = "") -> list[Event]:
    """`n` of `giver`'s `unit` standing in `space` become `taker`'s (ships with their cargo and damage), under
    `rule`; IllegalAction naming `short_rule` (else `rule`) when `giver` has fewer there. The giver's techs and
    advantages no longer apply to them."""
    stacks = [s for s in state.stacks(space) if s.owner == giver and s.unit == unit]
    if sum(s.count for s in stacks) < n:
        raise IllegalAction(f"{giver} has fewer than {n} {name or unit} in {space}", short_rule or rule)
    events: list[Event] = []
    left = n
    for stack in stacks:
        take = min(left, stack.count)
        if not take:
            continue
        left -= take
        keep = tuple(f for f in stack.flags if f.startswith(flags.CARGO))
        events.append(UnitsRemoved(space, stack.with_count(take), rule))
        events.append(UnitsAdded(space, Stack(taker, unit, take, damage=stack.damage, flags=keep), rule))
    return events
