"""Unit-group notation: parse and format round-trip, clear errors."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aare.board.notation import format_units, parse_units
from aare.board.units import load_units
from aare.errors import MalformedInput
from aare.rules.registry import data_file

UNITS = load_units(data_file("units", "revised"))


def test_parse_reads_counts_plurals_and_aliases() -> None:
    assert parse_units("3 infantry, 1 artillery, 2 armour, 1 fighter", UNITS) == {
        "infantry": 3, "artillery": 1, "armour": 2, "fighter": 1,
    }
    assert parse_units("2 tanks and 1 FTR + bb", UNITS) == {"armour": 2, "fighter": 1, "battleship": 1}
    assert parse_units("2 aa guns, 1 industrial complex", UNITS) == {"aa_gun": 2, "factory": 1}
    assert parse_units("1 infantry, 2 infantry", UNITS) == {"infantry": 3}


def test_format_uses_catalogue_order_and_plurals() -> None:
    text = format_units({"fighter": 2, "infantry": 1, "battleship": 1}, UNITS)
    assert text == "1 infantry, 2 fighters, 1 battleship"


@pytest.mark.parametrize("empty", ["", "none", "  "])
def test_empty_group(empty: str) -> None:
    assert parse_units(empty, UNITS) == {}
    assert format_units({}, UNITS) == ""


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("3 zeppelins", "unknown unit 'zeppelins'"),
        ("0 infantry", "count must be positive"),
        ("3 infantry,, 1 armour", "empty item"),
        ("infantry 3", "cannot read"),
        ("-1 armour", "cannot read"),
    ],
)
def test_errors_are_clear(text: str, fragment: str) -> None:
    with pytest.raises(MalformedInput, match=fragment):
        parse_units(text, UNITS)


@given(st.dictionaries(st.sampled_from(UNITS.ids), st.integers(min_value=1, max_value=200)))
def test_round_trip(group: dict[str, int]) -> None:
    text = format_units(group, UNITS)
    assert parse_units(text, UNITS) == group
    assert format_units(parse_units(text, UNITS), UNITS) == text
