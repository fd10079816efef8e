"""Loading rule ledgers."""

from __future__ import annotations

from pathlib import Path

import pytest

from aare.errors import DataFileError
from aare.ledger import ledger as ledger_module
from aare.ledger.ledger import EXCLUDED_STATUSES, area_of, default_ledger_dir, load_ledgers


def test_items_exclude_absent_and_under_construction(ledger_dir: Path) -> None:
    ledgers = load_ledgers(ledger_dir)
    assert [lg.file for lg in ledgers] == ["a.yaml", "b.yaml", "c.yaml"]
    assert {i.id for i in ledgers.items} == {
        "AAA-ONE-first",
        "AAA-ONE-second",
        "AAA-TWO-third",
        "BBB-X-alpha",
        "CCC-Z-lonely",
    }
    assert {i.id for i in ledgers.all_items} - {i.id for i in ledgers.items} == {"AAA-TWO-gone", "BBB-X-beta"}
    assert "BBB-X-beta" in ledgers
    assert [i.id for i in ledgers.ledgers[1].items] == ["BBB-X-alpha"]


def test_item_fields(ledger_dir: Path) -> None:
    ledgers = load_ledgers(ledger_dir)
    item = ledgers.get("AAA-ONE-second")
    assert item is not None
    assert (item.id, item.title, item.phase, item.status, item.ledger_file, item.area) == (
        "AAA-ONE-second",
        "Second rule",
        ("combat-move", "any"),
        None,
        "a.yaml",
        "AAA-ONE",
    )
    assert item.rule == "Something else holds."
    gone = ledgers.get("AAA-TWO-gone")
    assert gone is not None and gone.status == "absent-from-seed" and not gone.counted
    assert ledgers.closest("AAA-ONE-frist")[0] == "AAA-ONE-first"


def test_area_is_first_two_parts() -> None:
    assert area_of("AARE-CR-adjacent-sub") == "AARE-CR"
    assert area_of("LHTR-TURN-power-order") == "LHTR-TURN"


def test_duplicate_id_across_ledgers_is_an_error(ledger_dir: Path) -> None:
    (ledger_dir / "d.yaml").write_text(
        "- {id: AAA-ONE-first, title: Again, rule: x, phase: [any], test_idea: y}\n", encoding="utf-8"
    )
    with pytest.raises(DataFileError, match=r"d\.yaml: AAA-ONE-first\.id: duplicate ID, also in a\.yaml"):
        load_ledgers(ledger_dir)


@pytest.mark.parametrize(
    ("text", "key"),
    [
        ("id: AAA-ONE-x\n", "ledger"),
        ("- just a string\n", "[0]"),
        ("- {id: AAA-x, title: T, phase: [any]}\n", "[0].id"),
        ("- {id: AAA-ONE-x, phase: [any]}\n", "AAA-ONE-x.title"),
        ("- {id: AAA-ONE-x, title: T, phase: any}\n", "AAA-ONE-x.phase"),
        ("- {id: AAA-ONE-x, title: T, phase: [any], status: 3}\n", "AAA-ONE-x.status"),
        (
            "- {id: AAA-ONE-x, title: T, phase: [any]}\n- {id: AAA-ONE-x, title: U, phase: [any]}\n",
            "AAA-ONE-x.id",
        ),
        ("- id: [unclosed\n", "yaml"),
    ],
)
def test_malformed_ledger(tmp_path: Path, text: str, key: str) -> None:
    (tmp_path / "bad.yaml").write_text(text, encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_ledgers(tmp_path)
    assert info.value.key == key
    assert info.value.path.endswith("bad.yaml")


def test_missing_or_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="not a folder"):
        load_ledgers(tmp_path / "nope")
    with pytest.raises(DataFileError, match=r"no \*\.yaml ledger"):
        load_ledgers(tmp_path)


def test_default_ledger_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("AARE_LEDGER_DIR", str(tmp_path))
    assert default_ledger_dir() == tmp_path
    monkeypatch.delenv("AARE_LEDGER_DIR")
    fake_repo = tmp_path / "work" / "main"
    monkeypatch.setattr(ledger_module, "__file__", str(fake_repo / "src" / "aare" / "ledger" / "ledger.py"))
    assert default_ledger_dir() is None
    (tmp_path / "work" / "shared" / "rules").mkdir(parents=True)
    assert default_ledger_dir() == tmp_path / "work" / "shared" / "rules"


def test_real_ledgers_load() -> None:
    folder = default_ledger_dir()
    if folder is None:
        pytest.skip("no shared rule ledgers next to this checkout")
    ledgers = load_ledgers(folder)
    assert [lg.file for lg in ledgers] == sorted(p.name for p in folder.glob("*.yaml"))
    assert all(i.status not in EXCLUDED_STATUSES for i in ledgers.items)
    assert len(ledgers.items) < len(ledgers.all_items)
