"""Placing the label-and-units block of every space so that blocks do not overlap where avoidable.

Greedy: blocks choose in order of rank, then the most constrained (least slack) first; each takes the
first candidate position near its anchor that overlaps nothing already placed, else the one that overlaps
least.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass

Box = tuple[float, float, float, float]  # x0, y0, x1, y1


@dataclass(frozen=True)
class Block:
    """A block of `w` x `h` map units wanting to sit centred at `anchor`, within `slack` of it.

    An island's block goes beside its shape (`radius` around the anchor) instead of on it.
    """

    key: str
    w: float
    h: float
    anchor: tuple[float, float]
    slack: float
    island: bool = False
    radius: float = 0.0
    rank: int = 0  # lower ranks choose first


def place(blocks: Iterable[Block], width: float, height: float, keep_out: Iterable[Box] = ()) -> dict[str, Box]:
    """The box each block is given, keyed by `Block.key`."""
    placed: list[Box] = list(keep_out)
    out: dict[str, Box] = {}
    for block in sorted(blocks, key=lambda b: (b.rank, b.slack, b.key)):
        best: tuple[float, int, Box] | None = None
        for i, (cx, cy) in enumerate(_candidates(block)):
            box = _clamp((cx - block.w / 2, cy - block.h / 2, cx + block.w / 2, cy + block.h / 2), width, height)
            cost = sum(_overlap(box, other) for other in placed)
            if cost == 0:
                best = (0.0, i, box)
                break
            if best is None or cost < best[0]:
                best = (cost, i, box)
        assert best is not None
        out[block.key] = best[2]
        placed.append(best[2])
    return out


def _candidates(block: Block) -> list[tuple[float, float]]:
    x, y = block.anchor
    if block.island:
        gap = block.radius + 2
        out = [
            (x, y + gap + block.h / 2),
            (x, y - gap - block.h / 2),
            (x + gap + block.w / 2, y),
            (x - gap - block.w / 2, y),
        ]
        for step in (8.0, 16.0, 24.0):
            out += [(cx + dx, cy + dy) for cx, cy in out[:4] for dx, dy in _ring(step)]
        return out
    out = [(x, y)]
    step = 4.0
    r = step
    while r <= block.slack:
        out += [(x + dx, y + dy) for dx, dy in _ring(r)]
        r += step
    return out


def _ring(r: float) -> list[tuple[float, float]]:
    """Points on a circle of radius r, vertical moves first (text reads best shifted up or down)."""
    n = max(8, int(2 * math.pi * r / 6))
    angles = sorted((2 * math.pi * k / n for k in range(n)), key=lambda a: (abs(math.cos(a)), a))
    return [(r * math.cos(a), r * math.sin(a)) for a in angles]


def _clamp(box: Box, width: float, height: float) -> Box:
    """The box moved inside the map, 2 units from its edges; sideways a tenth of its width more, as bold names
    run wider than `text_width` reckons."""
    x0, y0, x1, y1 = box
    side = 2 + (x1 - x0) / 10
    dx = max(0.0, side - x0) - max(0.0, x1 - (width - side))
    dy = max(0.0, 2 - y0) - max(0.0, y1 - (height - 2))
    return (x0 + dx, y0 + dy, x1 + dx, y1 + dy)


def _overlap(a: Box, b: Box) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0
