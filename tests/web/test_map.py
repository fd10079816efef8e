"""The world map: hand-written positions, generated geometry and the SVG rendering. The checks of the
geometry and the rendering run for every board that ships a map; the rest look at the Revised board."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from aare.board.board import Board
from aare.game_setup import new_game
from aare.rules.ruleset import available_rulesets, load_ruleset, load_spec
from aare.state.game_state import GameState
from aare.web.map_build import build_map, dumps, geometry_path
from aare.web.map_geometry import MapGeometry, load_geometry
from aare.web.map_layout import Block, place
from aare.web.map_projection import Projection
from aare.web.map_sources import load_spec as load_map_spec
from aare.web.map_sources import positions_path
from aare.web.map_style import NEUTRAL, power_styles, slug
from aare.web.map_svg import render_map
from aare.web.map_trace import trace

SVG = "{http://www.w3.org/2000/svg}"


def map_rulesets() -> list[str]:
    """One ruleset per board that ships a map (its positions file), the first by id."""
    found: dict[str, str] = {}
    for ruleset in available_rulesets():
        board_id = load_spec(ruleset).board
        if board_id not in found and positions_path(board_id).is_file():
            found[board_id] = ruleset
    return sorted(found.values())


@pytest.fixture(scope="module")
def board() -> Board:
    return load_ruleset("lhtr-1.3").board


@pytest.fixture(scope="module")
def state() -> GameState:
    return new_game("lhtr-1.3", {}, seed=1).state


@pytest.fixture(scope="module")
def svg(state: GameState, board: Board) -> str:
    return render_map(state, board)


@pytest.fixture(scope="module", params=map_rulesets())
def each(request: pytest.FixtureRequest) -> tuple[Board, GameState, str]:
    """Every board with a map: the board, a new game's state on it and its SVG."""
    ruleset = str(request.param)
    board, state = load_ruleset(ruleset).board, new_game(ruleset, {}, seed=1).state
    return board, state, render_map(state, board)


def test_revised_ships_a_map() -> None:
    assert "revised" in {load_spec(ruleset).board for ruleset in map_rulesets()}


def test_every_space_has_a_position(each: tuple[Board, GameState, str]) -> None:
    board = each[0]
    spec = load_map_spec(board.id)
    named = {r.name for r in spec.regions if not r.decor}
    assert named == set(board.spaces)
    for region in spec.regions:
        for lat, lon in (region.at, *region.seeds):
            assert -90 <= lat <= 90 and -180 <= lon <= 180


def test_every_space_has_a_shape(each: tuple[Board, GameState, str]) -> None:
    board = each[0]
    geo = load_geometry(board.id)
    assert set(geo.spaces) == set(board.spaces)
    for name, shape in geo.spaces.items():
        assert shape.kind == board.spaces[name].kind
        assert shape.d.startswith("M ") and shape.d.rstrip().endswith("Z")
        assert 0 <= shape.label[0] <= geo.width and 0 <= shape.label[1] <= geo.height
        assert 0 <= shape.centroid[0] <= geo.width and 0 <= shape.centroid[1] <= geo.height
        assert shape.area > 0


def test_generated_geometry_is_up_to_date(each: tuple[Board, GameState, str]) -> None:
    """The committed JSON is exactly what scripts/make_map.py makes from the current inputs."""
    board = each[0]
    committed = geometry_path(board.id).read_text(encoding="utf-8")
    assert dumps(build_map(board)) == committed, "run scripts/make_map.py to regenerate the map"


def test_most_board_adjacencies_are_shared_borders(board: Board) -> None:
    report = load_geometry(board.id).report
    assert not report["warnings"]
    unshared = {tuple(pair) for pair in report["unshared"]}
    assert ("SZ 15", "SZ 34") in unshared  # the Suez Canal joins two seas that do not touch
    assert len(unshared) <= 6


def test_svg_is_valid_xml_with_every_space(each: tuple[Board, GameState, str]) -> None:
    board, _, svg = each
    root = ET.fromstring(svg)
    assert root.tag == f"{SVG}svg"
    assert re.fullmatch(r"0 0 [\d.]+ [\d.]+", root.attrib["viewBox"])
    groups = {g.attrib["data-space"]: g for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("space")}
    assert set(groups) == set(board.spaces)
    ids = [g.attrib["id"] for g in groups.values()]
    assert len(set(ids)) == len(ids)
    for name, g in groups.items():
        assert g.attrib["id"] == f"space-{slug(name)}"
        assert g.find(f"{SVG}path") is not None


def test_every_space_is_labelled_in_the_svg(each: tuple[Board, GameState, str]) -> None:
    """Each space's tokens carry its name (a sea zone: its number first)."""
    board, _, svg = each
    root = ET.fromstring(svg)
    tokens = {g.attrib["data-space"]: g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "tokens"}
    assert set(tokens) == set(board.spaces)
    for name, group in tokens.items():
        texts = " ".join(t.text or "" for t in group.iter(f"{SVG}text"))
        space = board.spaces[name]
        if space.is_sea:
            assert texts.split()[0] == str(space.number), name
        else:
            assert all(word in texts for word in name.split()), name


def test_svg_colours_territories_by_controller(each: tuple[Board, GameState, str]) -> None:
    """Each territory in its controller's colour from the board file, each unit chip in its owner's ink."""
    board, state, svg = each
    root = ET.fromstring(svg)
    fills = {
        g.attrib["data-space"]: g.find(f"{SVG}path").attrib.get("fill")  # type: ignore[union-attr]
        for g in root.iter(f"{SVG}g")
        if g.attrib.get("class", "").startswith("space land")
    }
    styles = power_styles(board)
    assert {p.name: (p.colour, p.ink) for p in board.powers} == {n: (s.fill, s.ink) for n, s in styles.items()}
    for power, style in styles.items():
        assert style.fill in svg
        held = [space.name for space in board.land() if state.owner(space.name) == power]
        assert held and all(fills[name] == style.fill for name in held)  # China has no capital, but territories
    for space in board.land():
        owner = state.owner(space.name)
        assert fills[space.name] == (styles[owner].fill if owner else NEUTRAL.fill)
    assert len({s.fill for s in styles.values()} | {NEUTRAL.fill}) == len(styles) + 1
    chips = {r.attrib["fill"] for r in root.iter(f"{SVG}rect") if r.attrib.get("rx") == "2.5"}
    assert chips == {s.ink for s in styles.values()}


def test_svg_shows_unit_counts_ipc_and_victory_cities(svg: str, state: GameState, board: Board) -> None:
    root = ET.fromstring(svg)
    tokens = {g.attrib["data-space"]: g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "tokens"}
    assert set(tokens) == set(board.spaces)

    def texts(space: str) -> str:
        return " ".join(t.text or "" for t in tokens[space].iter(f"{SVG}text"))

    for space, stacks in state.units.items():
        infantry = sum(s.count for s in stacks if s.unit == "infantry" and s.owner == stacks[0].owner)
        if infantry:
            assert f"{infantry} inf" in texts(space)
    assert "Germany" in texts("Germany") and "10" in texts("Germany")
    assert len(root.findall(f".//{SVG}polygon[@class='victory']")) == len(board.victory_cities())
    assert texts("SZ 5").split()[0] == "5"


def test_svg_without_a_state_shows_the_board(board: Board) -> None:
    root = ET.fromstring(render_map(None, board, width=1200, legend=False))
    assert root.attrib["width"] == "1200"
    assert [r.attrib.get("id") for r in root.iter(f"{SVG}rect")] == ["ocean"]  # no unit chips, no legend


def test_geometry_loads_from_its_json(board: Board) -> None:
    raw = json.loads(geometry_path(board.id).read_text(encoding="utf-8"))
    geo = MapGeometry.from_json(raw)
    assert geo.spaces["Germany"] == load_geometry(board.id).spaces["Germany"]
    assert geo.width == 2000 and 0 < geo.height < geo.width


def test_projection_inverts() -> None:
    proj = Projection(
        -169.0, 76.0, -57.0, 2000.0, ((14.0, 18.0, 1.6),), ((52.0, 14.0, 0.4),), ((54.0, -2.0, 8.0, 0.6),)
    )
    lat = np.array([51.5, -33.9, 35.7, 64.8, 0.0])
    lon = np.array([-0.1, 18.4, 139.7, -147.7, -170.0])
    x, y = proj.forward(lat, lon)
    assert (x >= 0).all() and (x < proj.width).all()
    assert (y >= 0).all() and (y <= proj.height).all()
    back_lat, back_lon = proj.inverse(x, y)
    assert np.allclose(back_lat, lat, atol=1e-3)
    assert np.allclose((back_lon - lon + 180) % 360 - 180, 0, atol=1e-3)


def test_trace_shares_borders_exactly() -> None:
    labels = np.array([[0, 0, 1, 1], [0, 2, 2, 1], [0, 2, 2, 1], [0, 0, 1, 1]], dtype=np.int64)
    out = trace(labels, 10.0)
    assert set(out.paths) == {0, 1, 2}
    pairs = {c.pair for c in out.chains}
    assert {(0, 1), (0, 2), (1, 2)} <= pairs
    assert all(p.count("M ") == 1 for p in out.paths.values())


def test_layout_avoids_overlaps() -> None:
    blocks = [Block(str(i), 40, 20, (100, 100), 60.0) for i in range(4)]
    boxes = list(place(blocks, 400, 300).values())
    for i, a in enumerate(boxes):
        for b in boxes[i + 1 :]:
            assert min(a[2], b[2]) <= max(a[0], b[0]) or min(a[3], b[3]) <= max(a[1], b[1])


def test_layout_keeps_names_off_the_left_and_right_edges() -> None:
    """A block at an edge keeps 2 units and a tenth of its width inside (bold names run wider than reckoned)."""
    boxes = place([Block("east", 40, 20, (398, 150), 0.0), Block("north", 40, 20, (100, 1), 0.0)], 400, 300)
    assert boxes["east"] == (354.0, 140.0, 394.0, 160.0)
    assert boxes["north"][1] == 2.0
