"""From a grid of region labels to smooth SVG outlines that neighbours share exactly.

Region borders are traced along cell edges, cut into chains at junctions (where three regions or the map
edge meet), each chain simplified and smoothed once, and every region's outline assembled from its chains.
Chains on the map edge stay straight; the others become quadratic curves through their segment midpoints.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise

import numpy as np
from numpy.typing import NDArray

Vertex = tuple[int, int]  # (x, y) lattice point
Point = tuple[float, float]
OUTSIDE = -1

# Directions in screen coordinates (y down). A region's boundary runs with the region on its right.
_RIGHT_TURN = {(1, 0): (0, 1), (0, 1): (-1, 0), (-1, 0): (0, -1), (0, -1): (1, 0)}


@dataclass(frozen=True)
class Chain:
    """A stretch of border between two regions (`OUTSIDE` for the map edge), in canonical order."""

    points: tuple[Point, ...]
    pair: tuple[int, int]
    closed: bool
    straight: bool


@dataclass(frozen=True)
class Outlines:
    """Each region's path data, and every chain once (for drawing coastlines and borders)."""

    paths: dict[int, str]
    chains: tuple[Chain, ...]


def trace(labels: NDArray[np.int64], scale: float, tolerance: float = 1.0) -> Outlines:
    """Outlines of every region in `labels`, in map units (`scale` per cell)."""
    rows, cols = labels.shape
    padded = np.full((rows + 2, cols + 2), OUTSIDE, dtype=np.int64)
    padded[1:-1, 1:-1] = labels
    edges = _edges(padded)
    junctions = _junctions(padded)
    cache: dict[tuple[Vertex, ...], Chain] = {}
    paths: dict[int, list[str]] = defaultdict(list)
    for region, out in sorted(edges.items()):
        for ring in _rings(out):
            parts = []
            for seq, closed in _split(ring, junctions):
                chain, forward = _chain(seq, closed, padded, cache, scale, tolerance)
                parts.append((chain, forward))
            paths[region].append(_ring_path(parts))
    return Outlines({r: " ".join(p) for r, p in paths.items()}, tuple(cache.values()))


def chain_path(chain: Chain) -> str:
    """A chain on its own, as path data."""
    pts = chain.points
    if chain.closed:
        return _closed_curve(pts) if not chain.straight else "M " + " L ".join(_fmt(p) for p in pts[:-1]) + " Z"
    return f"M {_fmt(pts[0])} " + _open_commands(pts, chain.straight)


def _edges(padded: NDArray[np.int64]) -> dict[int, dict[Vertex, list[Vertex]]]:
    """Directed boundary edges per region, keyed by start vertex (lattice of the unpadded grid)."""
    out: dict[int, dict[Vertex, list[Vertex]]] = defaultdict(lambda: defaultdict(list))
    inner = padded[1:-1, 1:-1]
    sides = (
        (padded[:-2, 1:-1], (0, 0), (1, 0)),  # top: left to right
        (padded[1:-1, 2:], (1, 0), (1, 1)),  # right: down
        (padded[2:, 1:-1], (1, 1), (0, 1)),  # bottom: right to left
        (padded[1:-1, :-2], (0, 1), (0, 0)),  # left: up
    )
    for across, start, stop in sides:
        for r, c in np.argwhere(inner != across).tolist():
            out[int(inner[r, c])][(c + start[0], r + start[1])].append((c + stop[0], r + stop[1]))
    return out


def _junctions(padded: NDArray[np.int64]) -> set[Vertex]:
    """Lattice vertices where more than two boundary edges meet."""
    tl, tr = padded[:-1, :-1], padded[:-1, 1:]
    bl, br = padded[1:, :-1], padded[1:, 1:]
    degree = (tl != tr).astype(np.int8) + (bl != br).astype(np.int8) + (tl != bl).astype(np.int8) + (tr != br)
    # the vertex below-right of padded cell (i, j) is lattice vertex (x=j, y=i) of the unpadded grid.
    return {(c, r) for r, c in np.argwhere(degree > 2).tolist()}


def _rings(out: dict[Vertex, list[Vertex]]) -> list[list[Vertex]]:
    """Closed loops of one region's edges; at a pinch point keep to the region (turn right first)."""
    rings = []
    remaining = {v: list(nexts) for v, nexts in out.items()}
    for start in sorted(remaining):
        while remaining.get(start):
            ring = [start]
            prev, cur = start, remaining[start].pop()
            while cur != start:
                ring.append(cur)
                nexts = remaining[cur]
                d = (cur[0] - prev[0], cur[1] - prev[1])
                nxt = min(nexts, key=lambda n: _turn_rank(d, (n[0] - cur[0], n[1] - cur[1])))
                nexts.remove(nxt)
                prev, cur = cur, nxt
            rings.append(ring)
    return rings


def _turn_rank(d: Vertex, e: Vertex) -> int:
    if e == _RIGHT_TURN[d]:
        return 0
    return 1 if e == d else 2


def _split(ring: list[Vertex], junctions: set[Vertex]) -> list[tuple[list[Vertex], bool]]:
    """The ring cut at junctions into open chains (each with both ends), or itself as one closed chain."""
    cuts = [i for i, v in enumerate(ring) if v in junctions]
    if not cuts:
        return [([*ring, ring[0]], True)]
    ring = ring[cuts[0] :] + ring[: cuts[0]]
    cuts = [i - cuts[0] for i in cuts] + [len(ring)]
    ring = [*ring, ring[0]]
    return [(ring[a : b + 1], False) for a, b in pairwise(cuts)]


def _chain(
    seq: list[Vertex],
    closed: bool,
    padded: NDArray[np.int64],
    cache: dict[tuple[Vertex, ...], Chain],
    scale: float,
    tolerance: float,
) -> tuple[Chain, bool]:
    canon, forward = _canonical(seq, closed)
    key = tuple(canon)
    if key not in cache:
        pair = _pair(canon[0], canon[1], padded)
        straight = OUTSIDE in pair
        simple = _simplify(canon, tolerance, closed)
        cache[key] = Chain(tuple((x * scale, y * scale) for x, y in simple), pair, closed, straight)
    return cache[key], forward


def _canonical(seq: list[Vertex], closed: bool) -> tuple[list[Vertex], bool]:
    if closed:
        body = seq[:-1]
        i = body.index(min(body))
        body = body[i:] + body[:i]
        rev = [body[0], *body[:0:-1]]
        if rev[1] < body[1]:
            return [*rev, rev[0]], False
        return [*body, body[0]], True
    if (seq[-1], seq[-2]) < (seq[0], seq[1]):
        return seq[::-1], False
    return seq, True


def _pair(a: Vertex, b: Vertex, padded: NDArray[np.int64]) -> tuple[int, int]:
    """The two labels either side of the lattice edge a->b."""
    if a[1] == b[1]:  # horizontal edge: cells above and below
        c = min(a[0], b[0])
        first, second = int(padded[a[1], c + 1]), int(padded[a[1] + 1, c + 1])
    else:  # vertical edge: cells left and right
        r = min(a[1], b[1])
        first, second = int(padded[r + 1, a[0]]), int(padded[r + 1, a[0] + 1])
    return (min(first, second), max(first, second))


def _simplify(seq: Sequence[Vertex], tolerance: float, closed: bool) -> list[Vertex]:
    """Douglas-Peucker on a lattice path; a closed chain is split at its farthest point first."""
    pts = np.asarray(seq, dtype=float)
    if closed:
        far = int(np.argmax(((pts - pts[0]) ** 2).sum(axis=1)))
        first = _dp(pts[: far + 1], tolerance)
        second = _dp(pts[far:], tolerance)
        keep = [*first, *(far + i for i in second[1:])]
    else:
        keep = _dp(pts, tolerance)
    return [seq[i] for i in keep]


def _dp(pts: NDArray[np.float64], tolerance: float) -> list[int]:
    keep = [0, len(pts) - 1]
    stack = [(0, len(pts) - 1)]
    while stack:
        a, b = stack.pop()
        if b - a < 2:
            continue
        seg = pts[b] - pts[a]
        rel = pts[a + 1 : b] - pts[a]
        norm = float(np.hypot(*seg))
        cross = np.abs(seg[0] * rel[:, 1] - seg[1] * rel[:, 0])
        dist = cross / norm if norm else np.hypot(rel[:, 0], rel[:, 1])
        i = int(np.argmax(dist))
        if dist[i] > tolerance:
            mid = a + 1 + i
            keep.append(mid)
            stack += [(a, mid), (mid, b)]
    return sorted(set(keep))


def _ring_path(parts: list[tuple[Chain, bool]]) -> str:
    if len(parts) == 1 and parts[0][0].closed:
        return chain_path(parts[0][0])
    first, forward = parts[0]
    start = first.points[0] if forward else first.points[-1]
    cmds = [f"M {_fmt(start)}"]
    for chain, fwd in parts:
        pts = chain.points if fwd else chain.points[::-1]
        cmds.append(_open_commands(pts, chain.straight))
    return " ".join(cmds) + " Z"


def _open_commands(pts: Sequence[Point], straight: bool) -> str:
    if straight or len(pts) == 2:
        return " ".join(f"L {_fmt(p)}" for p in pts[1:])
    mids = [_mid(a, b) for a, b in pairwise(pts)]
    cmds = [f"L {_fmt(mids[0])}"]
    cmds += [f"Q {_fmt(p)} {_fmt(m)}" for p, m in zip(pts[1:-1], mids[1:], strict=True)]
    cmds.append(f"L {_fmt(pts[-1])}")
    return " ".join(cmds)


def _closed_curve(pts: Sequence[Point]) -> str:
    body = list(pts[:-1])
    mids = [_mid(a, b) for a, b in zip(body, [*body[1:], body[0]], strict=True)]
    cmds = [f"M {_fmt(mids[-1])}"]
    cmds += [f"Q {_fmt(p)} {_fmt(m)}" for p, m in zip(body, mids, strict=True)]
    return " ".join(cmds) + " Z"


def _mid(a: Point, b: Point) -> Point:
    return ((a[0] + b[0]) / 2, (a[1] + b[1]) / 2)


def _fmt(p: Point) -> str:
    return f"{_num(p[0])} {_num(p[1])}"


def _num(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text
