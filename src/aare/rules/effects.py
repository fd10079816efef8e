"""Effects: numbers that rules change, each change recorded with the rule that made it.

A rule module contributes `Effect` records; `modify_value` applies the ones that match a kind and
subject and returns the value with its explanation, e.g. ``infantry defense 3 = 2 base, +1 AARE-NA-RUS-...``.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

Context = Mapping[str, Any]


@dataclass(frozen=True)
class Effect:
    """Change `kind` of `subject` (a unit id, a power, "*" for any) by `op` with `value` when `requires` holds."""

    kind: str
    subject: str
    op: str
    value: int
    source_rule_id: str
    description: str = ""
    requires: Callable[[Context], bool] | None = field(default=None, compare=False)

    def applies(self, kind: str, subject: str, context: Context) -> bool:
        if self.kind != kind or self.subject not in (subject, "*"):
            return False
        return self.requires is None or bool(self.requires(context))

    def apply(self, value: int) -> int:
        if self.op == "add":
            return value + self.value
        if self.op == "set":
            return self.value
        if self.op == "min":
            return min(value, self.value)
        if self.op == "max":
            return max(value, self.value)
        raise ValueError(f"unknown effect op {self.op!r}")


@dataclass(frozen=True)
class Explained:
    """A value with the steps that produced it: ``[(source, text), ...]`` starting with the base."""

    value: int
    steps: tuple[tuple[str, str], ...]

    def explain(self) -> str:
        return f"{self.value} = " + ", ".join(f"{text} [{src}]" if src else text for src, text in self.steps)


def modify_value(
    base: int, base_source: str, kind: str, subject: str, effects: Iterable[Effect], context: Context
) -> Explained:
    """Apply, in order, every effect that matches; keep the explanation."""
    value = base
    steps: list[tuple[str, str]] = [(base_source, f"{base} base")]
    for effect in effects:
        if effect.applies(kind, subject, context):
            value = effect.apply(value)
            sign = f"{effect.value:+d}" if effect.op == "add" else f"{effect.op} {effect.value}"
            steps.append((effect.source_rule_id, f"{sign} {effect.description}".strip()))
    return Explained(value, tuple(steps))
