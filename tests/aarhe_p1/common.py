"""Helpers for the AARHE Phase 1 tests: a position on the Revised board under `aarhe-p1`, buying and placing."""

from __future__ import annotations

from typing import Any

from aare.engine import Game
from aare.scenario import scenario
from tests.aarhe.common import GER, JAP, RUS, UK, US, end_phase, refused

RULES = "aarhe-p1"
BANK = 200

__all__ = ["GER", "JAP", "RULES", "RUS", "UK", "US", "at", "buy", "place", "purchase", "refused", "to"]


def at(power: str, phase: str = "purchase", **kwargs: Any) -> Game:
    """The Revised set-up under `aarhe-p1` in round 2, `power` to act in `phase` with 200 IPCs."""
    kwargs.setdefault("banks", {power: BANK})
    kwargs.setdefault("round", 2)
    return scenario(RULES, nation=power, phase=phase, **kwargs)


def purchase(units: str, where: str = "") -> dict[str, Any]:
    return {"type": "purchase", "units": units, **({"at": where} if where else {})}


def place(units: str, space: str) -> dict[str, Any]:
    return {"type": "place", "units": units, "space": space}


def buy(g: Game, units: str, where: str = "") -> int:
    """Buy `units` (at `where`); what they cost."""
    before = g.state.banks[g.state.nation]
    g.apply(purchase(units, where))
    return before - g.state.banks[g.state.nation]


def to(g: Game, phase: str) -> Game:
    while g.state.phase != phase:
        end_phase(g)
    return g
