"""Offline check of an exported server game: the log replays, every commitment matches its revealed seed,
and every die recomputes from the seed of its turn (see `aare.fair_dice`)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aare.errors import MalformedInput, ReplayMismatch
from aare.events import DiceRolled
from aare.fair_dice import SCHEME, DiceReport, commitment, die, turn_after
from aare.game_file import read_game
from aare.game_log import VIEW_KEY


@dataclass
class VerifyReport(DiceReport):
    """What was checked and what is wrong; `ok` when nothing is."""

    entries: int = 0
    turns: int = 0

    def to_json(self) -> dict[str, Any]:
        return {**self.dice_json(), "entries": self.entries, "turns": self.turns}


def verify_export(raw: Any) -> VerifyReport:
    """Check an export made by `GET /games/{id}/export` (a game file with a `server` section)."""
    report = VerifyReport()
    if isinstance(raw, Mapping) and VIEW_KEY in raw:
        report.problems.append("this export is a player's view, made before the game ended, with hidden parts left "
                               "out: it cannot be checked; export the game again once it has ended")
        return report
    try:
        log = read_game(raw, dice_from_seed=False)  # the dice are the commitments' to check, below
    except (MalformedInput, ReplayMismatch) as exc:
        report.problems.append(f"the log does not replay: {exc}")
        return report
    report.entries = len(log.entries)
    server = raw.get("server") if isinstance(raw, Mapping) else None
    if not isinstance(server, Mapping) or not isinstance(server.get("dice"), Mapping) \
            or not isinstance(server.get("game_id"), str):
        report.problems.append("no server dice record: this is not a server export")
        return report
    dice: Mapping[str, Any] = server["dice"]
    if dice.get("scheme") != SCHEME:
        report.problems.append(f"unknown dice scheme {dice.get('scheme')!r} (expected {SCHEME})")
        return report
    game_id: str = server["game_id"]
    from_seq = dice.get("from_seq", 0)
    if not isinstance(from_seq, int) or not 0 <= from_seq <= len(log.entries):
        report.problems.append(f"dice from_seq {from_seq!r} is not an entry number")
        return report
    report.unverifiable_entries = from_seq
    turns = _turn_records(dice.get("turns"), report)
    seeds = _checked_seeds(turns, report)
    nation = log.replay(from_seq).nation
    turn, index, started = 0, 0, from_seq
    for seq in range(from_seq, len(log.entries)):
        events = log.entries[seq].events
        if turn not in turns:
            report.problems.append(f"turn {turn} (from entry {started}): no commitment was published")
        elif turns[turn].get("from_seq", started) != started:
            report.problems.append(f"turn {turn}: recorded as starting at entry {turns[turn]['from_seq']}, "
                                   f"the log starts it at {started}")
        for event in events:
            if not isinstance(event, DiceRolled):
                continue
            seed = seeds.get(turn)
            for value in event.values:
                if seed is None:
                    report.dice_pending += 1
                else:
                    expected = die(seed, game_id, turn, index, event.sides)
                    report.dice_checked += 1
                    if value != expected:
                        report.problems.append(
                            f"entry {seq}: die {index} of turn {turn} shows {value}, its seed gives {expected}"
                        )
                index += 1
        after, new_turn = turn_after(nation, events)
        if new_turn:
            if turn in turns and seeds.get(turn) is None:
                report.problems.append(f"turn {turn} is over but its seed was not revealed")
            nation, turn, index, started = after, turn + 1, 0, seq + 1
    if turn not in turns:
        report.problems.append(f"turn {turn} (the current one): no commitment was published")
    report.turns = turn + 1
    extra = sorted(t for t in turns if t > turn)
    if extra:
        report.problems.append(f"commitments for turns that never started: {extra}")
    return report


def _turn_records(raw: Any, report: VerifyReport) -> dict[int, Mapping[str, Any]]:
    turns: dict[int, Mapping[str, Any]] = {}
    if not isinstance(raw, list):
        report.problems.append("dice turns must be a list")
        return turns
    for record in raw:
        if not isinstance(record, Mapping) or not isinstance(record.get("turn"), int):
            report.problems.append(f"malformed dice turn record {record!r}")
            continue
        if record["turn"] in turns:
            report.problems.append(f"turn {record['turn']} has two commitments")
        turns[record["turn"]] = record
    return turns


def _checked_seeds(turns: Mapping[int, Mapping[str, Any]], report: VerifyReport) -> dict[int, bytes | None]:
    """Revealed seeds that match their commitments (None: not revealed, or failed the check)."""
    seeds: dict[int, bytes | None] = {}
    for turn, record in sorted(turns.items()):
        seeds[turn] = None
        if not isinstance(record.get("commitment"), str):
            report.problems.append(f"turn {turn}: no commitment")
            continue
        seed_hex = record.get("seed")
        if seed_hex is None:
            continue
        try:
            seed = bytes.fromhex(seed_hex)
        except (TypeError, ValueError):
            report.problems.append(f"turn {turn}: the revealed seed is not hex")
            continue
        if commitment(seed) != record["commitment"]:
            report.problems.append(f"turn {turn}: the revealed seed does not match its commitment")
            continue
        seeds[turn] = seed
    return seeds
