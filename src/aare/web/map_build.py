"""Making the map geometry of a board: positions and coastlines in, outlines and anchors out (JSON-ready).

Every cell of a raster over the projected world is land or sea by the coastline polygons, then belongs to
the nearest seed of a space (or decorative region) of the same kind; the cells' borders become the outlines.
Deterministic: the same inputs give the same output, byte for byte.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from aare.board.board import Board
from aare.web.map_anchors import anchors
from aare.web.map_raster import Grid, Seed, assign, fill_polygon, land_mask
from aare.web.map_sources import MapDataError, MapSpec, RegionSpec, load_spec, map_dir
from aare.web.map_trace import OUTSIDE, Chain, chain_path, trace

FORMAT = "aare-map"
VERSION = 1


def geometry_path(board_id: str, directory: Path | None = None) -> Path:
    return (directory or map_dir(board_id)) / f"{board_id}-map.json"


def build_map(board: Board, spec: MapSpec | None = None) -> dict[str, Any]:
    """The map geometry of `board` as a JSON-ready dict (see docs/map.md)."""
    spec = spec or load_spec(board.id)
    regions = _regions(board, spec)
    index = {r.name: i for i, r in enumerate(regions)}
    grid = Grid.make(spec.projection, spec.cell)
    land = land_mask(grid, spec.coast)
    warnings = _misplaced(grid, land, regions)
    seeds = [Seed(i, r.kind, at, r.reach) for i, r in enumerate(regions) for at in (r.at, *r.seeds)]
    outlines = {index[r.name]: fill_polygon(grid, r.outline) for r in regions if r.outline}
    labels = assign(grid, land, seeds, outlines)
    missing = [r.name for i, r in enumerate(regions) if not (labels == i).any()]
    if missing:
        raise MapDataError(f"map regions without any cell: {', '.join(missing)}")
    traced = trace(labels, spec.cell)
    places = anchors(labels, len(regions))
    drawn = _drawn_pairs(traced.chains, labels)
    wraps = {int(v) for v in np.intersect1d(labels[:, 0], labels[:, -1])}
    proj, cell = spec.projection, spec.cell
    spaces: dict[str, Any] = {}
    decor: dict[str, Any] = {}
    for i, region in enumerate(regions):
        entry: dict[str, Any] = {"kind": region.kind, "d": traced.paths[i]}
        if region.decor:
            decor[region.name] = entry
            continue
        place = places[i]
        label = [c * cell for c in place.label]
        if region.label is not None:
            label = [c * cell for c in grid.point(*region.label)]
        entry["label"] = _pt(label)
        entry["radius"] = round(place.radius * cell, 1)
        entry["centroid"] = _pt([c * cell for c in place.centroid])
        entry["area"] = round(place.area * cell * cell)
        if i in wraps:
            entry["wraps"] = True
        spaces[region.name] = entry
    unshared, extra = _compare(board, regions, drawn)
    return {
        "format": FORMAT,
        "version": VERSION,
        "board": board.id,
        "width": round(proj.width, 1),
        "height": round(proj.height, 1),
        "projection": proj.to_json(),
        "spaces": spaces,
        "decor": decor,
        "lines": _lines(traced.chains, regions),
        "report": {"unshared": unshared, "extra": extra, "warnings": warnings},
    }


def dumps(geometry: dict[str, Any]) -> str:
    """The canonical text of a geometry file."""
    return json.dumps(geometry, indent=1, ensure_ascii=False) + "\n"


def _regions(board: Board, spec: MapSpec) -> list[RegionSpec]:
    by_name = {r.name: r for r in spec.regions if not r.decor}
    unknown = sorted(set(by_name) - set(board.spaces))
    absent = [name for name in board.spaces if name not in by_name]
    if unknown or absent:
        raise MapDataError(f"map positions: unknown spaces {unknown}, spaces without a position {absent}")
    out = []
    for name, space in board.spaces.items():
        r = by_name[name]
        out.append(RegionSpec(name, space.kind, r.at, r.seeds, r.reach, r.outline, r.label))
    for r in spec.regions:
        if r.decor:
            if r.kind not in ("land", "sea"):
                raise MapDataError(f"map decor {r.name!r}: kind must be land or sea")
            out.append(r)
    return out


def _misplaced(grid: Grid, land: NDArray[np.bool_], regions: list[RegionSpec]) -> list[str]:
    """Seeds that fall on the wrong kind of cell (they still work, snapped to the nearest right cell)."""
    out = []
    for r in regions:
        for at in (r.at, *r.seeds):
            if bool(land[grid.pixel(*at)]) != (r.kind == "land"):
                out.append(f"{r.name}: seed {list(at)} is not on {r.kind}")
    return out


def _drawn_pairs(chains: Iterable[Chain], labels: NDArray[np.int64]) -> set[tuple[int, int]]:
    """Pairs of regions that share a border, including across the left/right edge of the map."""
    pairs = {c.pair for c in chains if OUTSIDE not in c.pair}
    left, right = labels[:, 0], labels[:, -1]
    pairs |= {(int(min(a, b)), int(max(a, b))) for a, b in zip(left, right, strict=True) if a != b}
    return pairs


def _compare(
    board: Board, regions: list[RegionSpec], drawn: set[tuple[int, int]]
) -> tuple[list[list[str]], list[list[str]]]:
    index = {r.name: i for i, r in enumerate(regions)}
    board_pairs = {tuple(sorted((index[a], index[b]))) for a, b in board.connections()}
    spaces = len(board.spaces)
    names = [r.name for r in regions]
    unshared = [[names[a], names[b]] for a, b in sorted(board_pairs - drawn)]
    extra = [[names[a], names[b]] for a, b in sorted(drawn - board_pairs) if a < spaces and b < spaces]
    return unshared, extra


def _lines(chains: Iterable[Chain], regions: list[RegionSpec]) -> dict[str, str]:
    """Coastlines, land borders and sea-zone borders, each chain drawn once."""
    kinds: dict[str, list[str]] = {"coast": [], "border": [], "sea": []}
    for chain in chains:
        if OUTSIDE in chain.pair:
            continue
        a, b = (regions[i].kind for i in chain.pair)
        kind = "coast" if a != b else "border" if a == "land" else "sea"
        kinds[kind].append(chain_path(chain))
    return {k: " ".join(v) for k, v in kinds.items()}


def _pt(p: list[float]) -> list[float]:
    return [round(p[0], 1), round(p[1], 1)]
