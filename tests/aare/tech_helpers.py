"""Shared pieces of the AARe weapons-development tests: games without national advantages (so no declaration
gets in the way), invariant-checked actions, rejected actions with their rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from aare.combat.engine import start_battle
from aare.combat.rules import CombatRules
from aare.combat.sequences import lhtr_sequence
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import DiceRolled, Event
from aare.game_log import GameLog
from aare.invariants import check_step
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack
from tests.aare.common import RULES

NO_NA = {"national_advantages": False}


def game(
    nation: str,
    phase: str,
    placed: Mapping[str, str] | None = None,
    *,
    round: int = 2,
    clear: bool = True,
    stacks: Iterable[tuple[str, Stack]] = (),
    dice: Iterable[int] | None = None,
    options: Mapping[str, Any] | None = None,
    **kwargs: Any,
) -> Game:
    """An AARe position (empty board unless `clear` is off) without national advantages."""
    g = scenario(RULES, nation=nation, phase=phase, round=round, clear=clear, units=placed,
                 options={**NO_NA, **(options or {})}, dice=dice, **kwargs)
    state = g.state
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), g.dice)


def act(g: Game, action: Mapping[str, Any]) -> tuple[Event, ...]:
    """Apply `action`, checking every invariant of the step."""
    before = g.state
    events = g.apply(dict(action))
    assert check_step(before, events, g.state) == []
    return events


def rejected(g: Game, action: Mapping[str, Any], rule_id: str) -> IllegalAction:
    """`action` is refused naming `rule_id`, and nothing changes."""
    before = g.state
    with pytest.raises(IllegalAction) as err:
        g.apply(dict(action))
    assert err.value.rule_id == rule_id, err.value
    assert g.state is before
    return err.value


def with_dice(g: Game, dice: Iterable[int]) -> Game:
    return Game(g.log, ScriptedDice(list(dice)))


def dice_of(events: Iterable[Event]) -> list[tuple[int, ...]]:
    return [tuple(e.values) for e in events if isinstance(e, DiceRolled)]


def end(g: Game, n: int = 1) -> None:
    for _ in range(n):
        act(g, {"type": "end_phase"})


def move(g: Game, units: str, *path: str, raid: bool = False) -> tuple[Event, ...]:
    action: dict[str, Any] = {"type": "move", "units": units, "path": list(path)}
    if raid:
        action["raid"] = True
    return act(g, action)


def raid(attacker: Any, defender: Any, *, options: Mapping[str, Any] | None = None, **inputs: Any) -> Battle:
    """A strategic bombing raid (or rocket strike) under AARe 5.0."""
    rs = load_ruleset(RULES, options)
    rules = rs.modify("combat_rules", CombatRules())
    sequence = rs.modify("combat_sequence", lhtr_sequence("bombing"), kind="bombing")
    return start_battle(attacker, defender, "bombing", units=rs.units, rules=rules, sequence=sequence, **inputs)


def aare_battle(attacker: Any, defender: Any, kind: str = "sea", options: Mapping[str, Any] | None = None,
                **inputs: Any) -> Battle:
    """A battle under AARe 5.0 with game options."""
    from aare.odds import build_battle

    return build_battle(attacker, defender, RULES, kind, options, **inputs)
