"""The game's history for the page: the event log in text notation and the dice of the latest battle, as the
viewer may see them (`aare.player_view`)."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from aare.action_text import format_action, format_event
from aare.game_log import GameLog, LogEntry
from aare.phases.base import phase_kind
from aare.player_view import Viewer, entries_view

HIT_ON = re.compile(r" at (\d+)\b")
# Bookkeeping the log leaves out: units moving between spaces are told by the move itself.
QUIET_EVENTS = frozenset({"units_changed"})
BATTLE_EVENTS = frozenset({"units_removed", "control_changed", "decision_pending", "bank_changed"})


def _nations(log: GameLog) -> list[str]:
    """The nation to move at the start of each entry."""
    nation = log.initial.nation
    out = []
    for entry in log.entries:
        out.append(nation)
        for event in entry.events:
            if event.type == "phase_entered":
                nation = str(event.to_json()["nation"])
    return out


def _actor(action: Mapping[str, Any] | None) -> str:
    """The power an action names (in a team turn, the member who played it)."""
    return str((action or {}).get("power") or "")


def event_log(log: GameLog, viewer: Viewer, limit: int = 60) -> list[dict[str, Any]]:
    """The last `limit` entries as `viewer` sees them, oldest first: sequence number, nation, the action and its
    events as text."""
    nations = _nations(log)
    start = max(0, len(log.entries) - limit)
    out = []
    for seq, entry in enumerate(entries_view(log.entries[start:], viewer, log.state), start):
        lines = [format_event(e) for e in entry["events"] if e.get("type") not in QUIET_EVENTS]
        action = entry["action"]
        out.append({
            "seq": seq + 1, "nation": _actor(action) or nations[seq], "action": format_action(action) if action else "",
            "lines": [line for line in lines if line],
        })
    return out


def dice_roll(event: Mapping[str, Any]) -> dict[str, Any]:
    """A `dice_rolled` event as label, faces and which faces hit (when the label says 'at N')."""
    purpose = str(event.get("purpose", ""))
    values = [int(v) for v in event.get("values", ())]
    match = HIT_ON.search(purpose)
    hit_on = int(match.group(1)) if match else None
    label = purpose.split(": ", 1)[1] if ": " in purpose else purpose
    return {"label": label, "dice": [{"value": v, "hit": hit_on is not None and v <= hit_on} for v in values]}


def last_battle(log: GameLog, viewer: Viewer) -> dict[str, Any] | None:
    """The latest battle of the current turn as `viewer` sees it: where, its dice rolls and what happened
    (casualties, capture). None when no battle was fought yet this turn."""
    entries = log.entries
    start = None
    for seq in range(len(entries) - 1, -1, -1):
        entry = entries[seq]
        action = entry.action or {}
        if action.get("type") == "fight":
            start = seq
            break
        if any(e.type == "phase_entered" and phase_kind(str(e.to_json().get("phase"))) != "conduct-combat"
               for e in entry.events):
            return None
    if start is None:
        return None
    space = str((entries[start].action or {}).get("space", ""))
    rolls, lines = [], []
    for seen in entries_view(_slice(entries, start), viewer, log.state):
        answer = seen["action"] or {}
        if answer.get("type") not in (None, "fight"):
            lines.append("answer: " + format_action(answer))
        for event in seen["events"]:
            if event.get("type") == "dice_rolled":
                rolls.append(dice_roll(event))
            elif event.get("type") in BATTLE_EVENTS:
                text = format_event(event)
                if text and event.get("type") != "decision_pending":
                    lines.append(text)
    return {"space": space, "rolls": rolls, "lines": lines}


def _slice(entries: Sequence[LogEntry], start: int) -> list[LogEntry]:
    """Entries from `start` up to (not including) the next fight."""
    out = [entries[start]]
    for entry in entries[start + 1:]:
        if (entry.action or {}).get("type") in ("fight", "end_phase"):
            break
        out.append(entry)
    return out
