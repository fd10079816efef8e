"""Battle odds for the table: a battle on the board, as it waits in conduct combat or as a combat move would
set it up, solved by the calculator. Exact where that is quick (the ladder fast paths, or small battles),
else a short Monte Carlo run; results are cached per state and space."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from aare.board.notation import format_units
from aare.combat.board_battle import build_battle
from aare.combat.policy import DEFAULT_POLICY
from aare.combat.setup import Battle
from aare.engine import Game
from aare.errors import AareError
from aare.game_log import GameLog
from aare.movement.battles import BattleSite, pending_battles
from aare.odds import fleet
from aare.odds.calculator import exact_odds
from aare.odds.ladder import fast_path_ok
from aare.odds.monte_carlo import monte_carlo_odds
from aare.odds.report import BattleOdds
from aare.phases.conduct_combat import combat_record
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import count_units
from aare.web.compose import fork_log

EXACT_UNITS = 12  # battles off the fast paths with more units than this are estimated by Monte Carlo
EXACT_SEA = 50  # sea battles the sea solver takes: exact up to 25 v 25 (a fraction of a second)
MC_RUNS = 1000
CACHE_SIZE = 256


@dataclass(frozen=True)
class BoardOdds:
    """A battle on the board and its odds (`odds` None with `error` when it cannot be computed)."""

    space: str
    kind: str
    attackers: str
    defenders: str
    odds: BattleOdds | None
    error: str = ""


_cache: OrderedDict[tuple[str, str], BoardOdds] = OrderedDict()
_lock = threading.Lock()
SOLVING = threading.Semaphore(2)  # at most two battles solved at once per process


def solve(battle: Battle, units: int) -> BattleOdds:
    """Odds of `battle` (with `units` units on both sides) within a page's patience."""
    with SOLVING:
        sea = units <= EXACT_SEA and fleet.applies(battle, DEFAULT_POLICY)
        if units <= EXACT_UNITS or sea or fast_path_ok(battle, DEFAULT_POLICY):
            return exact_odds(battle, DEFAULT_POLICY)
        return monte_carlo_odds(battle, DEFAULT_POLICY, runs=MC_RUNS, seed=0)


def _site(state: GameState, space: str) -> BattleSite | None:
    sites = [s for s in pending_battles(state, load_ruleset(state.ruleset, state.options))
             if s.space == space and s.kind not in ("flyover",)]
    sites.sort(key=lambda s: s.kind == "bombing")
    return sites[0] if sites else None


def board_odds(state: GameState, space: str) -> BoardOdds | None:
    """The odds of the battle waiting in `space` (None when there is none)."""
    key = (state.hash(), space)
    with _lock:
        if key in _cache:
            _cache.move_to_end(key)
            return _cache[key]
    site = _site(state, space)
    if site is None:
        return None
    ruleset = load_ruleset(state.ruleset, state.options)
    defenders = [s for stacks in site.defenders.values() for s in stacks]
    units = sum(s.count for s in site.attackers) + sum(s.count for s in defenders)
    text_a = format_units(count_units(site.attackers), ruleset.units)
    text_d = format_units(count_units(defenders), ruleset.units)
    try:
        battle = build_battle(state, ruleset, site, _fought(state))
        found = BoardOdds(space, site.kind, text_a, text_d, solve(battle, units))
    except AareError as exc:
        found = BoardOdds(space, site.kind, text_a, text_d, None, str(exc))
    with _lock:
        _cache[key] = found
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return found


def _fought(state: GameState) -> list[str]:
    return [f for f in combat_record(state).get("fought", []) if "|" not in f]


def preview_odds(log: GameLog, action: Mapping[str, Any]) -> BoardOdds | None:
    """The odds of the battle a combat move would set up at its destination (applied to a copy of the log;
    None when the move starts no battle or is not legal)."""
    if action.get("type") not in ("move", "load"):
        return None
    work = fork_log(log)
    try:
        Game(work).apply(action)
    except AareError:
        return None
    target = action["path"][-1] if action.get("type") == "move" else action["sea_zone"]
    state = Game(work).acting_as(str(action["power"])).state if action.get("power") else work.state
    return board_odds(state, str(target))
