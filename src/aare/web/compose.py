"""Composing a move from clicks: the units chosen in one space and the space clicked next become the legal
moves (or loads) between them. The path is taken from the engine's own candidates; when several paths are
legal for the chosen units the player is offered each."""

from __future__ import annotations

import copy
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from aare.actions import Load, Move
from aare.board.notation import format_units, parse_units
from aare.engine import Game
from aare.errors import AareError
from aare.game_log import GameLog
from aare.rules.ruleset import load_ruleset

Action = dict[str, Any]


def fork_log(log: GameLog) -> GameLog:
    """A copy of `log` that can be played on without touching the original."""
    work = copy.copy(log)
    work.entries = list(log.entries)
    return work


@dataclass
class Route:
    """What a click from `origin` to `target` with `units` may do: `options` are legal actions (one: play it;
    several: choose), `others` the engine's own legal moves there when the chosen units cannot go."""

    origin: str
    target: str
    units: str
    options: list[Action] = field(default_factory=list)
    others: list[Action] = field(default_factory=list)
    reason: str = ""


def _reason(log: GameLog, action: Action) -> str:
    try:
        Game(fork_log(log)).apply(action)
    except AareError as exc:
        return str(exc)
    return ""


def compose(log: GameLog, origin: str, target: str, units: str, candidates: Sequence[Action],
            power: str | None = None) -> Route:
    """The legal ways to take `units` from `origin` to `target`; `candidates` are the legal actions from
    `origin` (`Game.legal_actions(origin)` as JSON); `power`: the power acting (a team turn)."""
    state = log.state
    ruleset = load_ruleset(state.ruleset, state.options)
    text = format_units(parse_units(units, ruleset.units), ruleset.units) if units.strip() else ""
    route = Route(origin, target, text)
    ending = [a for a in candidates if (a["type"] == "move" and a["path"][-1] == target)
              or (a["type"] == "load" and a["sea_zone"] == target)]
    if not text:
        route.others = ending
        route.reason = "choose the units to move first"
        return route
    tries: list[Action] = []
    for a in ending:
        if a["type"] == "move":
            tries.append(Move(units=text, path=a["path"], raid=a.get("raid", False)).to_json())
    board = ruleset.board
    if board.spaces[origin].is_land and target in board.spaces and board.spaces[target].is_sea:
        tries.append(Load(units=text, territory=origin, sea_zone=target).to_json())
    if target in board.spaces and target != origin:
        tries.append(Move(units=text, path=[origin, target]).to_json())
    if power:
        tries = [{**a, "power": power} for a in tries]
    game = Game(log)
    seen: set[str] = set()
    for action in tries:
        key = repr(sorted(action.items()))
        if key in seen:
            continue
        seen.add(key)
        if game.is_legal(action):
            route.options.append(action)
    if not route.options:
        route.others = ending
        route.reason = _reason(log, tries[0]) if tries else f"no legal move from {origin} to {target}"
    return route
