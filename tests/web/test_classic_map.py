"""The Classic world map: every space of the board is drawn and labelled in the board file's colours, the
capitals are where the board puts them, and the drawn borders follow the board's connections (the map
notes of the Rules Clarifications included)."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from aare.board.board import Board
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.web.map_geometry import MapGeometry, load_geometry
from aare.web.map_style import NEUTRAL
from aare.web.map_svg import render_map
from aare.web.side import focus_space

SVG = "{http://www.w3.org/2000/svg}"
# The one board adjacency that is not a shared border on the map, on purpose: the Suez Canal.
CROSSINGS = {("East Mediterranean Sea Zone", "Red Sea Zone")}
# Borders drawn that the board does not list are corners where a land border meets the coast at a sea zone
# border (four spaces meet at a point); each is a few raster cells long. A bad seed would add many more.
MAX_CORNERS = 26


@pytest.fixture(scope="module")
def board() -> Board:
    return load_ruleset("classic-2e").board


@pytest.fixture(scope="module")
def geo(board: Board) -> MapGeometry:
    return load_geometry(board.id)


def _pairs(report: list[list[str]]) -> set[frozenset[str]]:
    return {frozenset(pair) for pair in report}


def _drawn(geo: MapGeometry, board: Board) -> set[frozenset[str]]:
    """Every pair of spaces that shares a border on the map: the board's connections, less the crossings the
    report lists as not drawn, plus the extra borders it lists."""
    connections = {frozenset(pair) for pair in board.connections()}
    return (connections - _pairs(geo.report["unshared"])) | _pairs(geo.report["extra"])


@pytest.mark.rule("CL-MAP-territory-count")
def test_every_space_has_a_region_and_a_label(board: Board, geo: MapGeometry) -> None:
    assert sum(s.kind == "land" for s in geo.spaces.values()) == 70
    assert sum(s.kind == "sea" for s in geo.spaces.values()) == 58
    assert set(geo.spaces) == set(board.spaces)
    for name, shape in geo.spaces.items():
        assert shape.kind == board.spaces[name].kind
        assert shape.d.startswith("M ") and shape.area > 0 and shape.radius > 0, name
        assert 0 <= shape.label[0] <= geo.width and 0 <= shape.label[1] <= geo.height, name


def test_the_map_report_lists_only_the_suez_canal_and_corners(board: Board, geo: MapGeometry) -> None:
    assert not geo.report["warnings"]  # every seed lies on its own kind of cell
    assert {tuple(pair) for pair in geo.report["unshared"]} == CROSSINGS
    extra = _pairs(geo.report["extra"])
    assert len(extra) <= MAX_CORNERS
    neighbours = {name: set(space.neighbors) for name, space in board.spaces.items()}
    for pair in extra:
        a, b = sorted(pair)
        # never two territories: every land border drawn is a land connection of the board
        assert board.spaces[a].kind != board.spaces[b].kind or board.spaces[a].is_sea, pair
        # a corner: the two spaces have a neighbour in common (another space of the corner; the fourth may be
        # a region drawn but not played, such as the Arctic)
        assert neighbours[a] & neighbours[b], pair


@pytest.mark.rule("CL-MAP-west-canada-east-sea", "CL-MAP-south-africa-mozambique", "CL-MAP-rc-adjacency-notes")
def test_the_map_notes_of_the_rules_clarifications_are_drawn(board: Board, geo: MapGeometry) -> None:
    drawn = _drawn(geo, board)
    assert frozenset({"West Canada", "East Canada Sea Zone"}) in drawn  # the Hudson Bay coast
    assert frozenset({"South Africa", "Mozambique Sea Zone"}) in drawn
    assert frozenset({"Kwangtung", "Kwangtung Sea Zone"}) in drawn
    assert frozenset({"Kwangtung", "Japan Sea Zone"}) not in drawn  # Kwangtung's only sea is its own zone
    # the two zones of the Panama Canal touch at the isthmus
    assert frozenset({"Caribbean Sea Zone", "West Panama Sea Zone"}) in drawn


@pytest.mark.rule("CL-MAP-turkey-not-from-south-europe")
def test_turkey_has_no_border_with_europe(board: Board, geo: MapGeometry) -> None:
    drawn = _drawn(geo, board)
    turkey = {next(iter(pair - {"Turkey"})) for pair in drawn if "Turkey" in pair}
    assert turkey == {"Caucasus", "Persia", "Syria Jordan", "Black Sea Zone", "East Mediterranean Sea Zone"}


def test_china_has_no_coast(board: Board, geo: MapGeometry) -> None:
    """Manchuria and Kwangtung hold the Chinese shore: China touches no sea zone on the map either."""
    drawn = _drawn(geo, board)
    assert not [pair for pair in drawn if "China" in pair and any(board.spaces[n].is_sea for n in pair)]


@pytest.mark.rule("CL-MAP-capitals")
def test_the_capitals_in_their_owners_colours(board: Board) -> None:
    state = new_game("realism-98", {}, seed=1).state
    root = ET.fromstring(render_map(state, board))
    spaces = {g.attrib["data-space"]: g for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("space")}
    colours = {p.name: p.colour for p in board.powers}

    def fill(name: str) -> str | None:
        return spaces[name].find(f"{SVG}path").attrib.get("fill")  # type: ignore[union-attr]

    capitals = {p.capital: p.name for p in board.powers}
    assert capitals == {"Russia": "Russia", "Germany": "Germany", "United Kingdom": "United Kingdom",
                        "Japan": "Japan", "East US": "United States"}
    for territory, power in capitals.items():
        assert fill(territory) == colours[power], territory
    assert fill("West US") == colours["United States"]
    assert fill("China") == colours["United States"] and fill("Sinkiang") == colours["United States"]
    neutrals = [s.name for s in board.land() if s.owner is None]
    assert len(neutrals) == 14
    for name in neutrals:  # Classic neutrals may be entered: cream, not hatched
        assert fill(name) == NEUTRAL.fill, name
        assert not any(p.attrib.get("class") == "hatch" for p in spaces[name].iter(f"{SVG}path")), name


def test_the_table_opens_on_the_capital_of_the_nation_to_move() -> None:
    ruleset = load_ruleset("realism-98")
    seats = ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
    assert focus_space(ruleset, seats, "Russia") == "Russia"
    assert focus_space(ruleset, ["Japan"], "Russia") == "Japan"
    assert focus_space(ruleset, ["United States"], "Japan") == "East US"


@pytest.mark.rule("REAL98-MAP-turkey-land-attack")
def test_the_realism_map_draws_the_land_route_into_turkey() -> None:
    """Realism '98 joins South Europe and Turkey by land; the Classic map has no shared border there, so the
    Realism map draws the route as a crossing; the Classic one draws none."""
    realism = render_map(None, load_ruleset("realism-98").board)
    assert realism.count('class="crossing"') == 1
    assert "<title>South Europe – Turkey</title>" in realism
    assert 'class="crossing"' not in render_map(None, load_ruleset("classic-2e").board)
