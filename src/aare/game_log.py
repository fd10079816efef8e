"""The game log: the initial state plus every action with the events it produced.

The log is the stored record of a game (game files, the server). `replay` folds the events over the
initial state; a log read from a file must replay to the state hash it recorded, or it is rejected.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import FrozenInstanceError, dataclass, field
from pathlib import Path
from typing import Any, Protocol

from aare.errors import DataFileError, MalformedInput, ReplayMismatch, TamperedLog
from aare.events import Event, apply_events, event_from_json
from aare.json_files import read_json, write_json_atomic
from aare.state.game_state import GameState, canonical_dumps

FORMAT = "aare-game"
FORMAT_VERSION = 2  # 2: every entry carries its link of the hash chain; 1 (read only): no chain
VIEW_KEY = "view_of"
"""Marks a game file that is a player's view (`aare.player_view.log_view`): hidden parts are left out."""
SECTIONS = ("posts",)
"""Records kept with a game beside its log, carried through reading and writing (`posts`: play by post,
`aare.posts`); they are not part of the hash chain."""


class Written(Protocol):
    """An action value: it writes its own JSON form."""

    def to_json(self) -> dict[str, Any]: ...


class LogEntry:
    """One step of play: the action (its JSON form; None for automatic steps) and its events. The engine may
    record the action value itself: its JSON is written when first read (most entries of a self-played or a
    training game never are). Frozen, like its events."""

    __slots__ = ("_action", "events")
    _action: Mapping[str, Any] | Written | None
    events: tuple[Event, ...]

    def __init__(self, action: Mapping[str, Any] | Written | None, events: tuple[Event, ...]) -> None:
        object.__setattr__(self, "_action", action)
        object.__setattr__(self, "events", events)

    @property
    def action(self) -> Mapping[str, Any] | None:
        action = self._action
        if action is None or isinstance(action, Mapping):
            return action
        written = action.to_json()
        object.__setattr__(self, "_action", written)
        return written

    def __setattr__(self, name: str, value: Any) -> None:
        raise FrozenInstanceError(f"cannot assign to field {name!r}")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, LogEntry):
            return NotImplemented
        return self.action == other.action and self.events == other.events

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"LogEntry(action={self.action!r}, events={self.events!r})"

    def __reduce__(self) -> tuple[Any, ...]:
        return LogEntry, (self.action, self.events)

    def to_json(self) -> dict[str, Any]:
        return {"action": self.action, "events": [e.to_json() for e in self.events]}


def link(previous: str, entry: Mapping[str, Any]) -> str:
    """The hash chain's link for an entry's JSON (`action` and `events`) after the link `previous` (the first
    entry follows the initial state's hash): an edited, removed or reordered entry breaks every link after it."""
    body = canonical_dumps({"action": entry["action"], "events": entry["events"]})
    return hashlib.sha256(f"{previous}:{body}".encode()).hexdigest()


@dataclass
class GameLog:
    """An initial state and the entries after it; `state` is always the result of replaying them."""

    initial: GameState
    entries: list[LogEntry] = field(default_factory=list)
    state: GameState = field(init=False)
    sections: dict[str, Any] = field(default_factory=dict, compare=False)

    def __post_init__(self) -> None:
        self.state = self.initial
        entries, self.entries = self.entries, []
        for entry in entries:
            self.append(entry.action, entry.events)

    def append(self, action: Mapping[str, Any] | Written | None, events: Iterable[Event],
               after: GameState | None = None) -> GameState:
        """Apply `events` and record them with `action` (its JSON, copied; or an action value, frozen, whose JSON
        the entry writes when it is read); the state's version counts entries. `after`: the state the events
        lead to from the current one, when the caller has it already (the engine's working state, which has
        applied them one by one), so they are not applied twice."""
        events = tuple(events)
        new_state = apply_events(self.state, events) if after is None else after
        self.state = new_state.evolve(version=self.state.version + 1)
        self.entries.append(LogEntry(dict(action) if isinstance(action, Mapping) else action, events))
        return self.state

    def replay(self, upto: int | None = None) -> GameState:
        """The state after the first `upto` entries (all by default), recomputed from the initial state."""
        state = self.initial
        for entry in self.entries[:upto]:
            state = apply_events(state, entry.events).evolve(version=state.version + 1)
        return state

    def to_json(self) -> dict[str, Any]:
        entries, previous = [], self.initial.hash()
        for entry in self.entries:
            data = entry.to_json()
            previous = data["hash"] = link(previous, data)
            entries.append(data)
        return {
            "format": FORMAT,
            "format_version": FORMAT_VERSION,
            "initial": self.initial.to_json(),
            "entries": entries,
            "state_hash": self.state.hash(),
            "state": self.state.to_json(),
            **{key: self.sections[key] for key in SECTIONS if key in self.sections},
        }

    @staticmethod
    def from_json(raw: Any, check_hash: bool = True) -> GameLog:
        """Read a log, check its hash chain, replay it and (`check_hash`) check it reaches the recorded state hash
        (`aare.game_file.read_game` also plays every entry again, and checks the hash after that)."""
        if not isinstance(raw, Mapping) or raw.get("format") != FORMAT:
            raise MalformedInput("not an aare game file (expected format 'aare-game')")
        version = raw.get("format_version")
        if version not in (1, FORMAT_VERSION):
            raise MalformedInput(f"unsupported game file version {version!r}")
        if VIEW_KEY in raw:
            who = raw[VIEW_KEY]
            names = ", ".join(map(str, who)) if isinstance(who, list) and who else "a spectator"
            raise MalformedInput(
                f"this game file is a player's view ({names}) with hidden parts left out: only a full game file "
                "can be loaded, imported or verified (a server export is full once the game has ended)"
            )
        entries_raw = raw.get("entries")
        if not isinstance(entries_raw, Sequence) or isinstance(entries_raw, str):
            raise MalformedInput("game file: entries must be a list")
        initial = GameState.from_json(raw.get("initial"))
        if version == 1 and not initial.dice.predictable:
            raise MalformedInput("game file: a version 1 file always has seeded dice")
        entries = []
        previous = initial.hash()
        for i, entry in enumerate(entries_raw):
            if not isinstance(entry, Mapping) or not isinstance(entry.get("events"), list):
                raise MalformedInput(f"game file: entries[{i}] must have an events list")
            action = entry.get("action")
            if action is not None and not isinstance(action, Mapping):
                raise MalformedInput(f"game file: entries[{i}].action must be an object or null")
            parsed = LogEntry(action, tuple(event_from_json(e) for e in entry["events"]))
            if version != 1:
                previous = link(previous, parsed.to_json())
                if entry.get("hash") != previous:
                    raise TamperedLog(i, "its hash does not follow from the entries before it and its own "
                                         "action and events (the entry, or one before it, was changed)", action)
            entries.append(parsed)
        log = GameLog(initial, entries)
        log.sections = {key: raw[key] for key in SECTIONS if key in raw}
        if check_hash:
            log.check_state_hash(raw.get("state_hash"))
        return log

    def check_state_hash(self, recorded: Any) -> None:
        """ReplayMismatch unless the log replays to `recorded` (None: nothing recorded to check)."""
        log = self
        if recorded is not None and recorded != log.state.hash():
            raise ReplayMismatch(
                f"game file: the log replays to {log.state.hash()[:12]}, the file records {str(recorded)[:12]}"
            )


def game_end(log: GameLog) -> dict[str, Any] | None:
    """How the game ended, as its `game_ended` event records it (winner, reason, rule_id), or None while it goes
    on."""
    if log.state.winner is None:
        return None
    for entry in reversed(log.entries):
        for event in reversed(entry.events):
            if event.type == "game_ended":
                return {k: v for k, v in event.to_json().items() if k != "type"}
    return None


def save_log(log: GameLog, path: Path) -> None:
    """Write atomically: a temporary file in the same folder, then rename over the target."""
    write_json_atomic(path, log.to_json())


def load_log(path: Path) -> GameLog:
    """Read a game file; a missing, unreadable or inconsistent file raises DataFileError."""
    raw = read_json(path)
    try:
        return GameLog.from_json(raw)
    except MalformedInput as exc:
        raise DataFileError(str(path), "<game>", str(exc)) from None
    except ReplayMismatch as exc:
        raise DataFileError(str(path), "state_hash", str(exc)) from None
