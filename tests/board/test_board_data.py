"""The Revised board file: sizes, owners, incomes, capitals, victory cities, canals, set-up and names."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml

from aare.board.board import Board, load_board
from aare.board.notation import parse_units
from aare.board.units import UnitCatalogue, load_units
from aare.errors import UnknownName
from aare.rules.registry import data_file
from tests.board.helpers import starting_units

SHARED = Path(__file__).resolve().parents[2] / ".." / "shared"
LEDGER = SHARED / "rules" / "revised-lhtr.yaml"
UNITS = data_file("units", "revised")

RUSSIA, GERMANY, UK, JAPAN, US = "Russia", "Germany", "United Kingdom", "Japan", "United States"

NEUTRALS = {
    "Turkey",
    "Spain",
    "Afghanistan",
    "Eire",
    "Mozambique",
    "Saudi Arabia",
    "Switzerland",
    "Venezuela",
    "Rio De Oro",
    "Angola",
    "Sahara",
    "Himalaya",
    "Sweden",
    "Mongolia",
    "Peru",
    "Argentina",
}
VICTORY_CITIES = {
    "Germany": "Berlin",
    "Western Europe": "Paris",
    "Southern Europe": "Rome",
    "Japan": "Tokyo",
    "Kwangtung": "Shanghai",
    "Philippine Islands": "Manila",
    "Russia": "Moscow",
    "Karelia S.S.R.": "Leningrad",
    "United Kingdom": "London",
    "India": "Calcutta",
    "Eastern United States": "Washington",
    "Western United States": "Los Angeles",
}
# Totals per power, as stated in the rule text of the LHTR-SETUP-units-* items.
UNIT_TOTALS = {
    RUSSIA: "24 infantry, 2 artillery, 4 armour, 2 aa guns, 2 factories, 2 fighters, 1 submarine",
    GERMANY: "25 infantry, 4 artillery, 10 armour, 3 aa guns, 2 factories, 6 fighters, 1 bomber, "
    "2 transports, 3 submarines, 1 destroyer, 1 battleship",
    UK: "14 infantry, 1 artillery, 3 armour, 2 aa guns, 1 factory, 4 fighters, 1 bomber, 4 transports, "
    "1 submarine, 2 destroyers, 1 carrier, 2 battleships",
    JAPAN: "21 infantry, 1 artillery, 1 armour, 1 aa gun, 1 factory, 6 fighters, 1 bomber, 2 transports, "
    "1 submarine, 1 destroyer, 2 carriers, 2 battleships",
    US: "14 infantry, 1 artillery, 1 armour, 2 aa guns, 2 factories, 5 fighters, 1 bomber, 3 transports, "
    "1 submarine, 2 destroyers, 1 carrier, 1 battleship",
}
UNITS_ITEM = {
    RUSSIA: "LHTR-SETUP-units-ussr",
    GERMANY: "LHTR-SETUP-units-germany",
    UK: "LHTR-SETUP-units-uk",
    JAPAN: "LHTR-SETUP-units-japan",
    US: "LHTR-SETUP-units-usa",
}


def per_power(marks_by_power: dict[str, str]) -> list[Any]:
    return [pytest.param(p, marks=pytest.mark.rule(item), id=p) for p, item in marks_by_power.items()]


@pytest.fixture(scope="module")
def units() -> UnitCatalogue:
    return load_units(UNITS)


@pytest.fixture(scope="module")
def board(units: UnitCatalogue) -> Board:
    return load_board(data_file("boards", "revised"), units)


@pytest.fixture(scope="module")
def ledger() -> dict[str, dict[str, Any]]:
    if not LEDGER.is_file():
        pytest.skip(f"rule ledger not present at {LEDGER}")
    items = yaml.safe_load(LEDGER.read_text(encoding="utf-8"))
    return {item["id"]: item for item in items}


def income(board: Board, power: str) -> int:
    return sum(s.ipc for s in board.land() if s.owner == power)


# --- size and geography ----------------------------------------------------------------------------------


@pytest.mark.rule("LHTR-SETUP-board-size")
def test_board_has_79_land_64_sea_and_348_connections(board: Board) -> None:
    assert len(board.land()) == 79
    assert len([s for s in board.land() if s.owner]) == 63
    assert len([s for s in board.land() if s.neutral]) == 16
    assert len(board.seas()) == 64
    assert sorted(s.number for s in board.seas()) == list(range(1, 65))
    assert all(s.name == f"SZ {s.number}" for s in board.seas())
    assert len(board.spaces) == 143
    assert len(board.connections()) == 348
    assert len({frozenset(pair) for pair in board.connections()}) == 348


def test_spaces_are_in_file_order_land_then_sea(board: Board) -> None:
    kinds = [s.kind for s in board.spaces.values()]
    assert kinds == ["land"] * 79 + ["sea"] * 64


def test_adjacency_spot_checks(board: Board) -> None:
    assert board.adjacent("Germany", "Western Europe")
    assert board.adjacent("Western Europe", "Germany")
    assert board.adjacent("United Kingdom", "SZ 7")
    assert board.adjacent("SZ 15", "SZ 34")
    assert not board.adjacent("Germany", "Russia")
    assert not board.adjacent("Germany", "Germany")
    for space in board.spaces.values():
        assert all(space.name in board.space(n).neighbors for n in space.neighbors)


@pytest.mark.rule("LHTR-SETUP-neutral-territories")
def test_sixteen_impassable_neutrals_have_no_owner_value_or_units(board: Board) -> None:
    neutrals = {s.name for s in board.land() if s.neutral}
    assert neutrals == NEUTRALS
    for name in neutrals:
        space = board.space(name)
        assert space.owner is None and space.ipc == 0 and space.victory_city is None
    assert not [g for g in board.setup if g.space in NEUTRALS]


# --- owners, income and banks -----------------------------------------------------------------------------


@pytest.mark.rule("LHTR-SETUP-territory-ownership")
def test_starting_owners_and_values(board: Board) -> None:
    assert (board.space("China").owner, board.space("China").ipc) == (US, 2)
    assert (board.space("Sinkiang").owner, board.space("Sinkiang").ipc) == (US, 2)
    assert (board.space("Karelia S.S.R.").owner, board.space("Karelia S.S.R.").ipc) == (RUSSIA, 2)
    assert (board.space("Gibraltar").owner, board.space("Gibraltar").ipc) == (UK, 0)
    for name in ("Midway", "Greenland"):
        assert (board.space(name).owner, board.space(name).ipc) == (US, 0)
    for name in ("Caroline Islands", "Solomon Islands", "Wake Island"):
        assert (board.space(name).owner, board.space(name).ipc) == (JAPAN, 0)
    owned = [s for s in board.land() if s.owner]
    assert len(owned) == 63
    assert Counter(s.owner for s in owned) == {RUSSIA: 10, GERMANY: 11, UK: 17, JAPAN: 12, US: 13}


@pytest.mark.rule("LHTR-SETUP-territory-ownership")
def test_starting_owners_and_values_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    expected = {
        (board.resolve(territory), board.resolve_power(power), value)
        for power, territories in ledger["LHTR-SETUP-territory-ownership"]["data"].items()
        for territory, value in territories.items()
    }
    actual = {(s.name, s.owner, s.ipc) for s in board.land() if s.owner}
    assert actual == expected


@pytest.mark.rule("LHTR-SETUP-starting-income")
def test_starting_income_is_the_sum_of_owned_values(board: Board) -> None:
    incomes = {p.name: income(board, p.name) for p in board.powers}
    assert incomes == {RUSSIA: 24, GERMANY: 40, UK: 30, JAPAN: 30, US: 42}
    by_side = Counter({p.side: 0 for p in board.powers})
    for p in board.powers:
        by_side[p.side] += incomes[p.name]
    assert by_side == {"Axis": 70, "Allies": 96}
    assert sum(incomes.values()) == 166


@pytest.mark.rule("LHTR-SETUP-starting-income")
def test_starting_income_matches_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["LHTR-SETUP-starting-income"]["data"]["income"]
    incomes = {p.name: income(board, p.name) for p in board.powers}
    assert {board.resolve_power(p): v for p, v in data.items()} == incomes


@pytest.mark.rule("LHTR-SETUP-starting-treasury")
def test_starting_banks_equal_starting_income(board: Board) -> None:
    assert board.bank == {RUSSIA: 24, GERMANY: 40, UK: 30, JAPAN: 30, US: 42}
    assert list(board.bank) == [p.name for p in board.powers]
    assert all(board.bank[p.name] == income(board, p.name) for p in board.powers)


@pytest.mark.rule("LHTR-SETUP-starting-treasury")
def test_starting_banks_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["LHTR-SETUP-starting-treasury"]["data"]
    assert {board.resolve_power(p): v for p, v in data.items()} == board.bank


# --- powers, capitals and victory cities ------------------------------------------------------------------


def test_powers_in_turn_order_with_sides_and_colours(board: Board) -> None:
    assert [p.name for p in board.powers] == [RUSSIA, GERMANY, UK, JAPAN, US]
    assert [p.order for p in board.powers] == [0, 1, 2, 3, 4]
    assert {p.name: p.side for p in board.powers} == {
        RUSSIA: "Allies",
        GERMANY: "Axis",
        UK: "Allies",
        JAPAN: "Axis",
        US: "Allies",
    }
    assert board.side_of("Germans") == "Axis"
    assert len({p.colour.lower() for p in board.powers}) == 5


@pytest.mark.rule("LHTR-ECON-capitals")
def test_five_capitals_one_per_power(board: Board) -> None:
    assert board.capitals() == {
        "Russia": RUSSIA,
        "Germany": GERMANY,
        "United Kingdom": UK,
        "Japan": JAPAN,
        "Eastern United States": US,
    }
    assert board.capital_of("USA") == "Eastern United States"
    assert all(board.space(c).owner == p for c, p in board.capitals().items())
    assert set(board.capitals()) <= set(board.victory_cities())


@pytest.mark.rule("LHTR-ECON-capitals")
def test_capitals_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["LHTR-ECON-capitals"]["data"]
    assert {board.resolve(t): board.resolve_power(p) for p, t in data.items()} == board.capitals()


@pytest.mark.rule("LHTR-VICTORY-cities")
def test_twelve_victory_cities_six_per_side_at_start(board: Board) -> None:
    assert board.victory_cities() == VICTORY_CITIES
    held = Counter(board.side_of(board.space(t).owner or "") for t in board.victory_cities())
    assert held == {"Axis": 6, "Allies": 6}


@pytest.mark.rule("LHTR-VICTORY-cities")
def test_victory_cities_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["LHTR-VICTORY-cities"]["data"]
    for side, key in (("Axis", "axis_start"), ("Allies", "allies_start")):
        cities = {board.resolve(t): city for t, city in data[key].items()}
        assert {t: board.victory_cities()[t] for t in cities} == cities
        assert all(board.side_of(board.space(t).owner or "") == side for t in cities)
    assert len(data["axis_start"]) + len(data["allies_start"]) == len(board.victory_cities())


# --- canals ----------------------------------------------------------------------------------------------


def test_suez_and_panama_are_the_only_canals(board: Board) -> None:
    suez = board.canal_between("SZ 15", "34 Sea Zone")
    assert suez is not None and suez.name == "Suez Canal"
    assert set(suez.seas) == {"SZ 15", "SZ 34"}
    assert set(suez.requires) == {"Anglo Egypt", "Trans-Jordan"}
    panama = board.canal_between("SZ 20", "SZ 19")
    assert panama is not None and panama.name == "Panama Canal"
    assert panama.requires == ("Panama",)
    assert len(board.canals) == 2
    assert board.canal_between("SZ 15", "SZ 16") is None
    assert board.canal_between("SZ 12", "SZ 13") is None


# --- starting units --------------------------------------------------------------------------------------


@pytest.mark.parametrize("power", per_power(UNITS_ITEM))
def test_starting_unit_totals(board: Board, units: UnitCatalogue, power: str) -> None:
    assert dict(starting_units(board, power)) == parse_units(UNIT_TOTALS[power], units)


@pytest.mark.parametrize("power", per_power(UNITS_ITEM))
def test_starting_units_match_ledger_by_location(board: Board, power: str, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger[UNITS_ITEM[power]]["data"]
    expected = {board.resolve(space): counts for space, counts in data["by_location"].items()}
    actual = {g.space: dict(g.units) for g in board.setup if g.power == power}
    assert actual == expected
    assert dict(starting_units(board, power)) == data["totals"]


@pytest.mark.rule(*UNITS_ITEM.values())
def test_starting_units_spot_checks(board: Board) -> None:
    at = {(g.space, g.power): dict(g.units) for g in board.setup}
    assert at["Karelia S.S.R.", RUSSIA] == {"infantry": 3, "fighter": 1}
    assert at["SZ 5", GERMANY] == {"transport": 1, "submarine": 2, "destroyer": 1}
    assert at["SZ 35", UK] == {"fighter": 1, "transport": 1, "destroyer": 1, "carrier": 1}
    assert at["Philippine Islands", JAPAN] == {"infantry": 2}
    assert at["SZ 52", US] == {"fighter": 1, "submarine": 1, "carrier": 1}


@pytest.mark.rule("LHTR-SETUP-starting-complexes-and-aa")
def test_starting_complexes_and_aa_guns(board: Board) -> None:
    def where(unit: str) -> dict[str, str]:
        return {g.space: g.power for g in board.setup if unit in g.units}

    assert where("factory") == {
        "Russia": RUSSIA,
        "Caucasus": RUSSIA,
        "Germany": GERMANY,
        "Southern Europe": GERMANY,
        "United Kingdom": UK,
        "Japan": JAPAN,
        "Eastern United States": US,
        "Western United States": US,
    }
    assert where("aa_gun") == {
        "Russia": RUSSIA,
        "Caucasus": RUSSIA,
        "Germany": GERMANY,
        "Western Europe": GERMANY,
        "Southern Europe": GERMANY,
        "United Kingdom": UK,
        "India": UK,
        "Japan": JAPAN,
        "Eastern United States": US,
        "Western United States": US,
    }
    assert all(g.units.get("factory", 0) <= 1 and g.units.get("aa_gun", 0) <= 1 for g in board.setup)


@pytest.mark.rule("LHTR-SETUP-starting-complexes-and-aa")
def test_starting_complexes_and_aa_guns_match_ledger(board: Board, ledger: dict[str, dict[str, Any]]) -> None:
    data = ledger["LHTR-SETUP-starting-complexes-and-aa"]["data"]
    for unit, key in (("factory", "factories"), ("aa_gun", "aa_guns")):
        expected = {board.resolve(t): board.resolve_power(p) for p, ts in data[key].items() for t in ts}
        assert {g.space: g.power for g in board.setup if unit in g.units} == expected


def test_setup_units_sit_where_the_loader_allows(board: Board, units: UnitCatalogue) -> None:
    for group in board.setup:
        space = board.space(group.space)
        if space.is_land:
            assert space.owner == group.power
            assert all(units[u].domain != "sea" for u in group.units)
        else:
            assert all(units[u].domain in ("sea", "air") for u in group.units)


# --- names and aliases -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("7 Sea Zone", "SZ 7"),
        ("Sea Zone 7", "SZ 7"),
        ("sz 7", "SZ 7"),
        ("SZ 64", "SZ 64"),
        ("Ger", "Germany"),
        ("germany", "Germany"),
        ("Philipine Islands", "Philippine Islands"),
        ("Phi", "Philippine Islands"),
        ("Kwantung", "Kwangtung"),
        ("Kwa", "Kwangtung"),
        ("Anglo-Egypt", "Anglo Egypt"),
        ("Egy", "Anglo Egypt"),
        ("French Indo-China", "French Indochina"),
        ("FIC", "French Indochina"),
        ("Karelia SSR", "Karelia S.S.R."),
        ("EUS", "Eastern United States"),
        ("SovFE", "Soviet Far East"),
    ],
)
def test_space_aliases_resolve(board: Board, alias: str, name: str) -> None:
    assert board.resolve(alias) == name
    assert board.space(alias).name == name


@pytest.mark.parametrize(
    ("alias", "name"),
    [
        ("UK", "United Kingdom"),
        ("british", "United Kingdom"),
        ("Britain", "United Kingdom"),
        ("USSR", "Russia"),
        ("Russians", "Russia"),
        ("Soviet Union", "Russia"),
        ("Germans", "Germany"),
        ("Japanese", "Japan"),
        ("US", "United States"),
        ("USA", "United States"),
        ("Americans", "United States"),
    ],
)
def test_power_aliases_resolve(board: Board, alias: str, name: str) -> None:
    assert board.resolve_power(alias) == name
    assert board.power(alias).name == name


def test_generated_sea_aliases_are_on_the_space(board: Board) -> None:
    assert {"7 Sea Zone", "Sea Zone 7"} <= set(board.space("SZ 7").aliases)
    assert board.space("SZ 7").number == 7


def test_unknown_names_suggest_close_matches(board: Board) -> None:
    with pytest.raises(UnknownName, match="did you mean Germany"):
        board.space("Germny")
    with pytest.raises(UnknownName, match="unknown space 'Atlantis'"):
        board.resolve("Atlantis")
    with pytest.raises(UnknownName, match="unknown power 'Italy'"):
        board.power("Italy")
    with pytest.raises(UnknownName, match="unknown board"):
        data_file("boards", "no-such-board")
