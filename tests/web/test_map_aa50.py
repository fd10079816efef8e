"""The Anniversary world map: every space of the board is drawn and labelled, in the board file's colours,
with the impassable neutrals hatched; only intended crossings are board adjacencies without a shared border."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from aare.board.board import Board
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.web.map_geometry import load_geometry
from aare.web.map_style import NEUTRAL
from aare.web.map_svg import render_map
from aare.web.side import focus_space

SVG = "{http://www.w3.org/2000/svg}"
# Board adjacencies that are not shared borders on the map, on purpose: the Suez Canal and the crossing of
# the Gulf of Mexico.
CROSSINGS = {("SZ 15", "SZ 34"), ("Eastern United States", "Panama")}


@pytest.fixture(scope="module")
def board() -> Board:
    return load_ruleset("aa50-1942").board


def test_every_space_has_a_region_and_a_label(board: Board) -> None:
    geo = load_geometry(board.id)
    assert len(board.spaces) == 162
    assert sum(s.kind == "land" for s in geo.spaces.values()) == 97
    assert sum(s.kind == "sea" for s in geo.spaces.values()) == 65
    assert set(geo.spaces) == set(board.spaces)
    for name, shape in geo.spaces.items():
        assert shape.kind == board.spaces[name].kind
        assert shape.d.startswith("M ") and shape.area > 0 and shape.radius > 0, name
        assert 0 <= shape.label[0] <= geo.width and 0 <= shape.label[1] <= geo.height, name


def test_the_map_report_lists_only_intended_crossings(board: Board) -> None:
    report = load_geometry(board.id).report
    assert not report["warnings"]  # every seed lies on its own kind of cell
    assert {tuple(pair) for pair in report["unshared"]} == CROSSINGS
    # borders the board does not list: where four spaces meet, across a narrow strait or around an island
    # given to its nearest space (Sardinia, Hainan, Tasmania); a bad seed would add many more
    assert len(report["extra"]) <= 35


def test_italy_china_and_the_neutrals_in_their_colours(board: Board) -> None:
    state = new_game("aa50-1942", {}, seed=1).state
    root = ET.fromstring(render_map(state, board))
    spaces = {g.attrib["data-space"]: g for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("space")}
    colours = {p.name: p.colour for p in board.powers}

    def fill(name: str) -> str | None:
        return spaces[name].find(f"{SVG}path").attrib.get("fill")  # type: ignore[union-attr]

    assert fill("Italy") == fill("Libya") == colours["Italy"]
    assert {fill(n) for n in ("Chinghai", "Sikang", "Hupeh", "Yunnan", "Fukien")} == {colours["China"]}
    assert fill("Kwangtung") == colours["Japan"]  # held by Japan in 1942
    neutral = [s.name for s in board.land() if s.neutral]
    assert len(neutral) == 15
    for name in neutral:
        assert fill(name) == NEUTRAL.fill
        hatch = [p for p in spaces[name].iter(f"{SVG}path") if p.attrib.get("class") == "hatch"]
        assert hatch and hatch[0].attrib["fill"] == "url(#impassable)"
        assert "impassable" in (spaces[name].find(f"{SVG}title").text or "")  # type: ignore[union-attr]
    assert not any(p.attrib.get("class") == "hatch" for p in spaces["Italy"].iter(f"{SVG}path"))


def test_the_table_opens_on_the_capital_of_the_nation_to_move_when_the_caller_plays_it() -> None:
    ruleset = load_ruleset("aa50-1942")
    seats = ["Japan", "Soviet Union", "Germany", "United Kingdom", "Italy", "United States"]
    assert focus_space(ruleset, seats, "Italy") == "Italy"  # hot seat: the power to move
    assert focus_space(ruleset, ["Germany"], "Italy") == "Germany"  # another player's turn: one's own capital
    assert focus_space(ruleset, [], "Italy") == "Italy"  # a spectator: the power to move
    assert focus_space(ruleset, ["Allies"], "Japan") == "Russia"  # a side seat: its first power's capital


def test_the_legend_names_the_phase_by_its_ruleset_title(board: Board) -> None:
    state = new_game("aa50-1942", seed=1).state
    assert "Round 1 \u00b7 Japan \u00b7 Research &amp; development" in render_map(state, board)
