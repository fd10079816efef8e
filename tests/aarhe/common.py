"""Helpers for the AARHE tests: a new game, playing a turn on, the Revised powers' names, a battle's units."""

from __future__ import annotations

from typing import Any

import pytest

from aare.combat.battle_state import Side
from aare.combat.setup import Battle
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_setup import new_game

RULES = "aarhe"
RUS, GER, UK, JAP, US = "Russia", "Germany", "United Kingdom", "Japan", "United States"
AXIS_TEAM = [GER, JAP]
ALLIED_TEAM = [RUS, UK, US]


def game(options: dict[str, Any] | None = None, seed: int = 3) -> Game:
    return Game(new_game(RULES, options or {}, seed=seed))


def asked_for_missions(g: Game) -> list[str]:
    """The powers asked now for their air missions during an enemy turn (AARHE-DAS-declare)."""
    places = g.state.members.values() if g.state.members else [{"pending": g.state.pending}]
    return [str(p["pending"]["power"]) for p in places if (p.get("pending") or {}).get("kind") == "air_missions"]


def no_missions(g: Game) -> None:
    """Every power asked for its air missions declares none."""
    while asked := asked_for_missions(g):
        g.apply({"type": "air_missions", "missions": ""}, power=asked[0])


def end_phase(g: Game, power: str | None = None) -> None:
    """End the phase (of `power`, in a team turn); air missions asked before or after are declined."""
    no_missions(g)
    g.apply({"type": "end_phase"}, power=power)
    no_missions(g)


def phase_of(g: Game, power: str) -> str:
    """The phase `power` is in: its own place in a team turn, else the game's."""
    member = g.state.members.get(power)
    return str(member["phase"]) if member else g.state.phase


def status(g: Game, power: str) -> str:
    return str(g.state.members.get(power, {}).get("status", ""))


def end_turn(g: Game, power: str | None = None) -> list[str]:
    """End `power`'s phases (the one-power turn's when None) until its turn is over or it waits for its team;
    the phases it passed through."""
    seen: list[str] = []
    start = g.state.round, g.state.nation
    while True:
        if power is not None and (power not in g.state.members or status(g, power) in ("done", "waiting")):
            return seen
        moved_on = (g.state.round, g.state.nation) != start or bool(g.state.members)
        if g.state.winner is not None or (power is None and moved_on):
            return seen
        seen.append(phase_of(g, power) if power else g.state.phase)
        end_phase(g, power)


def refused(g: Game, action: dict[str, Any], power: str | None = None) -> str:
    """The rule that refuses `action`; the game is left unchanged."""
    before = g.state
    with pytest.raises(IllegalAction) as err:
        g.apply(action, power=power)
    assert g.state == before
    return err.value.rule_id


def units(b: Battle, side: Side) -> dict[str, int]:
    """`side`'s units still in battle `b` and not hit, by type."""
    out: dict[str, int] = {}
    for key, n in b.state.units(side):
        if key.present and not key.marked:
            out[key.type] = out.get(key.type, 0) + n
    return out
