"""Typed errors. Every error says what is wrong; rule errors name the ledger rule that forbids the action."""

from __future__ import annotations

from typing import Any


class AareError(Exception):
    """Base class of every error aare raises on purpose."""


class MalformedInput(AareError):
    """Input that cannot be read at all: bad JSON, unknown keys, wrong types, unknown names."""


class DataFileError(MalformedInput):
    """A data file (board, units, ruleset, saved game) that fails validation."""

    def __init__(self, path: str, key: str, reason: str) -> None:
        self.path, self.key, self.reason = path, key, reason
        super().__init__(f"{path}: {key}: {reason}")


class UnknownName(MalformedInput):
    """A unit, space, power, ruleset or option that does not exist."""


class IllegalAction(AareError):
    """A well-formed action that the rules forbid now. `rule_id` is the ledger item that forbids it."""

    def __init__(self, reason: str, rule_id: str) -> None:
        self.reason, self.rule_id = reason, rule_id
        super().__init__(f"{reason} [{rule_id}]")


class AmbiguousAction(AareError):
    """An action that matches more than one legal action (e.g. a path that is not unique)."""


class ReplayMismatch(AareError):
    """A log whose replay does not reproduce the recorded state."""


class TamperedLog(MalformedInput):
    """A game log whose entry `index` (0-based) was changed: its hash, its events or its dice are not what its
    place in the chain and its action give."""

    def __init__(self, index: int, reason: str, action: Any = None) -> None:
        self.index = index
        what = f" ({format_short(action)})" if action else ""
        super().__init__(f"game file: entry {index + 1}{what}: {reason}")


def format_short(action: Any) -> str:
    """A compact form of an action's JSON for messages."""
    if isinstance(action, dict):
        return ", ".join(f"{k}={v}" for k, v in action.items())[:120]
    return str(action)[:120]
