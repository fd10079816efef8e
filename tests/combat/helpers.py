"""Helpers for combat tests: run a battle with scripted dice and scripted answers."""

from __future__ import annotations

from typing import Any

from aare.combat.engine import advance, decide, start_battle
from aare.combat.events import DiceRolled, Event
from aare.combat.setup import Battle
from aare.dice import ScriptedDice


def play(battle: Battle, dice: list[int], *answers: Any) -> tuple[Battle, list[Event]]:
    """Advance with `dice`, answering pending decisions with `answers` in order; stops when they run out."""
    source = ScriptedDice(dice)
    battle, events = advance(battle, source)
    queue = list(answers)
    while battle.pending is not None and queue:
        battle = decide(battle, queue.pop(0))
        battle, more = advance(battle, source)
        events += more
    assert source.remaining == 0, f"{source.remaining} scripted dice left unused"
    return battle, events


def rolls(events: list[Event], step: str | None = None) -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and (step is None or e.step == step)]


def types(events: list[Event]) -> list[str]:
    return [e.to_json()["type"] for e in events]


def steps(events: list[Event]) -> list[tuple[str, int]]:
    return [(e.step, e.cycle) for e in events if e.to_json()["type"] == "step_entered"]  # type: ignore[attr-defined]


__all__ = ["play", "rolls", "start_battle", "steps", "types"]
