"""The Classic board file (Milton Bradley, 2nd edition) and its unit catalogue: sizes, geography, owners, values,
banks, capitals, canals and starting units; then the same facts against the rule ledger classic-base and against
the TripleA encoding of the board (third-party, read-only; those checks skip when `../shared` is absent)."""

from __future__ import annotations

import tomllib
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

import aare.rulesets.classic as classic
from aare.board.board import Board, load_board
from aare.board.notation import parse_units
from aare.board.units import UnitCatalogue, load_units
from aare.rules.registry import families, load_families
from tests.board.helpers import attachments as read_attachments
from tests.board.helpers import placements, reference_banks, reference_canals, reference_placements, starting_units

DATA = Path(classic.__file__).resolve().parent / "data"
BOARD = DATA / "boards" / "classic.toml"
UNITS = DATA / "units" / "classic.toml"
REVISED = Path(classic.__file__).resolve().parents[1] / "lhtr" / "data" / "boards" / "revised.toml"
SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
LEDGER = SHARED / "rules" / "classic-base.yaml"
REFERENCE = SHARED / "reference" / "boards" / "classic.xml"

RUS, GER, UK, JPN, US = "Russia", "Germany", "United Kingdom", "Japan", "United States"
ORDER = [RUS, GER, UK, JPN, US]
SIDES = {RUS: "Allies", GER: "Axis", UK: "Allies", JPN: "Axis", US: "Allies"}
CAPITALS = {"Russia": RUS, "Germany": GER, "United Kingdom": UK, "Japan": JPN, "East US": US}
INCOME = {RUS: 24, GER: 32, UK: 30, JPN: 25, US: 36}
NEUTRALS = {
    "Afghanistan", "Angola", "Argentina-Chile", "Colombia", "Eire", "Mongolia", "Mozambique", "Peru", "Rio del Oro",
    "Saudi Arabia", "Spain", "Sweden", "Switzerland", "Turkey",
}
ZERO_VALUE = {"Midway", "Gibraltar", "Caroline Islands", "Solomon Islands", "Wake Island"}
# Names: ours as printed on the map; the spelling of the ledger and of the encoding is an alias.
RENAMED = {
    "Carribean Sea Zone": "Caribbean Sea Zone", "Columbia": "Colombia",
    "Central Mediteranean Sea Zone": "Central Mediterranean Sea Zone",
    "East Mediteranean Sea Zone": "East Mediterranean Sea Zone",
    "West Mediteranean Sea Zone": "West Mediterranean Sea Zone",
}
PLAYERS = {"Russians": RUS, "Germans": GER, "British": UK, "Japanese": JPN, "Americans": US}
SETUP_ITEM = {RUS: "russians", GER: "germans", UK: "british", JPN: "japanese", US: "americans"}
UNIT_TYPES = {"aaGun": "aa_gun"}
# Unit values of the CL-UNITS items: cost, attack, defense, move, hits.
UNIT_TABLE = {
    "infantry": (3, 1, 2, 1, 1), "armour": (5, 3, 2, 2, 1), "aa_gun": (5, 0, 0, 1, 1), "factory": (15, 0, 0, 0, 1),
    "fighter": (12, 3, 4, 4, 1), "bomber": (15, 4, 1, 6, 1), "transport": (8, 0, 1, 2, 1),
    "submarine": (8, 2, 2, 2, 1), "carrier": (18, 1, 3, 2, 1), "battleship": (24, 4, 4, 2, 1),
}


def ours(name: str) -> str:
    """Our name for a name of the ledger or the encoding."""
    return RENAMED.get(name, name)


@pytest.fixture(scope="module")
def units() -> UnitCatalogue:
    return load_units(UNITS)


@pytest.fixture(scope="module")
def board(units: UnitCatalogue) -> Board:
    return load_board(BOARD, units)


@pytest.fixture(scope="module")
def ledger() -> dict[str, dict[str, Any]]:
    if not LEDGER.is_file():
        pytest.skip(f"Classic rule ledger not present at {LEDGER}")
    return {item["id"]: item for item in yaml.safe_load(LEDGER.read_text(encoding="utf-8"))}


def income(board: Board, power: str) -> int:
    return sum(board.spaces[t].ipc for t, owner in board.owners.items() if owner == power)


# --- the board file alone ----------------------------------------------------------------------------------------


@pytest.mark.rule("CL-TURN-power-order")
def test_loads_with_the_classic_turn_order_and_sides(board: Board) -> None:
    assert board.id == "classic" and board.scenario is None
    assert [p.name for p in board.powers] == ORDER
    assert {p.name: p.side for p in board.powers} == SIDES
    assert list(board.bank) == ORDER
    assert board.resolve_power("Russians") == RUS and board.resolve_power("USSR") == RUS


def test_family_is_registered() -> None:
    load_families()
    assert "classic" in families()


def test_power_colours_are_the_revised_boards(board: Board) -> None:
    revised = {p["name"]: (p["colour"], p["ink"]) for p in tomllib.loads(REVISED.read_text(encoding="utf-8"))["power"]}
    assert {p.name: (p.colour, p.ink) for p in board.powers} == revised


@pytest.mark.rule("CL-MAP-territory-count")
def test_128_spaces_70_land_58_sea_309_connections(board: Board) -> None:
    assert len(board.spaces) == 128 and len(board.land()) == 70 and len(board.seas()) == 58
    # The ledger counts 310 connections: the encoding lists South Brazil - Congo twice; 309 distinct pairs.
    assert len(board.connections()) == 309
    assert sorted(s.number for s in board.seas()) == list(range(1, 59))
    assert len([s for s in board.land() if s.owner]) == 56


def test_adjacency_is_symmetric_and_everything_is_reachable(board: Board) -> None:
    for space in board.spaces.values():
        for other in space.neighbors:
            assert space.name in board.spaces[other].neighbors
    seen, todo = {"Germany"}, ["Germany"]
    while todo:
        for n in board.spaces[todo.pop()].neighbors:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(board.spaces)


@pytest.mark.rule("CL-MAP-west-canada-east-sea")
def test_west_canada_touches_east_canada_sea_zone(board: Board) -> None:
    assert board.adjacent("West Canada", "East Canada Sea Zone")


@pytest.mark.rule("CL-MAP-south-africa-mozambique")
def test_south_africa_touches_three_sea_zones(board: Board) -> None:
    seas = {n for n in board.spaces["South Africa"].neighbors if board.spaces[n].is_sea}
    assert seas == {"Mozambique Sea Zone", "South Africa Sea Zone", "Angola Sea Zone"}


@pytest.mark.rule("CL-MAP-turkey-not-from-south-europe")
def test_turkey_borders(board: Board) -> None:
    assert set(board.spaces["Turkey"].neighbors) == {
        "Caucasus", "Persia", "Syria Jordan", "Black Sea Zone", "East Mediterranean Sea Zone"}
    assert not board.adjacent("Turkey", "South Europe")


@pytest.mark.rule("CL-MAP-rc-adjacency-notes")
def test_adjacencies_of_the_rules_clarifications(board: Board) -> None:
    assert not board.adjacent("Kwangtung", "Japan Sea Zone")
    assert board.adjacent("Kwangtung", "Kwangtung Sea Zone")
    assert board.adjacent("New Zealand Sea Zone", "Peru Sea Zone")
    assert board.adjacent("New Zealand Sea Zone", "South Argentina Sea Zone")
    assert board.adjacent("Caribbean Sea Zone", "West Panama Sea Zone")
    assert board.adjacent("Gulf of Mexico Sea Zone", "Mexico") and board.adjacent("Gulf of Mexico Sea Zone", "West US")
    assert not board.adjacent("Gulf of Mexico Sea Zone", "Mexico Sea Zone")


@pytest.mark.rule("CL-SEAMOVE-black-sea-open")
def test_black_sea_reaches_the_mediterranean(board: Board) -> None:
    assert set(board.spaces["Black Sea Zone"].neighbors) == {
        "Caucasus", "East Europe", "Turkey", "Ukraine S.S.R.", "Central Mediterranean Sea Zone",
        "East Mediterranean Sea Zone"}


@pytest.mark.rule("CL-SEAMOVE-suez")
@pytest.mark.rule("CL-SEAMOVE-panama")
def test_two_canals(board: Board) -> None:
    assert {c.name: (set(c.seas), set(c.requires)) for c in board.canals} == {
        "Suez Canal": ({"East Mediterranean Sea Zone", "Red Sea Zone"}, {"Anglo Sudan Egypt", "Syria Jordan"}),
        "Panama Canal": ({"Caribbean Sea Zone", "West Panama Sea Zone"}, {"Panama"}),
    }
    assert board.canal_between("Red Sea Zone", "East Mediterranean Sea Zone") is not None


@pytest.mark.rule("CL-NEUTRAL-list")
@pytest.mark.rule("CL-NEUTRAL-no-income")
def test_fourteen_neutrals_are_nobodys_worth_0_and_not_impassable(board: Board) -> None:
    unowned = {s.name for s in board.land() if s.owner is None}
    assert unowned == NEUTRALS
    assert all(board.spaces[t].ipc == 0 for t in NEUTRALS)
    assert not any(s.neutral for s in board.spaces.values())  # Classic neutrals may be entered (CL-NEUTRAL-entry-fee)
    assert not any(t in board.owners for t in NEUTRALS)
    assert not any(group.space in NEUTRALS for group in board.setup)


@pytest.mark.rule("CL-MAP-zero-value-territories")
def test_zero_value_owned_territories(board: Board) -> None:
    assert {s.name for s in board.land() if s.owner and s.ipc == 0} == ZERO_VALUE


@pytest.mark.rule("CL-MAP-capitals")
def test_five_capitals_and_no_victory_cities(board: Board) -> None:
    assert board.capitals() == CAPITALS
    assert board.victory_cities() == {}


def test_spellings_of_the_encoding_are_aliases(board: Board) -> None:
    for theirs, ours_ in RENAMED.items():
        assert board.resolve(theirs) == ours_


@pytest.mark.rule("CL-SETUP-income-levels")
@pytest.mark.rule("CL-VICTORY-axis-economic")
def test_starting_income_of_each_power(board: Board) -> None:
    assert {p: income(board, p) for p in ORDER} == INCOME
    assert income(board, GER) + income(board, JPN) == 57
    assert sum(s.ipc for s in board.land()) == 147
    assert board.owners == {s.name: s.owner for s in board.land() if s.owner}


@pytest.mark.rule("CL-SETUP-banks")
def test_banks_equal_starting_income(board: Board) -> None:
    assert board.bank == INCOME


@pytest.mark.rule("CL-SETUP-carrier-fighters")
def test_fighters_at_sea_are_on_carriers_with_one_free_place(board: Board, units: UnitCatalogue) -> None:
    at_sea = {(g.power, g.space): g.units for g in board.setup if board.spaces[g.space].is_sea and "fighter" in g.units}
    assert set(at_sea) == {(US, "Hawaii Sea Zone"), (JPN, "Caroline Islands Sea Zone")}
    for group in at_sea.values():
        assert group["fighter"] == 1 and group["carrier"] == 1
        assert units["carrier"].carrier_capacity - group["fighter"] * units["fighter"].carrier_size == 1


def test_no_land_units_start_at_sea(board: Board, units: UnitCatalogue) -> None:
    for group in board.setup:
        if board.spaces[group.space].is_sea:
            assert all(units[u].domain in ("sea", "air") for u in group.units), group.space


# --- the unit catalogue ------------------------------------------------------------------------------------------


@pytest.mark.rule("CL-UNITS-roster")
@pytest.mark.rule("CL-UNITS-battleship")
def test_unit_catalogue_values(units: UnitCatalogue) -> None:
    assert {u.id: (u.cost, u.attack, u.defense, u.move, u.hits) for u in units} == UNIT_TABLE
    assert "artillery" not in units and "destroyer" not in units
    assert not units["battleship"].has("two_hit") and units["battleship"].has("bombard")
    assert units["transport"].transport_capacity == 2
    assert {u: units[u].transport_size for u in ("infantry", "armour", "aa_gun")} == {
        "infantry": 1, "armour": 2, "aa_gun": 2}
    assert units["carrier"].carrier_capacity == 2 and units["fighter"].carrier_size == 1
    assert parse_units("2 inf, 1 tank, 1 bb", units) == Counter({"infantry": 2, "armour": 1, "battleship": 1})


@pytest.mark.rule("CL-UNITS-roster")
def test_unit_catalogue_matches_ledger(units: UnitCatalogue, ledger: dict[str, dict[str, Any]]) -> None:
    roster = ledger["CL-UNITS-roster"]["data"]["units"]
    assert {UNIT_TYPES.get(u, u) for u in roster} == {u.id for u in units}
    for unit in units:
        data = ledger[unit.rule]["data"]
        assert (unit.cost, unit.move) == (data["cost"], data["move"]), unit.id
        if data.get("attack") is not None:
            assert (unit.attack, unit.defense, unit.hits) == (data["attack"], data["defense"], data["hits"]), unit.id
        if "transport_cost" in data:
            assert unit.transport_size == data["transport_cost"], unit.id


# --- against the rule ledger (classic-base.yaml) -----------------------------------------------------------------


@pytest.mark.parametrize(
    "power", [pytest.param(p, marks=pytest.mark.rule(f"CL-SETUP-units-{SETUP_ITEM[p]}"), id=p) for p in ORDER]
)
def test_set_up_matches_ledger(board: Board, ledger: dict[str, dict[str, Any]], power: str) -> None:
    data = ledger[f"CL-SETUP-units-{SETUP_ITEM[power]}"]["data"]
    theirs = Counter({(ours(space), UNIT_TYPES.get(u, u)): n for space, group in data["spaces"].items()
                      for u, n in group.items()})
    mine = Counter({(s, u): n for (p, s, u), n in placements(board).items() if p == power})
    assert mine == theirs
    assert starting_units(board, power) == Counter({UNIT_TYPES.get(u, u): n for u, n in data["totals"].items()})


@pytest.mark.rule("CL-SETUP-income-levels")
def test_owners_and_values_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["CL-SETUP-income-levels"]["data"]
    theirs = {ours(t): (PLAYERS[p], v) for p, ts in data["territories"].items() for t, v in ts.items()}
    assert {s.name: (s.owner, s.ipc) for s in board.land() if s.owner} == theirs
    assert {PLAYERS[p]: v for p, v in data["income"].items()} == INCOME


@pytest.mark.rule("CL-SETUP-banks")
@pytest.mark.rule("CL-MAP-capitals")
@pytest.mark.rule("CL-NEUTRAL-list")
def test_banks_capitals_and_neutrals_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    assert board.bank == {PLAYERS[p]: v for p, v in ledger["CL-SETUP-banks"]["data"].items()}
    assert board.capitals() == {t: PLAYERS[p] for p, t in ledger["CL-MAP-capitals"]["data"].items()}
    assert {ours(t) for t in ledger["CL-NEUTRAL-list"]["data"]["neutral_territories"]} == NEUTRALS
    assert set(ledger["CL-MAP-zero-value-territories"]["data"]["zero_value"]) == ZERO_VALUE
    count = ledger["CL-MAP-territory-count"]["data"]
    assert (count["land"], count["sea"], count["neutral_land"]) == (70, 58, len(NEUTRALS))


# --- against the TripleA encoding (reference/boards/classic.xml) -------------------------------------------------


@pytest.fixture(scope="module")
def reference(board: Board) -> tuple[Board, ET.Element]:
    if not REFERENCE.is_file():
        pytest.skip(f"TripleA reference board not present at {REFERENCE} (needs ../shared)")
    return board, ET.parse(REFERENCE).getroot()


def attachments(xml: ET.Element, kind: str) -> dict[str, dict[str, str]]:
    return read_attachments(xml, kind, ours)


def test_reference_same_spaces_and_connections(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    theirs = {ours(t.get("name", "")): t.get("water") == "true" for t in xml.iter("territory")}
    assert {name: space.is_sea for name, space in board.spaces.items()} == theirs
    listed = [frozenset((ours(c.get("t1", "")), ours(c.get("t2", "")))) for c in xml.iter("connection")]
    assert len(listed) == 310 and len(set(listed)) == 309
    assert {frozenset(pair) for pair in board.connections()} == set(listed)


def test_reference_same_values_and_no_impassables_or_victory_cities(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    opts = attachments(xml, "territoryAttachment")
    assert {s.name: s.ipc for s in board.land()} == {t: int(o.get("production", "0")) for t, o in opts.items()}
    assert not any(o.get("isImpassable") == "true" for o in opts.values())
    assert not any("victoryCity" in o for o in opts.values())


def test_reference_same_owners_at_start_and_original_owners(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    start = {ours(t.get("territory", "")): PLAYERS[t.get("owner", "")] for t in xml.iter("territoryOwner")}
    assert board.owners == start
    opts = attachments(xml, "territoryAttachment")
    original = {t: PLAYERS[opts[t]["originalOwner"]] if "originalOwner" in opts.get(t, {}) else o
                for t, o in start.items()}
    assert {s.name: s.owner for s in board.land() if s.owner} == original


def test_reference_same_capitals(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    opts = attachments(xml, "territoryAttachment")
    assert board.capitals() == {t: PLAYERS[o["capital"]] for t, o in opts.items() if "capital" in o}


def test_reference_same_powers_sides_and_turn_order(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    sides = {PLAYERS[a.get("player", "")]: a.get("alliance") for a in xml.iter("alliance")}
    assert {p.name: p.side for p in board.powers} == sides
    steps = [PLAYERS[s.get("player", "")] for s in xml.iter("step") if s.get("player") in PLAYERS]
    assert [p.name for p in board.powers] == list(dict.fromkeys(steps))


def test_reference_same_canals(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    assert {c.name: (set(c.seas), set(c.requires)) for c in board.canals} == reference_canals(xml, ours)


def test_reference_same_starting_units_and_banks(reference: tuple[Board, ET.Element], units: UnitCatalogue) -> None:
    board, xml = reference
    theirs = reference_placements(xml, PLAYERS, ours, UNIT_TYPES)
    assert all(unit in units for _, _, unit in theirs)
    assert placements(board) == theirs
    given = reference_banks(xml, PLAYERS)
    assert board.bank == given


def test_reference_same_unit_values(reference: tuple[Board, ET.Element], units: UnitCatalogue) -> None:
    _, xml = reference
    costs: dict[str, int] = {}
    for rule in xml.iter("productionRule"):  # the base price comes first, then any other prices
        for result, cost in zip(rule.iter("result"), rule.iter("cost"), strict=True):
            unit = result.get("resourceOrUnit", "")
            costs.setdefault(UNIT_TYPES.get(unit, unit), int(cost.get("quantity", "0")))
    seen = set()
    for a in xml.iter("attachment"):
        if a.get("name") != "unitAttachment" or UNIT_TYPES.get(a.get("attachTo", ""), a.get("attachTo", "")) \
                not in units:
            continue
        unit = units[UNIT_TYPES.get(a.get("attachTo", ""), a.get("attachTo", ""))]
        seen.add(unit.id)
        opts = {o.get("name", ""): o.get("value", "") for o in a.iter("option")}
        theirs = (costs[unit.id], int(opts.get("attack", "0")), int(opts.get("defense", "0")),
                  int(opts.get("movement", "0")), int(opts.get("hitPoints", "1")))
        assert (unit.cost, unit.attack, unit.defense, unit.move, unit.hits) == theirs, unit.id
        assert unit.carrier_capacity == int(opts.get("carrierCapacity", "0")), unit.id
        assert unit.carrier_size == int(opts.get("carrierCost", "0")), unit.id
        assert unit.transport_size == int(opts.get("transportCost", "0")), unit.id
        assert unit.has("bombard") == (opts.get("canBombard") == "true"), unit.id
    assert seen == {u.id for u in units}
