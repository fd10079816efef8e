"""The per-turn record in `state.extra["turn"]`: what the moving power held when its turn began, what it
has mobilised where, and the economic damage each territory has taken this turn."""

from __future__ import annotations

from typing import Any

from aare.events import ExtraSet
from aare.state.game_state import GameState

TURN = "turn"


def turn_record(state: GameState) -> dict[str, Any]:
    """This turn's record; a fresh one (nothing known about the turn's start) if none was made this turn."""
    record = state.extra.get(TURN)
    if isinstance(record, dict) and record.get("round") == state.round and record.get("power") == state.nation:
        return record
    return {"round": state.round, "power": state.nation, "held": None, "placed": {}, "damage": {}}


def start_turn_event(state: GameState) -> ExtraSet | None:
    """The record of a new turn (the territories the moving power holds now), unless it already exists."""
    record = state.extra.get(TURN)
    if isinstance(record, dict) and record.get("round") == state.round and record.get("power") == state.nation:
        return None
    held = sorted(t for t, owner in state.owners.items() if owner == state.nation)
    value = {"round": state.round, "power": state.nation, "held": held, "placed": {}, "damage": {}}
    return ExtraSet(TURN, value, "LHTR-MOBILIZE-not-captured-this-turn")


def turn_update(state: GameState, rule_id: str, **changes: Any) -> ExtraSet:
    """The turn record with some entries replaced."""
    return ExtraSet(TURN, {**turn_record(state), **changes}, rule_id)


def held_since_turn_start(state: GameState, power: str, territory: str) -> bool:
    """Whether `power` controls `territory` now and did when its turn began (captured this turn: no).
    Without a record of the turn's start (a position built mid-turn), control now is taken as enough."""
    if state.owners.get(territory) != power:
        return False
    held = turn_record(state)["held"]
    return held is None or power != state.nation or territory in held
