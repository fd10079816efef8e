"""Exact battle odds by dynamic programming over the step engine's states.

From each cycle-start state the engine's steps run with every chance outcome enumerated (identical
intermediate states merged) and every decision answered by the policy, giving the distribution over the
next cycle-start or end states. A cycle that changes nothing (every die missed) loops back to the same
state; that self-loop is summed in closed form (mass / (1 - p_loop)). States are processed in order of
(cycle, remaining hit points), so every state is expanded once its incoming mass is complete. No
sampling, no round cap, no pruning. A `Budget` bounds the CPU time: past it `TooLarge` is raised (the calculator's
front then lets Monte Carlo stand in).
"""

from __future__ import annotations

import heapq
import itertools
import time
from dataclasses import replace

from aare.combat.battle_state import BattleState, hit_points
from aare.combat.chance import outcomes
from aare.combat.engine import apply_answer, resolve_roll, run
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.combat.setup import Battle
from aare.combat.steps import can_capture, survivors
from aare.odds.report import BattleOdds, Tally, freeze


class TooLarge(Exception):
    """The exact solution needs more CPU time than the budget allows."""

    def __init__(self, seconds: float) -> None:
        super().__init__(f"more than {seconds:g} s of CPU")
        self.seconds = seconds


class Budget:
    """At most `seconds` of this process's CPU time from its creation (None: no limit), checked at each chance
    outcome."""

    def __init__(self, seconds: float | None) -> None:
        self.seconds = seconds
        self.until = None if seconds is None else time.process_time() + seconds

    def spend(self) -> None:
        if self.until is not None and time.process_time() > self.until:
            raise TooLarge(self.seconds or 0.0)


def _hp(battle: Battle, state: BattleState) -> int:
    cat = battle.setup.catalogue
    return sum((hit_points(cat, k) - k.damage) * n for k, n in state.attacker + state.defender if k.present)


def _settle(battle: Battle, state: BattleState, policy: Policy, stop_at: tuple[int, int] | None) -> BattleState:
    """`state` run on, the policy answering its decisions, to its next chance node, end, cycle start or stop."""
    b = battle.with_state(state)
    while True:
        st = b.state
        if st.roll is None and st.pending is None:
            b, _ = run(b, stop_at_cycle_start=stop_at is None, stop_at=stop_at)
            st = b.state
        if st.pending is None or st.ended:
            return st
        b = apply_answer(b, policy(b, st.pending))[0]


def expand(
    battle: Battle, policy: Policy, horizon: int, stop_at: tuple[int, int] | None = None,
    budget: Budget | None = None,
) -> dict[BattleState, float]:
    """Distribution over the next cycle-start (cycle capped at `horizon`) or end states; with `stop_at`,
    over the states reaching that point ``(cycle, step index)`` instead.

    Chance nodes are taken in the order of their place in the sequence (cycle, step): every path to a node has
    arrived when it is expanded, so identical states reached along paths of different lengths merge."""
    out: dict[BattleState, float] = {}
    mass: dict[BattleState, float] = {}
    heap: list[tuple[int, int, int, BattleState]] = []
    counter = itertools.count()

    def reach(st: BattleState, p: float) -> None:
        if st.roll is None:
            if not st.ended and st.cycle > horizon:
                st = replace(st, cycle=horizon)
            out[st] = out.get(st, 0.0) + p
            return
        if st not in mass:
            mass[st] = 0.0
            heapq.heappush(heap, (st.cycle, st.cursor, next(counter), st))
        mass[st] += p

    reach(_settle(battle, battle.state, policy, stop_at), 1.0)
    while heap:
        *_, state = heapq.heappop(heap)
        p = mass.pop(state)
        b = battle.with_state(state)
        assert state.roll is not None
        for q, outcome in outcomes(state.roll):
            if budget is not None:
                budget.spend()
            reach(_settle(battle, resolve_roll(b, outcome)[0].state, policy, stop_at), p * q)
    return out


def solve(battle: Battle, policy: Policy = DEFAULT_POLICY, budget: Budget | None = None) -> Tally:
    """Exact terminal distribution of `battle` under `policy`, as a Tally of probabilities (`TooLarge` past the
    `budget`)."""
    cat = battle.setup.catalogue
    tally = Tally(freeze(survivors(battle, "attacker")), freeze(survivors(battle, "defender")), cat)
    horizon = max(battle.setup.sequence.horizon, policy.horizon, battle.state.cycle, battle.setup.value_horizon)
    counter = itertools.count()
    start = battle.state
    heap = [(start.cycle, -_hp(battle, start), next(counter), start)]
    mass = {start: 1.0}
    while heap:
        *_, state = heapq.heappop(heap)
        m = mass.pop(state, 0.0)
        if m == 0.0:
            continue
        trans = expand(battle.with_state(state), policy, horizon, budget=budget)
        loop = trans.pop(state, 0.0)
        scale = m / (1.0 - loop)
        tally.cycles += scale
        for nxt, p in trans.items():
            if nxt.ended:
                done = battle.with_state(nxt)
                tally.add(
                    nxt.result or "",
                    freeze(survivors(done, "attacker")),
                    freeze(survivors(done, "defender")),
                    scale * p,
                    can_capture(done),
                    nxt.damage if nxt.kind == "bombing" else None,
                )
            else:
                if nxt not in mass:
                    heapq.heappush(heap, (nxt.cycle, -_hp(battle, nxt), next(counter), nxt))
                    mass[nxt] = 0.0
                mass[nxt] += scale * p
    return tally


def exact_odds(battle: Battle, policy: Policy = DEFAULT_POLICY) -> BattleOdds:
    """BattleOdds of `battle` computed exactly by the general step engine."""
    return solve(battle, policy).odds("exact")
