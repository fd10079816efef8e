"""Typed errors. Every error says what is wrong; rule errors name the ledger rule that forbids the action."""

from __future__ import annotations


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
