"""Game files for the tampering tests: a short played game and the edits a cheat (or a slip) would make."""

from __future__ import annotations

import copy
from collections.abc import Callable
from typing import Any

from aare.game_log import link
from aare.selfplay import play_game
from aare.state.game_state import GameState

Edit = Callable[[dict[str, Any]], int]  # edits a game file in place; returns the 1-based entry it broke


def played(seed: int | None = 4) -> dict[str, Any]:
    """A game file of one round of self-play (battles, so dice), with seeded dice unless `seed` is None."""
    result = play_game("lhtr-1.3", 4, rounds=1, check=False)
    data = result.log.to_json()
    if seed is None:  # the same play, as if its dice had come from the operating system
        for state in (data["initial"], data["state"]):
            state["dice"].pop("seed")
        relink(data)
    return data


def relink(data: dict[str, Any]) -> None:
    """Rebuild the hash chain after an edit, as anyone can without a secret."""
    previous = GameState.from_json(data["initial"]).hash()
    for entry in data["entries"]:
        previous = entry["hash"] = link(previous, entry)


def _first(data: dict[str, Any], test: Callable[[dict[str, Any]], bool]) -> int:
    return next(i for i, entry in enumerate(data["entries"]) if test(entry))


def change_die(data: dict[str, Any]) -> int:
    i = _first(data, lambda e: any(ev["type"] == "dice_rolled" for ev in e["events"]))
    rolled = next(ev for ev in data["entries"][i]["events"] if ev["type"] == "dice_rolled")
    rolled["values"][0] = rolled["values"][0] % 6 + 1
    return i + 1


def change_action(data: dict[str, Any]) -> int:
    i = _first(data, lambda e: (e["action"] or {}).get("type") == "purchase")
    units = data["entries"][i]["action"]["units"]
    count, _, unit = units.partition(" ")
    data["entries"][i]["action"]["units"] = f"{int(count) + 1} {unit}"
    return i + 1


def change_event(data: dict[str, Any]) -> int:
    i = _first(data, lambda e: any(ev["type"] == "bank_changed" for ev in e["events"]))
    event = next(ev for ev in data["entries"][i]["events"] if ev["type"] == "bank_changed")
    event["delta"] += 1
    return i + 1


def swap_entries(data: dict[str, Any]) -> int:
    i = _first(data, lambda e: (e["action"] or {}).get("type") == "purchase")
    entries = data["entries"]
    entries[i], entries[i + 1] = entries[i + 1], entries[i]
    return i + 1


def remove_entry(data: dict[str, Any]) -> int:
    i = _first(data, lambda e: (e["action"] or {}).get("type") == "purchase")
    del data["entries"][i]
    return i + 1


EDITS: dict[str, Edit] = {"die": change_die, "action": change_action, "event": change_event,
                          "swap": swap_entries, "remove": remove_entry}


def tampered(data: dict[str, Any], edit: Edit, rebuild_chain: bool) -> tuple[dict[str, Any], int]:
    out = copy.deepcopy(data)
    entry = edit(out)
    if rebuild_chain:
        relink(out)
    return out, entry
