"""The generated map geometry (`data/map/<board>-map.json`), loaded for rendering."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from typing import Any

from aare.web.map_sources import MapDataError, map_dir

Point = tuple[float, float]


@dataclass(frozen=True)
class SpaceShape:
    """One space on the map: outline path, where to write its name and where to put its units."""

    name: str
    kind: str
    d: str
    label: Point
    radius: float
    centroid: Point
    area: float
    wraps: bool = False


@dataclass(frozen=True)
class DecorShape:
    """A region drawn but not played (the Arctic Ocean, Iceland)."""

    name: str
    kind: str
    d: str


@dataclass(frozen=True)
class MapGeometry:
    """Outlines of every space of a board, in map units (0..width, 0..height, y down)."""

    board: str
    width: float
    height: float
    spaces: Mapping[str, SpaceShape]
    decor: Mapping[str, DecorShape]
    lines: Mapping[str, str]
    report: Mapping[str, Any]

    @staticmethod
    def from_json(raw: Mapping[str, Any]) -> MapGeometry:
        if raw.get("format") != "aare-map":
            raise MapDataError("not an aare map geometry file")
        spaces = {
            name: SpaceShape(
                name,
                s["kind"],
                s["d"],
                (s["label"][0], s["label"][1]),
                s["radius"],
                (s["centroid"][0], s["centroid"][1]),
                s["area"],
                bool(s.get("wraps", False)),
            )
            for name, s in raw["spaces"].items()
        }
        decor = {name: DecorShape(name, s["kind"], s["d"]) for name, s in raw["decor"].items()}
        return MapGeometry(
            raw["board"], raw["width"], raw["height"], spaces, decor, dict(raw["lines"]), raw.get("report", {})
        )


@cache
def load_geometry(board_id: str) -> MapGeometry:
    """The committed geometry of a board (regenerate with scripts/make_map.py)."""
    path = map_dir(board_id) / f"{board_id}-map.json"
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise MapDataError(f"{path}: {exc}") from exc
    return MapGeometry.from_json(raw)
