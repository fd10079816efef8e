"""Fast exact solvers on the ladder model.

`solve_push`: forward push over (attacker lost, defender lost) states in lexicographic order; each state's
whole cycle (submarine opening fire with or without destroyer cover, then main fire) is one outer product
per submarine outcome pair, and its all-miss self-loop is summed in closed form.

`solve_rows` (land, no submarines): one attacker lost-count row at a time. Inside a row only the defender
loses units, so the row's arrival masses solve one triangular linear system; the push to later rows is
one matrix product. Python overhead is O(attacker slots).
"""

from __future__ import annotations

import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from aare.odds.ladder import Array, Ladder, SideLadder, capture_of, result_of
from aare.odds.report import Tally, Units


def capped(dist: Array, cap: int) -> Array:
    """Hits beyond `cap` (no more targets) are void: their mass moves to `cap`."""
    if cap < 0:
        return np.ones(1)
    if len(dist) <= cap + 1:
        return dist
    out = dist[: cap + 1].copy()
    out[cap] += dist[cap + 1 :].sum()
    return out


def transition(ladder: Ladder, a: int, d: int) -> Array:
    """Distribution over (attacker lost, defender lost) increments after one full cycle from (a, d)."""
    at, de = ladder.attacker, ladder.defender
    ta, td = at.total, de.total
    sa, sd = at.subs[a], de.subs[d]
    d1 = capped(sa, max(int(de.nonair) - d, 0)) if len(sa) > 1 else np.ones(1)
    a1 = capped(sd, max(int(at.nonair) - a, 0)) if len(sd) > 1 else np.ones(1)
    pend_a, pend_d = bool(at.destroyer[a]), bool(de.destroyer[d])
    out = np.zeros((ta - a + 1, td - d + 1))
    for ka in np.nonzero(a1)[0]:
        for kd in np.nonzero(d1)[0]:
            fa = a if pend_a else a + ka
            fd = d if pend_d else d + kd
            on_d = capped(at.main[fa], int(td - d - kd))
            on_a = capped(de.main[fd], int(ta - a - ka))
            out[ka : ka + len(on_a), kd : kd + len(on_d)] += (a1[ka] * d1[kd]) * np.outer(on_a, on_d)
    return out


def _finish(ladder: Ladder, grid: Array, tally: Tally, scale: float) -> None:
    """Tally the terminal states: column `td` below row `ta` (defender destroyed) and row `ta`."""
    at, de = ladder.attacker, ladder.defender
    ta, td = at.total, de.total
    col = grid[:ta, td] * scale
    hit = np.flatnonzero(col)
    if hit.size:  # the attacker wins (some attacker slots are left)
        result = result_of(ladder, 0, td, False)
        att = hit.tolist()
        capture = np.array([capture_of(ladder, a, result) for a in att])
        _spread(tally, result, col[hit], [at.survivors[a] for a in att], de.survivors[td], capture)
    row = grid[ta, :] * scale
    hit = np.flatnonzero(row)
    for d, x in zip(hit.tolist(), row[hit].tolist(), strict=True):  # few: defender wins, or a draw
        _add(ladder, tally, ta, d, False, x)


def _spread(tally: Tally, result: str, p: Array, att: list[Units], dfd: Units, capture: Array) -> None:
    """`tally.add` for many terminal states of one result with one defender remnant."""
    total = float(p.sum())
    tally.results[result] = tally.results.get(result, 0.0) + total
    side = tally.attacker
    for u, x in zip(att, p.tolist(), strict=True):
        side[u] = side.get(u, 0.0) + x
    tally.defender[dfd] = tally.defender.get(dfd, 0.0) + total
    if capture.any():
        tally.capture += float(p[capture].sum())


def _add(ladder: Ladder, tally: Tally, a: int, d: int, retreated: bool, p: float) -> None:
    result = result_of(ladder, a, d, retreated)
    tally.add(result, ladder.attacker.survivors[a], ladder.defender.survivors[d], p, capture_of(ladder, a, result))


def solve_push(ladder: Ladder, tally: Tally, scale: float = 1.0, flags: Array | None = None) -> None:
    """Exact outcome of the ladder, added to `tally` with weight `scale`. `flags[a, d]`: the attacker
    retreats there at the end of a cycle (default: the ladder's per-row retreat)."""
    ta, td = ladder.attacker.total, ladder.defender.total
    if flags is None:
        flags = np.repeat(ladder.retreat[:, None], td + 1, axis=1)
    mass = np.zeros((ta + 1, td + 1))
    mass[0, 0] = 1.0
    visits = 0.0
    for a in range(ta):
        for d in range(td):
            m = mass[a, d]
            if m == 0.0:
                continue
            mass[a, d] = 0.0
            first = a == 0 and d == 0
            if flags[a, d] and not first:
                _add(ladder, tally, a, d, True, m * scale)
                continue
            step = transition(ladder, a, d)
            loop = step[0, 0]
            if flags[a, d]:  # the first cycle is fought, then the attacker retreats
                if loop:
                    _add(ladder, tally, a, d, True, m * loop * scale)
                step[0, 0] = 0.0
                weight = m
            elif loop >= 1.0 - 1e-15:
                _add(ladder, tally, a, d, False, m * scale)  # neither side can hurt the other
                visits += m
                continue
            else:
                step[0, 0] = 0.0
                weight = m / (1.0 - loop)
            visits += weight
            mass[a:, d:] += weight * step
    _finish(ladder, mass, tally, scale)
    tally.cycles += visits * scale


def rows_apply(ladder: Ladder) -> bool:
    """The row solver needs a land-style ladder: no submarines, and the attacker cannot stall."""
    no_subs = all(len(x) == 1 for x in ladder.attacker.subs) and all(len(x) == 1 for x in ladder.defender.subs)
    return no_subs and not ladder.retreat[0] and ladder.defender.total > 0


def numpy_lower_solve(lower: Array, rhs: Array) -> Array:
    return np.linalg.solve(lower, rhs)


try:  # scipy is optional: LAPACK's triangular solve, called directly (the NumPy fallback is a general solve)
    from scipy.linalg.lapack import dtrtrs as _dtrtrs  # type: ignore[import-untyped]

    def lapack_lower_solve(lower: Array, rhs: Array) -> Array:
        # lower is C-ordered, so lower.T is the Fortran-ordered upper factor: solve (lower.T).T x = rhs
        x, info = _dtrtrs(lower.T, rhs, lower=0, trans=1)
        if info:  # singular (cannot happen for the systems built here): let NumPy report it
            return np.linalg.solve(lower, rhs)
        return x  # type: ignore[no-any-return]

    lower_solve = lapack_lower_solve
except ImportError:  # pragma: no cover
    lower_solve = numpy_lower_solve


def _rows_table(side: SideLadder, rows: int, width: int) -> Array:
    """The first `rows` main-fire distributions as one [lost, hits] array, zero-padded or capped to `width`."""
    table = side.main_table
    if table is None:
        table = np.zeros((side.total + 1, max(len(x) for x in side.main)))
        for i, x in enumerate(side.main):
            table[i, : len(x)] = x
    table = table[:rows]
    if table.shape[1] <= width:
        out = np.zeros((rows, width))
        out[:, : table.shape[1]] = table
        return out
    out = table[:, :width].copy()
    out[:, width - 1] += table[:, width:].sum(axis=1)  # hits beyond the last target are void
    return out


_BATCH_CELLS = 1 << 16  # up to this many [row, d, d'] cells, build all rows' matrices at once


def solve_rows(ladder: Ladder, tally: Tally, scale: float = 1.0) -> None:
    """Exact outcome of a land ladder by attacker rows (see module docstring).

    In row `a` the expected visits `v[d]` of the live states (a, d) solve one lower-triangular system
    `(I - L diag(q)) v = arrivals`, with `L[d, d'] = P(attacker scores d - d')` (Toeplitz, self-loop on the
    diagonal) and `q[d']` the defender's all-miss chance; the push to later rows is one matrix product of
    the visit-weighted defender hit distributions with the attacker's (capped) hit distributions. Small
    battles build every row's matrices at once before the loop; large ones one row at a time in reused
    buffers (a whole [rows, td, td] stack costs more in memory traffic than it saves in Python calls).
    """
    ta, td = ladder.attacker.total, ladder.defender.total
    hd = max(len(x) for x in ladder.defender.main[:td])
    pa_all = _rows_table(ladder.attacker, ta, td + 1)  # hits on the defender (td + 1 = all dead)
    pdt = _rows_table(ladder.defender, td, hd).T.copy()  # [hits on the attacker, d]
    pd0 = pdt[0]
    loop = pa_all[:, :1] * pd0[None, :]  # [a, d] all-miss chance
    stuck = loop >= 1.0 - 1e-15
    # lower Toeplitz L[a, d, d'] = pa[a, d - d'] as a strided view of the reversed, zero-padded rows
    rev = np.zeros((ta, 2 * td - 1))
    rev[:, :td] = pa_all[:, td - 1 :: -1]
    lower = sliding_window_view(rev, td, axis=1)[:, ::-1, :]
    tail = np.cumsum(pa_all[:, ::-1], axis=1)[:, :td]  # [a, d'] P(attacker scores >= td - d')
    eye = np.eye(td)
    batch = ta * td * td <= _BATCH_CELLS
    if batch:  # small: every row's matrices at once
        systems = eye - lower * pd0[None, None, :]  # [a, d, d']
        full = np.empty((ta, td, td + 1))  # [a, d', d]: P(the defender goes from d' to d), d = td: destroyed
        full[:, :, :td] = lower.transpose(0, 2, 1)
        full[:, :, td] = tail
    else:  # large: one row's matrices at a time, in reused buffers
        system, push = np.empty((td, td)), np.empty((td, td + 1))
    special = (ladder.retreat[:ta] | stuck.any(axis=1)).tolist()
    # rows past the attacker's end collect there at the end; row a's own live part is dead once solved
    arrivals = np.zeros((ta + hd, td + 1))
    arrivals[0, 0] = 1.0
    visits = np.zeros((ta, td))
    solve, matmul, multiply, subtract = lower_solve, np.matmul, np.multiply, np.subtract
    for a in range(ta):
        row = arrivals[a, :td]
        if special[a] and ladder.retreat[a]:
            for d in np.flatnonzero(row):
                _add(ladder, tally, a, int(d), True, row[d] * scale)
            continue
        if batch:
            system, push = systems[a], full[a]
        else:
            subtract(eye, multiply(lower[a], pd0, out=system), out=system)
            push[:, :td] = lower[a].T
            push[:, td] = tail[a]
        v = _stuck_row(ladder, tally, a, row, system, stuck[a], scale) if special[a] else solve(system, row)
        visits[a] = v
        arrivals[a : a + hd] += matmul(pdt * v, push)  # [i, d] mass reaching (a + i, d)
    arrivals[ta] = arrivals[ta:].sum(axis=0)
    _finish(ladder, arrivals[: ta + 1], tally, scale)
    tally.cycles += float(visits.sum()) * scale


def _stuck_row(ladder: Ladder, tally: Tally, a: int, row: Array, system: Array, stuck: Array, scale: float) -> Array:
    """A row where some states cannot change (nobody can hit): their arrivals end the battle as a stalemate.
    Then the attacker cannot hit at all in this row, so the row's states only move to later rows."""
    live = ~stuck
    v = np.zeros(len(row))
    v[live] = np.linalg.solve(system[np.ix_(live, live)], row[live])
    ends = row - system[:, live] @ v[live]  # arrivals plus inflow from the row's live states
    for d in np.nonzero(stuck & (ends > 0))[0]:
        _add(ladder, tally, a, int(d), False, ends[d] * scale)
    tally.cycles += float(ends[stuck].sum()) * scale
    return v


def solve_sweep(ladder: Ladder, tally: Tally, rounds: int, scale: float = 1.0) -> None:
    """Exact outcome when the attacker retreats after `rounds` cycles: the cycles are swept in turn (each
    live state pushes one full cycle), then what is still fighting retreats."""
    ta, td = ladder.attacker.total, ladder.defender.total
    mass = np.zeros((ta + 1, td + 1))
    mass[0, 0] = 1.0
    visits = 0.0
    for fought in range(1, max(rounds, 1) + 1):
        arrivals = np.zeros_like(mass)
        for a, d in zip(*np.nonzero(mass[:ta, :td]), strict=True):
            m = float(mass[a, d])
            visits += m
            step = transition(ladder, int(a), int(d))
            if _stuck(step):
                _add(ladder, tally, int(a), int(d), False, m * scale)  # neither side can hurt the other
                continue
            arrivals[a:, d:] += m * step
        _finish(ladder, arrivals, tally, scale)
        arrivals[ta, :] = 0.0
        arrivals[:, td] = 0.0
        for a, d in zip(*np.nonzero(arrivals), strict=True):
            if fought >= rounds or ladder.retreat[a]:
                _add(ladder, tally, int(a), int(d), True, float(arrivals[a, d]) * scale)
                arrivals[a, d] = 0.0
        mass = arrivals
    tally.cycles += visits * scale


def _stuck(step: Array) -> bool:
    """Nobody can hit: the cycle returns to where it started with certainty."""
    return bool(step[0, 0] >= 1.0 - 1e-15)


def win_flags(ladder: Ladder, below: float) -> Array:
    """[a, d]: the attacker retreats at the end of a cycle there — the ladder's retreat row, or its chance to
    win by pressing on (with the same choice everywhere after) is under `below`. Backwards over the states."""
    ta, td = ladder.attacker.total, ladder.defender.total
    win = np.zeros((ta + 1, td + 1))
    win[:ta, td] = 1.0
    flags = np.zeros((ta + 1, td + 1), dtype=bool)
    for a in range(ta - 1, -1, -1):
        if ladder.retreat[a]:
            flags[a, :td] = True
            continue
        for d in range(td - 1, -1, -1):
            step = transition(ladder, a, d)
            loop = float(step[0, 0])
            if loop >= 1.0 - 1e-15:
                chance = 0.0  # nobody can hit: a stalemate is no win
            else:
                chance = (float((step * win[a:, d:]).sum()) - loop * win[a, d]) / (1.0 - loop)
            flags[a, d] = chance < below
            win[a, d] = 0.0 if flags[a, d] else chance
    return flags
