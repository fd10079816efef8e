"""Board loader validation: each broken copy of the Revised board fails with the file, the key and the reason."""

from __future__ import annotations

import copy
import json
import re
import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from aare.board.board import load_board
from aare.board.units import UnitCatalogue, load_units
from aare.errors import DataFileError
from aare.rules.registry import data_file

UNITS = data_file("units", "revised")
Raw = dict[str, Any]


# --- a tiny TOML writer, enough for board files ----------------------------------------------------------


def _key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    raise TypeError(f"cannot write {value!r} as TOML")


def _is_tables(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def dumps(data: dict[str, Any], prefix: str = "") -> str:
    lines = [f"{_key(k)} = {_value(v)}" for k, v in data.items() if not isinstance(v, dict) and not _is_tables(v)]
    for k, v in data.items():
        name = prefix + _key(k)
        if isinstance(v, dict):
            lines += ["", f"[{name}]", dumps(v, name + ".")]
        elif _is_tables(v):
            for item in v:
                lines += ["", f"[[{name}]]", dumps(item, name + ".")]
    return "\n".join(lines)


# --- fixtures and helpers --------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def units() -> UnitCatalogue:
    return load_units(UNITS)


@pytest.fixture(scope="module")
def pristine() -> Raw:
    return tomllib.loads(data_file("boards", "revised").read_text(encoding="utf-8"))


@pytest.fixture
def raw(pristine: Raw) -> Raw:
    return copy.deepcopy(pristine)


def write(tmp_path: Path, raw: Raw) -> Path:
    path = tmp_path / "broken.toml"
    path.write_text(dumps(raw) + "\n", encoding="utf-8")
    return path


def fails(tmp_path: Path, raw: Raw, units: UnitCatalogue, key: str, reason: str) -> DataFileError:
    """Write `raw`, load it and check the error names the file, the key and (part of) the reason."""
    path = write(tmp_path, raw)
    with pytest.raises(DataFileError) as info:
        load_board(path, units)
    err = info.value
    assert (err.path, err.key) == (str(path), key), str(err)
    assert reason in err.reason, str(err)
    assert str(err) == f"{path}: {key}: {err.reason}"
    return err


def land(raw: Raw, name: str) -> dict[str, Any]:
    return next(e for e in raw["land"] if e["name"] == name)


def sea(raw: Raw, number: int) -> dict[str, Any]:
    return next(e for e in raw["sea"] if e["number"] == number)


def power(raw: Raw, name: str) -> dict[str, Any]:
    return next(e for e in raw["power"] if e["name"] == name)


def canal(raw: Raw, name: str) -> dict[str, Any]:
    return next(e for e in raw["canal"] if e["name"] == name)


def placement(raw: Raw, space: str, who: str) -> int:
    units = raw["setup"]["units"]
    return next(i for i, e in enumerate(units) if (e["space"], e["power"]) == (space, who))


def add_placement(raw: Raw, space: str, who: str, text: str) -> int:
    raw["setup"]["units"].append({"space": space, "power": who, "units": text})
    return len(raw["setup"]["units"]) - 1


# --- the writer itself -----------------------------------------------------------------------------------


def test_writer_round_trips_the_board(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    path = write(tmp_path, raw)
    assert tomllib.loads(path.read_text(encoding="utf-8")) == raw
    board = load_board(path, units)
    assert len(board.spaces) == 143 and board.path == str(path)


def test_references_may_use_aliases(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    ger = land(raw, "Western Europe")
    ger["neighbors"] = ["Ger" if n == "Germany" else n for n in ger["neighbors"]]
    land(raw, "Germany")["owner"] = "Germans"
    power(raw, "Germany")["capital"] = "ger"
    raw["setup"]["units"][placement(raw, "SZ 5", "Germany")]["space"] = "5 Sea Zone"
    board = load_board(write(tmp_path, raw), units)
    assert "Germany" in board.space("Western Europe").neighbors
    assert board.space("Germany").owner == "Germany"
    assert board.capital_of("Germany") == "Germany"
    assert any(g.space == "SZ 5" and g.power == "Germany" for g in board.setup)


# --- file and structure ----------------------------------------------------------------------------------


def test_toml_syntax_error(tmp_path: Path, units: UnitCatalogue) -> None:
    path = tmp_path / "bad.toml"
    path.write_text('[board]\nid = "revised\n', encoding="utf-8")
    with pytest.raises(DataFileError) as info:
        load_board(path, units)
    assert info.value.key == "<file>" and str(path) in str(info.value)


def test_missing_file(tmp_path: Path, units: UnitCatalogue) -> None:
    with pytest.raises(DataFileError, match="<file>"):
        load_board(tmp_path / "absent.toml", units)


def test_unknown_top_level_key(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["rivers"] = [{"name": "Rhine"}]
    fails(tmp_path, raw, units, "<file>", "unknown top-level key(s) ['rivers']")


def test_missing_board_table(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    del raw["board"]
    fails(tmp_path, raw, units, "board", "expected a [board] table")


def test_missing_section(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    del raw["sea"]
    fails(tmp_path, raw, units, "sea", "non-empty list of [[sea]] tables")


# --- required keys and types -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mutate", "key", "reason"),
    [
        (lambda r: r["board"].pop("id"), "board.id", "required field is missing"),
        (lambda r: land(r, "Germany").pop("ipc"), "land.Germany.ipc", "required field is missing"),
        (lambda r: land(r, "Germany").pop("neighbors"), "land.Germany.neighbors", "required field is missing"),
        (lambda r: sea(r, 7).pop("number"), "sea.SZ 7.number", "required field is missing"),
        (lambda r: power(r, "Japan").pop("colour"), "power.Japan.colour", "required field is missing"),
        (lambda r: r["land"][0].pop("name"), "land[0].name", "required field is missing"),
        (lambda r: land(r, "Germany").update(ipc="ten"), "land.Germany.ipc", "expected a non-negative integer"),
        (lambda r: land(r, "Germany").update(ipc=-1), "land.Germany.ipc", "expected a non-negative integer"),
        (lambda r: land(r, "Germany").update(ipc=True), "land.Germany.ipc", "expected a non-negative integer"),
        (lambda r: land(r, "Spain").update(neutral="yes"), "land.Spain.neutral", "expected true or false"),
        (lambda r: land(r, "Germany").update(neighbors="SZ 5"), "land.Germany.neighbors", "list of strings"),
        (lambda r: land(r, "Germany").update(aliases=[1]), "land.Germany.aliases", "list of strings"),
        (lambda r: land(r, "Germany").update(owner=""), "land.Germany.owner", "non-empty string"),
        (lambda r: land(r, "Germany").update(capital=True), "land.Germany", "unknown field(s) ['capital']"),
        (lambda r: sea(r, 7).update(ipc=0), "sea.SZ 7", "unknown field(s) ['ipc']"),
        (lambda r: canal(r, "Suez Canal").pop("requires"), "canal.Suez Canal.requires", "required field"),
        (lambda r: r["setup"]["units"][0].pop("units"), "setup.units[0].units", "required field is missing"),
    ],
)
def test_required_keys_and_types(
    tmp_path: Path, raw: Raw, units: UnitCatalogue, mutate: Callable[[Raw], object], key: str, reason: str
) -> None:
    mutate(raw)
    fails(tmp_path, raw, units, key, reason)


# --- names and aliases -----------------------------------------------------------------------------------


def test_duplicate_space_name(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["land"].append(copy.deepcopy(land(raw, "Germany")))
    fails(tmp_path, raw, units, "land.Germany.name", "duplicate space name 'Germany': already used by Germany")


def test_duplicate_space_name_is_case_insensitive(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    sea(raw, 64)["name"] = "GERMANY"
    fails(tmp_path, raw, units, "sea.GERMANY.name", "already used by Germany")


def test_alias_clashing_with_another_space(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Western Europe")["aliases"] = ["ger"]
    fails(tmp_path, raw, units, "land.Western Europe.aliases", "'ger': already used by Germany")


def test_alias_clashing_with_a_generated_sea_alias(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Germany")["aliases"] = ["Ger", "7 Sea Zone"]
    fails(tmp_path, raw, units, "sea.SZ 7.aliases", "'7 Sea Zone': already used by Germany")


def test_duplicate_power_alias(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Japan")["aliases"] = ["Japanese", "uk"]
    fails(tmp_path, raw, units, "power.Japan.aliases", "duplicate power name 'uk': already used by United Kingdom")


def test_duplicate_sea_number(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    sea(raw, 8)["number"] = 7
    fails(tmp_path, raw, units, "sea.SZ 8.number", "number 7 is also used by SZ 7")


# --- adjacency -------------------------------------------------------------------------------------------


def test_unknown_neighbor(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Germany")["neighbors"].append("Atlantis")
    fails(tmp_path, raw, units, "land.Germany.neighbors", "unknown space 'Atlantis'")


def test_misspelt_neighbor_suggests_the_name(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    weur = land(raw, "Western Europe")
    weur["neighbors"] = ["Germny" if n == "Germany" else n for n in weur["neighbors"]]
    fails(tmp_path, raw, units, "land.Western Europe.neighbors", "did you mean Germany?")


def test_asymmetric_adjacency_names_the_pair(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Germany")["neighbors"].remove("Western Europe")
    err = fails(tmp_path, raw, units, "land.Germany.neighbors", "adjacency is not symmetric")
    assert "Western Europe lists Germany, but Germany does not list Western Europe" in err.reason


def test_asymmetric_sea_adjacency(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    sea(raw, 7)["neighbors"].remove("SZ 8")
    fails(tmp_path, raw, units, "sea.SZ 7.neighbors", "SZ 8 lists SZ 7, but SZ 7 does not list SZ 8")


@pytest.mark.parametrize("self_name", ["Germany", "Ger", "GERMANY"])
def test_self_adjacency(tmp_path: Path, raw: Raw, units: UnitCatalogue, self_name: str) -> None:
    land(raw, "Germany")["neighbors"].append(self_name)
    fails(tmp_path, raw, units, "land.Germany.neighbors", "Germany cannot be its own neighbor")


def test_neighbor_listed_twice(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Germany")["neighbors"].append("western europe")
    fails(tmp_path, raw, units, "land.Germany.neighbors", "Western Europe is listed twice")


def test_space_without_neighbors(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Borneo")["neighbors"] = []
    fails(tmp_path, raw, units, "land.Borneo.neighbors", "at least one neighbor")


# --- powers, owners and capitals -------------------------------------------------------------------------


def test_invalid_side(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Russia")["side"] = "Comintern"
    fails(tmp_path, raw, units, "power.Russia.side", "must be one of ['Axis', 'Allies']")


def test_invalid_colour(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Russia")["colour"] = "red"
    fails(tmp_path, raw, units, "power.Russia.colour", "expected a colour like")


def test_ink_is_required_and_checked(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    del power(raw, "Russia")["ink"]
    fails(tmp_path, raw, units, "power.Russia.ink", "required field is missing")
    power(raw, "Russia")["ink"] = "#8c2d2"
    fails(tmp_path, raw, units, "power.Russia.ink", "expected a colour like")


def test_text_on_ink_must_be_readable(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Germany")["text"] = "white"
    fails(tmp_path, raw, units, "power.Germany.text", "expected a colour like")
    power(raw, "Germany")["text"] = "#808890"
    fails(tmp_path, raw, units, "power.Germany.ink", "below 4.5:1")
    power(raw, "Germany")["ink"] = "#f2d94e"
    power(raw, "Germany")["text"] = "#1d2833"
    board = load_board(write(tmp_path, raw), units)
    assert (board.power("Germany").ink, board.power("Germany").text) == ("#f2d94e", "#1d2833")
    assert board.power("Russia").text == "#ffffff"


def test_unknown_owner(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Germany")["owner"] = "Italy"
    fails(tmp_path, raw, units, "land.Germany.owner", "unknown power 'Italy'")


def test_neutral_with_owner(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Spain")["owner"] = "Germany"
    fails(tmp_path, raw, units, "land.Spain.owner", "neutral territory has no owner")


def test_neutral_with_value(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    land(raw, "Spain")["ipc"] = 2
    fails(tmp_path, raw, units, "land.Spain.ipc", "neutral territory produces nothing")


def test_unknown_capital(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Russia")["capital"] = "Moscow"
    fails(tmp_path, raw, units, "power.Russia.capital", "unknown space 'Moscow'")


def test_capital_owned_by_another_power(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Russia")["capital"] = "Germany"
    fails(tmp_path, raw, units, "power.Russia.capital", "capital Germany starts owned by Germany, not Russia")


def test_capital_at_sea(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Japan")["capital"] = "SZ 60"
    fails(tmp_path, raw, units, "power.Japan.capital", "not a land territory")


# --- canals ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("seas", "reason"),
    [
        (["SZ 15", "SZ 99"], "unknown space 'SZ 99'"),
        (["SZ 15", "SZ 15"], "expected two different sea zones"),
        (["SZ 15"], "expected two different sea zones"),
        (["SZ 15", "Anglo Egypt"], "Anglo Egypt is not a sea zone"),
        (["SZ 15", "SZ 20"], "SZ 15 and SZ 20 are not adjacent"),
    ],
)
def test_bad_canal_seas(tmp_path: Path, raw: Raw, units: UnitCatalogue, seas: list[str], reason: str) -> None:
    canal(raw, "Suez Canal")["seas"] = seas
    fails(tmp_path, raw, units, "canal.Suez Canal.seas", reason)


@pytest.mark.parametrize(
    ("requires", "reason"),
    [
        (["Anglo Egypt", "Atlantis"], "unknown space 'Atlantis'"),
        (["SZ 15"], "SZ 15 is not a land territory"),
        ([], "at least one territory"),
    ],
)
def test_bad_canal_requires(tmp_path: Path, raw: Raw, units: UnitCatalogue, requires: list[str], reason: str) -> None:
    canal(raw, "Suez Canal")["requires"] = requires
    fails(tmp_path, raw, units, "canal.Suez Canal.requires", reason)


def test_duplicate_canal(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["canal"].append(copy.deepcopy(canal(raw, "Panama Canal")))
    fails(tmp_path, raw, units, "canal.Panama Canal.name", "duplicate canal name")


def test_board_without_canals_loads(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    del raw["canal"]
    assert load_board(write(tmp_path, raw), units).canals == ()


# --- banks -----------------------------------------------------------------------------------------------


def test_bank_for_unknown_power(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["setup"]["bank"]["Italy"] = 10
    fails(tmp_path, raw, units, "setup.bank.Italy", "unknown power 'Italy'")


def test_bank_not_an_integer(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["setup"]["bank"]["Russia"] = "24"
    fails(tmp_path, raw, units, "setup.bank.Russia", "expected a non-negative integer")


def test_bank_missing_a_power(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    del raw["setup"]["bank"]["Japan"]
    fails(tmp_path, raw, units, "setup.bank", "no starting bank for Japan")


def test_bank_listed_twice_via_alias(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["setup"]["bank"]["UK"] = 30
    fails(tmp_path, raw, units, "setup.bank.UK", "United Kingdom is listed twice")


# --- set-up units ----------------------------------------------------------------------------------------


def test_setup_unknown_space(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = add_placement(raw, "Atlantis", "Germany", "1 infantry")
    fails(tmp_path, raw, units, f"setup.units[{i}].space", "unknown space 'Atlantis'")


def test_setup_unknown_power(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = add_placement(raw, "Germany", "Italy", "1 infantry")
    fails(tmp_path, raw, units, f"setup.units[{i}].power", "unknown power 'Italy'")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("3 dragons", "unknown unit 'dragons'"),
        ("infantry: 3", "cannot read"),
        ("0 infantry", "count must be positive"),
        ("none", "empty unit list"),
        ("", "expected a non-empty string"),
    ],
)
def test_setup_unit_text_errors(tmp_path: Path, raw: Raw, units: UnitCatalogue, text: str, reason: str) -> None:
    i = placement(raw, "Germany", "Germany")
    raw["setup"]["units"][i]["units"] = text
    fails(tmp_path, raw, units, f"setup.units[{i}].units", reason)


def test_setup_units_listed_twice(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    first = placement(raw, "Germany", "Germany")
    i = add_placement(raw, "Ger", "Germans", "1 infantry")
    fails(tmp_path, raw, units, f"setup.units[{i}]", f"already listed at setup.units[{first}]")


@pytest.mark.parametrize(("space", "owner"), [("Russia", "Russia"), ("Spain", "nobody")])
def test_setup_units_in_a_territory_not_owned(
    tmp_path: Path, raw: Raw, units: UnitCatalogue, space: str, owner: str
) -> None:
    i = add_placement(raw, space, "Germany", "1 infantry")
    fails(tmp_path, raw, units, f"setup.units[{i}]", f"Germany cannot start with units in {space}, owned by {owner}")


def test_factory_at_sea(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = add_placement(raw, "SZ 6", "Germany", "1 factory")
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "cannot start at sea (SZ 6)")


@pytest.mark.parametrize(("text", "need"), [("2 infantry", 4), ("1 aa gun", 3)])
def test_land_units_at_sea_need_transports(
    tmp_path: Path, raw: Raw, units: UnitCatalogue, text: str, need: int
) -> None:
    i = add_placement(raw, "SZ 6", "Germany", text)
    reason = f"Germany land units in SZ 6 need transport room {need}, but Germany transports there have room 0"
    fails(tmp_path, raw, units, f"setup.units[{i}].units", reason)


def test_land_units_start_aboard_own_transports(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    add_placement(raw, "SZ 6", "Germany", "1 infantry, 1 artillery, 1 transport")
    board = load_board(write(tmp_path, raw), units)
    assert any(g.space == "SZ 6" and g.units == {"infantry": 1, "artillery": 1, "transport": 1} for g in board.setup)
    i = add_placement(raw, "SZ 6", "Japan", "1 infantry")  # an ally's transport does not carry it
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "Japan land units in SZ 6 need transport room 2")


def test_sea_units_on_land(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = placement(raw, "Germany", "Germany")
    raw["setup"]["units"][i]["units"] += ", 1 battleship"
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "battleships cannot start on land (Germany)")


def test_bomber_at_sea_even_with_carrier_room(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = placement(raw, "SZ 35", "United Kingdom")
    raw["setup"]["units"][i]["units"] += ", 1 bomber"
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "bombers cannot start at sea (SZ 35)")


def test_fighters_beyond_carrier_room(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = placement(raw, "SZ 35", "United Kingdom")
    raw["setup"]["units"][i]["units"] = "1 carrier, 1 transport, 1 destroyer, 3 fighters"
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "Allies aircraft in SZ 35 need carrier room 3")


def test_fighter_at_sea_without_carrier(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = placement(raw, "SZ 5", "Germany")
    raw["setup"]["units"][i]["units"] += ", 1 fighter"
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "but Axis carriers there have room 0")


def test_fighter_may_use_an_allied_carrier(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    add_placement(raw, "SZ 35", "United States", "1 fighter")
    board = load_board(write(tmp_path, raw), units)
    assert any(g.space == "SZ 35" and g.power == "United States" for g in board.setup)


def test_fighter_may_not_use_an_enemy_carrier(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    i = add_placement(raw, "SZ 35", "Japan", "1 fighter")
    fails(tmp_path, raw, units, f"setup.units[{i}].units", "Axis aircraft in SZ 35 need carrier room 1")


# --- several set-ups, owners at the start, powers without a capital -------------------------------------------------


def scenarios(raw: Raw) -> Raw:
    """`raw` with its one [setup] turned into two set-ups, "early" and "late"."""
    early = raw.pop("setup")
    raw["setup"] = {"early": early, "late": copy.deepcopy(early)}
    return raw


def test_a_set_up_chosen_by_name(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    late = scenarios(raw)["setup"]["late"]
    late["order"] = ["Japan", "Russia", "Germany", "United Kingdom", "United States"]
    late["owners"] = {"Gibraltar": "Germans"}
    late["bank"]["Germany"] = 50
    path = write(tmp_path, raw)
    early_board, late_board = load_board(path, units, setup="early"), load_board(path, units, setup="late")
    assert (early_board.scenario, late_board.scenario) == ("early", "late")
    assert [p.name for p in early_board.powers] == ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
    assert [(p.name, p.order) for p in late_board.powers][:2] == [("Japan", 0), ("Russia", 1)]
    assert next(iter(late_board.bank)) == "Japan" and late_board.bank["Germany"] == 50
    assert early_board.owners["Gibraltar"] == "United Kingdom" and late_board.owners["Gibraltar"] == "Germany"
    assert late_board.space("Gibraltar").owner == "United Kingdom"  # the original owner stays on the space
    with pytest.raises(DataFileError, match="choose one of the set-ups early, late"):
        load_board(path, units)


def test_a_single_set_up_takes_no_name(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    with pytest.raises(DataFileError, match="single set-up; no set-up 'late'"):
        load_board(write(tmp_path, raw), units, setup="late")
    board = load_board(write(tmp_path, raw), units)
    assert board.scenario is None and board.owners == {s.name: s.owner for s in board.land() if s.owner}


@pytest.mark.parametrize(
    ("change", "key", "reason"),
    [
        ({"order": ["Japan", "Russia"]}, "setup.late.order", "expected every power exactly once"),
        ({"order": "Japan"}, "setup.late.order", "expected a list of strings"),
        ({"owners": {"SZ 5": "Germany"}}, "setup.late.owners.SZ 5", "SZ 5 cannot be owned"),
        ({"owners": {"Spain": "Germany"}}, "setup.late.owners.Spain", "Spain cannot be owned"),
        ({"owners": {"Russia": "Martians"}}, "setup.late.owners.Russia", "unknown power 'Martians'"),
        ({"owners": {"Russia": 3}}, "setup.late.owners.Russia", "expected a non-empty string"),
        ({"owners": ["Russia"]}, "setup.late.owners", "expected a table of territory = power"),
        ({"rivers": 1}, "setup.late", "unknown field(s) ['rivers']"),
    ],
)
def test_bad_set_up_tables(
    tmp_path: Path, raw: Raw, units: UnitCatalogue, change: dict[str, Any], key: str, reason: str
) -> None:
    scenarios(raw)["setup"]["late"].update(change)
    path = write(tmp_path, raw)
    with pytest.raises(DataFileError) as info:
        load_board(path, units, setup="late")
    assert (info.value.key, reason in info.value.reason) == (key, True), info.value.reason


def test_set_up_tables_must_be_tables(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    raw["setup"] = {"early": 1}
    with pytest.raises(DataFileError, match="or \\[setup.<scenario>\\] tables"):
        load_board(write(tmp_path, raw), units, setup="early")


def test_units_may_start_in_an_allys_territory(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    add_placement(raw, "Manchuria", "Germany", "1 infantry")  # Japanese at the start
    board = load_board(write(tmp_path, raw), units)
    assert any(g.space == "Manchuria" and g.power == "Germany" for g in board.setup)


def test_a_power_without_a_capital(tmp_path: Path, raw: Raw, units: UnitCatalogue) -> None:
    power(raw, "Japan").pop("capital")
    board = load_board(write(tmp_path, raw), units)
    assert board.capital_of("Japan") is None and "Japan" not in board.capitals().values()
    assert board.holds_capital("Japan", {}) and not board.holds_capital("Germany", {"Germany": "Russia"})
