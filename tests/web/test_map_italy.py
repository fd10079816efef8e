"""The map of AARHE's Italy variant (board `revised-italy`, option `italy`): made from the Revised positions and
coastlines (`base`) with Italy, Southern Europe and Malta drawn; the checks every map passes, and the split
territories drawn, coloured and clickable."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from aare.board.board import Board
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState
from aare.web.map_geometry import load_geometry
from aare.web.map_sources import load_spec as load_map_spec
from aare.web.map_sources import map_dir
from aare.web.map_style import power_styles
from aare.web.map_svg import render_map
from tests.web.test_map import SVG
from tests.web.test_map import test_every_space_has_a_position as _positions
from tests.web.test_map import test_every_space_has_a_shape as _shapes
from tests.web.test_map import test_every_space_is_labelled_in_the_svg as _labels
from tests.web.test_map import test_generated_geometry_is_up_to_date as _up_to_date
from tests.web.test_map import test_svg_colours_territories_by_controller as _colours
from tests.web.test_map import test_svg_is_valid_xml_with_every_space as _valid

ON = {"italy": True}
Each = tuple[Board, GameState, str]


@pytest.fixture(scope="module")
def italy() -> Each:
    board, state = load_ruleset("aarhe", ON).board, new_game("aarhe", ON, seed=1).state
    return board, state, render_map(state, board)


def test_the_variant_has_a_map_of_its_own_in_the_aarhe_family(italy: Each) -> None:
    board = italy[0]
    assert board.id == "revised-italy" and map_dir(board.id).parts[-3:] == ("aarhe", "data", "map")
    spec = load_map_spec(board.id)
    assert spec.projection == load_map_spec("revised").projection  # the Revised map underneath
    assert any(i.name == "Malta" for i in spec.coast.islets)


def test_the_italy_map_passes_every_map_check(italy: Each) -> None:
    for check in (_positions, _shapes, _valid, _labels, _colours, _up_to_date):
        check(italy)


@pytest.mark.rule("AARHE-ITALY-map")
def test_italy_southern_europe_and_malta_are_drawn_in_their_places(italy: Each) -> None:
    board, _, svg = italy
    geo = load_geometry(board.id)
    revised = load_geometry("revised")
    shapes = geo.spaces
    # Italy where the Revised Southern Europe was; the new Southern Europe east of it, across the Adriatic;
    # Malta a small island south of Sicily
    assert abs(shapes["Italy"].label[0] - revised.spaces["Southern Europe"].label[0]) < 30
    assert shapes["Italy"].label[0] < shapes["Southern Europe"].label[0] < shapes["Balkans"].label[0]
    assert shapes["Malta"].area < shapes["Italy"].area / 20 and shapes["Malta"].label[1] > shapes["Italy"].label[1]
    report = geo.report
    borders = {tuple(sorted(p)) for p in report["unshared"]}
    for pair in (("Italy", "Southern Europe"), ("Germany", "Italy"), ("Italy", "Western Europe"),
                 ("Balkans", "Southern Europe"), ("Malta", "SZ 14")):
        assert pair not in borders  # drawn as shared borders
    root = ET.fromstring(svg)
    fills = {g.attrib["data-space"]: g.find(f"{SVG}path").attrib.get("fill")  # type: ignore[union-attr]
             for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("space land")}
    italian = power_styles(board)["Italy"].fill
    assert {fills[t] for t in ("Italy", "Southern Europe", "Balkans", "Libya")} == {italian}
    assert fills["Malta"] == power_styles(board)["United Kingdom"].fill
