"""Typed game options. A ruleset declares them; a game chooses values at creation (`KEY=VALUE`)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aare.errors import MalformedInput, UnknownName

OptionValue = bool | int | str

_TRUE = {"true", "yes", "on", "1"}
_FALSE = {"false", "no", "off", "0"}


@dataclass(frozen=True)
class OptionSpec:
    """One option: its key, type, default, allowed values and the ledger rule it configures."""

    key: str
    type: type
    default: OptionValue
    help: str
    rule_id: str = ""
    choices: tuple[OptionValue, ...] = ()
    minimum: int | None = None

    def parse(self, raw: Any) -> OptionValue:
        """Convert text or a JSON value to the option's type; raise MalformedInput when it does not fit."""
        value: OptionValue
        if self.type is bool:
            if isinstance(raw, bool):
                value = raw
            elif isinstance(raw, str) and raw.lower() in _TRUE | _FALSE:
                value = raw.lower() in _TRUE
            else:
                raise MalformedInput(f"option {self.key} takes true/false, not {raw!r}")
        elif self.type is int:
            try:
                if isinstance(raw, bool):
                    raise ValueError
                value = int(raw)
            except (TypeError, ValueError):
                raise MalformedInput(f"option {self.key} takes a whole number, not {raw!r}") from None
            if self.minimum is not None and value < self.minimum:
                raise MalformedInput(f"option {self.key} must be at least {self.minimum}, not {value}")
        else:
            if not isinstance(raw, str):
                raise MalformedInput(f"option {self.key} takes text, not {raw!r}")
            value = raw
        if self.choices and value not in self.choices:
            allowed = ", ".join(str(c) for c in self.choices)
            raise MalformedInput(f"option {self.key} must be one of {allowed}, not {value!r}")
        return value


def resolve_options(specs: Iterable[OptionSpec], given: Mapping[str, Any]) -> dict[str, OptionValue]:
    """Defaults overlaid with the given values, every key known and every value typed; sorted by key."""
    by_key = {s.key: s for s in specs}
    unknown = sorted(set(given) - set(by_key))
    if unknown:
        known = ", ".join(sorted(by_key)) or "none"
        raise UnknownName(f"unknown option(s) {', '.join(unknown)} (this ruleset has: {known})")
    values = {k: s.default for k, s in by_key.items()}
    for key, raw in given.items():
        values[key] = by_key[key].parse(raw)
    return dict(sorted(values.items()))


def parse_option_args(args: Iterable[str]) -> dict[str, str]:
    """`["KEY=VALUE", ...]` from the command line into a dict."""
    out: dict[str, str] = {}
    for arg in args:
        key, sep, value = arg.partition("=")
        if not sep or not key.strip():
            raise MalformedInput(f"option {arg!r} must be written KEY=VALUE")
        out[key.strip()] = value.strip()
    return out
