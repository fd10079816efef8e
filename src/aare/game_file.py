"""Game files as evidence: a log is accepted only when every entry's events are what its action gives.

`GameLog.from_json` checks the hash chain and the final state hash. `check_play` then plays every action again
through the engine, on the state the entries before it reached, and compares the events it gives with the events
recorded: an edited action, event, die or order is refused naming the first entry at fault. The dice of an entry
are its recorded rolls (what a server's commit-reveal dice or the operating system gave), except in a game with
seeded dice, where they must also be the seed's: such a file proves its dice by itself.

What a file proves (docs/game-files.md): without a secret, someone who rewrites a whole file consistently —
actions, rolls and chain — cannot be caught offline; the server's commitments (`aare verify`) are for that.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import AareError, DataFileError, MalformedInput, TamperedLog
from aare.events import DiceRolled, Event
from aare.game_log import GameLog
from aare.json_files import read_json

RULE = "LHTR-TURN-all-dice-in-conduct-combat"


def check_play(log: GameLog, dice_from_seed: bool | None = None) -> None:
    """Play `log`'s actions again and compare each entry's events with those recorded; TamperedLog names the first
    entry that differs. `dice_from_seed`: the dice must be the seed's (default: when the game's dice are seeded)."""
    seeded = log.initial.dice.predictable if dice_from_seed is None else dice_from_seed
    work = GameLog(log.initial)
    for index, entry in enumerate(log.entries):
        if entry.action is None:
            raise TamperedLog(index, "an entry without an action cannot be checked")
        recorded = [v for e in entry.events if isinstance(e, DiceRolled) for v in e.values]
        scripted = None if seeded else ScriptedDice(recorded)
        try:
            derived = Game(work, scripted).apply(entry.action)
        except AareError as exc:
            raise TamperedLog(index, f"its action is refused where it stands: {exc}", entry.action) from None
        if scripted is not None and scripted.remaining:
            raise TamperedLog(index, f"it records {scripted.remaining} dice its action did not roll", entry.action)
        difference = _first_difference(derived, entry.events)
        if difference:
            raise TamperedLog(index, difference, entry.action)


def _first_difference(derived: tuple[Event, ...], recorded: tuple[Event, ...]) -> str:
    for number, (mine, theirs) in enumerate(zip(derived, recorded, strict=False), 1):
        if mine.to_json() != theirs.to_json():
            if isinstance(mine, DiceRolled) and isinstance(theirs, DiceRolled) and mine.values != theirs.values:
                return (f"event {number}: its dice show {list(theirs.values)}, the game's seeded dice give "
                        f"{list(mine.values)}")
            recorded_text, derived_text = _around_difference(str(theirs.to_json()), str(mine.to_json()))
            return f"event {number} is {recorded_text}, its action gives {derived_text}"
    if len(derived) != len(recorded):
        return f"it records {len(recorded)} events, its action gives {len(derived)}"
    return ""


def _around_difference(a: str, b: str, width: int = 160) -> tuple[str, str]:
    """`a` and `b` cut to where they first differ (with some text before it), `width` characters each."""
    at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y), min(len(a), len(b)))
    start = max(0, at - width // 3)
    cut = "…" if start else ""
    return cut + a[start : start + width], cut + b[start : start + width]


def read_game(raw: Any, dice_from_seed: bool | None = None) -> GameLog:
    """A game log from its JSON form, checked: hash chain, replay, and every entry played again."""
    log = GameLog.from_json(raw, check_hash=False)
    check_play(log, dice_from_seed)  # names the first entry at fault, before the final hash could
    log.check_state_hash(raw.get("state_hash") if isinstance(raw, dict) else None)
    return log


def load_game(path: Path) -> GameLog:
    """Read and check a game file; a missing, unreadable, inconsistent or tampered file raises DataFileError."""
    raw = read_json(path)
    try:
        return read_game(raw)
    except MalformedInput as exc:
        raise DataFileError(str(path), "<game>", str(exc)) from None
    except AareError as exc:
        raise DataFileError(str(path), "<game>", str(exc)) from None
