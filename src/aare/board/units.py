"""Unit types and the unit catalogue, loaded from `data/units/*.toml`."""

from __future__ import annotations

import tomllib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import Any

from aare.errors import DataFileError, UnknownName

DOMAINS = ("land", "sea", "air", "building")


@dataclass(frozen=True)
class UnitType:
    """One kind of unit with its printed statistics. Rule modules change these through hooks, not here."""

    id: str
    domain: str
    cost: int
    move: int
    attack: int
    defense: int
    hits: int = 1
    name: str = ""
    plural: str = ""
    aliases: tuple[str, ...] = ()
    transport_size: int = 0
    transport_capacity: int = 0
    carrier_size: int = 0
    carrier_capacity: int = 0
    tags: frozenset[str] = field(default_factory=frozenset)
    rule: str = ""

    def has(self, tag: str) -> bool:
        return tag in self.tags

    @property
    def display(self) -> str:
        return self.name or self.id

    @property
    def display_plural(self) -> str:
        return self.plural or self.display + "s"


_INT_FIELDS = {f.name for f in fields(UnitType) if f.type in ("int", int)}
_STR_FIELDS = {"id", "domain", "name", "plural", "rule"}


class UnitCatalogue:
    """The ordered set of unit types of a ruleset, with name lookup (ids, plurals and aliases)."""

    def __init__(self, units: list[UnitType]) -> None:
        self._units: dict[str, UnitType] = {u.id: u for u in units}
        self._lookup: dict[str, str] = {}
        for u in units:
            for key in (u.id, u.display, u.display_plural, *u.aliases):
                self._lookup[_norm(key)] = u.id

    def __getitem__(self, unit_id: str) -> UnitType:
        try:
            return self._units[unit_id]
        except KeyError:
            raise UnknownName(f"unknown unit type {unit_id!r}") from None

    def __contains__(self, unit_id: object) -> bool:
        return unit_id in self._units

    def __iter__(self) -> Iterator[UnitType]:
        return iter(self._units.values())

    def __len__(self) -> int:
        return len(self._units)

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(self._units)

    def order(self, unit_id: str) -> int:
        """Position in the catalogue; used to sort unit lists canonically."""
        return self.ids.index(unit_id)

    def resolve(self, name: str) -> str:
        """Unit id for a name, plural or alias (case and spacing insensitive)."""
        try:
            return self._lookup[_norm(name)]
        except KeyError:
            known = ", ".join(self._units)
            raise UnknownName(f"unknown unit {name!r} (known: {known})") from None

    def with_overrides(self, overrides: Mapping[str, Mapping[str, Any]]) -> UnitCatalogue:
        """A new catalogue with some statistics replaced, e.g. `{"bomber": {"cost": 14}}`."""
        units = dict(self._units)
        for unit_id, changes in overrides.items():
            base = self[unit_id]
            bad = set(changes) - {f.name for f in fields(UnitType)}
            if bad:
                raise UnknownName(f"unknown unit attribute(s) {sorted(bad)} for {unit_id}")
            clean = {k: (frozenset(v) if k == "tags" else v) for k, v in changes.items()}
            units[unit_id] = replace(base, **clean)  # type: ignore[arg-type]
        return UnitCatalogue(list(units.values()))


def _norm(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def load_units(path: Path) -> UnitCatalogue:
    """Load and validate a unit catalogue file; a bad file raises DataFileError naming the key."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError) as exc:
        raise DataFileError(str(path), "<file>", str(exc)) from None
    entries = raw.get("unit")
    if not isinstance(entries, list) or not entries:
        raise DataFileError(str(path), "unit", "expected a non-empty list of [[unit]] tables")
    units: list[UnitType] = []
    seen: set[str] = set()
    for i, entry in enumerate(entries):
        key = f"unit[{i}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise DataFileError(str(path), key, "every unit needs a string id")
        key = f"unit.{entry['id']}"
        if entry["id"] in seen:
            raise DataFileError(str(path), key, "duplicate unit id")
        seen.add(entry["id"])
        unknown = set(entry) - {f.name for f in fields(UnitType)}
        if unknown:
            raise DataFileError(str(path), key, f"unknown field(s) {sorted(unknown)}")
        for name, value in entry.items():
            if name in _INT_FIELDS and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
                raise DataFileError(str(path), f"{key}.{name}", "expected a non-negative integer")
            if name in _STR_FIELDS and not isinstance(value, str):
                raise DataFileError(str(path), f"{key}.{name}", "expected a string")
        if entry.get("domain") not in DOMAINS:
            raise DataFileError(str(path), f"{key}.domain", f"must be one of {DOMAINS}")
        missing = {"cost", "move", "attack", "defense"} - set(entry)
        if missing:
            raise DataFileError(str(path), key, f"missing field(s) {sorted(missing)}")
        units.append(
            UnitType(
                **{k: v for k, v in entry.items() if k not in ("aliases", "tags")},
                aliases=tuple(entry.get("aliases", ())),
                tags=frozenset(entry.get("tags", ())),
            )
        )
    return UnitCatalogue(units)
