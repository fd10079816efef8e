"""After a sea battle: aircraft that can land only on their side's carriers (LHTR-AIRMOVE-defending-carrier-lost,
and an attacker's fighters far from land) are lost beyond the room the surviving carriers have."""

from __future__ import annotations

from dataclasses import replace

from aare.board.units import UnitCatalogue
from aare.odds.report import BattleOdds, Units, ipc_value

SIDES = ("attacker", "defender")


def stranded(units: Units, catalogue: UnitCatalogue) -> Units:
    """`units` less the carrier-borne aircraft the surviving carriers have no room for (the largest first)."""
    room = sum(catalogue[t].carrier_capacity * n for t, n in units)
    out: dict[str, int] = {}
    borne = sorted((t for t, _ in units if catalogue[t].carrier_size), key=lambda t: -catalogue[t].carrier_size)
    for t, n in units:
        if t not in borne:
            out[t] = n
    for t in borne:
        size = catalogue[t].carrier_size
        n = dict(units)[t]
        keep = min(n, room // size)
        room -= keep * size
        if keep:
            out[t] = keep
    return tuple(sorted(out.items()))


def on_carriers(result: BattleOdds, sides: tuple[str, ...]) -> BattleOdds:
    """`result` with the survivors of `sides` whose aircraft must land on their carriers: the rest are lost,
    and the IPC lost change with them."""
    cat = result.catalogue
    changes: dict[str, object] = {}
    for side in sides:
        rows: dict[Units, float] = {}
        for units, p in getattr(result, f"{side}_survivors"):
            kept = stranded(units, cat)
            rows[kept] = rows.get(kept, 0.0) + p
        before = sum(ipc_value(u, cat) * p for u, p in getattr(result, f"{side}_survivors"))
        after = sum(ipc_value(u, cat) * p for u, p in rows.items())
        changes[f"{side}_survivors"] = tuple(sorted(rows.items(), key=lambda up: (-up[1], up[0])))
        changes[f"{side}_ipc_lost"] = getattr(result, f"{side}_ipc_lost") + before - after
    return replace(result, **changes)  # type: ignore[arg-type]
