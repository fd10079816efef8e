"""What each power may see: the one read path for every surface (CLI, API, pages, event streams, exports).

A viewer is a power name, a collection of power names (one user holding several seats sees the union of what
they see) or None, a spectator. The ruleset declares the fields of a state that only some powers may see
(the `hidden_fields` hook, records of `aare.rules.hidden.Hidden`); a view replaces each field hidden from the
viewer by `HIDDEN`, in the state, in the `extra_set` events that write it and in the actions that produced
those events. Once the game has ended everyone sees everything.

What a viewer sees is decided by the state they look at: a log, or a stream of past entries, is redacted by
the fields hidden in its latest state. A view's `state_hash` is the hash of what the viewer sees: the game's
state hash when nothing is hidden from the viewer, else the hash of the redacted state (the real hash would
give a small hidden value away to anyone hashing each candidate).
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from aare.economy.summary import summary
from aare.events import Event
from aare.game_log import VIEW_KEY, GameLog, LogEntry
from aare.rules.hidden import Hidden
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState, canonical_dumps

Viewer = str | Iterable[str] | None
HIDDEN = "hidden"
"""What a hidden value reads as in a view."""
EXTRA_SET = "extra_set"
MEMBERS = "members"


def viewer_powers(viewer: Viewer) -> frozenset[str]:
    """The powers whose view `viewer` gets (empty: a spectator)."""
    if viewer is None:
        return frozenset()
    if isinstance(viewer, str):
        return frozenset({viewer})
    return frozenset(viewer)


def hidden_fields(state: GameState) -> tuple[Hidden, ...]:
    """Every field of `state` the ruleset hides from someone (none once the game has ended)."""
    if state.winner is not None:
        return ()
    found = load_ruleset(state.ruleset, state.options).modify("hidden_fields", [], state=state)
    return tuple(dict.fromkeys(found))


def hidden_from(state: GameState, viewer: Viewer) -> tuple[Hidden, ...]:
    """The fields of `state` that `viewer` may not see."""
    powers = viewer_powers(viewer)
    return tuple(h for h in hidden_fields(state) if not h.seen_by(powers))


def sees_everything(state: GameState, viewer: Viewer) -> bool:
    return not hidden_from(state, viewer)


# -- redaction --------------------------------------------------------------------------------------------


def _redact(value: Any, path: Sequence[str]) -> tuple[Any, bool]:
    """`value` with the part at `path` replaced by HIDDEN (copying only along the path); True if it was there."""
    if not path:
        return HIDDEN, True
    if isinstance(value, Mapping) and path[0] in value:
        inner, changed = _redact(value[path[0]], path[1:])
        if changed:
            return {**value, path[0]: inner}, True
    return value, False


def redact_state(data: Mapping[str, Any], hidden: Iterable[Hidden]) -> dict[str, Any]:
    """A state's JSON with every field of `hidden` replaced by HIDDEN, in `extra` and in the copies of `extra`
    records that members of a team turn keep for themselves (`members[power]["extra"]`)."""
    out: Any = dict(data)
    members = out.get(MEMBERS)
    for field in hidden:
        out, _ = _redact(out, field.path)
        for power in members if isinstance(members, Mapping) else ():
            out, _ = _redact(out, (MEMBERS, power, *field.path))
    return dict(out)


def redact_event(event: Mapping[str, Any], hidden: Iterable[Hidden]) -> tuple[dict[str, Any], bool]:
    """An event's JSON with what it writes into a hidden field replaced (an `extra_set` of record K writes the
    fields under ("extra", K)); True if anything was."""
    out = dict(event)
    if out.get("type") != EXTRA_SET:
        return out, False
    redacted = False
    for field in hidden:
        if field.path[1] == out.get("key"):
            out["value"], changed = _redact(out.get("value"), field.path[2:])
            redacted = redacted or changed
    return out, redacted


def redact_events(events: Iterable[Event | Mapping[str, Any]],
                  hidden: Sequence[Hidden]) -> tuple[list[dict[str, Any]], bool]:
    """Events' JSON with hidden fields redacted; True if any was."""
    out, redacted = [], False
    for event in events:
        raw = event.to_json() if isinstance(event, Event) else dict(event)
        if hidden:
            raw, changed = redact_event(raw, hidden)
            redacted = redacted or changed
        out.append(raw)
    return out, redacted


def redact_action(action: Mapping[str, Any] | None) -> dict[str, Any] | None:
    """An action whose events wrote hidden fields: only its type shows."""
    if action is None:
        return None
    return {k: (v if k == "type" else HIDDEN) for k, v in action.items()}


def entry_view(action: Mapping[str, Any] | None, events: Iterable[Event | Mapping[str, Any]],
               hidden: Sequence[Hidden]) -> dict[str, Any]:
    """A log entry's JSON (`action`, `events`) with `hidden` redacted; the action too when its events were."""
    seen, redacted = redact_events(events, hidden)
    return {"action": redact_action(action) if redacted else (None if action is None else dict(action)),
            "events": seen}


# -- views ------------------------------------------------------------------------------------------------


def player_view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    """The state's JSON as `viewer` may see it."""
    return redact_state(state.to_json(), hidden_from(state, viewer))


def visible_state(state: GameState, viewer: Viewer) -> GameState:
    """The state as `viewer` may see it, as a state for surfaces that compute what they show (hidden fields
    read HIDDEN); `state` itself when nothing is hidden from the viewer."""
    hidden = hidden_from(state, viewer)
    if not hidden:
        return state
    return GameState.from_json(redact_state(state.to_json(), hidden))


def view_hash(state: GameState, viewer: Viewer) -> str:
    """The hash of what `viewer` sees: the state's hash when nothing is hidden from the viewer."""
    hidden = hidden_from(state, viewer)
    if not hidden:
        return state.hash()
    return hashlib.sha256(canonical_dumps(redact_state(state.to_json(), hidden)).encode()).hexdigest()


def summary_view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    """The summary `aare show` prints, computed from what `viewer` sees (its `state_hash` is the view's)."""
    return summary(visible_state(state, viewer))


def events_view(events: Iterable[Event | Mapping[str, Any]], viewer: Viewer,
                state: GameState) -> list[dict[str, Any]]:
    """Events' JSON as `viewer` may see them, judged by the fields hidden in `state` (the latest state)."""
    return redact_events(events, hidden_from(state, viewer))[0]


def log_view(log: GameLog, viewer: Viewer) -> dict[str, Any]:
    """The game file as `viewer` may see it. When anything is hidden from the viewer the file is marked
    (`view_of`: the viewer's powers) and carries no state hash; loading, importing and verifying refuse it."""
    data = log.to_json()
    hidden = hidden_from(log.state, viewer)
    if not hidden:
        return data
    return {
        **data,
        VIEW_KEY: sorted(viewer_powers(viewer)),
        "initial": redact_state(data["initial"], hidden),
        "entries": [entry_view(e.action, e.events, hidden) for e in log.entries],
        "state_hash": None,
        "state": redact_state(data["state"], hidden),
    }


def entries_view(entries: Sequence[LogEntry], viewer: Viewer, state: GameState) -> list[dict[str, Any]]:
    """Log entries' JSON as `viewer` may see them, judged by the fields hidden in `state` (the latest)."""
    hidden = hidden_from(state, viewer)
    return [entry_view(e.action, e.events, hidden) for e in entries]
