"""The purchase pool, `state.extra["purchased"] = {power: {unit: count}}`: units bought in purchase wait
here, off the board, until mobilize places them (LHTR-PURCHASE-units-wait-for-mobilize)."""

from __future__ import annotations

from collections.abc import Mapping

from aare.events import ExtraSet
from aare.state.game_state import GameState

PURCHASED = "purchased"


def pool(state: GameState, power: str) -> dict[str, int]:
    """The units `power` has bought and not yet placed."""
    pools = state.extra.get(PURCHASED) or {}
    return dict(pools.get(power, {}))


def pool_event(state: GameState, power: str, counts: Mapping[str, int], rule_id: str) -> ExtraSet:
    """Set `power`'s pool to `counts` (zero counts and an empty pool are dropped)."""
    pools = {p: dict(c) for p, c in (state.extra.get(PURCHASED) or {}).items() if p != power}
    clean = {u: n for u, n in sorted(counts.items()) if n > 0}
    if clean:
        pools[power] = clean
    return ExtraSet(PURCHASED, dict(sorted(pools.items())), rule_id)
