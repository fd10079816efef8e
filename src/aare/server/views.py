"""What a seat sees. Every view of a game goes through these functions, which delegate to `aare.player_view`:
a seat sees what each power it plays sees (a side seat: every power of the side), a caller with no seat sees
what a spectator sees.

Live-update messages are published once, the same for everyone, with the fields hidden in their state listed
under `HIDDEN_KEY`; each stream (and each answer) redacts them for its reader with `message_view`."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import orjson

from aare import player_view as views
from aare.events import Event
from aare.game_log import LogEntry
from aare.rules.hidden import Hidden
from aare.server.seats import seat_powers
from aare.state.game_state import GameState

HIDDEN_KEY = "hidden_fields"
"""Messages as published list the hidden fields of their state here; `message_view` takes the list out."""


def player_view(state: GameState, seats: Iterable[str]) -> dict[str, Any]:
    """The state, its summary and the hash of what the holder of `seats` sees (spectators: no seats)."""
    viewer = seat_powers(state, seats)
    return {"state": views.player_view(state, viewer), "summary": views.summary_view(state, viewer),
            "state_hash": views.view_hash(state, viewer)}


def events_view(events: Iterable[Event], seats: Iterable[str], state: GameState) -> list[dict[str, Any]]:
    """Events as the holder of `seats` may see them, judged by the fields hidden in `state`."""
    return views.events_view(events, seat_powers(state, seats), state)


def entry_message(game_id: str, seq: int, entry: LogEntry, state: GameState, state_hash: str, actor: str,
                  to_act: str, dice: Mapping[str, Any] | None = None,
                  events: list[dict[str, Any]] | None = None) -> dict[str, Any]:
    """The live-update message for one new log entry (the answer to an accepted action is a part of it:
    `action_answer`), as published: whole, with the fields hidden in `state` listed for the streams to redact
    (`message_view`). `events`: the entry's events in JSON, when already made."""
    message: dict[str, Any] = {
        "kind": "entry", "game_id": game_id, "seq": seq, "version": seq + 1, "state_hash": state_hash,
        "actor": actor, "action": entry.action,
        "events": [e.to_json() for e in entry.events] if events is None else events,
        "round": state.round, "nation": state.nation, "phase": state.phase, "to_act": to_act,
        "winner": state.winner,
    }
    if dice:
        message["dice"] = dict(dice)
    hidden = views.hidden_fields(state)
    if hidden:
        message[HIDDEN_KEY] = [h.to_json() for h in hidden]
    return message


ANSWER_KEYS = ("seq", "version", "state_hash", "action", "events", "round", "nation", "phase", "to_act", "winner",
               "dice")
"""What the answer to an accepted action carries of its entry's message: what changed (the caller knows the
game, that it is an entry and who acted)."""


def action_answer(message: Mapping[str, Any]) -> dict[str, Any]:
    """The answer to an accepted action: its entry's message (as the caller may see it) less what the caller
    knows."""
    return {k: message[k] for k in ANSWER_KEYS if k in message}


def answer_json(message: Mapping[str, Any]) -> str:
    """`action_answer(message)` in JSON; events already written (`Rendered`) are not written again."""
    answer = action_answer(message)
    events = answer.get("events")
    if type(events) is not Rendered or len(answer) < 2:
        return dumps(answer)
    del answer["events"]
    return f'{dumps(answer)[:-1]},"events":{events.text}}}'


class Rendered(list[Any]):
    """A list carrying its own JSON text (`dumps`), written once for the log row and the answer alike; a view
    that changes it makes a plain list."""

    text: str


def rendered(items: list[Any]) -> Rendered:
    out = Rendered(items)
    out.text = dumps(items)
    return out


def message_view(message: Mapping[str, Any], viewer: Iterable[str], state: GameState | None) -> dict[str, Any]:
    """A published message (an entry, an undo) as the holder of the powers `viewer` may see it, judged by the
    fields hidden in `state`, the game as this process knows it now (by those listed in the message when
    `state` is older or unknown). The state hash is that of the viewer's view when `state` is the message's
    own, and left out (None) when something is hidden from the viewer and it is not."""
    out = dict(message)
    listed = [Hidden.from_json(raw) for raw in out.pop(HIDDEN_KEY, None) or ()]
    if out.get("winner") is not None or (state is not None and state.winner is not None):
        return out
    version = int(out.get("version", 0))
    fields = list(views.hidden_fields(state)) if state is not None else []
    if state is None or state.version < version:
        fields += listed
    powers = frozenset(viewer)
    hidden = [h for h in dict.fromkeys(fields) if not h.seen_by(powers)]
    if not hidden:
        return out
    if "events" in out:
        out.update(views.entry_view(out.get("action"), out["events"], hidden))
    own = state is not None and state.version == version
    out["state_hash"] = views.view_hash(state, powers) if own and state is not None else None
    return out


def dumps(value: Any) -> str:
    """Compact JSON text (UTF-8, keys in their order) of what the server stores and sends. The state hash's
    canonical text is written elsewhere (`aare.state.game_state.canonical_dumps`), byte for byte as it was."""
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()
