"""Monte Carlo odds on the ladder model: many battles at once.

Each cycle samples, per battle, the submarine opening-fire hits and the main-fire hits from the exact
per-state hit distributions of the ladder (inverse CDF), applies destroyer cover and void hits as the
exact solver does, and stops battles that end, stall or retreat. With the optional `numba` package
(`pip install aare[calc-fast]`) a compiled per-battle loop is used; otherwise vectorised NumPy.
The first-cycle opening steps (AA fire, bombardment) are taken exactly from the step engine and the
battles are shared out among their outcomes by a multinomial draw.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, replace

import numpy as np

from aare.combat.engine import advance
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.combat.setup import Battle
from aare.combat.steps import can_capture, survivors
from aare.dice import SeededDice
from aare.errors import MalformedInput
from aare.odds import fleet, fleet_sampler
from aare.odds.calculator import new_tally, opening_branches
from aare.odds.ladder import Array, Ladder, compile_ladder, fast_path_ok
from aare.odds.report import BattleOdds, Tally, freeze, ipc_value

try:
    import numba

    HAVE_NUMBA = True
except ImportError:  # pragma: no cover - depends on the optional extra
    numba = None
    HAVE_NUMBA = False

CODES = ("attacker", "defender", "draw", "stalemate", "retreat", "bombed")


@dataclass
class Tables:
    """The ladder as flat arrays for sampling."""

    ta: int
    td: int
    main_a: Array  # [lost, hits] cumulative distribution
    main_d: Array
    sub_a: Array
    sub_d: Array
    dd_a: Array
    dd_d: Array
    nonair_a: int
    nonair_d: int
    retreat: Array
    can_a: Array  # [a, d] attacker can still change the defender's state
    can_d: Array


def _cdf(dists: list[Array]) -> Array:
    width = max(len(x) for x in dists)
    out = np.ones((len(dists), width))
    for i, x in enumerate(dists):
        out[i, : len(x)] = np.cumsum(x)
    out[:, -1] = 1.0
    return out


def tables(ladder: Ladder) -> Tables:
    at, de = ladder.attacker, ladder.defender
    ta, td = at.total, de.total
    na = int(at.nonair) if int(at.nonair) >= 0 else ta
    nd = int(de.nonair) if int(de.nonair) >= 0 else td
    main_a0 = np.array([x[0] if len(x) else 1.0 for x in at.main])
    main_d0 = np.array([x[0] if len(x) else 1.0 for x in de.main])
    sub_a0 = np.array([x[0] for x in at.subs])
    sub_d0 = np.array([x[0] for x in de.subs])
    a_idx = np.arange(ta + 1)[:, None]
    d_idx = np.arange(td + 1)[None, :]
    can_a = (main_a0[:, None] < 1.0) | ((sub_a0[:, None] < 1.0) & (nd - d_idx > 0))
    can_d = (main_d0[None, :] < 1.0) | ((sub_d0[None, :] < 1.0) & (na - a_idx > 0))
    return Tables(
        ta, td, _cdf(at.main), _cdf(de.main), _cdf(at.subs), _cdf(de.subs),
        at.destroyer.astype(np.bool_), de.destroyer.astype(np.bool_), na, nd,
        ladder.retreat.astype(np.bool_), np.asarray(can_a), np.asarray(can_d),
    )  # fmt: skip


def _draw(cdf: Array, rows: Array, rng: np.random.Generator) -> Array:
    u = rng.random(len(rows))
    drawn: Array = (u[:, None] > cdf[rows]).sum(axis=1)
    return drawn


def sample_numpy(t: Tables, n: int, rng: np.random.Generator) -> tuple[Array, Array, Array, Array]:
    """Final (attacker lost, defender lost, result code, cycles) of `n` battles."""
    a = np.zeros(n, dtype=np.int64)
    d = np.zeros(n, dtype=np.int64)
    code = np.full(n, -1, dtype=np.int64)
    cycles = np.zeros(n, dtype=np.int64)
    live = np.arange(n)
    while live.size:
        la, ld = a[live], d[live]
        cycles[live] += 1
        stuck = ~t.can_a[la, ld] & ~t.can_d[la, ld]
        if stuck.any():
            code[live[stuck]] = 3
            live, la, ld = live[~stuck], la[~stuck], ld[~stuck]
        ka = np.minimum(_draw(t.sub_d, ld, rng), np.maximum(t.nonair_a - la, 0))
        kd = np.minimum(_draw(t.sub_a, la, rng), np.maximum(t.nonair_d - ld, 0))
        a1, d1 = la + ka, ld + kd
        fa = np.where(t.dd_a[la], la, a1)
        fd = np.where(t.dd_d[ld], ld, d1)
        d2 = np.minimum(d1 + _draw(t.main_a, fa, rng), t.td)
        a2 = np.minimum(a1 + _draw(t.main_d, fd, rng), t.ta)
        a[live], d[live] = a2, d2
        end = (a2 == t.ta) | (d2 == t.td)
        code[live[end & (a2 < t.ta)]] = 0
        code[live[end & (d2 < t.td)]] = 1
        code[live[end & (a2 == t.ta) & (d2 == t.td)]] = 2
        back = ~end & t.retreat[a2]
        code[live[back]] = 4
        live = live[~end & ~back]
    return a, d, code, cycles


if HAVE_NUMBA:

    @numba.njit(cache=True)  # type: ignore[untyped-decorator]
    def _draw_one(cdf: Array, row: int) -> int:
        u = np.random.random()
        k = 0
        while k < cdf.shape[1] - 1 and u > cdf[row, k]:
            k += 1
        return k

    @numba.njit(cache=True)
    def _kernel(n, seed, ta, td, main_a, main_d, sub_a, sub_d, dd_a, dd_d, nonair_a, nonair_d, retreat, can_a, can_d):  # type: ignore[no-untyped-def]
        np.random.seed(seed)
        a_out = np.zeros(n, dtype=np.int64)
        d_out = np.zeros(n, dtype=np.int64)
        code = np.zeros(n, dtype=np.int64)
        cycles = np.zeros(n, dtype=np.int64)
        for i in range(n):
            a = 0
            d = 0
            c = 0
            result = -1
            while result < 0:
                c += 1
                if not can_a[a, d] and not can_d[a, d]:
                    result = 3
                    break
                ka = min(_draw_one(sub_d, d), max(nonair_a - a, 0))
                kd = min(_draw_one(sub_a, a), max(nonair_d - d, 0))
                a1 = a + ka
                d1 = d + kd
                fa = a if dd_a[a] else a1
                fd = d if dd_d[d] else d1
                d2 = min(d1 + _draw_one(main_a, fa), td)
                a2 = min(a1 + _draw_one(main_d, fd), ta)
                a = a2
                d = d2
                if a == ta and d == td:
                    result = 2
                elif d == td:
                    result = 0
                elif a == ta:
                    result = 1
                elif retreat[a]:
                    result = 4
            a_out[i] = a
            d_out[i] = d
            code[i] = result
            cycles[i] = c
        return a_out, d_out, code, cycles


def sample(t: Tables, n: int, seed: int, use_numba: bool | None = None) -> tuple[Array, Array, Array, Array]:
    if (HAVE_NUMBA if use_numba is None else use_numba) and HAVE_NUMBA:
        return _kernel(  # type: ignore[no-any-return]
            n, seed, t.ta, t.td, t.main_a, t.main_d, t.sub_a, t.sub_d, t.dd_a, t.dd_d,
            t.nonair_a, t.nonair_d, t.retreat, t.can_a, t.can_d,
        )  # fmt: skip
    return sample_numpy(t, n, np.random.default_rng(seed))


Samples = fleet_sampler.Drawn  # per-battle results, for the confidence intervals


def _tally_ladder(ladder: Ladder, tally: Tally, res: tuple[Array, Array, Array, Array], samples: Samples) -> None:
    a, d, code, cycles = res
    cat = tally.catalogue
    a_cost = np.array([ipc_value(u, cat) for u in ladder.attacker.survivors])
    d_cost = np.array([ipc_value(u, cat) for u in ladder.defender.survivors])
    td1 = ladder.defender.total + 1
    counts = np.bincount((a * td1 + d) * len(CODES) + code)
    for key in np.nonzero(counts)[0]:
        k = counts[key]
        ai, rest = divmod(int(key), td1 * len(CODES))
        di, ci = divmod(rest, len(CODES))
        result = CODES[ci]
        capture = result == "attacker" and ladder.kind in ("land", "amphibious") and bool(ladder.attacker.land[ai])
        tally.add(result, ladder.attacker.survivors[ai], ladder.defender.survivors[di], float(k), capture)
    tally.cycles += float(cycles.sum())
    samples.codes.append(code)
    samples.cycles.append(cycles)
    samples.a_lost.append(ipc_value(tally.attacker_start, cat) - a_cost[a])
    samples.d_lost.append(ipc_value(tally.defender_start, cat) - d_cost[d])


def _tally_engine(battle: Battle, policy: Policy, n: int, seed: int, tally: Tally, samples: Samples) -> None:
    """Fallback: play `n` battles one by one with the step engine."""
    cat = tally.catalogue
    codes, cycles, a_lost, d_lost = [], [], [], []
    for i in range(n):
        done, _ = advance(battle, SeededDice(seed * 1_000_003 + i), policy)
        st = done.state
        a_s, d_s = freeze(survivors(done, "attacker")), freeze(survivors(done, "defender"))
        tally.add(st.result or "", a_s, d_s, 1.0, can_capture(done), st.damage if st.kind == "bombing" else None)
        ran = st.cycle if st.cursor else st.cycle - 1
        tally.cycles += ran
        codes.append(CODES.index(st.result or "stalemate"))
        cycles.append(ran)
        a_lost.append(ipc_value(tally.attacker_start, cat) - ipc_value(a_s, cat))
        d_lost.append(ipc_value(tally.defender_start, cat) - ipc_value(d_s, cat))
    samples.codes.append(np.array(codes, dtype=np.int64))
    samples.cycles.append(np.array(cycles, dtype=np.int64))
    samples.a_lost.append(np.array(a_lost, dtype=float))
    samples.d_lost.append(np.array(d_lost, dtype=float))


def _interval(values: Array) -> tuple[float, float]:
    mean = float(values.mean())
    half = 1.96 * float(values.std(ddof=1)) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return (mean - half, mean + half)


def _damage_samples(tally: Tally) -> Array:
    """Every sampled battle's damage, from the tally's counts per damage."""
    damages = np.array(sorted(tally.damage), dtype=float)
    return np.repeat(damages, [int(tally.damage[int(d)]) for d in damages])


def _sample_sea(
    battle: Battle, policy: Policy, runs: int, rng: np.random.Generator, tally: Tally, samples: Samples
) -> bool:
    """Sea battles on the sea solver's model (`fleet_sampler`); False when it does not take the battle."""
    if not fleet.applies(battle, policy):
        return False
    branches = opening_branches(battle, policy)
    return branches is not None and fleet_sampler.sample_into(battle, policy, branches, runs, rng, tally, samples)


def _sample_ladders(
    battle: Battle, policy: Policy, runs: int, seed: int, rng: np.random.Generator, tally: Tally, samples: Samples,
    use_numba: bool | None,
) -> None:  # fmt: skip
    """The ladder sampler on each opening outcome, the step engine where no ladder applies."""
    branches = opening_branches(battle, policy) if fast_path_ok(battle, policy) else None
    if branches is None:
        _tally_engine(battle, policy, runs, seed, tally, samples)
        return
    states = list(branches)
    probs = np.array([branches[s] for s in states])
    shares = rng.multinomial(runs, probs / probs.sum())
    for i, (state, k) in enumerate(zip(states, shares, strict=True)):
        if not k:
            continue
        b = battle.with_state(state)
        ladder = None if b.state.ended else compile_ladder(b, policy)
        if ladder is not None:
            _tally_ladder(ladder, tally, sample(tables(ladder), int(k), seed + 7919 * i, use_numba), samples)
        else:
            _tally_engine(b, policy, int(k), seed + i, tally, samples)


def monte_carlo_odds(
    battle: Battle, policy: Policy = DEFAULT_POLICY, runs: int = 100_000, seed: int = 0, use_numba: bool | None = None
) -> BattleOdds:
    """Monte Carlo BattleOdds of `runs` battles, with 95 % intervals."""
    if policy.retreat_below is not None:
        raise MalformedInput("retreating below a chance to win is computed exactly only (method exact)")
    t0 = time.perf_counter()
    rng = np.random.default_rng(seed)
    tally = new_tally(battle)
    samples = Samples([], [], [], [])
    if not _sample_sea(battle, policy, runs, rng, tally, samples):
        _sample_ladders(battle, policy, runs, seed, rng, tally, samples, use_numba)
    codes = np.concatenate(samples.codes)
    ci = {
        name: _interval(np.isin(codes, [CODES.index(c) for c in codes_of]).astype(float))
        for name, codes_of in (
            ("attacker", ("attacker",)),
            ("defender", ("defender", "retreat")),
            ("draw", ("draw", "stalemate")),
            ("stalemate", ("stalemate",)),
        )
    }
    ci95 = {
        "attacker_win": ci["attacker"],
        "defender_win": ci["defender"],
        "draw": ci["draw"],
        "stalemate": ci["stalemate"],
        "expected_cycles": _interval(np.concatenate(samples.cycles).astype(float)),
        "attacker_ipc_lost": _interval(np.concatenate(samples.a_lost).astype(float)),
        "defender_ipc_lost": _interval(np.concatenate(samples.d_lost).astype(float)),
    }
    if tally.damage:  # a raid or rocket strike
        ci95["expected_damage"] = _interval(_damage_samples(tally))
    odds = tally.odds("mc", scale=1.0 / runs, ci95=ci95, runs=runs)
    return replace(odds, seconds=time.perf_counter() - t0)
