"""The board as a movement graph: land, sea and air neighbours and canals, computed once per board."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from aare.board.board import Board, Canal


class Graph:
    """Neighbour lists by domain. Impassable neutrals are left out of every list (LHTR-LANDMOVE-neutrals-impassable)."""

    def __init__(self, board: Board) -> None:
        self.board = board
        spaces = board.spaces
        self.neutral = frozenset(s.name for s in spaces.values() if s.neutral)
        self.sea = frozenset(s.name for s in spaces.values() if s.is_sea)
        self.land = frozenset(s.name for s in spaces.values() if s.is_land and not s.neutral)
        self.air: dict[str, tuple[str, ...]] = {}
        self.land_nbrs: dict[str, tuple[str, ...]] = {}
        self.sea_nbrs: dict[str, tuple[str, ...]] = {}
        # sea zone -> adjacent land territories transports load from and unload to, and back (Board.no_transport)
        self.coast: dict[str, tuple[str, ...]] = {}
        for space in spaces.values():
            passable = tuple(n for n in space.neighbors if n not in self.neutral)
            self.air[space.name] = passable
            self.land_nbrs[space.name] = tuple(n for n in passable if n in self.land)
            self.sea_nbrs[space.name] = tuple(n for n in passable if n in self.sea)
            shore = self.land_nbrs[space.name] if space.is_sea else self.sea_nbrs[space.name]
            self.coast[space.name] = tuple(n for n in shore if frozenset((space.name, n)) not in board.no_transport)
        self.with_coast = {name: frozenset((name, *shore)) for name, shore in self.coast.items()}
        self.canals: dict[frozenset[str], Canal] = {frozenset(c.seas): c for c in board.canals}
        # what movement code works out from the board alone, kept for the board's life (e.g. a stack's reach)
        self.derived: dict[object, object] = {}

    def canal(self, a: str, b: str) -> Canal | None:
        return self.canals.get(frozenset((a, b)))

    def ball(self, start: str, radius: int, nbrs: Callable[[str], Iterable[str]] | None = None) -> dict[str, int]:
        """Spaces within `radius` steps of `start` (air neighbours unless `nbrs` is given) with their distance."""
        step = nbrs or (lambda s: self.air[s])
        dist = {start: 0}
        queue = deque([start])
        while queue:
            here = queue.popleft()
            if dist[here] == radius:
                continue
            for nxt in step(here):
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def distances_from(
        self, sources: Iterable[str], nbrs: Callable[[str], Iterable[str]] | None = None
    ) -> dict[str, int]:
        """Air distance (over `nbrs` when given) from the nearest of `sources` to every space that can reach one."""
        step = nbrs or (lambda s: self.air[s])
        dist = {s: 0 for s in sources}
        queue = deque(dist)
        while queue:
            here = queue.popleft()
            for nxt in step(here):
                if nxt not in dist:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist


_GRAPHS: dict[int, Graph] = {}


def graph_of(board: Board) -> Graph:
    """The (cached) movement graph of `board`."""
    graph = _GRAPHS.get(id(board))
    if graph is None or graph.board is not board:
        graph = _GRAPHS[id(board)] = Graph(board)
    return graph
