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

from aare.odds.ladder import Array, Ladder, capture_of, result_of
from aare.odds.report import Tally


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
            on_d = capped(at.main[fa], td - d - kd)
            on_a = capped(de.main[fd], ta - a - ka)
            out[ka : ka + len(on_a), kd : kd + len(on_d)] += (a1[ka] * d1[kd]) * np.outer(on_a, on_d)
    return out


def _finish(ladder: Ladder, grid: Array, tally: Tally, scale: float) -> None:
    ta, td = ladder.attacker.total, ladder.defender.total
    for a in np.nonzero(grid[:ta, td])[0]:
        _add(ladder, tally, int(a), td, False, grid[a, td] * scale)
    for d in np.nonzero(grid[ta, :])[0]:
        _add(ladder, tally, ta, int(d), False, grid[ta, d] * scale)


def _add(ladder: Ladder, tally: Tally, a: int, d: int, retreated: bool, p: float) -> None:
    result = result_of(ladder, a, d, retreated)
    tally.add(result, ladder.attacker.survivors[a], ladder.defender.survivors[d], p, capture_of(ladder, a, result))


def solve_push(ladder: Ladder, tally: Tally, scale: float = 1.0) -> None:
    """Exact outcome of the ladder, added to `tally` with weight `scale`."""
    ta, td = ladder.attacker.total, ladder.defender.total
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
            if ladder.retreat[a] and not first:
                _add(ladder, tally, a, d, True, m * scale)
                continue
            step = transition(ladder, a, d)
            loop = step[0, 0]
            if ladder.retreat[a]:  # the first cycle is fought, then the attacker retreats
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


try:  # scipy is optional; its triangular solve is faster than a general one
    from scipy.linalg import solve_triangular as _tri

    def _lower_solve(matrix: Array, rhs: Array) -> Array:
        return _tri(matrix, rhs, lower=True, check_finite=False)  # type: ignore[no-any-return]

except ImportError:  # pragma: no cover

    def _lower_solve(matrix: Array, rhs: Array) -> Array:
        return np.linalg.solve(matrix, rhs)


def _pad(dists: list[Array], width: int) -> Array:
    out = np.zeros((len(dists), width))
    for i, x in enumerate(dists):
        out[i, : len(x)] = x
    return out


def solve_rows(ladder: Ladder, tally: Tally, scale: float = 1.0) -> None:
    """Exact outcome of a land ladder by attacker rows (see module docstring)."""
    ta, td = ladder.attacker.total, ladder.defender.total
    ha = max(len(x) for x in ladder.attacker.main)
    hd = max(len(x) for x in ladder.defender.main)
    pa_all = _pad(ladder.attacker.main, max(ha, td + 1))  # hits on the defender, per attacker lost-count
    pd_all = _pad(ladder.defender.main[:td], hd)  # hits on the attacker, per live defender lost-count
    pd0 = pd_all[:, 0]
    diff = np.arange(td)[None, :] - np.arange(td)[:, None]  # [d', d] = d - d'
    okf = (diff >= 0).astype(float)
    idx = np.clip(diff, 0, None)
    diag = np.arange(td)
    cols = td - np.arange(td)
    arrivals = np.zeros((ta + 1, td + 1))
    arrivals[0, 0] = 1.0
    visits = 0.0
    eye = np.eye(td)
    full = np.empty((td, td + 1))
    for a in range(ta):
        row = arrivals[a, :td]
        if not row.any():
            continue
        if ladder.retreat[a]:
            for d in np.nonzero(row)[0]:
                _add(ladder, tally, a, int(d), True, row[d] * scale)
            arrivals[a, :td] = 0.0
            continue
        pa = pa_all[a]
        loop = pa[0] * pd0
        stuck = loop >= 1.0 - 1e-15
        keep = 1.0 / np.where(stuck, 1.0, 1.0 - loop)
        w = np.where(stuck, 0.0, pd0 * keep)
        full[:, :td] = pa[idx] * okf  # [d', d] = P(attacker scores d - d')
        full[:, td] = np.cumsum(pa[::-1])[::-1][cols]  # P(attacker scores >= td - d')
        system = full[:, :td] * w[:, None]
        system[diag, diag] = 0.0
        m = _lower_solve(eye - system.T, row)
        v = np.where(stuck, 0.0, m * keep)
        if stuck.any():
            for d in np.nonzero(stuck & (m > 0))[0]:
                _add(ladder, tally, a, int(d), False, m[d] * scale)
            visits += m[stuck].sum()
        visits += v.sum()
        out = (v[:, None] * pd_all).T @ full  # [i, d] mass reaching (a + i, d)
        arrivals[a, td] += out[0, td]
        reach = min(hd, ta - a)  # rows a+1 .. a+reach-1 are below the attacker's end
        arrivals[a + 1 : a + reach] += out[1:reach]
        if hd > reach:
            arrivals[ta] += out[reach:].sum(axis=0)
        arrivals[a, :td] = 0.0
    _finish(ladder, arrivals, tally, scale)
    tally.cycles += visits * scale
