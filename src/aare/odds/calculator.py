"""The calculator front: exact odds (fast ladder paths where they apply, the general step engine
otherwise) and Monte Carlo odds, on one battle and one policy."""

from __future__ import annotations

import time

from aare.combat import steps as s
from aare.combat.battle_state import BattleState
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.combat.setup import Battle
from aare.combat.steps import can_capture, survivors
from aare.errors import MalformedInput
from aare.odds import exact as general
from aare.odds import fleet
from aare.odds.fast_exact import rows_apply, solve_push, solve_rows, solve_sweep, win_flags
from aare.odds.ladder import compile_ladder, fast_path_ok, steady_point
from aare.odds.report import BattleOdds, Tally, freeze


def new_tally(battle: Battle) -> Tally:
    return Tally(freeze(survivors(battle, "attacker")), freeze(survivors(battle, "defender")), battle.setup.catalogue)


def merge(into: Tally, part: Tally, scale: float) -> None:
    for key, p in part.results.items():
        into.results[key] = into.results.get(key, 0.0) + p * scale
    for mine, theirs in ((into.attacker, part.attacker), (into.defender, part.defender)):
        for units, p in theirs.items():
            mine[units] = mine.get(units, 0.0) + p * scale
    into.capture += part.capture * scale
    into.cycles += part.cycles * scale


def opening_branches(battle: Battle, policy: Policy) -> dict[BattleState, float] | None:
    """Exact distribution over the states where the steady part of the battle starts, or None."""
    stop = steady_point(battle)
    st = battle.state
    if stop is None:
        return None
    if stop == 0 or (st.cycle, st.cursor) != (1, 0):
        return {st: 1.0}
    horizon = max(battle.setup.sequence.horizon, policy.horizon)
    expanded = general.expand(battle, policy, horizon, stop_at=(1, stop))
    return {state: p for state, p in expanded.items()}


def exact_tally(battle: Battle, policy: Policy = DEFAULT_POLICY, fast: bool = True,
                budget: general.Budget | None = None) -> Tally:
    """The exact terminal distribution: the fast solvers where they apply, the general step engine (within the
    CPU `budget`) elsewhere."""
    if policy.retreat_below is not None and policy.retreat_after is not None:
        raise MalformedInput("retreat below a chance to win, or after N cycles: not both")
    if fast and fleet.applies(battle, policy):
        branches = opening_branches(battle, policy)
        if branches is not None:
            tally = new_tally(battle)
            if fleet.solve_battle(battle, policy, branches, tally):
                return tally
    if policy.retreat_below is not None and (not fast or not fast_path_ok(battle, policy)):
        raise MalformedInput(
            "retreating below a chance to win needs the fast exact solvers: not with a number of cycles to retreat "
            "after, nor in amphibious assaults (use --retreat-after or --retreat-at there)"
        )
    if not fast or not fast_path_ok(battle, policy):
        return general.solve(battle, policy, budget)
    branches = opening_branches(battle, policy)
    if branches is None:
        return general.solve(battle, policy, budget)
    tally = new_tally(battle)
    for state, p in branches.items():
        b = battle.with_state(state)
        if b.state.ended:
            tally.add(
                b.state.result or "",
                freeze(survivors(b, "attacker")),
                freeze(survivors(b, "defender")),
                p,
                can_capture(b),
            )
            tally.cycles += p
            continue
        ladder = compile_ladder(b, policy)
        rounds = policy.retreat_after if s.retreat_options(b) is not None else None
        if ladder is None:
            merge(tally, general.solve(b, policy, budget), p)
        elif rounds is not None:
            solve_sweep(ladder, tally, rounds, p)
        elif policy.retreat_below is not None:
            flags = win_flags(ladder, policy.retreat_below) if s.retreat_options(b) is not None else None
            solve_push(ladder, tally, p, flags)
        elif rows_apply(ladder):
            solve_rows(ladder, tally, p)
        else:
            solve_push(ladder, tally, p)
    return tally


def exact_odds(battle: Battle, policy: Policy = DEFAULT_POLICY, fast: bool = True,
               limit: float | None = None) -> BattleOdds:
    """Exact BattleOdds; `fast=False` forces the general step engine; `limit`: at most that many CPU seconds in
    it (`exact.TooLarge` past them)."""
    t0 = time.perf_counter()
    tally = exact_tally(battle, policy, fast, general.Budget(limit))
    odds = tally.odds("exact")
    return _timed(odds, time.perf_counter() - t0)


def _timed(odds: BattleOdds, seconds: float) -> BattleOdds:
    from dataclasses import replace

    return replace(odds, seconds=seconds)
