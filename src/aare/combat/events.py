"""Battle events: small frozen records the game engine appends to its log. ``to_json()`` gives a dict."""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from typing import Any


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


@dataclass(frozen=True)
class Event:
    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": _snake(type(self).__name__)}
        for f in fields(self):
            value = getattr(self, f.name)
            out[f.name] = list(value) if isinstance(value, tuple) else value
        return out


@dataclass(frozen=True)
class StepEntered(Event):
    step: str
    cycle: int


@dataclass(frozen=True)
class DiceRolled(Event):
    """`side` rolled `dice` for `count` × `unit`, hitting on `hit_on` or less (best of `per_unit`)."""

    step: str
    side: str
    unit: str
    count: int
    hit_on: int
    dice: tuple[int, ...]
    hits: int
    target: str = "any unit"
    per_unit: int = 1
    repels: int = 0  # dice that repelled their target (`DiceGroup.repel_on`)


@dataclass(frozen=True)
class HitsScored(Event):
    """`count` hits on `side`'s units, assignable to `target`."""

    side: str
    count: int
    target: str
    removal: str


@dataclass(frozen=True)
class CasualtiesChosen(Event):
    """`side` assigned hits: `lost` units are marked (or removed at once), `damaged` absorbed a hit."""

    side: str
    lost: dict[str, int]
    damaged: dict[str, int]
    removal: str


@dataclass(frozen=True)
class UnitsMarked(Event):
    """Hits that mark instead of harming (removal ``flag:<flag>``, e.g. aircraft detected or repelled)."""

    side: str
    units: dict[str, int]
    flag: str


@dataclass(frozen=True)
class UnitsRemoved(Event):
    side: str
    units: dict[str, int]
    step: str


@dataclass(frozen=True)
class Retreated(Event):
    units: dict[str, int]
    to: str | None
    side: str = "attacker"


@dataclass(frozen=True)
class Submerged(Event):
    side: str
    units: dict[str, int]


@dataclass(frozen=True)
class SubsDetected(Event):
    """Submarine detection (AARe): `side`'s subs after the enemy destroyers' detection dice."""

    side: str
    detected: dict[str, int]
    undetected: dict[str, int]
    values: tuple[str, ...] = ()  # each sub group's DD-to-detect value per destroyer group, explained


@dataclass(frozen=True)
class BombingDamage(Event):
    dice: tuple[int, ...]
    rolled: int
    damage: int
    cap: int | None


@dataclass(frozen=True)
class BattleEnded(Event):
    """`result`: attacker, defender, draw, stalemate, retreat or bombed."""

    result: str
    attacker: dict[str, int]
    defender: dict[str, int]
    attacker_can_capture: bool
    cycles: int
