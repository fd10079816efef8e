"""Counted groups of identical units: (owner, unit type, status) with a count."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aare.errors import MalformedInput


@dataclass(frozen=True, order=True)
class Stack:
    """`count` units of one type and owner sharing one status.

    `damage` is hits taken (two-hit battleships) or damage points on an industrial complex (raids and rockets
    under rules that damage complexes, `economy.complex_damage`), `moved` the movement points spent this turn,
    and `flags` any further status a rule needs (e.g. "submerged", "amphibious", "cargo:<transport key>").
    """

    owner: str
    unit: str
    count: int
    damage: int = 0
    moved: int = 0
    flags: tuple[str, ...] = ()

    @property
    def status(self) -> tuple[str, str, int, int, tuple[str, ...]]:
        """Everything but the count: stacks with equal status merge."""
        return (self.owner, self.unit, self.damage, self.moved, self.flags)

    def with_count(self, count: int) -> Stack:
        if count == self.count:
            return self
        copy = object.__new__(Stack)  # the fields copied as they are: a frozen dataclass's __init__ is slow
        copy.__dict__.update(self.__dict__, count=count)
        return copy

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"owner": self.owner, "unit": self.unit, "count": self.count}
        if self.damage:
            out["damage"] = self.damage
        if self.moved:
            out["moved"] = self.moved
        if self.flags:
            out["flags"] = list(self.flags)
        return out

    @staticmethod
    def from_json(raw: Any) -> Stack:
        if not isinstance(raw, Mapping):
            raise MalformedInput(f"a unit stack must be an object, got {raw!r}")
        unknown = set(raw) - {"owner", "unit", "count", "damage", "moved", "flags"}
        if unknown:
            raise MalformedInput(f"unknown stack field(s) {sorted(unknown)}")
        try:
            owner, unit, count = raw["owner"], raw["unit"], raw["count"]
        except KeyError as exc:
            raise MalformedInput(f"a unit stack needs {exc.args[0]!r}") from None
        damage, moved, flags = raw.get("damage", 0), raw.get("moved", 0), raw.get("flags", [])
        if not (isinstance(owner, str) and isinstance(unit, str)):
            raise MalformedInput("stack owner and unit must be text")
        for name, value in (("count", count), ("damage", damage), ("moved", moved)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise MalformedInput(f"stack {name} must be a non-negative whole number, got {value!r}")
        if count == 0:
            raise MalformedInput("stack count must be positive")
        if not isinstance(flags, list) or not all(isinstance(f, str) for f in flags):
            raise MalformedInput("stack flags must be a list of text")
        return Stack(owner, unit, count, damage, moved, tuple(sorted(flags)))


def normalise(stacks: Iterable[Stack]) -> tuple[Stack, ...]:
    """Merge stacks of equal status, drop empty ones, sort canonically (a stack merged with none is kept as it
    is)."""
    merged: dict[tuple[str, str, int, int, tuple[str, ...]], Stack] = {}
    for stack in stacks:
        if stack.count:
            status = (stack.owner, stack.unit, stack.damage, stack.moved, stack.flags)
            found = merged.get(status)
            merged[status] = stack if found is None else found.with_count(found.count + stack.count)
    return tuple(sorted(s for s in merged.values() if s.count > 0))


def add_stack(stacks: tuple[Stack, ...], stack: Stack) -> tuple[Stack, ...]:
    return normalise((*stacks, stack))


def remove_stack(stacks: tuple[Stack, ...], stack: Stack) -> tuple[Stack, ...]:
    """Take `stack.count` units of exactly that status away; raise ValueError if there are not enough."""
    have = sum(s.count for s in stacks if s.status == stack.status)
    if have < stack.count:
        raise ValueError(f"cannot remove {stack.count} {stack.unit} of {stack.owner}: only {have} present")
    out = [s for s in stacks if s.status != stack.status]
    if have > stack.count:
        out.append(stack.with_count(have - stack.count))
    return normalise(out)


def count_units(stacks: Iterable[Stack], owner: str | None = None) -> dict[str, int]:
    """Unit id -> count, optionally of one owner only."""
    out: dict[str, int] = {}
    for stack in stacks:
        if owner is None or stack.owner == owner:
            out[stack.unit] = out.get(stack.unit, 0) + stack.count
    return out
