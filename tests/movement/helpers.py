"""Helpers for movement tests: small positions on the real board, actions, and rejection checks."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import pytest

from aare.economy.turn import turn_record
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import Event
from aare.game_log import GameLog
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack, count_units


def position(
    nation: str,
    phase: str,
    units: Mapping[str, str],
    *,
    owners: Mapping[str, str] | None = None,
    extra: Mapping[str, Any] | None = None,
    techs: Mapping[str, Iterable[str]] | None = None,
    stacks: Iterable[tuple[str, Stack]] = (),
) -> Game:
    """An empty board with `units` ("Power: unit list") and extra `stacks` (with moved/flags) placed."""
    game = scenario(nation=nation, phase=phase, clear=True, units=units, owners=owners, extra=extra, techs=techs)
    state = game.state
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state))


def move(game: Game, units: str, *path: str, raid: bool = False) -> tuple[Event, ...]:
    action: dict[str, Any] = {"type": "move", "units": units, "path": list(path)}
    if raid:
        action["raid"] = True
    return game.apply(action)


def load(game: Game, units: str, territory: str, sea_zone: str) -> tuple[Event, ...]:
    return game.apply({"type": "load", "units": units, "territory": territory, "sea_zone": sea_zone})


def rejected(game: Game, action: Mapping[str, Any], rule_id: str, match: str = "") -> str:
    """Apply `action`, expect IllegalAction naming `rule_id`, and check the state did not change."""
    before = game.state.hash()
    with pytest.raises(IllegalAction) as err:
        game.apply(dict(action))
    assert err.value.rule_id == rule_id, err.value
    assert match in err.value.reason
    assert game.state.hash() == before
    assert not game.is_legal(dict(action))
    return err.value.reason


def mv(units: str, *path: str, raid: bool = False) -> dict[str, Any]:
    return {"type": "move", "units": units, "path": list(path), **({"raid": True} if raid else {})}


def ld(units: str, territory: str, sea_zone: str) -> dict[str, Any]:
    return {"type": "load", "units": units, "territory": territory, "sea_zone": sea_zone}


def units_in(game: Game, space: str, owner: str | None = None) -> dict[str, int]:
    return count_units(game.state.stacks(space), owner)


def stacks_of(game: Game, space: str, unit: str) -> list[Stack]:
    return [s for s in game.state.stacks(space) if s.unit == unit]


def end(game: Game) -> tuple[Event, ...]:
    return game.apply({"type": "end_phase"})


def legal(game: Game, action: Mapping[str, Any]) -> bool:
    return game.is_legal(dict(action))


def to_phase(game: Game, phase: str, nation: str | None = None) -> Game:
    """The same position in another phase (as if the phases between had passed without changes)."""
    state = replace(game.state, phase=phase, nation=nation or game.state.nation)
    return Game(GameLog(state))


def turn_began_with(game: Game, owners: Mapping[str, str]) -> Game:
    """Record that, when the turn began, the territories in `owners` were held by those powers."""
    state = game.state
    board = game.ruleset.board
    start = {**state.owners, **{board.resolve(t): board.resolve_power(p) for t, p in owners.items()}}
    record = {**turn_record(state), "owners": start}
    return Game(GameLog(replace(state, extra={**state.extra, "turn": record})))


def without(game: Game, space: str, owner: str) -> Game:
    """The same position with `owner`'s units in `space` gone (as if they lost a battle)."""
    state = game.state
    kept = tuple(s for s in state.stacks(space) if s.owner != owner)
    return Game(GameLog(state.with_stacks(space, kept)))


def with_owner(game: Game, territory: str, power: str) -> Game:
    """The same position with `territory` now held by `power` (as if captured in conduct-combat)."""
    state = game.state
    return Game(GameLog(replace(state, owners={**state.owners, territory: power})))


def boat(owner: str, *cargo: str, count: int = 1) -> Stack:
    """`count` transports of `owner`, each carrying `cargo` ("United Kingdom:infantry", ...)."""
    entries = tuple(sorted(tuple(c.split(":", 1)) for c in cargo))
    flag = ("cargo=" + ",".join(f"{o}:{u}" for o, u in entries),) if entries else ()
    return Stack(owner, "transport", count, flags=flag)
