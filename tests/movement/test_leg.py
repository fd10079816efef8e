"""`Leg`, the value every move check looks at: immutable, equal to another leg of the same fields, its unit type
looked up once (or given by a caller that has it)."""

from __future__ import annotations

from dataclasses import FrozenInstanceError

import pytest

from aare.game_setup import new_game
from aare.movement.move_checks import Leg
from aare.movement.situation import situation
from aare.rules.ruleset import load_ruleset
from aare.state.unit_stacks import Stack


def test_a_leg_is_an_immutable_value() -> None:
    state = new_game("lhtr-1.3", seed=1).state
    ruleset = load_ruleset("lhtr-1.3", {})
    view = situation(state, ruleset)
    stack = next(s for s in view.own("Russia") if s.unit == "infantry")
    path = ("Russia", view.graph.land_nbrs["Russia"][0])
    leg = Leg(view, True, stack, path)
    same = Leg(view, True, stack, path, unit=view.unit(stack))
    assert leg == same and hash(leg) == hash(same) and len({leg, same}) == 1
    assert leg != Leg(view, False, stack, path)
    assert leg != Leg(view, True, stack.with_count(stack.count + 1), path)
    assert (leg.unit, leg.domain, leg.start, leg.end, leg.cost) == (view.unit(stack), "land", "Russia", path[1], 1)
    with pytest.raises(FrozenInstanceError):
        leg.path = ("Russia",)  # type: ignore[misc]


def test_with_count_keeps_every_other_field() -> None:
    stack = Stack("Germany", "fighter", 3, 1, 2, ("combat",))
    assert stack.with_count(1) == Stack("Germany", "fighter", 1, 1, 2, ("combat",))
    assert hash(stack.with_count(1)) == hash(Stack("Germany", "fighter", 1, 1, 2, ("combat",)))
    assert stack.with_count(3) == stack
