"""Where to write on each region: the centre of its widest inscribed circle, and a centroid for units."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from aare.web.map_raster import components

_NEIGHBOURS = (
    (-1, 0, 1.0),
    (1, 0, 1.0),
    (0, -1, 1.0),
    (0, 1, 1.0),
    (-1, -1, 1.41),
    (-1, 1, 1.41),
    (1, -1, 1.41),
    (1, 1, 1.41),
)


@dataclass(frozen=True)
class Anchor:
    """In cells: `label` is the widest point, `radius` its clearance, `centroid` the middle of that piece."""

    label: tuple[float, float]
    radius: float
    centroid: tuple[float, float]
    area: int


def clearance(labels: NDArray[np.int64]) -> NDArray[np.float64]:
    """Chamfer distance (cells) from each cell to the nearest border of its region or the map edge."""
    edge = np.zeros(labels.shape, dtype=bool)
    edge[:, :-1] |= labels[:, :-1] != labels[:, 1:]
    edge[:, 1:] |= labels[:, :-1] != labels[:, 1:]
    edge[:-1, :] |= labels[:-1, :] != labels[1:, :]
    edge[1:, :] |= labels[:-1, :] != labels[1:, :]
    edge[0, :] = edge[-1, :] = edge[:, 0] = edge[:, -1] = True
    dist = np.where(edge, 0.5, np.inf)
    while True:
        padded = np.pad(dist, 1, constant_values=np.inf)
        new = dist.copy()
        for dr, dc, w in _NEIGHBOURS:
            shifted = padded[1 + dr : 1 + dr + dist.shape[0], 1 + dc : 1 + dc + dist.shape[1]]
            np.minimum(new, shifted + w, out=new)
        if np.array_equal(new, dist):
            return dist
        dist = new


def anchors(labels: NDArray[np.int64], count: int) -> dict[int, Anchor]:
    """An anchor for each region index below `count` that has cells."""
    dist = clearance(labels)
    piece = components(labels, wrap=False).ravel()
    flat_labels = labels.ravel()
    order = np.argsort(flat_labels, kind="stable")
    bounds = np.searchsorted(flat_labels[order], np.arange(count + 1))
    cols = labels.shape[1]
    out = {}
    for region in range(count):
        cells = order[bounds[region] : bounds[region + 1]]
        if not cells.size:
            continue
        best = int(cells[np.argmax(dist.ravel()[cells])])
        r, c = divmod(best, cols)
        same = cells[piece[cells] == piece[best]]
        rr, cc = np.divmod(same, cols)
        cy, cx = float(rr.mean()), float(cc.mean())
        inside = labels[int(cy), int(cx)] == region and dist[int(cy), int(cx)] >= 0.5 * dist[r, c]
        centroid = (cx + 0.5, cy + 0.5) if inside else (c + 0.5, r + 0.5)
        out[region] = Anchor((c + 0.5, r + 0.5), float(dist[r, c]), centroid, int(cells.size))
    return out
