"""Each stack's move candidates kept from one state to the next while nothing within the stack's reach has
changed: between two moves of a movement phase only a few spaces' units change, and every other stack's moves are
the same (listing them is most of the cost of `Game.legal_actions` in a movement phase).

A ruleset opts in with `MovementRules.moves_local` (its leg checks read only the units within a stack's reach and
the rest of the state). A kept list is dropped when any part of the state but the units changes, or when the units
change within the stack's reach (`_reach`). With AARE_CHECK_MOVE_MEMO=1 (the tests) every kept list is listed
again and compared."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable, Iterable
from dataclasses import fields

from aare.actions import Move
from aare.movement.situation import Situation
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

CHECK = os.environ.get("AARE_CHECK_MOVE_MEMO") == "1"
CARRIER_REACH = 2
"""How far a carrier may come to take on an aircraft that lands at sea."""
_OTHER_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in ("units", "version"))
_LOCAL = threading.local()


class MoveMemo:
    """The move lists of one power's stacks in one kind of movement, as of the last state seen."""

    def __init__(self) -> None:
        self.state: GameState | None = None
        self.kept: dict[tuple[str, Stack], tuple[list[Move], frozenset[str]]] = {}

    def moves(self, view: Situation, where: str, stack: Stack, left: int, domain: str,
              listing: Callable[[], Iterable[Move]]) -> list[Move]:
        """The moves of `stack` in `where` (`listing` lists them), kept while its reach is unchanged."""
        self._advance(view.state)
        key = (where, stack)
        found = self.kept.get(key)
        if found is not None:
            if CHECK:
                fresh = list(listing())
                if fresh != found[0]:
                    raise AssertionError(f"kept moves of {stack} in {where} differ from a fresh listing: "
                                         f"{found[0]} != {fresh}")
            return found[0]
        moves = list(listing())
        reach = _reach(view, where, left, domain)
        self.kept[key] = (moves, reach)
        return moves

    def _advance(self, state: GameState) -> None:
        """Forget what `state` may have changed since the last state seen."""
        last = self.state
        if last is state:
            return
        self.state = state
        if last is None or not self.kept:
            self.kept.clear()
            return
        for name in _OTHER_FIELDS:
            before, after = getattr(last, name), getattr(state, name)
            if before is not after and before != after:
                self.kept.clear()
                return
        old, new = last.units, state.units
        changed = {s for s in old.keys() | new.keys() if old.get(s) is not new.get(s) and old.get(s) != new.get(s)}
        if changed:
            self.kept = {k: v for k, v in self.kept.items() if not (v[1] & changed)}


def _reach(view: Situation, where: str, left: int, domain: str) -> frozenset[str]:
    """The spaces whose units the moves of a stack of `domain` with `left` movement in `where` may read: land
    units, the land within `left`; ships, the sea within `left` and its shores; aircraft, the spaces within `left`
    and as far again as a carrier may come to where they land."""
    graph = view.graph
    key = ("memo_reach", where, left, domain)
    known = graph.derived.get(key)
    if known is not None:
        return known  # type: ignore[return-value]
    if domain == "land":
        found = frozenset(graph.ball(where, left, lambda s: graph.land_nbrs[s]))
    elif domain == "sea":
        seas = graph.ball(where, left, lambda s: graph.sea_nbrs[s])
        found = frozenset(seas).union(*(graph.air[s] for s in seas))
    else:
        found = frozenset(graph.ball(where, left + CARRIER_REACH))
    graph.derived[key] = found
    return found


def memo_for(view: Situation, combat: bool) -> MoveMemo | None:
    """This thread's memo for the mover and kind of movement of `view`, or None when the ruleset does not opt in."""
    if not view.rules.moves_local:
        return None
    memos: dict[tuple[int, str, bool], MoveMemo] | None = getattr(_LOCAL, "memos", None)
    if memos is None:
        memos = _LOCAL.memos = {}
    key = (id(view.ruleset), view.power, combat)
    found = memos.get(key)
    if found is None:
        if len(memos) > 64:
            memos.clear()
        found = memos[key] = MoveMemo()
    return found


def kept_moves(view: Situation, combat: bool, where: str, stack: Stack, left: int, domain: str,
               listing: Callable[[], Iterable[Move]]) -> Iterable[Move]:
    """`listing()`, or the moves kept for `stack` when the ruleset opts in and nothing within reach changed."""
    memo = memo_for(view, combat)
    return listing() if memo is None else memo.moves(view, where, stack, left, domain, listing)

