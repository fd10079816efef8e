"""Japan's national-advantage record, ``state.extra["na_japan"]``:

``{"designated": {"round", "kaiten", "kamikaze"}}`` -- this turn's Kaiten and Kamikaze designations. (The
first-unit discounts are in ``extra["first_purchase"]``, the Tech Advantage grant in ``extra["research_funds"]``.)
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.events import ExtraSet
from aare.state.game_state import GameState

JAPAN = "Japan"
KEY = "na_japan"


def record(state: GameState) -> dict[str, Any]:
    raw = state.extra.get(KEY)
    return dict(raw) if isinstance(raw, Mapping) else {}


def record_event(state: GameState, rule_id: str, **changes: Any) -> ExtraSet:
    """The record with some entries replaced, as an event naming `rule_id`."""
    return ExtraSet(KEY, {**record(state), **changes}, rule_id)


def designated(state: GameState, kind: str) -> int:
    """Units designated as `kind` ("kaiten", "kamikaze") in Japan's current turn."""
    entry = record(state).get("designated") or {}
    if entry.get("round") != state.round or state.nation != JAPAN:
        return 0
    return int(entry.get(kind, 0))


def designate_event(state: GameState, kind: str, n: int, rule_id: str) -> ExtraSet:
    entry = record(state).get("designated") or {}
    if entry.get("round") != state.round:
        entry = {"round": state.round}
    return record_event(state, rule_id, designated={**entry, kind: designated(state, kind) + n})
