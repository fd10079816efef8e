"""The readable part of a post: the entries it adds, in text notation, with every battle's dice and
casualties, purchases and income, then a short summary of the map; as Markdown or BBCode."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.action_text import format_action, format_event
from aare.economy.summary import summary
from aare.game_log import GameLog

FORMATS = ("markdown", "bbcode")
SHOWN = frozenset({"dice_rolled", "units_removed", "units_added", "unit_damaged", "control_changed", "bank_changed",
                   "tech_gained", "game_ended"})
"""The events a post prints under their action (the moves themselves are in the action's line)."""


def _style(fmt: str) -> dict[str, str]:
    if fmt == "markdown":
        return {"title": "### {}", "heading": "**{}**", "action": "- {}", "event": "    - {}", "open": "```",
                "close": "```"}
    return {"title": "[size=150][b]{}[/b][/size]", "heading": "[b]{}[/b]", "action": "* {}", "event": "      {}",
            "open": "[code]", "close": "[/code]"}


def render(log: GameLog, section: Mapping[str, Any], fmt: str, attachment: list[str]) -> list[str]:
    """The lines of the post of `log`'s last `posts` record, the attachment's lines inside a code block."""
    style = _style(fmt)
    records = section["records"]
    start, end = (records[-2]["upto"] if len(records) > 1 else 0), records[-1]["upto"]
    shown = records[-1].get("shown_from")
    start = shown if isinstance(shown, int) and 0 <= shown <= end else start
    state = log.state
    lines = [style["title"].format(f"aare post {len(records) - 1}: {state.ruleset}, game {log.initial.hash()[:12]}"),
             f"Entries {start + 1} to {end}" if end > start else "No new entries", ""]
    for number in range(start, end):
        entry = log.entries[number]
        lines.append(style["action"].format(f"{number + 1}. {format_action(entry.action or {})}"))
        lines += [style["event"].format(format_event(e.to_json())) for e in entry.events if e.type in SHOWN]
        for event in entry.events:  # the phase the entry leads to, as the heading of what follows
            data = event.to_json()
            if data["type"] in ("phase_entered", "team_turn_started"):
                lines += ["", style["heading"].format(format_event(data).lstrip("— "))]
    lines += ["", style["heading"].format(f"The map after entry {end}: round {state.round}, {state.nation}, "
                                          f"{state.phase}"), *_map(log)]
    lines += ["", "Import with `aare import POST -o GAME`; the attachment holds the whole game:" if fmt == "markdown"
              else "Import with aare import POST -o GAME; the attachment holds the whole game:",
              style["open"], *attachment, style["close"]]
    return lines


def _map(log: GameLog) -> list[str]:
    data = summary(log.state)
    spaces = data["spaces"]
    lines = []
    for name, nation in data["nations"].items():
        held = sum(1 for s in spaces.values() if s["owner"] == name)
        units = sum(s.count for stacks in log.state.units.values() for s in stacks if s.owner == name)
        cities = f", {nation['victory_cities']} victory cities" if data["victory_cities"]["total"] else ""
        lines.append(f"{name}: bank {nation['bank']}, income {nation['income']}, {held} territories, "
                     f"{units} units{cities}")
    if log.state.winner:
        lines.append(f"Won by {log.state.winner}")
    return lines
