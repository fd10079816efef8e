"""The registry of ruleset families. The core never imports a family: families announce themselves through
the `aare.rulesets` entry point group (see pyproject.toml), and each registers its data folder, its rule
modules and its phase handlers when imported.

A family's data folder holds `boards/`, `units/`, `rulesets/` and `map/`; `data_file(kind, name)` finds a file
in whichever family ships it, so a ruleset of one family may play on another family's board.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from importlib.metadata import entry_points
from pathlib import Path

from aare.errors import UnknownName

GROUP = "aare.rulesets"


@dataclass(frozen=True)
class Family:
    """A ruleset family: its name, title, data folder and the ruleset a new game defaults to (if any)."""

    name: str
    title: str
    data: Path
    default_ruleset: str = ""


_FAMILIES: dict[str, Family] = {}
_loaded = False
_loading = False
_LOAD_LOCK = threading.RLock()


def register_family(family: Family) -> Family:
    """Add a family (called by the family's package when it is imported, and by tests)."""
    known = _FAMILIES.get(family.name)
    if known is not None and known != family:
        raise ValueError(f"ruleset family {family.name} registered twice")
    _FAMILIES[family.name] = family
    return family


def unregister_family(name: str) -> None:
    """Remove a family (tests that register their own)."""
    _FAMILIES.pop(name, None)


def load_families() -> None:
    """Import every installed family once (entry point group `aare.rulesets`). Threads asking at once wait
    until every family is registered (a server's first requests); a family's import asking again returns."""
    global _loaded, _loading
    if _loaded:
        return
    with _LOAD_LOCK:
        if _loaded or _loading:
            return
        _loading = True
        try:
            for point in sorted(entry_points(group=GROUP), key=lambda p: p.name):
                point.load()
            _loaded = True
        finally:
            _loading = False


def families() -> dict[str, Family]:
    load_families()
    return dict(_FAMILIES)


def data_file(kind: str, name: str, suffix: str = ".toml") -> Path:
    """The file `<kind>/<name><suffix>` of whichever family ships it; UnknownName lists the known names."""
    for family in families().values():
        path = family.data / kind / f"{name}{suffix}"
        if path.is_file():
            return path
    known = ", ".join(data_names(kind, suffix)) or "none installed"
    raise UnknownName(f"unknown {kind.rstrip('s')} {name!r} (known: {known})")


def data_names(kind: str, suffix: str = ".toml") -> list[str]:
    """The names of every `<kind>/*<suffix>` file the installed families ship."""
    names = {p.name[: -len(suffix)] for f in families().values() for p in (f.data / kind).glob(f"*{suffix}")}
    return sorted(names)


def default_ruleset() -> str:
    """The ruleset a new game or a battle is played under when none is named."""
    for family in families().values():
        if family.default_ruleset:
            return family.default_ruleset
    raise UnknownName("no ruleset family is installed (pip install -e . registers the built-in ones)")
