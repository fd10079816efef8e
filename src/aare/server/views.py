"""What a seat sees. Every view of a game goes through these functions, so a ruleset with hidden
information can later filter them per seat; for now every seat sees the whole state."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from aare.economy.summary import summary
from aare.events import Event
from aare.game_log import LogEntry
from aare.state.game_state import GameState


def player_view(state: GameState, seats: Iterable[str]) -> dict[str, Any]:
    """The state as the holder of `seats` may see it (spectators: no seats)."""
    return {"state": state.to_json(), "summary": summary(state)}


def events_view(events: Iterable[Event], seats: Iterable[str]) -> list[dict[str, Any]]:
    """Events as the holder of `seats` may see them."""
    return [e.to_json() for e in events]


def entry_message(game_id: str, seq: int, entry: LogEntry, state: GameState, state_hash: str, actor: str,
                  to_act: str, dice: Mapping[str, Any] | None = None) -> dict[str, Any]:
    """The live-update message for one new log entry (also the answer to an accepted action)."""
    message: dict[str, Any] = {
        "kind": "entry", "game_id": game_id, "seq": seq, "version": seq + 1, "state_hash": state_hash,
        "actor": actor, "action": entry.action, "events": events_view(entry.events, ()),
        "round": state.round, "nation": state.nation, "phase": state.phase, "to_act": to_act,
        "winner": state.winner,
    }
    if dice:
        message["dice"] = dict(dice)
    return message


def dumps(value: Any) -> str:
    return json.dumps(value, separators=(",", ":"), ensure_ascii=False)
