"""Exact sea battles by per-class loss vectors (submarines, destroyers, two-hit battleships, carriers,
aircraft, transports).

One side's units are hit slots in the order of loss (`ladder._slot_runs`). Hits come in three kinds:
any unit; submarine hits, which cannot touch aircraft; and hits of aircraft whose side has no destroyer,
which cannot touch submarines (when the ruleset says so). Slots fall into classes by which kinds may hit
them, and the engine's casualty choice (a greedy basis of a transversal matroid) always takes a prefix of
each class, so a side's state is its vector of losses per class. Only the states reachable by single hits
are kept. Hits of one kind take the first eligible slot; a batch of "air, no submarines" and "any" hits
is the same as the restricted hits first, then the rest (`apply order`), so every stage is a table lookup.

A cycle from (attacker state x, defender state y): both sides' submarines fire (surprise strike); their
casualties are removed at once unless the side hit has a destroyer (then they fire back and go at the end
of the cycle); then the main fire of what is left. Given the two sides' submarine results the rest of the
cycle is an outer product of two distributions, so a cycle's transition from (x, y) is a short sum of
outer products. States are solved one attacker state (row) at a time in order of losses: inside a row
only the defender loses, so the row's visits solve one triangular system (the "nobody hits" loop on its
diagonal, summed in closed form), and the mass pushed to later rows is one matrix product. No pruning,
no round cap.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from itertools import compress

import numpy as np

from aare.combat import steps as s
from aare.combat.battle_state import ANY, EXTRA_HIT, BattleState, Side, Target, UnitKey, hit_points
from aare.combat.casualties import eligible
from aare.combat.policy import Policy
from aare.combat.sequences import LHTR_SEQUENCES
from aare.combat.setup import Battle
from aare.combat.values import AIR_NO_SUB_TARGET, SUB_TARGET, base_value, dice_per_unit, main_fire_groups
from aare.odds.ladder import _pb_rows, _slot_runs, hit_distribution
from aare.odds.report import Tally, Units

Array = np.ndarray
KINDS: tuple[Target, ...] = (ANY, SUB_TARGET, AIR_NO_SUB_TARGET)
K_ANY, K_SUB, K_ANS = 0, 1, 2
KNOWN_FLAGS = frozenset({"detected", EXTRA_HIT})


# ---------------------------------------------------------------- one side


@dataclass
class Fleet:
    """One side's reachable loss states (in order of losses) and per-state tables."""

    side: Side
    masks: list[tuple[bool, bool, bool]]  # per class: which kinds may hit it
    sizes: list[int]  # slots per class
    states: list[tuple[int, ...]]  # losses per class
    index: dict[tuple[int, ...], int]
    step: list[Array]  # per kind: [state, hits] -> state after that many hits of the kind
    alive: Array  # has a unit left
    destroyer: Array  # has a destroyer left
    units: Array  # combat units left
    air_only: Array  # only aircraft left
    takes: Array  # [state, kind]: some slot left that the kind may hit
    survivors: list[Units]
    subs: Array  # [state, hits] submarine opening-fire distribution
    main_any: Array  # [state, hits] main fire that may hit any unit
    main_ans: Array  # [state, hits] main fire of aircraft that may not hit submarines
    classes_of: dict[UnitKey, int] = field(default_factory=dict)

    @property
    def n(self) -> int:
        return len(self.states)

    def locate(self, stacks: tuple[tuple[UnitKey, int], ...], cat: object) -> int | None:
        """The state of `stacks` (present, unmarked units count), or None if it is not one of ours."""
        remaining = [0] * len(self.sizes)
        for key, n in stacks:
            if not key.present or key.marked:
                continue
            base = key.without("detected")
            c = self.classes_of.get(_plain(base))
            if c is None:
                if cat is not None and _no_slots(cat, key):
                    continue
                return None
            remaining[c] += n * (hit_points(cat, key) - key.damage)
        return self.index.get(tuple(size - r for size, r in zip(self.sizes, remaining, strict=True)))


def _plain(key: UnitKey) -> UnitKey:
    return UnitKey(key.type, key.owner, 0, key.flags)


def _no_slots(cat: object, key: UnitKey) -> bool:
    return bool(cat[key.type].has("not_casualty"))  # type: ignore[index]


def _rolls_by_kind(battle: Battle, side: Side, key: UnitKey, destroyer: bool) -> tuple[int, float, int] | None:
    """(kind, hit chance, rolls per unit) of one unit's fire at sea, or None if it does not roll."""
    setup = battle.setup
    unit = setup.unit(key)
    if unit.has("not_casualty"):
        return None
    value = base_value(battle, side, key)
    if value <= 0:
        return None
    dice, best = dice_per_unit(battle, side, key)
    p = min(value, 6) / 6
    if best and dice > 1:
        p, per = 1 - (1 - p) ** dice, 1
    else:
        per = dice
    if unit.has("first_strike"):
        return K_SUB, p, per
    if unit.domain == "air" and not setup.rules.air_hits_subs_without_destroyer and not destroyer:
        return K_ANS, p, per
    return K_ANY, p, per


def _table(rolls: dict[float, Array], n: int) -> Array:
    return _pb_rows(rolls, n)[1] if rolls else np.ones((n, 1))


def compile_fleet(battle: Battle, side: Side, policy: Policy, kinds: tuple[int, ...]) -> Fleet | None:
    """The side's model for hits of `kinds`, or None if a unit is one the model does not know."""
    cat = battle.setup.catalogue
    runs = _slot_runs(battle, side, policy)
    masks: list[tuple[bool, bool, bool]] = []
    slot_class: list[int] = []
    classes_of: dict[UnitKey, int] = {}
    for key, _last, count in runs:
        if set(key.flags) - KNOWN_FLAGS:
            return None
        mask = tuple(eligible(cat, key, t) for t in KINDS)
        if mask not in masks:
            masks.append(mask)  # type: ignore[arg-type]
        c = masks.index(mask)  # type: ignore[arg-type]
        classes_of[_plain(key.without("detected"))] = c
        slot_class += [c] * count
    positions = [[i for i, c in enumerate(slot_class) if c == k] for k in range(len(masks))]
    sizes = [len(p) for p in positions]
    states, nxt = _reachable(masks, positions, kinds)
    order = sorted(range(len(states)), key=lambda i: (sum(states[i]), states[i]))
    rank = {old: new for new, old in enumerate(order)}
    states = [states[i] for i in order]
    index = {st: i for i, st in enumerate(states)}
    n = len(states)
    total = len(slot_class)
    step = []
    for k in range(3):
        table = np.empty((n, total + 1), dtype=np.int64)
        table[:, 0] = np.arange(n)
        one = np.array([rank[nxt[k][order[i]]] for i in range(n)], dtype=np.int64)
        for h in range(1, total + 1):
            table[:, h] = one[table[:, h - 1]]
        step.append(table)
    # units alive per state: a unit lives while its last slot does
    lost = np.zeros((n, total), dtype=bool)
    for i, st in enumerate(states):
        for c, m in enumerate(st):
            lost[i, positions[c][:m]] = True
    keys = sorted({k for k, last, _ in runs if last}, key=lambda k: (cat.order(k.type), k.flags, k.owner))
    col = {k: j for j, k in enumerate(keys)}
    last_of = np.zeros((total, len(keys)), dtype=np.int64)
    i = 0
    for key, last, count in runs:
        if last:
            last_of[i : i + count, col[key]] = 1
        i += count
    alive = (~lost).astype(np.int64) @ last_of  # [state, key]
    destroyer = np.zeros(n, dtype=bool)
    air = np.zeros(n, dtype=np.int64)
    for key, j in col.items():
        unit = cat[key.type]
        if unit.has("anti_submarine"):
            destroyer |= alive[:, j] > 0
        if unit.domain == "air":
            air += alive[:, j]
    rolls: list[dict[float, Array]] = [{}, {}, {}]
    for key, j in col.items():
        for with_dd in (True, False):
            fire = _rolls_by_kind(battle, side, key, with_dd)
            if fire is None:
                continue
            kind, p, per = fire
            sel = destroyer if with_dd else ~destroyer
            rolls[kind][p] = rolls[kind].get(p, np.zeros(n, dtype=np.int64)) + np.where(sel, alive[:, j] * per, 0)
    units = alive.sum(axis=1)
    types = sorted({k.type for k in keys})
    by_type = np.zeros((len(keys), len(types)), dtype=np.int64)
    for key, j in col.items():
        by_type[j, types.index(key.type)] = 1
    survivors = [tuple(compress(zip(types, row, strict=True), row)) for row in (alive @ by_type).tolist()]
    takes = np.zeros((n, 3), dtype=bool)
    for c, mask in enumerate(masks):
        left = np.array([st[c] < sizes[c] for st in states])
        for k in range(3):
            if mask[k]:
                takes[:, k] |= left
    return Fleet(
        side, masks, sizes, states, index, step, units > 0, destroyer, units, (units > 0) & (air == units), takes,
        survivors, _table(rolls[K_SUB], n), _table(rolls[K_ANY], n), _table(rolls[K_ANS], n), classes_of,
    )  # fmt: skip


def _reachable(
    masks: list[tuple[bool, bool, bool]], positions: list[list[int]], kinds: tuple[int, ...]
) -> tuple[list[tuple[int, ...]], list[dict[int, int]]]:
    """States reachable from no losses by single hits of `kinds`, and each kind's one-hit successor."""
    start = tuple(0 for _ in masks)
    states = [start]
    seen = {start: 0}
    nxt: list[dict[int, int]] = [{}, {}, {}]
    i = 0
    while i < len(states):
        st = states[i]
        for k in range(3):
            best, pick = None, -1
            for c, mask in enumerate(masks):
                if mask[k] and st[c] < len(positions[c]) and (best is None or positions[c][st[c]] < best):
                    best, pick = positions[c][st[c]], c
            if pick < 0 or k not in kinds:
                nxt[k][i] = i
                continue
            after = (*st[:pick], st[pick] + 1, *st[pick + 1 :])
            if after not in seen:
                seen[after] = len(states)
                states.append(after)
            nxt[k][i] = seen[after]
        i += 1
    return states, nxt


# ---------------------------------------------------------------- both sides


def _clip(table: Array, cap: int) -> Array:
    """Hits beyond `cap` (no slot left to take them) count as `cap`."""
    if table.shape[1] <= cap + 1:
        out = np.zeros((table.shape[0], cap + 1))
        out[:, : table.shape[1]] = table
        return out
    out = table[:, : cap + 1].copy()
    out[:, cap] += table[:, cap + 1 :].sum(axis=1)
    return out


def _scatter_cols(weights: Array, targets: Array, width: int) -> Array:
    """out[:, t] = sum of the columns of `weights` whose target is t."""
    order = np.argsort(targets, kind="stable")
    t = targets[order]
    starts = np.flatnonzero(np.r_[True, t[1:] != t[:-1]])
    out = np.zeros((weights.shape[0], width))
    out[:, t[starts]] = np.add.reduceat(weights[:, order], starts, axis=1)
    return out


@dataclass
class Sides:
    """The two fleets with their fire clipped to the other's slots, and cached stage matrices."""

    a: Fleet
    d: Fleet
    sub_a: Array = field(init=False)  # [x, hits on the defender]
    sub_d: Array = field(init=False)  # [y, hits on the attacker]
    main_a: tuple[Array, Array] = field(init=False)  # (ans, any) of the attacker's main fire
    main_d: tuple[Array, Array] = field(init=False)
    _g: dict[int, Array] = field(default_factory=dict)
    _m: dict[int, Array] = field(default_factory=dict)

    def __post_init__(self) -> None:
        ta, td = self.a.step[0].shape[1] - 1, self.d.step[0].shape[1] - 1
        self.sub_a, self.sub_d = _clip(self.a.subs, td), _clip(self.d.subs, ta)
        self.main_a = (_clip(self.a.main_ans, td), _clip(self.a.main_any, td))
        self.main_d = (_clip(self.d.main_ans, ta), _clip(self.d.main_any, ta))
        ans, anyh = self.main_d
        self._w_d = (ans[:, :, None] * anyh[:, None, :]).reshape(self.d.n, -1)  # [y, (n, a)]
        self._w_d_cols = np.flatnonzero(self._w_d.any(axis=0))
        ans, anyh = self.main_a
        na, nn = ans.shape[1], anyh.shape[1]
        after_ans = self.d.step[K_ANS][:, :na]  # [y, n]
        idx = self.d.step[K_ANY][after_ans[:, :, None], np.arange(nn)[None, None, :]]  # [y, n, a]
        self._idx_d = idx.reshape(self.d.n, -1)

    def hurts(self, x: int) -> tuple[Array, Array]:
        """Per defender state: whether the attacker at `x` can hit it, and whether it can hit the attacker."""
        a, d = self.a, self.d
        ans, anyh = self.main_a
        xy = (
            (self.sub_a[x, 1:].any() & d.takes[:, K_SUB])
            | (anyh[x, 1:].any() & d.takes[:, K_ANY])
            | (ans[x, 1:].any() & d.takes[:, K_ANS])
        )
        ans_d, any_d = self.main_d
        yx = (
            (self.sub_d[:, 1:].any(axis=1) & a.takes[x, K_SUB])
            | (any_d[:, 1:].any(axis=1) & a.takes[x, K_ANY])
            | (ans_d[:, 1:].any(axis=1) & a.takes[x, K_ANS])
        )
        return xy, yx

    def g(self, x1: int) -> Array:
        """[y, x']: the attacker at `x1` under the main fire of the defender at y."""
        out = self._g.get(x1)
        if out is None:
            a = self.a
            nn = self.main_d[1].shape[1]
            targets = a.step[K_ANY][a.step[K_ANS][x1, : self.main_d[0].shape[1]][:, None], np.arange(nn)[None, :]]
            cols = self._w_d_cols
            out = _scatter_cols(self._w_d[:, cols], targets.ravel()[cols], a.n)
            self._g[x1] = out
        return out

    def m(self, xf: int) -> Array:
        """[y1, y']: the defender at y1 under the main fire of the attacker at `xf`."""
        out = self._m.get(xf)
        if out is None:
            ans, anyh = self.main_a
            w = (ans[xf][:, None] * anyh[xf][None, :]).ravel()
            cols = np.flatnonzero(w)
            n = self.d.n
            flat = (np.arange(n)[:, None] * n + self._idx_d[:, cols]).ravel()
            out = np.bincount(flat, weights=np.tile(w[cols], n), minlength=n * n).reshape(n, n)
            self._m[xf] = out
        return out

    def terms(self, x: int, ys: Array) -> tuple[Array, Array, Array, Array]:
        """One cycle from (x, y) for each y in `ys`, as weighted outer products: (A [t, x'], D [t, y'],
        weight [t], source position in `ys` [t])."""
        a, d = self.a, self.d
        ps = self.sub_a[x]
        ks = np.flatnonzero(ps)
        y1 = d.step[K_SUB][ys][:, ks]  # [ys, k]
        hs = np.flatnonzero(self.sub_d[ys].any(axis=0))
        firsts: dict[int, Array] = {}
        for h in hs.tolist():
            u = int(a.step[K_SUB][x, h])
            firsts[u] = firsts.get(u, 0.0) + self.sub_d[ys, h]
        deferred_d = d.destroyer[ys]
        pos = np.arange(len(ys))
        blocks: list[tuple[Array, Array, Array, Array]] = []
        single = ks.size == 1 and ks[0] == 0  # no submarine hits on the defender: y1 = y

        def split(sel: Array) -> tuple[Array, Array]:
            return pos[sel], pos[~sel]

        if a.destroyer[x]:
            mx = self.m(x)
            held, open_ = split(deferred_d | single)
            if held.size:
                av = sum(c[held, None] * self.g(u)[ys[held]] for u, c in firsts.items())
                dv = sum(ps[k] * mx[y1[held, j]] for j, k in enumerate(ks.tolist()))
                blocks.append((av, dv, np.ones(held.size), held))
            for j, k in enumerate(ks.tolist()):
                if not open_.size:
                    break
                after = y1[open_, j]
                av = sum(c[open_, None] * self.g(u)[after] for u, c in firsts.items())
                blocks.append((av, mx[after], np.full(open_.size, ps[k]), open_))
        else:
            held, open_ = split(deferred_d | single)
            for u, c in firsts.items():
                mu, gu = self.m(u), self.g(u)
                if held.size:
                    dv = sum(ps[k] * mu[y1[held, j]] for j, k in enumerate(ks.tolist()))
                    blocks.append((gu[ys[held]], dv, c[held], held))
                for j, k in enumerate(ks.tolist()):
                    if not open_.size:
                        break
                    after = y1[open_, j]
                    blocks.append((gu[after], mu[after], c[open_] * ps[k], open_))
        if not blocks:
            return np.zeros((0, a.n)), np.zeros((0, d.n)), np.zeros(0), np.zeros(0, dtype=np.int64)
        av = np.concatenate([b[0] for b in blocks])
        dv = np.concatenate([b[1] for b in blocks])
        w = np.concatenate([b[2] for b in blocks])
        src = np.concatenate([b[3] for b in blocks])
        return av, dv, w, src


@dataclass
class Outcome:
    """Terminal mass by (attacker state, defender state) per result, and the expected cycles."""

    mass: dict[str, Array]
    cycles: float = 0.0


def _row_sums(src: Array, values: Array, rows: int) -> Array:
    """out[i] = sum of the rows of `values` whose source is i."""
    out = np.zeros((rows, values.shape[1]))
    if not src.size:
        return out
    if np.all(src[1:] > src[:-1]):
        out[src] = values
        return out
    order = np.argsort(src, kind="stable")
    s = src[order]
    starts = np.flatnonzero(np.r_[True, s[1:] != s[:-1]])
    out[s[starts]] = np.add.reduceat(values[order], starts, axis=0)
    return out


def solve(
    sides: Sides, start: Array, arrived: Array, retreat: Array, rounds: int | None, below: float | None = None
) -> Outcome:
    """Exact terminal distribution. `start`: mass at cycle starts (no retreat check before its first cycle);
    `arrived`: mass at the end of a cycle (cycle 1 already fought). `retreat[x]`: the attacker retreats
    there after a cycle; `rounds`: it retreats after that many cycles (then cycles are swept in turn);
    `below`: it retreats wherever its chance to win by pressing on is under this (found backwards first)."""
    a, d = sides.a, sides.d
    out = Outcome({r: np.zeros((a.n, d.n)) for r in ("attacker", "defender", "draw", "retreat", "stalemate")})
    if rounds is None:
        flags = np.repeat(retreat[:, None], d.n, axis=1)
        if below is not None:
            flags = _win_flags(sides, retreat, below)
        _solve_rows(sides, start, arrived.copy(), flags, out)
        return out
    mass, fought = start.copy(), 0
    arrivals = arrived.copy()
    if arrivals.any():
        fought = 1
        mass += _settle(sides, arrivals, retreat | (fought >= rounds), out)
    while mass.any() and fought < max(rounds, 1):
        arrivals = np.zeros_like(mass)
        for x in np.flatnonzero(mass.any(axis=1)).tolist():
            _push_row(sides, x, mass[x], arrivals, out, include_row=True)
        fought += 1
        mass = _settle(sides, arrivals, retreat | (fought >= rounds), out)
    return out


def _win_flags(sides: Sides, retreat: Array, below: float) -> Array:
    """[x, y]: the attacker retreats at the end of a cycle there — a state flag, or its chance to win by
    pressing on (with the same choice everywhere after) is under `below`. Backwards over the states."""
    a, d = sides.a, sides.d
    win = np.zeros((a.n, d.n))
    flags = np.zeros((a.n, d.n), dtype=bool)
    dead = ~d.alive
    ys = np.flatnonzero(d.alive)
    for x in range(a.n - 1, -1, -1):
        if not a.alive[x]:
            continue
        win[x, dead] = 1.0
        if retreat[x] or not ys.size:
            flags[x, ys] = True
            continue
        xy, yx = sides.hurts(x)
        stuck = ~(xy[ys] | yx[ys])
        av, dv, w, src = sides.terms(x, ys)
        keep = ~stuck[src]
        av, dv, w, src = av[keep], dv[keep], w[keep], src[keep]
        later = ((av[:, x + 1 :] @ win[x + 1 :, :]) * dv).sum(axis=1) + av[:, x] * dv[:, dead].sum(axis=1)
        ahead = np.bincount(src, weights=w * later, minlength=ys.size)
        inner = _row_sums(src, (w * av[:, x])[:, None] * dv[:, ys], ys.size)
        row = win[x, ys]
        for i in range(ys.size - 1, -1, -1):
            chance = 0.0 if stuck[i] else (ahead[i] + inner[i, i + 1 :] @ row[i + 1 :]) / (1.0 - inner[i, i])
            flags[x, ys[i]] = chance < below
            row[i] = 0.0 if chance < below else chance
        win[x, ys] = row
    return flags


def _settle(sides: Sides, arrivals: Array, retreat: Array | bool, out: Outcome) -> Array:
    """End-of-cycle mass: the ended battles are tallied, the rest starts the next cycle (or retreats)."""
    a, d = sides.a, sides.d
    live = a.alive[:, None] & d.alive[None, :]
    _ends(sides, arrivals, out)
    go = np.broadcast_to(np.asarray(retreat)[..., None] if np.ndim(retreat) else retreat, live.shape)
    out.mass["retreat"] += np.where(live & go, arrivals, 0.0)
    return np.where(live & ~go, arrivals, 0.0)


def _ends(sides: Sides, arrivals: Array, out: Outcome) -> None:
    a, d = sides.a, sides.d
    ax, dy = a.alive[:, None], d.alive[None, :]
    out.mass["attacker"] += np.where(ax & ~dy, arrivals, 0.0)
    out.mass["defender"] += np.where(~ax & dy, arrivals, 0.0)
    out.mass["draw"] += np.where(~ax & ~dy, arrivals, 0.0)


def _push_row(sides: Sides, x: int, visits: Array, arrivals: Array, out: Outcome, include_row: bool) -> None:
    """Push the mass `visits` of row `x` (one cycle each) to the end-of-cycle states."""
    d = sides.d
    ys = np.flatnonzero(visits * d.alive)
    if not ys.size:
        return
    xy, yx = sides.hurts(x)
    stuck = ~(xy[ys] | yx[ys])
    v = visits[ys]
    out.cycles += float(v.sum())
    out.mass["stalemate"][x, ys[stuck]] += v[stuck]
    v = np.where(stuck, 0.0, v)
    av, dv, w, src = sides.terms(x, ys)
    coef = w * v[src]
    lo = x if include_row else x + 1
    arrivals[lo:, :] += (av[:, lo:] * coef[:, None]).T @ dv


def _solve_rows(sides: Sides, start: Array, arrivals: Array, flags: Array, out: Outcome) -> None:
    """Row by row; `flags[x, y]`: the attacker retreats on reaching (x, y) at the end of a cycle."""
    a, d = sides.a, sides.d
    for x in np.flatnonzero(start.any(axis=1)).tolist():  # a first cycle is always fought
        _push_row(sides, x, start[x], arrivals, out, include_row=True)
    dead = ~d.alive
    for x in range(a.n):
        if not a.alive[x]:
            continue
        out.mass["attacker"][x, dead] += arrivals[x, dead]
        total = np.where(d.alive, arrivals[x], 0.0)
        nz = np.flatnonzero(total)
        if not nz.size:
            continue
        ys = np.flatnonzero(d.alive[nz[0] :]) + nz[0]
        xy, yx = sides.hurts(x)
        leaving = flags[x, ys]
        stuck = ~(xy[ys] | yx[ys]) & ~leaving
        absorbing = stuck | leaving
        if absorbing.all():
            out.mass["retreat"][x, ys[leaving]] += total[ys[leaving]]
            out.mass["stalemate"][x, ys[stuck]] += total[ys[stuck]]
            out.cycles += float(total[ys[stuck]].sum())
            continue
        av, dv, w, src = sides.terms(x, ys)
        keep = ~absorbing[src]
        av, dv, w, src = av[keep], dv[keep], w[keep], src[keep]
        inner = _row_sums(src, (w * av[:, x])[:, None] * dv[:, ys], ys.size)  # [from, to] inside the row
        v = np.linalg.solve(np.eye(ys.size) - inner.T, total[ys])
        out.cycles += float(v[~leaving].sum())
        out.mass["stalemate"][x, ys[stuck]] += v[stuck]
        out.mass["retreat"][x, ys[leaving]] += v[leaving]
        coef = w * v[src]
        if x + 1 < a.n:
            arrivals[x + 1 :, :] += (av[:, x + 1 :] * coef[:, None]).T @ dv
        here = (av[:, x] * coef) @ dv
        out.mass["attacker"][x, dead] += here[dead]
    _ends_rows_dead(sides, arrivals, out)


def _ends_rows_dead(sides: Sides, arrivals: Array, out: Outcome) -> None:
    """Arrivals in rows where the attacker has nothing left."""
    dead = ~sides.a.alive
    rows = arrivals[dead]
    out.mass["defender"][dead] += np.where(sides.d.alive[None, :], rows, 0.0)
    out.mass["draw"][dead] += np.where(sides.d.alive[None, :], 0.0, rows)


# ---------------------------------------------------------------- the calculator's entry


SEA_STEPS = LHTR_SEQUENCES["sea"].steps


def applies(battle: Battle, policy: Policy) -> bool:
    """Whether this model reproduces the step engine for `battle` from its steady point on."""
    setup = battle.setup
    if battle.state.kind != "sea" or setup.sequence.kind != "sea" or setup.conditional_values:
        return False
    rules = setup.rules
    if rules.destroyer_moves_sub_fire_to_main_step or policy.attacker_submerge or policy.defender_submerge:
        return False
    if policy.retreat_below is not None and policy.retreat_after is not None:
        return False  # the chance to win would depend on the cycles left
    steady = [st for st in setup.sequence.steps if not s.is_anchor(st) and st.cycles != 1]
    if len(steady) != len(SEA_STEPS):
        return False
    for mine, std in zip(steady, SEA_STEPS, strict=True):
        if mine is not std and mine.model != std.name:
            return False
    for key, _ in battle.state.attacker + battle.state.defender:
        unit = setup.unit(key)
        if set(key.flags) - KNOWN_FLAGS - {"casualty", "casualty:opening"}:
            return False
        if unit.has("cannot_hit_air") and not unit.has("first_strike"):
            return False  # would fire in the main step with submarine-style hits
    return True


def _kinds_against(battle: Battle, side: Side) -> tuple[int, ...]:
    """The kinds of hits `side` can receive from the other side."""
    setup = battle.setup
    enemy = battle.state.defender if side == "attacker" else battle.state.attacker
    kinds = [K_ANY]
    if any(setup.unit(k).has("first_strike") for k, _ in enemy):
        kinds.append(K_SUB)
    if not setup.rules.air_hits_subs_without_destroyer and any(setup.unit(k).domain == "air" for k, _ in enemy):
        kinds.append(K_ANS)
    return tuple(kinds)


def _fire(battle: Battle, side: Side) -> tuple[Array, Array] | None:
    """(air-no-sub hits, any hits) distributions of `side`'s main fire in `battle`'s current state."""
    groups = main_fire_groups(battle, side)
    if any(g.target not in (ANY, AIR_NO_SUB_TARGET) for g in groups):
        return None
    ans = hit_distribution([g for g in groups if g.target == AIR_NO_SUB_TARGET])
    anyh = hit_distribution([g for g in groups if g.target == ANY])
    return ans, anyh


def _after(fleet: Fleet, start: int, fire: tuple[Array, Array]) -> Array:
    """Distribution over `fleet`'s states after main fire `fire` on state `start`."""
    ans, anyh = fire
    total = fleet.step[0].shape[1] - 1
    ans, anyh = _clip(ans[None, :], total)[0], _clip(anyh[None, :], total)[0]
    out = np.zeros(fleet.n)
    for n, pn in enumerate(ans.tolist()):
        if pn:
            mid = fleet.step[K_ANS][start, n]
            np.add.at(out, fleet.step[K_ANY][mid, : anyh.size], pn * anyh)
    return out


def _out_units(stacks: tuple[tuple[UnitKey, int], ...]) -> Units:
    """Units out of the battle but alive (submerged or retreated): survivors of every outcome."""
    out: dict[str, int] = {}
    for key, n in stacks:
        if not key.present and not key.marked:
            out[key.type] = out.get(key.type, 0) + n
    return tuple(sorted(out.items()))


def _merge(units: Units, extra: Units) -> Units:
    if not extra:
        return units
    out = dict(units)
    for t, n in extra:
        out[t] = out.get(t, 0) + n
    return tuple(sorted(out.items()))


@dataclass
class _Group:
    """Branches with the same units out of the battle: one solve."""

    start: Array
    arrived: Array
    cycles: float = 0.0


def solve_battle(
    battle: Battle, policy: Policy, branches: dict[BattleState, float], tally: Tally, scale: float = 1.0
) -> bool:
    """Add the exact outcome of `battle` (given as the distribution `branches` over its states at the
    steady point) to `tally`; False (and nothing added) if a branch falls outside the model."""
    fleets = {}
    for side in ("attacker", "defender"):
        fleet = compile_fleet(battle, side, policy, _kinds_against(battle, side))
        if fleet is None:
            return False
        fleets[side] = fleet
    a, d = fleets["attacker"], fleets["defender"]
    sides = Sides(a, d)
    cat = battle.setup.catalogue
    groups: dict[tuple[Units, Units], _Group] = {}
    ended: list[tuple[BattleState, float]] = []
    for state, p in branches.items():
        if state.ended:
            ended.append((state, p))
            continue
        x, y = a.locate(state.attacker, cat), d.locate(state.defender, cat)
        if x is None or y is None:
            return False
        out = (_out_units(state.attacker), _out_units(state.defender))
        group = groups.get(out)
        if group is None:
            group = groups[out] = _Group(np.zeros((a.n, d.n)), np.zeros((a.n, d.n)))
        marked = any(k.marked for k, _ in state.attacker + state.defender)
        if state.cursor == 0 and not marked:
            group.start[x, y] += p
            continue
        b = battle.with_state(state)
        fire_a, fire_d = _fire(b, "attacker"), _fire(b, "defender")
        if fire_a is None or fire_d is None:
            return False
        group.arrived += p * np.outer(_after(a, x, fire_d), _after(d, y, fire_a))
        group.cycles += p
    retreat = np.zeros(a.n, dtype=bool)
    rounds, below = None, None
    if policy.retreats and s.retreat_options(battle) is not None:
        if policy.retreat_at_units is not None:
            retreat |= a.units <= policy.retreat_at_units
        if policy.retreat_when_only_air:
            retreat |= a.air_only
        retreat &= a.alive
        rounds = policy.retreat_after
        below = policy.retreat_below
    from aare.combat.steps import can_capture, survivors
    from aare.odds.report import freeze

    for state, p in ended:
        done = battle.with_state(state)
        tally.add(state.result or "", freeze(survivors(done, "attacker")), freeze(survivors(done, "defender")),
                  p * scale, can_capture(done))  # fmt: skip
        tally.cycles += p * scale
    for (att_out, def_out), group in groups.items():
        outcome = solve(sides, group.start, group.arrived, retreat, rounds, below)
        _tally(tally, a, d, outcome, att_out, def_out, scale)
        tally.cycles += group.cycles * scale
    return True


def _tally(tally: Tally, a: Fleet, d: Fleet, outcome: Outcome, att_out: Units, def_out: Units, scale: float) -> None:
    """Add one solve's terminal mass to `tally`; an attacker with units out of the battle (submerged) that
    loses the rest has withdrawn, not been destroyed (`steps.end_check`)."""
    for result, mass in outcome.mass.items():
        total = float(mass.sum())
        if not total:
            continue
        name = "retreat" if result == "defender" and att_out else result
        tally.results[name] = tally.results.get(name, 0.0) + total * scale
        for side_tally, fleet, extra, marginal in (
            (tally.attacker, a, att_out, mass.sum(axis=1)),
            (tally.defender, d, def_out, mass.sum(axis=0)),
        ):
            for i in np.flatnonzero(marginal).tolist():
                units = _merge(fleet.survivors[i], extra)
                side_tally[units] = side_tally.get(units, 0.0) + float(marginal[i]) * scale
    tally.cycles += outcome.cycles * scale
