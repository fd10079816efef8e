"""Compact text for unit groups: ``"3 infantry, 1 artillery, 2 armour"``.

`parse_units` and `format_units` round-trip: ``parse_units(format_units(g)) == g`` for every group.
Names may be singular, plural or an alias from the unit catalogue (``"2 tanks, 1 ftr"``); a bare name
counts one. The empty group is written ``""`` (``"none"`` is read as empty too).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from functools import lru_cache

from aare.board.units import UnitCatalogue
from aare.errors import MalformedInput

_ITEM = re.compile(r"^(?:([0-9]+)\s*[x×*]?\s+)?([A-Za-z][A-Za-z _\-.]*?)\.?$")
MAX_COUNT_DIGITS = 9
"""A count is written in ASCII digits, at most this many (a longer one is no count a game can have)."""
_SPLIT = re.compile(r"\s*(?:,|;|\band\b|\+)\s*")


def parse_units(text: str, catalogue: UnitCatalogue) -> dict[str, int]:
    """Read a unit group into ``{unit_id: count}`` in catalogue order (a new dict each time; the reading of a text
    is remembered per catalogue). Raises MalformedInput."""
    if not isinstance(text, str):
        raise MalformedInput(f"a unit list must be text, got {type(text).__name__}")
    return dict(_parse_units(text, catalogue))


@lru_cache(maxsize=20_000)
def _parse_units(text: str, catalogue: UnitCatalogue) -> dict[str, int]:
    stripped = text.strip()
    if stripped.lower() in ("", "none", "nothing", "-"):
        return {}
    counts: dict[str, int] = {}
    for raw in _SPLIT.split(stripped):
        item = raw.strip()
        if not item:
            raise MalformedInput(f"empty item in unit list {text!r}")
        match = _ITEM.match(item)
        if match is None:
            raise MalformedInput(f"cannot read {item!r} in {text!r}: expected '<count> <unit>', e.g. '3 infantry'")
        digits = match.group(1)
        if digits is not None and len(digits) > MAX_COUNT_DIGITS:
            raise MalformedInput(f"count too large in {item[:40]!r}: at most {MAX_COUNT_DIGITS} digits")
        count = int(digits) if digits is not None else 1
        if count <= 0:
            raise MalformedInput(f"count must be positive in {item!r}")
        try:
            unit = catalogue.resolve(match.group(2))
        except MalformedInput as exc:
            raise MalformedInput(f"{exc} in {text!r}") from None
        counts[unit] = counts.get(unit, 0) + count
    return canonical(counts, catalogue)


def canonical(counts: Mapping[str, int], catalogue: UnitCatalogue) -> dict[str, int]:
    """Drop zero counts and order by the catalogue."""
    return {u: counts[u] for u in sorted(counts, key=catalogue.order) if counts[u]}


def format_units(counts: Mapping[str, int], catalogue: UnitCatalogue) -> str:
    """Write ``{unit_id: count}`` as text; singular names for one, plural otherwise."""
    parts = []
    for unit_id, count in canonical(counts, catalogue).items():
        unit = catalogue[unit_id]
        parts.append(f"{count} {unit.display if count == 1 else unit.display_plural}")
    return ", ".join(parts)
