"""Rule ledgers: YAML lists of testable rule items, one file per rules document."""

from __future__ import annotations

import difflib
import os
import re
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from types import MappingProxyType
from typing import Any

import yaml

from aare.errors import DataFileError

LEDGER_DIR_ENV = "AARE_LEDGER_DIR"
# Items with these statuses have no text to implement: loadable, but not counted toward coverage.
EXCLUDED_STATUSES = frozenset({"absent-from-seed", "under-construction"})

_ID_RE = re.compile(r"^[A-Za-z0-9]+(?:-[A-Za-z0-9]+){2,}$")


@dataclass(frozen=True)
class LedgerItem:
    """One rule item. `area` is the ID up to the slug, e.g. `AARE-CR` for `AARE-CR-adjacent-sub`."""

    id: str
    title: str
    phase: tuple[str, ...]
    status: str | None
    ledger_file: str
    area: str
    fields: Mapping[str, Any] = field(default_factory=dict, compare=False, repr=False)

    @property
    def counted(self) -> bool:
        """Whether the item counts toward coverage."""
        return self.status not in EXCLUDED_STATUSES

    @property
    def rule(self) -> Any:
        return self.fields.get("rule")

    @property
    def test_idea(self) -> str | None:
        return self.fields.get("test_idea")

    @property
    def ambiguity(self) -> str | None:
        return self.fields.get("ambiguity")


@dataclass(frozen=True)
class Ledger:
    """The items of one ledger file, in file order."""

    file: str
    path: Path
    all_items: tuple[LedgerItem, ...]

    @property
    def items(self) -> tuple[LedgerItem, ...]:
        """Items that count toward coverage."""
        return tuple(i for i in self.all_items if i.counted)


class Ledgers:
    """Every ledger of a folder, with lookup by ID across all of them."""

    def __init__(self, folder: Path, ledgers: list[Ledger]) -> None:
        self.folder = folder
        self.ledgers = tuple(ledgers)
        self._by_id: dict[str, LedgerItem] = {}
        for ledger in self.ledgers:
            for item in ledger.all_items:
                other = self._by_id.get(item.id)
                if other is not None:
                    raise DataFileError(
                        str(ledger.path), f"{item.id}.id", f"duplicate ID, also in {other.ledger_file}"
                    )
                self._by_id[item.id] = item

    @property
    def items(self) -> tuple[LedgerItem, ...]:
        """Items that count toward coverage, across all ledgers."""
        return tuple(i for i in self._by_id.values() if i.counted)

    @property
    def all_items(self) -> tuple[LedgerItem, ...]:
        """Every item, including those excluded from coverage."""
        return tuple(self._by_id.values())

    @property
    def ids(self) -> frozenset[str]:
        """Every known ID, including those excluded from coverage."""
        return frozenset(self._by_id)

    def __contains__(self, item_id: object) -> bool:
        return item_id in self._by_id

    def __iter__(self) -> Iterator[Ledger]:
        return iter(self.ledgers)

    def get(self, item_id: str) -> LedgerItem | None:
        return self._by_id.get(item_id)

    def closest(self, item_id: str, n: int = 3) -> list[str]:
        """Known IDs closest to `item_id`, best first."""
        return difflib.get_close_matches(item_id, list(self._by_id), n=n, cutoff=0.6)


def area_of(item_id: str) -> str:
    """The area of an ID: its first two dash-separated parts."""
    return "-".join(item_id.split("-")[:2])


def shared_ledger_dir() -> Path:
    """Where the rule ledgers are looked for by default: `rules/` of the shared folder beside the repository."""
    repo = Path(__file__).resolve().parents[3]
    return repo.parent / "shared" / "rules"


def default_ledger_dir() -> Path | None:
    """`$AARE_LEDGER_DIR` if set, else `<repo>/../shared/rules` when that folder exists, else None."""
    env = os.environ.get(LEDGER_DIR_ENV)
    if env:
        return Path(env)
    candidate = shared_ledger_dir()
    return candidate if candidate.is_dir() else None


def load_ledgers(folder: str | Path) -> Ledgers:
    """Load every `*.yaml` ledger in `folder` (sorted by file name). Raises DataFileError."""
    folder = Path(folder)
    if not folder.is_dir():
        raise DataFileError(str(folder), "ledger", "not a folder")
    paths = sorted(folder.glob("*.yaml"))
    if not paths:
        raise DataFileError(str(folder), "ledger", "no *.yaml ledger in folder")
    return Ledgers(folder, [load_ledger(p) for p in paths])


def load_ledger(path: str | Path) -> Ledger:
    """Load one ledger file: a YAML list of items. Raises DataFileError."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise DataFileError(str(path), "file", exc.strerror or str(exc)) from None
    except yaml.YAMLError as exc:
        raise DataFileError(str(path), "yaml", " ".join(str(exc).split())) from None
    if not isinstance(data, list):
        raise DataFileError(str(path), "ledger", "expected a YAML list of items")
    items = [_item(path, index, raw) for index, raw in enumerate(data)]
    seen: set[str] = set()
    for item in items:
        if item.id in seen:
            raise DataFileError(str(path), f"{item.id}.id", "duplicate ID")
        seen.add(item.id)
    return Ledger(path.name, path, tuple(items))


def _item(path: Path, index: int, raw: Any) -> LedgerItem:
    def fail(key: str, reason: str) -> DataFileError:
        return DataFileError(str(path), key, reason)

    if not isinstance(raw, dict):
        raise fail(f"[{index}]", "expected a mapping")
    item_id = raw.get("id")
    if not isinstance(item_id, str) or not _ID_RE.match(item_id):
        raise fail(f"[{index}].id", f"expected an ID like LEDGER-AREA-slug, got {item_id!r}")
    title = raw.get("title")
    if not isinstance(title, str) or not title.strip():
        raise fail(f"{item_id}.title", "expected a non-empty string")
    phase = raw.get("phase")
    if not isinstance(phase, list) or not phase or not all(isinstance(p, str) and p for p in phase):
        raise fail(f"{item_id}.phase", "expected a non-empty list of phase names")
    status = raw.get("status")
    if status is not None and not isinstance(status, str):
        raise fail(f"{item_id}.status", "expected a string")
    return LedgerItem(
        id=item_id,
        title=title,
        phase=tuple(phase),
        status=status,
        ledger_file=path.name,
        area=area_of(item_id),
        fields=MappingProxyType(dict(raw)),
    )
