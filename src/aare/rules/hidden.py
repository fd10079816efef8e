"""Hidden information: a field of the game state that only some powers may see (a sealed bid, a secret goal).

A ruleset declares its hidden fields through the `hidden_fields` hook, for the state at hand; every surface
reads the state through `aare.player_view`, which redacts each field from the powers not allowed to see it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

# Ruleset-specific state lives under this key of the state's JSON; only it may be hidden, because only there
# do the state and the events that change it (`extra_set`) name the same paths.
HIDEABLE_ROOT = "extra"


@dataclass(frozen=True)
class Hidden:
    """`path` into the state's JSON (e.g. ``("extra", "record", "field")``) that only the powers in `visible_to`
    may see, by the rule `rule_id`."""

    path: tuple[str, ...]
    visible_to: frozenset[str]
    rule_id: str = ""

    def __post_init__(self) -> None:
        path = tuple(self.path)
        if len(path) < 2 or path[0] != HIDEABLE_ROOT or not all(isinstance(p, str) and p for p in path):
            raise ValueError(f"a hidden field is a path under {HIDEABLE_ROOT!r} with a record key, got {path!r}")
        object.__setattr__(self, "path", path)
        object.__setattr__(self, "visible_to", frozenset(self.visible_to))

    def seen_by(self, viewer: Iterable[str]) -> bool:
        """Whether a viewer holding the powers `viewer` may see the field (one of them is enough)."""
        return not self.visible_to.isdisjoint(viewer)

    def to_json(self) -> dict[str, Any]:
        return {"path": list(self.path), "visible_to": sorted(self.visible_to), "rule_id": self.rule_id}

    @staticmethod
    def from_json(raw: Any) -> Hidden:
        return Hidden(tuple(raw["path"]), frozenset(raw["visible_to"]), str(raw.get("rule_id", "")))
