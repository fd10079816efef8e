"""Any board gets a map: a small made-up family (three powers, four territories, three sea zones) written into a
temporary data folder, registered, built into map geometry and rendered in its own colours. The Revised data
is not touched."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from aare.board.board import Board
from aare.game_setup import new_game
from aare.rules.registry import Family, data_file, register_family, unregister_family
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState
from aare.web.map_build import build_map, dumps, geometry_path
from aare.web.map_geometry import MapGeometry, load_geometry
from aare.web.map_sources import map_dir
from aare.web.map_style import NEUTRAL, power_styles, slug
from aare.web.map_svg import render_map

SVG = "{http://www.w3.org/2000/svg}"
BOARD = "tiny"
RULESET = "tiny-1"

BOARD_TOML = """
[board]
id = "tiny"
name = "A tiny continent"

[[power]]
name = "Borduria"
side = "Axis"
capital = "North March"
colour = "#9fb7d9"
ink = "#23446e"
aliases = ["Bordurians"]

[[power]]
name = "Syldavia"
side = "Allies"
capital = "East Fen"
colour = "#f5e27a"
ink = "#e3c12a"
text = "#1b1b1b"

[[power]]
name = "Ruritania"
side = "Allies"
capital = "South March"
colour = "#c9a3d6"
ink = "#5b2a6e"

[[land]]
name = "North March"
ipc = 6
owner = "Borduria"
victory_city = "Szohod"
neighbors = ["South March", "East Fen", "SZ 1", "SZ 2", "SZ 3"]

[[land]]
name = "South March"
ipc = 4
owner = "Ruritania"
victory_city = "Strelsau"
neighbors = ["North March", "East Fen", "SZ 2"]

[[land]]
name = "East Fen"
ipc = 3
owner = "Syldavia"
neighbors = ["North March", "South March", "SZ 2", "SZ 3"]

[[land]]
name = "Lone Isle"
ipc = 1
owner = "Ruritania"
neighbors = ["SZ 3"]

[[sea]]
number = 1
name = "SZ 1"
neighbors = ["North March", "SZ 2", "SZ 3"]

[[sea]]
number = 2
name = "SZ 2"
neighbors = ["North March", "South March", "East Fen", "SZ 1", "SZ 3"]

[[sea]]
number = 3
name = "SZ 3"
neighbors = ["North March", "East Fen", "Lone Isle", "SZ 1", "SZ 2"]

[setup]
bank = { Borduria = 6, Syldavia = 3, Ruritania = 5 }

[[setup.units]]
space = "North March"
power = "Borduria"
units = "3 infantry, 1 armour"

[[setup.units]]
space = "South March"
power = "Ruritania"
units = "2 infantry"

[[setup.units]]
space = "East Fen"
power = "Syldavia"
units = "1 infantry, 1 fighter"

[[setup.units]]
space = "SZ 2"
power = "Ruritania"
units = "1 destroyer"
"""

POSITIONS_TOML = """
[map]
cut = -180.0
north = 60.0
south = -40.0
width = 720.0
cell = 4.0

[space."North March"]
at = [33.0, 20.0]
seeds = [[36.0, 8.0], [36.0, 32.0]]

[space."South March"]
at = [18.0, 10.0]

[space."East Fen"]
at = [18.0, 30.0]

[space."Lone Isle"]
at = [-5.0, 65.0]

[space."SZ 1"]
at = [48.0, 20.0]

[space."SZ 2"]
at = [5.0, -5.0]

[space."SZ 3"]
at = [5.0, 50.0]

[decor."Far Shore"]
kind = "land"
at = [-25.0, -100.0]
"""

COAST_TOML = """
[[land]]
name = "Continent"
points = [[10.0, 0.0], [40.0, 0.0], [40.0, 40.0], [10.0, 40.0]]

[[land]]
name = "Far Shore"
points = [[-35.0, -110.0], [-15.0, -110.0], [-15.0, -90.0], [-35.0, -90.0]]

[[islet]]
name = "Lone Isle"
at = [-5.0, 65.0]
radius = 6.0
"""

RULESET_TOML = """
id = "tiny-1"
title = "A tiny test game"
board = "tiny"
units = "tiny"
modules = ["lhtr"]
"""


@pytest.fixture(scope="module")
def family(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    """The tiny family's data folder, registered for the module and unregistered after."""
    data = tmp_path_factory.mktemp("tiny-family") / "data"
    files = {
        f"boards/{BOARD}.toml": BOARD_TOML,
        f"units/{BOARD}.toml": data_file("units", "revised").read_text(encoding="utf-8"),
        f"rulesets/{RULESET}.toml": RULESET_TOML,
        f"map/{BOARD}-positions.toml": POSITIONS_TOML,
        f"map/{BOARD}-coast.toml": COAST_TOML,
    }
    for name, text in files.items():
        (data / name).parent.mkdir(parents=True, exist_ok=True)
        (data / name).write_text(text, encoding="utf-8")
    register_family(Family("tiny-test", "A tiny test family", data))
    try:
        yield data
    finally:
        unregister_family("tiny-test")


@pytest.fixture(scope="module")
def board(family: Path) -> Board:
    return load_ruleset(RULESET).board


@pytest.fixture(scope="module")
def geometry(board: Board, family: Path) -> dict[str, Any]:
    built = build_map(board)
    geometry_path(board.id).write_text(dumps(built), encoding="utf-8")
    return built


@pytest.fixture(scope="module")
def state(family: Path) -> GameState:
    return new_game(RULESET, {}, seed=1).state


@pytest.fixture(scope="module")
def svg(state: GameState, board: Board, geometry: dict[str, Any]) -> str:
    return render_map(state, board)


def test_the_map_folder_is_the_familys(board: Board, family: Path) -> None:
    assert map_dir(board.id) == family / "map"
    assert geometry_path(board.id) == family / "map" / "tiny-map.json"
    assert map_dir("revised") != family / "map"


def test_geometry_of_a_made_up_board(board: Board, geometry: dict[str, Any]) -> None:
    assert geometry["board"] == BOARD and set(geometry["spaces"]) == set(board.spaces)
    assert set(geometry["decor"]) == {"Far Shore"}
    for name, shape in geometry["spaces"].items():
        assert shape["kind"] == board.spaces[name].kind and shape["area"] > 0
        assert shape["d"].startswith("M ") and shape["d"].rstrip().endswith("Z")
    assert geometry["report"] == {"unshared": [], "extra": [], "warnings": []}
    assert build_map(board) == json.loads(dumps(geometry)), "deterministic"
    assert load_geometry(board.id) == MapGeometry.from_json(geometry)


def test_svg_in_the_boards_own_colours(svg: str, state: GameState, board: Board) -> None:
    root = ET.fromstring(svg)
    styles = power_styles(board)
    assert {name: (s.fill, s.ink, s.text) for name, s in styles.items()} == {
        "Borduria": ("#9fb7d9", "#23446e", "#ffffff"),
        "Syldavia": ("#f5e27a", "#e3c12a", "#1b1b1b"),
        "Ruritania": ("#c9a3d6", "#5b2a6e", "#ffffff"),
    }
    groups = {g.attrib["data-space"]: g for g in root.iter(f"{SVG}g") if g.attrib.get("class", "").startswith("space")}
    assert set(groups) == set(board.spaces)
    for name, g in groups.items():
        assert g.attrib["id"] == f"space-{slug(name)}"
        path = g.find(f"{SVG}path")
        assert path is not None
        owner = board.spaces[name].owner
        if board.spaces[name].is_land:
            assert owner is not None and f"owner-{slug(owner)}" in g.attrib["class"]
            assert path.attrib["fill"] == styles[owner].fill
        else:
            assert "fill" not in path.attrib
    chips = [g for g in root.iter(f"{SVG}g") if g.attrib.get("class") == "chip"]
    inks = {
        c.find(f"{SVG}rect").attrib["fill"]: {t.attrib.get("style", "") for t in c.iter(f"{SVG}text")}  # type: ignore[union-attr]
        for c in chips
    }
    assert inks == {"#23446e": {""}, "#e3c12a": {"fill: #1b1b1b"}, "#5b2a6e": {""}}
    legend = root.find(f".//{SVG}g[@id='legend']")
    assert legend is not None
    names = [t.text for t in legend.iter(f"{SVG}text")]
    assert names[1:] == ["Borduria", "Syldavia", "Ruritania", "Neutral"]
    keys = [r.attrib["fill"] for r in legend.iter(f"{SVG}rect")][1:]
    assert keys == [styles[p.name].fill for p in board.powers] + [NEUTRAL.fill]
    assert len(root.findall(f".//{SVG}polygon[@class='victory']")) == 2


def test_nothing_of_the_revised_board_shows(svg: str) -> None:
    revised = load_ruleset("lhtr-1.3").board
    for power in revised.powers:
        assert power.name not in svg
        assert power.colour not in svg and power.ink not in svg
    assert "Russia" not in svg and not re.search(r"West|Europe|Pacific", svg)


def test_the_page_styles_and_titles_of_a_made_up_board(board: Board, state: GameState) -> None:
    pytest.importorskip("jinja2", reason="the server extra is not installed")
    from aare.web.templating import phase_title, power_colours, power_css

    css = str(power_css(RULESET))
    assert css == str(power_css(board))
    assert "--power-borduria-ink: #23446e;" in css and "--power-syldavia-text: #1b1b1b;" in css
    assert "--power-ruritania-fill: #c9a3d6;" in css and "russia" not in css
    assert power_colours("Syldavia", board) == {"fill": "#f5e27a", "ink": "#e3c12a", "text": "#1b1b1b"}
    assert power_colours("Syldavia")["ink"] == "var(--power-syldavia-ink, #555555)"
    assert power_colours(None, board) == power_colours(None) == {"fill": NEUTRAL.fill, "ink": NEUTRAL.ink,
                                                                 "text": NEUTRAL.text}
    ruleset = load_ruleset(RULESET)
    assert [phase_title(p.name, ruleset) for p in ruleset.phase_table()][:2] == ["Develop weapons", "Purchase units"]
    assert state.phase == "develop-weapons" and phase_title(state.phase) == "Develop weapons"
