"""Dice sources. Every die the engine rolls comes from one of these, and every roll is logged.

- `SeededDice`: reproducible pseudo-random dice; its whole state is ``(seed, counter)``.
- `SystemDice`: the operating system's randomness (a game made without a seed); nothing predicts it.
- `ScriptedDice`: a fixed list of values, for tests and for replaying a log.
- `RecordingDice`: wraps another source and keeps every roll, so a caller can put them in the log.

A source may also offer `plan_roll(request)`: a battle tells it each roll request (`aare.combat`'s dice groups of
one step) before rolling the request's dice group by group, so it can choose the outcome of the whole request at
once and hand out dice that give it (OpenSpiel's chance nodes, `aare.rl.openspiel_game`).
"""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Protocol

from aare.errors import AareError

if TYPE_CHECKING:
    from aare.state.game_state import DiceState


class DiceExhausted(AareError):
    """A scripted source was asked for more dice than it holds."""


class DiceSource(Protocol):
    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        """Roll `n` dice with faces 1..sides."""
        ...


@dataclass
class SeededDice:
    """Deterministic dice from ``sha256(seed:counter)`` with rejection sampling (no modulo bias)."""

    seed: int
    counter: int = 0

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        return tuple(self._one(sides) for _ in range(n))

    def _one(self, sides: int) -> int:
        limit = 256 - 256 % sides
        while True:
            digest = hashlib.sha256(f"{self.seed}:{self.counter}".encode()).digest()
            self.counter += 1
            for byte in digest:
                if byte < limit:
                    return byte % sides + 1


@dataclass
class SystemDice:
    """Dice from the operating system's randomness (`secrets`): nothing in a game file foretells them."""

    counter: int = 0

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        self.counter += n
        return tuple(secrets.randbelow(sides) + 1 for _ in range(n))


def game_dice(state: DiceState) -> SeededDice | SystemDice:
    """The dice a game rolls when no other source is given: seeded, or the operating system's."""
    if state.seed is None:
        return SystemDice(state.counter)
    return SeededDice(state.seed, state.counter)


@dataclass
class ScriptedDice:
    """Hands out the given values in order; raises DiceExhausted when they run out."""

    values: list[int]
    position: int = 0

    def __init__(self, values: Iterable[int]) -> None:
        self.values = list(values)
        self.position = 0

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        if self.position + n > len(self.values):
            raise DiceExhausted(
                f"scripted dice exhausted: asked for {n}, {len(self.values) - self.position} left"
            )
        out = tuple(self.values[self.position : self.position + n])
        self.position += n
        for value in out:
            if not 1 <= value <= sides:
                raise DiceExhausted(f"scripted die {value} is not a face of a d{sides}")
        return out

    @property
    def remaining(self) -> int:
        return len(self.values) - self.position


@dataclass
class RecordingDice:
    """Passes rolls through from `inner` and records them in `rolls`."""

    inner: DiceSource
    rolls: list[tuple[int, ...]] = field(default_factory=list)

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        out = self.inner.roll(n, sides)
        self.rolls.append(out)
        return out
