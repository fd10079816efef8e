"""Our Revised board agrees with the TripleA game file for the same board (third-party, read-only).

Skipped when `../shared` is absent. The TripleA file is only parsed here; none of it is copied into aare.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from aare.board.board import Board, load_board
from aare.board.units import UnitCatalogue, load_units
from aare.rules.registry import data_file
from tests.board.helpers import attachments as read_attachments
from tests.board.helpers import placements, reference_placements

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
XML = SHARED / "reference" / "boards" / "revised-lhtr.xml"
if not XML.is_file():
    pytest.skip(f"TripleA reference board not present at {XML}", allow_module_level=True)

UNITS = data_file("units", "revised")

# TripleA names -> ours.
PLAYERS = {
    "Russians": "Russia",
    "Germans": "Germany",
    "British": "United Kingdom",
    "Japanese": "Japan",
    "Americans": "United States",
}
RENAMED = {"Philipine Islands": "Philippine Islands", "Kwantung": "Kwangtung"}
UNIT_TYPES = {"aaGun": "aa_gun"}
UNITS_ITEMS = (
    "LHTR-SETUP-units-ussr",
    "LHTR-SETUP-units-germany",
    "LHTR-SETUP-units-uk",
    "LHTR-SETUP-units-japan",
    "LHTR-SETUP-units-usa",
)


def ours(name: str) -> str:
    """Our name for a TripleA territory name."""
    number, _, rest = name.partition(" ")
    if rest == "Sea Zone" and number.isdigit():
        return f"SZ {number}"
    return RENAMED.get(name, name)


@pytest.fixture(scope="module")
def xml() -> ET.Element:
    return ET.parse(XML).getroot()


@pytest.fixture(scope="module")
def units() -> UnitCatalogue:
    return load_units(UNITS)


@pytest.fixture(scope="module")
def board(units: UnitCatalogue) -> Board:
    return load_board(data_file("boards", "revised"), units)


def attachments(xml: ET.Element, kind: str) -> dict[str, dict[str, str]]:
    """`{our space name: {option: value}}` for every attachment of one kind."""
    return read_attachments(xml, kind, ours)


@pytest.mark.rule("LHTR-SETUP-board-size")
def test_same_territories_and_sea_zones(board: Board, xml: ET.Element) -> None:
    theirs = {ours(t.get("name", "")): t.get("water") == "true" for t in xml.iter("territory")}
    assert len(theirs) == 143
    assert {name: space.is_sea for name, space in board.spaces.items()} == theirs


@pytest.mark.rule("LHTR-SETUP-board-size")
def test_same_connections(board: Board, xml: ET.Element) -> None:
    theirs = {frozenset((ours(c.get("t1", "")), ours(c.get("t2", "")))) for c in xml.iter("connection")}
    assert len(theirs) == 348
    assert {frozenset(pair) for pair in board.connections()} == theirs


@pytest.mark.rule("LHTR-SETUP-territory-ownership")
def test_same_production_values(board: Board, xml: ET.Element) -> None:
    theirs = {name: int(opts["production"]) for name, opts in attachments(xml, "territoryAttachment").items()}
    assert {s.name: s.ipc for s in board.land()} == theirs
    assert all(s.ipc == 0 for s in board.seas())


@pytest.mark.rule("LHTR-SETUP-territory-ownership")
def test_same_original_owners(board: Board, xml: ET.Element) -> None:
    theirs = {ours(t.get("territory", "")): PLAYERS[t.get("owner", "")] for t in xml.iter("territoryOwner")}
    assert {s.name: s.owner for s in board.spaces.values() if s.owner} == theirs


@pytest.mark.rule("LHTR-SETUP-neutral-territories")
def test_same_impassable_neutrals(board: Board, xml: ET.Element) -> None:
    theirs = {n for n, opts in attachments(xml, "territoryAttachment").items() if opts.get("isImpassable") == "true"}
    assert {s.name for s in board.land() if s.neutral} == theirs


@pytest.mark.rule("LHTR-ECON-capitals")
def test_same_capitals(board: Board, xml: ET.Element) -> None:
    theirs = {n: PLAYERS[o["capital"]] for n, o in attachments(xml, "territoryAttachment").items() if "capital" in o}
    assert board.capitals() == theirs


@pytest.mark.rule("LHTR-VICTORY-cities")
def test_same_victory_city_territories(board: Board, xml: ET.Element) -> None:
    theirs = {n for n, opts in attachments(xml, "territoryAttachment").items() if opts.get("victoryCity") == "1"}
    assert set(board.victory_cities()) == theirs


def test_same_powers_turn_order_and_sides(board: Board, xml: ET.Element) -> None:
    players = [PLAYERS[p.get("name", "")] for p in xml.iter("player")]
    sides = {PLAYERS[a.get("player", "")]: a.get("alliance") for a in xml.iter("alliance")}
    assert [p.name for p in board.powers] == players
    assert {p.name: p.side for p in board.powers} == sides


def test_same_canals_and_required_territories(board: Board, xml: ET.Element) -> None:
    theirs: dict[str, tuple[set[str], set[str]]] = {}
    for a in xml.iter("attachment"):
        if a.get("name") != "canalAttachment":
            continue
        opts = {o.get("name", ""): o.get("value", "") for o in a.iter("option")}
        seas, lands = theirs.setdefault(opts["canalName"], (set(), set()))
        seas.add(ours(a.get("attachTo", "")))
        lands.update(ours(t) for t in opts["landTerritories"].split(":"))
    assert {c.name: (set(c.seas), set(c.requires)) for c in board.canals} == theirs


@pytest.mark.rule(*UNITS_ITEMS, "LHTR-SETUP-starting-complexes-and-aa")
def test_same_starting_units(board: Board, units: UnitCatalogue, xml: ET.Element) -> None:
    theirs = reference_placements(xml, PLAYERS, ours, UNIT_TYPES)
    assert all(unit in units for _, _, unit in theirs)
    assert placements(board) == theirs


@pytest.mark.rule("LHTR-SETUP-starting-treasury")
def test_same_starting_banks(board: Board, xml: ET.Element) -> None:
    theirs = {
        PLAYERS[r.get("player", "")]: int(r.get("quantity", "0"))
        for r in xml.iter("resourceGiven")
        if r.get("resource") == "PUs"
    }
    assert board.bank == theirs
