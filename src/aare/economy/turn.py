"""The per-turn record in `state.extra["turn"]`: who held every territory when the turn began, what the moving
power has mobilised where, and the economic damage each territory has taken this turn. Made when the turn's
first phase begins; economy (mobilisation, production) and movement (landing, canals, rockets) read it."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.events import ExtraSet
from aare.state.game_state import GameState

TURN = "turn"


def turn_record(state: GameState) -> dict[str, Any]:
    """This turn's record; a fresh one (nothing known about the turn's start) if none was made this turn."""
    record = state.extra.get(TURN)
    if isinstance(record, dict) and record.get("round") == state.round and record.get("power") == state.nation:
        return record
    return {"round": state.round, "power": state.nation, "owners": None, "placed": {}, "damage": {}}


def start_turn_event(state: GameState) -> ExtraSet | None:
    """The record of a new turn (who holds every territory now), unless it already exists."""
    record = state.extra.get(TURN)
    if isinstance(record, dict) and record.get("round") == state.round and record.get("power") == state.nation:
        return None
    owners = dict(sorted(state.owners.items()))
    value = {"round": state.round, "power": state.nation, "owners": owners, "placed": {}, "damage": {}}
    return ExtraSet(TURN, value, "LHTR-MOBILIZE-not-captured-this-turn")


def turn_start_owners(state: GameState) -> Mapping[str, str]:
    """Owners when the current turn began; the current owners when no record was made (a position built
    mid-turn)."""
    owners = turn_record(state)["owners"]
    return owners if isinstance(owners, Mapping) else state.owners


def turn_update(state: GameState, rule_id: str, **changes: Any) -> ExtraSet:
    """The turn record with some entries replaced."""
    return ExtraSet(TURN, {**turn_record(state), **changes}, rule_id)


def held_since_turn_start(state: GameState, power: str, territory: str) -> bool:
    """Whether `power` controls `territory` now and did when its turn began (captured this turn: no).
    Without a record of the turn's start (a position built mid-turn), control now is taken as enough."""
    if state.owners.get(territory) != power:
        return False
    return power != state.nation or turn_start_owners(state).get(territory) == power
