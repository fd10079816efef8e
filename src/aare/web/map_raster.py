"""Rasterising the map: a land mask from coastline polygons, then every cell given to the nearest seed.

The grid has `cols x rows` square cells of `cell` map units. Distances between a cell and a seed are
great-circle distances, so cells wrap around the cut meridian naturally.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from aare.web.map_projection import Projection, unwrap_ring
from aare.web.map_sources import Coast, LatLon, MapDataError

BoolGrid = NDArray[np.bool_]
IntGrid = NDArray[np.int64]


@dataclass(frozen=True)
class Grid:
    """The raster: the true latitude and longitude of every cell centre (rows x cols)."""

    projection: Projection
    cell: float
    rows: int
    cols: int
    lat: NDArray[np.float64]
    lon: NDArray[np.float64]

    @staticmethod
    def make(projection: Projection, cell: float) -> Grid:
        cols = round(projection.width / cell)
        rows = round(projection.height / cell)
        xs, ys = np.meshgrid((np.arange(cols) + 0.5) * cell, (np.arange(rows) + 0.5) * cell)
        lat, lon = projection.inverse(xs, ys)
        return Grid(projection, cell, rows, cols, lat, lon)

    def point(self, lat: float, lon: float) -> tuple[float, float]:
        """A point in cell units (x, y)."""
        x, y = self.projection.forward(lat, lon)
        return float(x) / self.cell, float(y) / self.cell

    def pixel(self, lat: float, lon: float) -> tuple[int, int]:
        """The (row, col) holding a point."""
        x, y = self.point(lat, lon)
        return min(max(int(y), 0), self.rows - 1), min(max(int(x), 0), self.cols - 1)

    def polygon(self, points: Sequence[LatLon]) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """A lat/lon ring in cell units (x continuous across the cut)."""
        lat, lon = self.projection.warp([p[0] for p in points], [p[1] for p in points])
        u = unwrap_ring(lon.tolist(), self.projection.cut)
        return self.projection.x_of_u(u) / self.cell, self.projection.y(lat) / self.cell


@dataclass(frozen=True)
class Seed:
    """A point that claims the cells nearest to it for `region` (an index), optionally within `reach` degrees."""

    region: int
    kind: str
    at: LatLon
    reach: float | None = None


def land_mask(grid: Grid, coast: Coast) -> BoolGrid:
    """True on land: the land polygons and islets less the water polygons."""
    land = np.zeros((grid.rows, grid.cols), dtype=bool)
    for _, points in coast.land:
        land |= fill_polygon(grid, points)
    for islet in coast.islets:
        land |= _disc(grid, islet.at, islet.radius)
    for _, points in coast.water:
        land &= ~fill_polygon(grid, points)
    return land


def fill_polygon(grid: Grid, points: Sequence[LatLon]) -> BoolGrid:
    """Cells whose centre is inside a lat/lon ring (even-odd rule), wrapping across the map edges."""
    x, y = grid.polygon(points)
    out = np.zeros((grid.rows, grid.cols), dtype=bool)
    span = grid.cols
    for shift in (-span, 0, span):
        xs = x + shift
        if xs.max() < 0 or xs.min() > span:
            continue
        _scanline(out, xs, y)
    return out


def _scanline(out: BoolGrid, x: NDArray[np.float64], y: NDArray[np.float64]) -> None:
    x0, y0 = x, y
    x1, y1 = np.roll(x, -1), np.roll(y, -1)
    centres = np.arange(out.shape[1]) + 0.5
    top, bottom = max(int(np.floor(y.min())), 0), min(int(np.ceil(y.max())), out.shape[0])
    for row in range(top, bottom):
        ys = row + 0.5
        hit = ((y0 <= ys) & (y1 > ys)) | ((y1 <= ys) & (y0 > ys))
        if not hit.any():
            continue
        t = (ys - y0[hit]) / (y1[hit] - y0[hit])
        xs = np.sort(x0[hit] + t * (x1[hit] - x0[hit]))
        for a, b in zip(xs[0::2], xs[1::2], strict=False):
            out[row] ^= (centres >= a) & (centres < b)


def _disc(grid: Grid, at: LatLon, radius: float) -> BoolGrid:
    cx, cy = grid.point(*at)
    r = radius / grid.cell
    ys = np.arange(grid.rows)[:, None] + 0.5
    xs = np.arange(grid.cols)[None, :] + 0.5
    dx = np.minimum(np.abs(xs - cx), grid.cols - np.abs(xs - cx))
    return np.asarray((dx**2 + (ys - cy) ** 2) <= r * r, dtype=bool)


def components(values: IntGrid, *, wrap: bool = True) -> IntGrid:
    """Connected pieces (4-neighbours, wrapping left-right) of equal values; cells < 0 get -1."""
    rows, cols = values.shape
    parent: list[int] = []

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, b: int) -> None:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)

    runs: list[list[tuple[int, int, int, int]]] = []  # per row: (start, stop, value, run id)
    for r in range(rows):
        line = values[r]
        cuts = np.flatnonzero(np.diff(line)) + 1
        starts = np.concatenate(([0], cuts))
        stops = np.concatenate((cuts, [cols]))
        row_runs = []
        for s, e in zip(starts.tolist(), stops.tolist(), strict=True):
            v = int(line[s])
            if v < 0:
                continue
            parent.append(len(parent))
            row_runs.append((s, e, v, len(parent) - 1))
        if wrap and len(row_runs) > 1:
            first, last = row_runs[0], row_runs[-1]
            if first[0] == 0 and last[1] == cols and first[2] == last[2]:
                union(first[3], last[3])
        if r:
            _link(runs[-1], row_runs, union)
        runs.append(row_runs)
    out = np.full((rows, cols), -1, dtype=np.int64)
    ids: dict[int, int] = {}
    for r, row_runs in enumerate(runs):
        for s, e, _, i in row_runs:
            out[r, s:e] = ids.setdefault(find(i), len(ids))
    return out


def _link(
    above: list[tuple[int, int, int, int]], below: list[tuple[int, int, int, int]], union: Callable[[int, int], None]
) -> None:
    i = j = 0
    while i < len(above) and j < len(below):
        a, b = above[i], below[j]
        if a[0] < b[1] and b[0] < a[1] and a[2] == b[2]:
            union(a[3], b[3])
        if a[1] <= b[1]:
            i += 1
        else:
            j += 1


def assign(grid: Grid, land: BoolGrid, seeds: Sequence[Seed], outlines: dict[int, BoolGrid]) -> IntGrid:
    """Each cell's region: the nearest seed of its kind (land or sea) within the same piece of land or
    water; a piece without seeds goes whole to the region nearest to most of it; outlines override."""
    labels = np.full((grid.rows, grid.cols), -1, dtype=np.int64)
    lat, lon = np.radians(grid.lat).ravel(), np.radians(grid.lon).ravel()
    for kind, mask in (("land", land), ("sea", ~land)):
        piece = components(np.where(mask, 0, -1).astype(np.int64))
        flat = np.flatnonzero(mask)
        cos_lat = np.cos(lat[flat])
        cx, cy, cz = cos_lat * np.cos(lon[flat]), cos_lat * np.sin(lon[flat]), np.sin(lat[flat])
        cell_piece = piece.ravel()[flat]
        mine = [s for s in seeds if s.kind == kind]
        seed_piece = [int(piece[_snap(grid, mask, s)]) for s in mine]
        seeded = np.isin(cell_piece, np.array(sorted(set(seed_piece)), dtype=np.int64))
        best = np.full(flat.size, -2.0)
        owner = np.full(flat.size, -1, dtype=np.int64)
        for seed, sp in zip(mine, seed_piece, strict=True):
            slat, slon = np.radians(seed.at[0]), np.radians(seed.at[1])
            dot = cx * (np.cos(slat) * np.cos(slon)) + cy * (np.cos(slat) * np.sin(slon)) + cz * np.sin(slat)
            ok = (cell_piece == sp) | ~seeded
            if seed.reach is not None:
                ok &= dot >= np.cos(np.radians(seed.reach))
            better = ok & (dot > best)
            best[better] = dot[better]
            owner[better] = seed.region
        for p in np.unique(cell_piece[~seeded]).tolist():  # a piece without seeds goes whole to one region
            sel = (cell_piece == p) & (owner >= 0)
            owner[cell_piece == p] = np.bincount(owner[sel]).argmax()
        labels.ravel()[flat] = owner
    for region, outline in outlines.items():
        labels[outline & land] = region
    _merge_specks(labels)
    if (labels < 0).any():
        r, c = np.argwhere(labels < 0)[0]
        raise MapDataError(f"map cell at lat {grid.lat[r, c]:.1f}, lon {grid.lon[r, c]:.1f} has no region")
    return labels


def _merge_specks(labels: IntGrid, size: int = 3) -> None:
    """Give stray fragments of a region (a few cells cut off at a corner) to the neighbour around them."""
    piece = components(labels)
    sizes = np.bincount(piece.ravel())
    biggest: dict[int, int] = {}
    for p, region in zip(piece.ravel().tolist(), labels.ravel().tolist(), strict=True):
        if sizes[p] > sizes[biggest.get(region, p)] or region not in biggest:
            biggest[region] = p
    rows, cols = labels.shape
    for r, c in np.argwhere(sizes[piece] <= size).tolist():
        region = int(labels[r, c])
        if biggest[region] == piece[r, c]:
            continue
        around = [
            labels[rr, cc % cols] for rr, cc in ((r - 1, c), (r + 1, c), (r, c - 1), (r, c + 1)) if 0 <= rr < rows
        ]
        others = [int(v) for v in around if v != region]
        if others:
            labels[r, c] = max(sorted(set(others)), key=others.count)


def _snap(grid: Grid, mask: BoolGrid, seed: Seed, limit: int = 6) -> tuple[int, int]:
    """The seed's cell, or the nearest cell of the right kind within `limit` cells."""
    r, c = grid.pixel(*seed.at)
    for d in range(limit + 1):
        r0, r1 = max(r - d, 0), min(r + d + 1, grid.rows)
        window = mask[r0:r1, :][:, [(c + k) % grid.cols for k in range(-d, d + 1)]]
        hits = np.argwhere(window)
        if hits.size:
            dr, dc = min(hits.tolist(), key=lambda h: ((h[0] + r0 - r) ** 2 + (h[1] - d) ** 2, h[0], h[1]))
            return r0 + dr, (c + dc - d) % grid.cols
    raise MapDataError(f"a {seed.kind} seed at {seed.at} is not on {seed.kind}")
