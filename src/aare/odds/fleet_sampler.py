"""Monte Carlo on the sea solver's model: many sea battles at once, cycle by cycle.

Each battle is a pair of loss states (`aare.odds.fleet`); a cycle draws, per battle, both sides' submarine
hits and main-fire hits from the model's exact per-state distributions (inverse CDF) and moves through the
same stage tables the exact solver uses. The first cycle's opening steps come exactly from the step engine
(`opening_branches`) and the battles are shared out among their outcomes by a multinomial draw.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from aare.combat.battle_state import BattleState, Stacks
from aare.combat.policy import Policy
from aare.combat.setup import Battle
from aare.combat.steps import can_capture, retreat_options, survivors
from aare.odds import fleet as f
from aare.odds.report import Tally, Units, freeze, ipc_value

Array = np.ndarray
RESULTS = ("attacker", "defender", "draw", "stalemate", "retreat")


@dataclass
class Drawn:
    """Per-battle results: the result's index in `RESULTS`, cycles fought, IPC lost by each side."""

    codes: list[Array]
    cycles: list[Array]
    a_lost: list[Array]
    d_lost: list[Array]


def _cdf(rows: Array) -> Array:
    out: Array = np.cumsum(rows, axis=1)
    out[:, -1] = 1.0  # rounding must not leave a draw past the last column
    return out


def _draw(cdf: Array, rows: Array, rng: np.random.Generator) -> Array:
    u = rng.random(len(rows))
    drawn: Array = np.minimum((u[:, None] > cdf[rows]).sum(axis=1), cdf.shape[1] - 1)
    return drawn


class _Tables:
    """A group's stage tables as cumulative distributions over hit vectors."""

    def __init__(self, sides: f.Sides) -> None:
        a, d = sides.a, sides.d
        self.sides = sides
        self.sub_a, self.sub_d = _cdf(sides.sub_a), _cdf(sides.sub_d)
        self.w_d = {k: _cdf(w) for k, w in sides._w_d.items()}  # the defender's main fire, without/with subs
        width = sides._grid_d.shape[1]
        ans, anyh = sides.ans_a, sides.any_a
        s_width = width // (ans.shape[1] * anyh.shape[1])
        without = f._dist3(f._none_of(a.n, s_width), ans, anyh)
        self.w_a = {False: _cdf(without)}
        if sides.subs_main:
            self.w_a[True] = _cdf(f._dist3(sides.sub_a, ans, anyh))
        self.can = np.zeros((a.n, d.n), dtype=bool)  # someone can still hit someone
        for x in range(a.n):
            xy, yx = sides.hurts(x)
            self.can[x] = xy | yx


def sample_into(
    battle: Battle,
    policy: Policy,
    branches: dict[BattleState, float],
    runs: int,
    rng: np.random.Generator,
    tally: Tally,
    drawn: Drawn,
) -> bool:
    """Sample `runs` battles from `branches` into `tally` and `drawn`; False (nothing added) if the model
    does not take them."""
    states = list(branches)
    probs = np.array([branches[s] for s in states])
    shares = rng.multinomial(runs, probs / probs.sum())
    groups: dict[tuple[Stacks, Stacks], list[tuple[BattleState, int]]] = {}
    ended: list[tuple[BattleState, int]] = []
    for state, k in zip(states, shares.tolist(), strict=True):
        if not k:
            continue
        if state.ended:
            ended.append((state, k))
        else:
            groups.setdefault((f._out(state.attacker), f._out(state.defender)), []).append((state, k))
    try:
        done = [(out, _sample_group(battle, policy, out, members, rng)) for out, members in groups.items()]
    except f.Outside:
        return False
    cat = tally.catalogue
    for state, k in ended:
        b = battle.with_state(state)
        a_s, d_s = freeze(survivors(b, "attacker")), freeze(survivors(b, "defender"))
        tally.add(state.result or "", a_s, d_s, float(k), can_capture(b))
        tally.cycles += float(k)
        result = RESULTS.index(state.result) if state.result in RESULTS else 3
        drawn.codes.append(np.full(k, result))
        drawn.cycles.append(np.ones(k, dtype=np.int64))
        drawn.a_lost.append(np.full(k, float(ipc_value(tally.attacker_start, cat) - ipc_value(a_s, cat))))
        drawn.d_lost.append(np.full(k, float(ipc_value(tally.defender_start, cat) - ipc_value(d_s, cat))))
    for (att_out, def_out), (a, d, x, y, code, cycles) in done:
        _tally(tally, drawn, a, d, x, y, code, cycles, f._types(att_out), f._types(def_out))
    return True


def _sample_group(
    battle: Battle, policy: Policy, out: tuple[Stacks, Stacks], members: list[tuple[BattleState, int]],
    rng: np.random.Generator,
) -> tuple[f.Fleet, f.Fleet, Array, Array, Array, Array]:  # fmt: skip
    """Battles of one group (same units out of the battle) to their ends: final states, results, cycles."""
    sides = f.group_sides(battle, policy, out)
    a, d = sides.a, sides.d
    t = _Tables(sides)
    cat = battle.setup.catalogue
    xs: list[int] = []
    ys: list[int] = []
    mids: list[bool] = []
    fires: list[tuple[int, int]] = []
    own_fire: list[tuple[int, int, Array, Array]] = []  # (first run, runs, attacker / defender distributions)
    for state, k in members:
        xi, yi = a.locate(state.attacker, cat), d.locate(state.defender, cat)
        if xi is None or yi is None:
            raise f.Outside
        is_mid = not f.at_cycle_start(battle, state)
        xf, yf = (a.firing(state.attacker), d.firing(state.defender)) if is_mid else (xi, yi)
        if xf is None or yf is None:
            raise f.Outside
        if is_mid and f._hidden(battle, state):  # the main fire of this very state (see fleet._hidden)
            b = battle.with_state(state)
            after_a, after_d = f._after(a, xi, f._fire(b, "defender")), f._after(d, yi, f._fire(b, "attacker"))
            own_fire.append((len(xs), k, after_a, after_d))
        xs += [xi] * k
        ys += [yi] * k
        mids += [is_mid] * k
        fires += [(xf, yf)] * k
    x = np.array(xs, dtype=np.int64)
    y = np.array(ys, dtype=np.int64)
    code = np.full(x.size, -1, dtype=np.int64)
    cycles = np.zeros(x.size, dtype=np.int64)
    retreat = np.repeat(f.retreat_rows(battle, policy, a)[:, None], d.n, axis=1)
    rounds = policy.retreat_after if policy.retreats and retreat_options(battle) is not None else None
    special = np.zeros(x.size, dtype=bool)
    for first, k, after_a, after_d in own_fire:
        zero = np.zeros(k, dtype=np.int64)
        x[first:first + k] = _draw(_cdf(after_a[None, :]), zero, rng)
        y[first:first + k] = _draw(_cdf(after_d[None, :]), zero, rng)
        special[first:first + k] = True
    mid = np.flatnonzero(mids)
    table = np.flatnonzero(np.array(mids, dtype=bool) & ~special)
    if mid.size:  # the rest of the first cycle: main fire of the units firing, on the damage states
        fire = np.array(fires, dtype=np.int64)
        keys = np.stack([x[table], y[table], fire[table, 0], fire[table, 1]], axis=1)
        unique, inverse = np.unique(keys, axis=0, return_inverse=True)
        for i, (xd, yd, xf, yf) in enumerate(unique.tolist()):
            runs = table[inverse.ravel() == i]
            zero = np.zeros(runs.size, dtype=np.int64)
            x[runs] = _draw(_cdf(sides.g(xd)[yf][None, :]), zero, rng)
            y[runs] = _draw(_cdf(sides.m(xf)[yd][None, :]), zero, rng)
        cycles[mid] = 1
        _settle(a, d, x, y, code, mid, retreat, rounds, cycles)
    starts = np.flatnonzero(~np.array(mids, dtype=bool))
    gone = starts[~(a.alive[x[starts]] & d.alive[y[starts]])]  # a side wiped out before the main fire (AA fire)
    if gone.size:
        cycles[gone] = 1
        _settle(a, d, x, y, code, gone, retreat, rounds, cycles)
    live = np.flatnonzero(code < 0)
    while live.size:
        lx, ly = x[live], y[live]
        stuck = ~t.can[lx, ly]
        cycles[live] += 1
        code[live[stuck]] = 3
        live, lx, ly = live[~stuck], lx[~stuck], ly[~stuck]
        if not live.size:
            break
        x2, y2 = _cycle(t, lx, ly, rng)
        x[live], y[live] = x2, y2
        _settle(a, d, x, y, code, live, retreat, rounds, cycles)
        live = live[code[live] < 0]
    return a, d, x, y, code, cycles


def _cycle(t: _Tables, x: Array, y: Array, rng: np.random.Generator) -> tuple[Array, Array]:
    """One cycle of many battles from cycle-start states (x, y)."""
    sides = t.sides
    a, d = sides.a, sides.d
    h = _draw(t.sub_d, y, rng)
    k = _draw(t.sub_a, x, rng)
    if sides.subs_main:  # subs facing a destroyer wait for the main step
        h = np.where(a.destroyer[x], 0, h)
        k = np.where(d.destroyer[y], 0, k)
    x1 = a.sub_step[x, h]
    y1 = d.sub_step[y, k]
    deferred_x = a.destroyer[x] & (not sides.subs_main)
    deferred_y = d.destroyer[y] & (not sides.subs_main)
    xf = np.where(deferred_x, x, x1)
    yf = np.where(deferred_y, y, y1)
    x2 = x1.copy()
    y2 = y1.copy()
    for variant, cdf in t.w_d.items():
        sel = (a.destroyer[x1] == variant) if sides.subs_main else np.full(x.size, not variant)
        if sel.any():
            x2[sel] = sides._grid_a[x1[sel], _draw(cdf, yf[sel], rng)]
    for variant, cdf in t.w_a.items():
        sel = (d.destroyer[y1] == variant) if sides.subs_main else np.full(x.size, not variant)
        if sel.any():
            y2[sel] = sides._grid_d[y1[sel], _draw(cdf, xf[sel], rng)]
    if (x2 < 0).any() or (y2 < 0).any():
        raise f.Outside
    return x2, y2


def _settle(
    a: f.Fleet, d: f.Fleet, x: Array, y: Array, code: Array, runs: Array, retreat: Array, rounds: int | None,
    cycles: Array,
) -> None:  # fmt: skip
    """End-of-cycle checks for `runs`: a side gone ends the battle; else the attacker may retreat."""
    ax, dy = a.alive[x[runs]], d.alive[y[runs]]
    code[runs[ax & ~dy]] = 0
    code[runs[~ax & dy]] = 1
    code[runs[~ax & ~dy]] = 2
    both = ax & dy
    back = both & retreat[x[runs], y[runs]]
    if rounds is not None:
        back |= both & (cycles[runs] >= max(rounds, 1))
    code[runs[back]] = 4


def _tally(
    tally: Tally, drawn: Drawn, a: f.Fleet, d: f.Fleet, x: Array, y: Array, code: Array, cycles: Array,
    att_out: Units, def_out: Units,
) -> None:  # fmt: skip
    """Counts of the group's ends into `tally` (as weights; the caller scales by 1/runs)."""
    if att_out:
        code = np.where(code == 1, 4, code)  # the rest withdrew under water: a retreat (`steps.end_check`)
    cat = tally.catalogue
    a_cost = np.array([ipc_value(f._merge(u, att_out), cat) for u in a.survivors], dtype=float)
    d_cost = np.array([ipc_value(f._merge(u, def_out), cat) for u in d.survivors], dtype=float)
    key = (x * d.n + y) * len(RESULTS) + code
    counts = np.bincount(key)
    for k in np.flatnonzero(counts).tolist():
        xi, rest = divmod(k, d.n * len(RESULTS))
        yi, ci = divmod(rest, len(RESULTS))
        units_a, units_d = f._merge(a.survivors[xi], att_out), f._merge(d.survivors[yi], def_out)
        tally.add(RESULTS[ci], units_a, units_d, float(counts[k]))
    tally.cycles += float(cycles.sum())
    drawn.codes.append(code)
    drawn.cycles.append(cycles)
    drawn.a_lost.append(ipc_value(tally.attacker_start, cat) - a_cost[x])
    drawn.d_lost.append(ipc_value(tally.defender_start, cat) - d_cost[y])
