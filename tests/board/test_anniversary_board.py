"""The Anniversary board file (1941 and 1942 set-ups) and its unit catalogue: sizes, geography, owners, banks,
capitals, victory cities, canals and starting units; then the same facts against the rule ledger and against the
TripleA encodings of the board (third-party, read-only; those checks skip when `../shared` is absent)."""

from __future__ import annotations

import itertools
import math
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

import aare.rulesets.aa50 as aa50
from aare.board.board import Board, load_board
from aare.board.notation import parse_units
from aare.board.units import UnitCatalogue, load_units
from aare.errors import DataFileError
from aare.rules.registry import default_ruleset, families, load_families
from tests.board.helpers import attachments as read_attachments
from tests.board.helpers import placements, reference_banks, reference_canals, reference_placements, starting_units

DATA = Path(aa50.__file__).resolve().parent / "data"
BOARD = DATA / "boards" / "anniversary.toml"
UNITS = DATA / "units" / "anniversary.toml"
SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
LEDGER = SHARED / "rules" / "aa50-base.yaml"
REFERENCE = {year: SHARED / "reference" / "boards" / f"anniversary-{year}.xml" for year in ("1941", "1942")}
SCENARIOS = ("1941", "1942")

GER, SOV, JPN, UK, ITA, US, CHN = (
    "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States", "China")
ORDER = {"1941": [GER, SOV, JPN, UK, ITA, US, CHN], "1942": [JPN, SOV, GER, UK, ITA, US, CHN]}

NEUTRALS = {
    "Afghanistan", "Angola", "Argentina Chile", "Eire", "Himalaya", "Mongolia", "Mozambique",
    "Northern South America", "Peruvian Central", "Sahara", "Saudi Arabia", "Spain", "Sweden", "Switzerland",
    "Turkey",
}
VICTORY_CITIES = {
    "Australia": "Sydney", "Caucasus": "Stalingrad", "Eastern Canada": "Ottawa", "Eastern United States": "Washington",
    "France": "Paris", "Germany": "Berlin", "Hawaiian Islands": "Honolulu", "India": "Calcutta", "Italy": "Rome",
    "Japan": "Tokyo", "Karelia S.S.R.": "Leningrad", "Kiangsu": "Shanghai", "Kwangtung": "Hong Kong",
    "Philippine Islands": "Manila", "Poland": "Warsaw", "Russia": "Moscow", "United Kingdom": "London",
    "Western United States": "San Francisco",
}
BANKS = {
    "1941": {GER: 31, SOV: 30, JPN: 17, UK: 43, ITA: 10, US: 40, CHN: 0},
    "1942": {GER: 37, SOV: 24, JPN: 31, UK: 31, ITA: 10, US: 38, CHN: 0},
}
# Units per power at the start, as the test ideas of the AA50-SETUP-<year>-<power> items count them.
UNIT_COUNTS = {
    "1941": {GER: 44, SOV: 47, JPN: 46, UK: 43, ITA: 15, US: 29, CHN: 5},
    "1942": {GER: 61, SOV: 41, JPN: 43, UK: 46, ITA: 17, US: 33, CHN: 10},
}
SETUP_ITEM = {GER: "ger", SOV: "rus", JPN: "jpn", UK: "uk", ITA: "ita", US: "us", CHN: "chn"}
TO_GERMANY = {"Baltic States", "Belorussia", "East Poland", "Eastern Ukraine", "Ukraine"}
TO_JAPAN = {"Borneo", "Burma", "East Indies", "Kwangtung", "New Guinea", "Solomon Islands", "Philippine Islands",
            "Wake Island"}
# Unit values of AA50-UNITS-table: cost, attack, defense, move, hits.
UNIT_TABLE = {
    "infantry": (3, 1, 2, 1, 1), "artillery": (4, 2, 2, 1, 1), "armour": (5, 3, 3, 2, 1), "aa_gun": (6, 0, 0, 1, 1),
    "factory": (15, 0, 0, 0, 1), "fighter": (10, 3, 4, 4, 1), "bomber": (12, 4, 1, 6, 1),
    "transport": (7, 0, 0, 2, 1), "submarine": (6, 2, 1, 2, 1), "destroyer": (8, 2, 2, 2, 1),
    "cruiser": (12, 3, 3, 2, 1), "carrier": (14, 1, 2, 2, 1), "battleship": (20, 4, 4, 2, 2),
}

# --- where the rules and the TripleA encoding differ (docs/rulings.md has one row each) ------------------------
# China has no capital (AA50-CHINA-no-ipcs); the encoding puts a Chinese capital on impassable Mongolia.
THEIR_EXTRA_CAPITALS = {"Mongolia": CHN}
# Saudi Arabia is a neutral (impassable, nobody's, worth 0; AA50-NEUTRAL-saudi-arabia); the encoding gives it a
# British owner.
THEIR_EXTRA_OWNERS = {"Saudi Arabia": UK}
# Names: ours as printed on the map; the encoding's spelling is an alias.
RENAMED = {"Anglo-Egypt Sudan": "Anglo-Egyptian Sudan"}
PLAYERS = {"Germans": GER, "Russians": SOV, "Japanese": JPN, "British": UK, "Italians": ITA, "Americans": US,
           "Chinese": CHN}
UNIT_TYPES = {"aaGun": "aa_gun"}


@pytest.fixture(scope="module")
def units() -> UnitCatalogue:
    return load_units(UNITS)


@pytest.fixture(scope="module")
def boards(units: UnitCatalogue) -> dict[str, Board]:
    return {year: load_board(BOARD, units, setup=year) for year in SCENARIOS}


@pytest.fixture(scope="module", params=SCENARIOS)
def board(request: pytest.FixtureRequest, boards: dict[str, Board]) -> Board:
    return boards[request.param]


@pytest.fixture(scope="module")
def ledger() -> dict[str, dict[str, Any]]:
    if not LEDGER.is_file():
        pytest.skip(f"AA50 rule ledger not present at {LEDGER}")
    return {item["id"]: item for item in yaml.safe_load(LEDGER.read_text(encoding="utf-8"))}


def income(board: Board, power: str) -> int:
    return sum(board.spaces[t].ipc for t, owner in board.owners.items() if owner == power)


def where(board: Board, unit: str) -> dict[str, set[str]]:
    """`{power: spaces}` where `unit` starts."""
    found: dict[str, set[str]] = {}
    for group in board.setup:
        if unit in group.units:
            found.setdefault(group.power, set()).add(group.space)
    return found


# --- loading ---------------------------------------------------------------------------------------------------


@pytest.mark.rule("AA50-SETUP-scenario-choice")
def test_both_set_ups_load_with_their_turn_order(boards: dict[str, Board]) -> None:
    for year, board in boards.items():
        assert board.scenario == year and board.id == "anniversary"
        assert [p.name for p in board.powers] == ORDER[year]
        assert [p.order for p in board.powers] == list(range(7))
        assert list(board.bank) == ORDER[year]
    assert boards["1942"].powers[0].name == JPN and boards["1942"].owners["Philippine Islands"] == JPN
    assert boards["1941"].powers[0].name == GER and boards["1941"].owners["Philippine Islands"] == US
    assert boards["1941"].spaces == boards["1942"].spaces and boards["1941"].canals == boards["1942"].canals


def test_a_board_with_several_set_ups_needs_one_named(units: UnitCatalogue) -> None:
    for choice in (None, "1943"):
        with pytest.raises(DataFileError) as info:
            load_board(BOARD, units, setup=choice)
        assert info.value.key == "setup" and "choose one of the set-ups 1941, 1942" in info.value.reason


def test_the_family_is_registered_without_taking_the_default_ruleset() -> None:
    load_families()
    assert any(family.data.is_relative_to(DATA) for family in families().values())
    assert default_ruleset() == "lhtr-1.3"


# --- geography -------------------------------------------------------------------------------------------------


def test_162_spaces_97_land_65_sea_407_connections(board: Board) -> None:
    assert len(board.spaces) == 162
    assert len(board.land()) == 97
    assert len(board.seas()) == 65
    assert sorted(s.number or 0 for s in board.seas()) == list(range(1, 66))
    assert all(s.name == f"SZ {s.number}" for s in board.seas())
    assert [s.kind for s in board.spaces.values()] == ["land"] * 97 + ["sea"] * 65
    assert len(board.connections()) == len({frozenset(pair) for pair in board.connections()}) == 407
    land = [s.name for s in board.land()]
    assert land == sorted(land)


def test_adjacency_is_symmetric_with_spot_checks(board: Board) -> None:
    for space in board.spaces.values():
        assert space.neighbors and all(space.name in board.space(n).neighbors for n in space.neighbors)
    assert board.adjacent("Germany", "Poland") and board.adjacent("Poland", "Germany")
    assert board.adjacent("Italy", "SZ 14") and board.adjacent("SZ 15", "SZ 34") and board.adjacent("SZ 19", "SZ 20")
    assert board.adjacent("SZ 16", "SZ 15")
    assert not board.adjacent("Germany", "Russia")


def test_every_space_is_reachable(board: Board) -> None:
    def reach(start: str, open_: set[str]) -> set[str]:
        seen, todo = {start}, [start]
        while todo:
            for n in board.spaces[todo.pop()].neighbors:
                if n in open_ and n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    assert reach("Germany", set(board.spaces)) == set(board.spaces)
    passable = {name for name, s in board.spaces.items() if not s.neutral}
    assert reach("Germany", passable) == passable  # no space is cut off by the neutrals


def test_fifteen_impassable_territories_belong_to_nobody(board: Board) -> None:
    assert {s.name for s in board.land() if s.neutral} == NEUTRALS
    for name in NEUTRALS:
        space = board.space(name)
        assert space.owner is None and space.ipc == 0 and space.victory_city is None and name not in board.owners
    assert not [g for g in board.setup if g.space in NEUTRALS]


def test_two_canals_and_no_straits(board: Board) -> None:
    assert {c.name: (set(c.seas), set(c.requires)) for c in board.canals} == {
        "Suez Canal": ({"SZ 15", "SZ 34"}, {"Egypt", "Trans-Jordan"}),
        "Panama Canal": ({"SZ 19", "SZ 20"}, {"Panama"}),
    }
    assert board.canal_between("SZ 16", "SZ 15") is None and board.canal_between("SZ 14", "SZ 16") is None


def test_printed_names_and_the_encodings_spelling(board: Board) -> None:
    assert board.resolve("Anglo-Egypt Sudan") == "Anglo-Egyptian Sudan"
    assert board.resolve("15 Sea Zone") == "SZ 15"
    assert board.resolve_power("Russians") == SOV and board.resolve_power("USSR") == SOV
    assert board.resolve_power("Chinese") == CHN and board.resolve_power("Italians") == ITA


# --- powers, capitals, victory cities ---------------------------------------------------------------------------


def test_seven_powers_sides_and_players(board: Board) -> None:
    sides = {p.name: p.side for p in board.powers}
    assert sides == {GER: "Axis", JPN: "Axis", ITA: "Axis", SOV: "Allies", UK: "Allies", US: "Allies", CHN: "Allies"}
    assert board.player_of(CHN) == US
    assert all(board.player_of(p.name) == p.name for p in board.powers if p.name != CHN)


def test_italy_and_china_have_colours_of_their_own(board: Board) -> None:
    def rgb(colour: str) -> tuple[int, ...]:
        return tuple(int(colour[i : i + 2], 16) for i in (1, 3, 5))

    powers = {p.name: p for p in board.powers}
    for a, b in itertools.combinations(powers, 2):
        for field in ("colour", "ink"):
            distance = math.dist(rgb(getattr(powers[a], field)), rgb(getattr(powers[b], field)))
            assert distance > (60 if {a, b} & {ITA, CHN} else 0), (a, b, field)


def test_six_capitals_and_none_for_china(board: Board) -> None:
    assert board.capitals() == {
        "Germany": GER, "Russia": SOV, "Japan": JPN, "United Kingdom": UK, "Italy": ITA, "Eastern United States": US}
    assert board.capital_of(CHN) is None
    assert board.holds_capital(CHN, {}) and not board.holds_capital(ITA, {"Italy": UK})
    assert board.space("Italy").ipc == 6
    assert all(board.owners[c] == p for c, p in board.capitals().items())


@pytest.mark.rule("AA50-VICTORY-cities-list")
def test_eighteen_victory_cities(boards: dict[str, Board]) -> None:
    for year, axis in (("1941", 6), ("1942", 8)):
        board = boards[year]
        assert board.victory_cities() == VICTORY_CITIES
        held = Counter(board.side_of(board.owners[t]) for t in board.victory_cities())
        assert held == {"Axis": axis, "Allies": 18 - axis}
        assert set(board.capitals()) <= set(board.victory_cities())


# --- owners, banks and units per scenario -----------------------------------------------------------------------


@pytest.mark.rule("AA50-SETUP-1942-control-changes")
def test_original_owners_and_the_1942_changes(boards: dict[str, Board]) -> None:
    b41, b42 = boards["1941"], boards["1942"]
    originals = {s.name: s.owner for s in b41.land() if s.owner}
    assert len(originals) == 82
    assert {t: o for t, o in b41.owners.items() if originals[t] != o} == {"Kiangsu": JPN, "Manchuria": JPN}
    assert originals["Kiangsu"] == originals["Manchuria"] == CHN
    changed = {t: o for t, o in b42.owners.items() if b41.owners[t] != o}
    assert changed == {**{t: GER for t in TO_GERMANY}, **{t: JPN for t in TO_JAPAN}}
    assert {originals[t] for t in TO_GERMANY} == {SOV}
    assert {t: originals[t] for t in TO_JAPAN if originals[t] != UK} == {"Philippine Islands": US, "Wake Island": US}


@pytest.mark.rule("AA50-ITALY-starting-territories")
def test_italy_starts_with_italy_balkans_and_libya(board: Board) -> None:
    italian = {t: board.spaces[t].ipc for t, o in board.owners.items() if o == ITA}
    assert italian == {"Italy": 6, "Balkans": 3, "Libya": 1}
    assert income(board, ITA) == 10


@pytest.mark.rule("AA50-SETUP-banks")
def test_banks_equal_starting_income_and_china_has_none(boards: dict[str, Board]) -> None:
    for year, board in boards.items():
        assert board.bank == BANKS[year]
        assert all(board.bank[p] == income(board, p) for p in ORDER[year] if p != CHN)
        assert income(board, CHN) == 7


@pytest.mark.parametrize(
    ("year", "power"),
    [pytest.param(y, p, marks=pytest.mark.rule(f"AA50-SETUP-{y}-{SETUP_ITEM[p]}"), id=f"{y}-{p}")
     for y in SCENARIOS for p in ORDER["1941"]],
)
def test_unit_totals_per_power(boards: dict[str, Board], year: str, power: str) -> None:
    assert sum(starting_units(boards[year], power).values()) == UNIT_COUNTS[year][power]


def test_unit_totals_per_scenario(boards: dict[str, Board]) -> None:
    assert sum(sum(g.units.values()) for g in boards["1941"].setup) == 229
    assert sum(sum(g.units.values()) for g in boards["1942"].setup) == 251
    assert starting_units(boards["1941"], CHN) == {"infantry": 4, "fighter": 1}
    assert where(boards["1941"], "fighter")[CHN] == where(boards["1942"], "fighter")[CHN] == {"Yunnan"}


@pytest.mark.rule("AA50-SETUP-industrial-complexes")
def test_starting_industrial_complexes(board: Board) -> None:
    assert where(board, "factory") == {
        GER: {"Germany"}, SOV: {"Russia", "Karelia S.S.R.", "Caucasus"}, JPN: {"Japan"}, UK: {"United Kingdom"},
        ITA: {"Italy"}, US: {"Eastern United States", "Western United States"}}
    assert all(g.units.get("factory", 0) <= 1 for g in board.setup)


@pytest.mark.rule("AA50-SETUP-aa-guns")
def test_starting_aa_guns(boards: dict[str, Board]) -> None:
    common = {"Germany", "Russia", "Karelia S.S.R.", "Caucasus", "Japan", "United Kingdom", "India", "Australia",
              "Italy", "Eastern United States", "Western United States"}
    for year, extra in (("1941", set()), ("1942", {"France"})):
        spaces = set().union(*where(boards[year], "aa_gun").values())
        assert spaces == common | extra
        assert all(g.units.get("aa_gun", 0) == 1 for g in boards[year].setup if "aa_gun" in g.units)


def test_units_on_allied_territory_and_aboard_transports(boards: dict[str, Board]) -> None:
    libya = {g.power: dict(g.units) for g in boards["1941"].setup if g.space == "Libya"}
    assert libya[GER] == {"infantry": 1, "artillery": 1, "armour": 1} and boards["1941"].owners["Libya"] == ITA
    uk = {g.power for g in boards["1942"].setup if g.space == "United Kingdom"}
    assert uk == {UK, US}
    sz61 = next(g for g in boards["1941"].setup if g.space == "SZ 61" and g.power == JPN)
    assert (sz61.units["infantry"], sz61.units["artillery"], sz61.units["transport"]) == (3, 1, 2)


# --- the unit catalogue -------------------------------------------------------------------------------------------


@pytest.mark.rule("AA50-UNITS-table")
def test_unit_catalogue_values(units: UnitCatalogue) -> None:
    assert [u.id for u in units] == list(UNIT_TABLE)
    for uid, values in UNIT_TABLE.items():
        unit = units[uid]
        assert (unit.cost, unit.attack, unit.defense, unit.move, unit.hits) == values, uid
    assert units["cruiser"].has("bombard") and units["battleship"].has("bombard")
    assert not units["destroyer"].has("bombard")
    assert units["carrier"].carrier_capacity == 2 and units["fighter"].carrier_size == 1
    assert units["transport"].transport_capacity == 5
    assert parse_units("2 cruisers, 1 ca", units) == {"cruiser": 3}


@pytest.mark.rule("AA50-UNITS-table")
def test_unit_catalogue_matches_ledger(units: UnitCatalogue, ledger: dict[str, dict[str, Any]]) -> None:
    table = ledger["AA50-UNITS-table"]["data"]
    for name, values in table.items():
        unit = units[UNIT_TYPES.get(name, name)]
        ours = {"cost": unit.cost, "attack": unit.attack, "defense": unit.defense, "move": unit.move, "hits": unit.hits}
        assert {k: ours[k] for k in values} == values, name
    assert all(u.rule in ledger for u in units)
    assert {u.rule for u in units} == {i for i in ledger if i.startswith("AA50-UNITS-") and i != "AA50-UNITS-table"}


# --- against the ledger's set-up items -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("year", "power"),
    [pytest.param(y, p, marks=pytest.mark.rule(f"AA50-SETUP-{y}-{SETUP_ITEM[p]}"), id=f"{y}-{p}")
     for y in SCENARIOS for p in ORDER["1941"]],
)
def test_set_up_matches_ledger(
    boards: dict[str, Board], ledger: dict[str, dict[str, Any]], units: UnitCatalogue, year: str, power: str
) -> None:
    board = boards[year]
    data = ledger[f"AA50-SETUP-{year}-{SETUP_ITEM[power]}"]["data"]
    assert board.bank[power] == data["bank_ipcs"]
    theirs = {board.resolve(t): v for t, v in data["territories"].items()}
    for t in THEIR_EXTRA_OWNERS:
        if THEIR_EXTRA_OWNERS[t] == power:
            assert theirs.pop(t) == 0
    assert {t: board.spaces[t].ipc for t, o in board.owners.items() if o == power} == theirs
    expected = {
        board.resolve(space): {UNIT_TYPES.get(u, u): n for u, n in listed.items()}
        for space, listed in data["units"].items()
    }
    assert {g.space: dict(g.units) for g in board.setup if g.power == power} == expected
    totals = {UNIT_TYPES.get(u, u): n for u, n in data["unit_totals"].items()}
    assert dict(starting_units(board, power)) == totals


@pytest.mark.rule("AA50-SETUP-banks")
def test_banks_match_ledger(boards: dict[str, Board], ledger: dict[str, dict[str, Any]]) -> None:
    for year, board in boards.items():
        data = ledger["AA50-SETUP-banks"]["data"][year]
        assert {board.resolve_power(p): v for p, v in data.items()} == board.bank


@pytest.mark.rule("AA50-VICTORY-cities-list")
def test_victory_cities_match_ledger(boards: dict[str, Board], ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["AA50-VICTORY-cities-list"]["data"]
    assert set(data["victory_cities"]) == set(VICTORY_CITIES)
    for year, board in boards.items():
        axis = {t for t in board.victory_cities() if board.side_of(board.owners[t]) == "Axis"}
        assert axis == set(data[f"axis_at_start_{year}"])


def test_neutrals_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    listed = ledger["AA50-NEUTRAL-impassable"]["data"]["impassable_unowned"]
    assert {s.name for s in board.land() if s.neutral} == set(listed) | set(THEIR_EXTRA_OWNERS)


def test_chinese_territories_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["AA50-CHINA-reinforcements"]["data"]["chinese_territories_at_start"]
    assert {t for t, o in board.owners.items() if o == CHN} == set(data)


# --- against the TripleA encodings (reference/boards/anniversary-<year>.xml) ------------------------------------------


def ours(name: str) -> str:
    """Our name for a name of the encoding."""
    number, _, rest = name.partition(" ")
    if rest == "Sea Zone" and number.isdigit():
        return f"SZ {number}"
    return RENAMED.get(name, name)


@pytest.fixture(scope="module", params=SCENARIOS)
def reference(request: pytest.FixtureRequest, boards: dict[str, Board]) -> tuple[Board, ET.Element]:
    path = REFERENCE[request.param]
    if not path.is_file():
        pytest.skip(f"TripleA reference board not present at {path} (needs ../shared)")
    return boards[request.param], ET.parse(path).getroot()


def attachments(xml: ET.Element, kind: str) -> dict[str, dict[str, str]]:
    """`{our name: {option: value}}` for every attachment of one kind."""
    return read_attachments(xml, kind, ours)


def test_reference_same_spaces_and_connections(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    theirs = {ours(t.get("name", "")): t.get("water") == "true" for t in xml.iter("territory")}
    assert {name: space.is_sea for name, space in board.spaces.items()} == theirs
    pairs = {frozenset((ours(c.get("t1", "")), ours(c.get("t2", "")))) for c in xml.iter("connection")}
    assert {frozenset(pair) for pair in board.connections()} == pairs


def test_reference_same_values_impassables_and_victory_cities(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    opts = attachments(xml, "territoryAttachment")
    assert {s.name: s.ipc for s in board.land()} == {t: int(o.get("production", "0")) for t, o in opts.items()}
    impassable = {t for t, o in opts.items() if o.get("isImpassable") == "true"}
    assert {s.name for s in board.land() if s.neutral} == impassable
    assert set(board.victory_cities()) == {t for t, o in opts.items() if o.get("victoryCity") == "1"}


def test_reference_same_owners_at_start_and_original_owners(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    start = {ours(t.get("territory", "")): PLAYERS[t.get("owner", "")] for t in xml.iter("territoryOwner")}
    assert {**board.owners, **THEIR_EXTRA_OWNERS} == start
    opts = attachments(xml, "territoryAttachment")
    original = {t: PLAYERS[opts[t]["originalOwner"]] if "originalOwner" in opts[t] else o for t, o in start.items()}
    assert {**{s.name: s.owner for s in board.land() if s.owner}, **THEIR_EXTRA_OWNERS} == original


def test_reference_same_capitals_but_china(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    opts = attachments(xml, "territoryAttachment")
    theirs = {t: PLAYERS[o["capital"]] for t, o in opts.items() if "capital" in o}
    assert {**board.capitals(), **THEIR_EXTRA_CAPITALS} == theirs


def test_reference_same_powers_sides_and_turn_order(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    sides = {PLAYERS[a.get("player", "")]: a.get("alliance") for a in xml.iter("alliance")}
    assert {p.name: p.side for p in board.powers} == sides
    # China takes its turn with the United States (AA50-CHINA-turn-with-us): compared without it.
    steps = [PLAYERS[s.get("player", "")] for s in xml.iter("step") if s.get("player")]
    theirs = [p for p in dict.fromkeys(steps) if p != CHN]
    assert [p.name for p in board.powers if p.name != CHN] == theirs


def test_reference_same_canals(reference: tuple[Board, ET.Element]) -> None:
    board, xml = reference
    assert {c.name: (set(c.seas), set(c.requires)) for c in board.canals} == reference_canals(xml, ours)


def test_reference_same_starting_units_and_banks(reference: tuple[Board, ET.Element], units: UnitCatalogue) -> None:
    board, xml = reference
    theirs = reference_placements(xml, PLAYERS, ours, UNIT_TYPES)
    assert all(unit in units for _, _, unit in theirs)
    assert placements(board) == theirs
    given = reference_banks(xml, PLAYERS)
    assert board.bank == {p: given[p] for p in board.bank}


def test_reference_same_unit_values(reference: tuple[Board, ET.Element], units: UnitCatalogue) -> None:
    _, xml = reference
    costs: dict[str, int] = {}
    for rule in xml.iter("productionRule"):  # the base price comes first, then the prices with technologies
        for result, cost in zip(rule.iter("result"), rule.iter("cost"), strict=True):
            unit = result.get("resourceOrUnit", "")
            costs.setdefault(UNIT_TYPES.get(unit, unit), int(cost.get("quantity", "0")))
    for a in xml.iter("attachment"):
        if a.get("name") != "unitAttachment":
            continue
        unit = units[UNIT_TYPES.get(a.get("attachTo", ""), a.get("attachTo", ""))]
        opts = {o.get("name", ""): o.get("value", "") for o in a.iter("option")}
        theirs = (costs[unit.id], int(opts.get("attack", "0")), int(opts.get("defense", "0")),
                  int(opts.get("movement", "0")), int(opts.get("hitPoints", "1")))
        assert (unit.cost, unit.attack, unit.defense, unit.move, unit.hits) == theirs, unit.id
        assert unit.carrier_capacity == int(opts.get("carrierCapacity", "0")), unit.id
        assert unit.carrier_size == int(opts.get("carrierCost", "0")), unit.id
        assert unit.transport_size == int(opts.get("transportCost", "0")), unit.id
        assert unit.has("bombard") == (opts.get("canBombard") == "true"), unit.id
