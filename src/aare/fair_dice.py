"""Dice no one can forge: a secret seed per turn, committed before the turn and revealed after it.

Before a turn starts the server draws a 32-byte seed and publishes ``sha256(seed)``. Die number `index`
(counted from 0 within the turn) is the first byte below ``256 - 256 % sides`` of
``HMAC-SHA256(seed, "<game id>|<turn>|<index>")``, then of ``…|<index>|1``, ``…|<index>|2`` … (rejection
sampling, so every face is equally likely), mapped to ``byte % sides + 1``. When play passes to another
nation the seed is revealed and anyone can recompute every die of the turn (`aare verify`).

A turn is counted per log entry: the entry whose events hand play to another nation ends the turn, and
every die rolled in an entry belongs to the turn in force when the entry began.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aare.events import DiceRolled, Event, MemberFocused, PhaseEntered, TeamTurnEnded, TeamTurnStarted

SCHEME = "hmac-sha256-v1"


def new_seed() -> bytes:
    return secrets.token_bytes(32)


def commitment(seed: bytes) -> str:
    """The published commitment to a seed: its sha256, in hex."""
    return hashlib.sha256(seed).hexdigest()


def die(seed: bytes, game_id: str, turn: int, index: int, sides: int = 6) -> int:
    """Die `index` of `turn` in game `game_id`, a face 1..sides, derived from `seed`."""
    if not 2 <= sides <= 256:
        raise ValueError(f"dice need 2 to 256 sides, not {sides}")
    limit = 256 - 256 % sides
    block = 0
    while True:
        message = f"{game_id}|{turn}|{index}" + (f"|{block}" if block else "")
        for byte in hmac.new(seed, message.encode(), hashlib.sha256).digest():
            if byte < limit:
                return byte % sides + 1
        block += 1


@dataclass
class CommittedDice:
    """A `DiceSource` rolling the dice of one turn from its secret seed; `index` is the next die's number."""

    seed: bytes
    game_id: str
    turn: int
    index: int = 0

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        values = tuple(die(self.seed, self.game_id, self.turn, self.index + i, sides) for i in range(n))
        self.index += n
        return values


def turn_after(nation: str, events: Iterable[Event]) -> tuple[str, bool]:
    """The power holding the turn after `events` (a team's first member), starting from `nation`, and whether
    a new turn began. Inside a team turn (its entries begin by focusing a member) members change phases
    without changing the turn."""
    team, new = False, False
    for event in events:
        if isinstance(event, MemberFocused):
            team = True
        elif isinstance(event, TeamTurnStarted):
            team, new, nation = True, True, event.powers[0]
        elif isinstance(event, TeamTurnEnded):
            team = False
        elif isinstance(event, PhaseEntered) and not team and event.nation != nation:
            nation, new = event.nation, True
    return nation, new


def dice_count(events: Iterable[Event]) -> int:
    """How many dice `events` rolled."""
    return sum(len(e.values) for e in events if isinstance(e, DiceRolled))


@dataclass
class DiceReport:
    """What checking a game's committed dice found: dice checked against their revealed seeds, dice whose seed is
    not revealed yet, entries with no committed dice to check, and the problems; `ok` when there are none."""

    dice_checked: int = 0
    dice_pending: int = 0
    unverifiable_entries: int = 0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def dice_json(self) -> dict[str, Any]:
        """The common part of a report's JSON."""
        return {"ok": self.ok, "dice_checked": self.dice_checked, "dice_pending": self.dice_pending,
                "unverifiable_entries": self.unverifiable_entries, "problems": self.problems}
