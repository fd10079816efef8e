"""Hypothesis strategies for states and event logs over the real Revised board."""

from __future__ import annotations

from hypothesis import strategies as st

from aare.events import (
    BankChanged,
    ControlChanged,
    DiceRolled,
    Event,
    ExtraSet,
    PhaseEntered,
    TechGained,
    UnitsAdded,
    UnitsChanged,
    UnitsRemoved,
)
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

RULESET = load_ruleset("lhtr-1.3")
BOARD = RULESET.board
POWERS = [p.name for p in BOARD.powers]
LAND = [s.name for s in BOARD.land() if not s.neutral]
SPACES = list(BOARD.spaces)

stacks = st.builds(
    Stack,
    owner=st.sampled_from(POWERS),
    unit=st.sampled_from(RULESET.units.ids),
    count=st.integers(1, 30),
    damage=st.integers(0, 1),
    moved=st.integers(0, 3),
    flags=st.lists(st.sampled_from(["submerged", "amphibious", "bought"]), unique=True).map(
        lambda f: tuple(sorted(f))
    ),
)


@st.composite
def event_for(draw: st.DrawFn, state: GameState) -> Event:
    """One event that applies cleanly to `state`."""
    kinds = ["add", "phase", "control", "bank", "dice", "tech", "extra"]
    occupied = [s for s, group in state.units.items() if group]
    if occupied:
        kinds += ["remove", "change"]
    kind = draw(st.sampled_from(kinds))
    if kind == "add":
        return UnitsAdded(draw(st.sampled_from(SPACES)), draw(stacks))
    if kind == "remove" or kind == "change":
        space = draw(st.sampled_from(occupied))
        stack = draw(st.sampled_from(list(state.units[space])))
        part = stack.with_count(draw(st.integers(1, stack.count)))
        if kind == "remove":
            return UnitsRemoved(space, part)
        after = Stack(part.owner, part.unit, part.count, part.damage, draw(st.integers(0, 3)), part.flags)
        return UnitsChanged(space, part, after, draw(st.sampled_from(["", *SPACES])))
    if kind == "phase":
        return PhaseEntered(draw(st.integers(1, 20)), draw(st.sampled_from(POWERS)),
                            draw(st.sampled_from([p.name for p in RULESET.phase_table()])))
    if kind == "control":
        return ControlChanged(draw(st.sampled_from(LAND)), draw(st.sampled_from(POWERS)))
    if kind == "bank":
        power = draw(st.sampled_from(POWERS))
        delta = draw(st.integers(-state.banks.get(power, 0), 60))
        return BankChanged(power, delta, "test")
    if kind == "dice":
        values = tuple(draw(st.lists(st.integers(1, 6), min_size=1, max_size=8)))
        return DiceRolled("test", values, 6, state.dice.counter + len(values))
    if kind == "tech":
        return TechGained(draw(st.sampled_from(POWERS)), draw(st.sampled_from(["jet_fighters", "rockets"])))
    return ExtraSet(draw(st.sampled_from(["treaty", "d_day"])), draw(st.sampled_from(["active", 3, None])))
