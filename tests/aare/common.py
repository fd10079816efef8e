"""Shared pieces of the AARe 5.0 tests: battles and board positions under `aare-5.0`, scripted dice."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.combat.battle_state import Side, UnitKey
from aare.combat.engine import apply_answer, roll_with_dice, run
from aare.combat.events import DiceRolled, Event, StepEntered, SubsDetected
from aare.combat.policy import Policy
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.game_log import GameLog
from aare.odds import build_battle
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack

RULES = "aare-5.0"
UK, US, GER, JPN, RUS = "United Kingdom", "United States", "Germany", "Japan", "Russia"


def battle(attacker: Any, defender: Any, kind: str = "sea", **inputs: Any) -> Battle:
    """A battle under AARe 5.0 (units as text, ``{type: n}`` or ``{UnitKey: n}``)."""
    return build_battle(attacker, defender, RULES, kind, **inputs)


def units(owner: str, **counts: int) -> dict[UnitKey, int]:
    """``units(GER, submarine=2)`` -> ``{UnitKey("submarine", "Germany"): 2}``."""
    return {UnitKey(t, owner): n for t, n in counts.items()}


def kaitens(n: int) -> dict[UnitKey, int]:
    return {UnitKey("submarine", JPN, flags=("kaiten",)): n}


def one_cycle(
    b: Battle, dice: Iterable[int], *answers: Any, policy: Policy | None = None, stop: bool = False
) -> tuple[Battle, list[Event]]:
    """Run the current cycle to its end (or the battle's end) with scripted dice; decisions take `answers` in
    order, then the policy (default order of loss, no submerging, press), or with `stop` the run stops at the
    first decision left unanswered. Every die must be used."""
    source = ScriptedDice(list(dice))
    queue = list(answers)
    answer_with = policy or Policy()
    events: list[Event] = []
    start = b.state.cycle
    while not b.state.ended and b.state.cycle == start:
        b, more = run(b, stop_at_cycle_start=True)
        events += more
        if b.state.roll is not None:
            b, more = roll_with_dice(b, source)
            events += more
        elif b.state.pending is not None:
            if stop and not queue:
                break
            b, more = apply_answer(b, queue.pop(0) if queue else answer_with(b, b.state.pending))
            events += more
    assert source.remaining == 0, f"{source.remaining} scripted dice left unused"
    return b, events


first_cycle = one_cycle


def sub_key(owner: str, *flags: str) -> UnitKey:
    return UnitKey("submarine", owner, flags=tuple(flags))


def until_roll(b: Battle, step: str) -> Battle:
    """Run (answering decisions with the default policy) until the step `step` asks for dice."""
    policy = Policy()
    while True:
        b, _ = run(b)
        assert b.state.roll is not None or b.state.pending is not None, "the battle ended first"
        if b.state.roll is not None:
            if b.state.roll.step == step:
                return b
            raise AssertionError(f"{b.state.roll.step} rolls before {step}")
        b, _ = apply_answer(b, policy(b, b.state.pending))


def rolls(events: list[Event], step: str | None = None) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and (step is None or e.step == step)]


def steps(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.step, e.cycle) for e in events if isinstance(e, StepEntered)]


def detections(events: list[Event]) -> dict[str, SubsDetected]:
    return {e.side: e for e in events if isinstance(e, SubsDetected)}


def flagged(b: Battle, side: Side, flag: str = "detected") -> dict[str, int]:
    """Present units of `side` carrying `flag`, by type."""
    out: dict[str, int] = {}
    for key, n in b.state.units(side):
        if key.present and key.has(flag):
            out[key.type] = out.get(key.type, 0) + n
    return out


def present(b: Battle, side: Side) -> dict[str, int]:
    out: dict[str, int] = {}
    for key, n in b.state.units(side):
        if key.present:
            out[key.type] = out.get(key.type, 0) + n
    return out


def position(
    nation: str,
    phase: str,
    placed: Mapping[str, str],
    *,
    owners: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    techs: Mapping[str, Iterable[str]] | None = None,
    stacks: Iterable[tuple[str, Stack]] = (),
    dice: Iterable[int] | None = None,
) -> Game:
    """An empty AARe board with `placed` units ("Power: unit list") and extra flagged `stacks`."""
    game = scenario(RULES, nation=nation, phase=phase, clear=True, units=placed, owners=owners, extra=extra,
                    techs=techs, dice=dice)
    state = game.state
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), game.dice)
