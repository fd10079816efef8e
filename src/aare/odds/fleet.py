"""Exact sea battles by per-class loss vectors (submarines, destroyers, two-hit battleships, carriers,
aircraft, transports).

One side's units are hit slots in the order of loss (`ladder._slot_runs`). Hits come in three kinds:
any unit; submarine hits, which cannot touch aircraft; and hits of aircraft whose side has no destroyer,
which cannot touch submarines (when the ruleset says so). Slots fall into classes by which kinds may hit
them, and the engine's casualty choice (a greedy basis of a transversal matroid) always takes a prefix of
each class, so a side's state is its vector of losses per class. Only the states reachable by single hits
are kept. A batch of hits of several kinds is the engine's greedy choice, which for these classes comes to
per-class caps and the total, first slots first (`Fleet.grid`): every stage is a table lookup.

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
from aare.combat.battle_state import ANY, EXTRA_HIT, BattleState, Side, Stacks, Target, UnitKey, hit_points
from aare.combat.casualties import eligible
from aare.combat.policy import Policy
from aare.combat.sequences import LHTR_SEQUENCES
from aare.combat.setup import Battle
from aare.combat.steps import can_capture, survivors
from aare.combat.values import (
    AIR_NO_SUB_TARGET,
    SUB_TARGET,
    base_value,
    dice_per_unit,
    main_fire_groups,
    undetected,
)
from aare.odds.ladder import _pb_rows, _slot_runs, hit_distribution
from aare.odds.report import Tally, Units, freeze

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
    sub_step: Array  # [state, hits] -> state after that many submarine hits (first strike: one kind alone)
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
    cum: Array = field(default_factory=lambda: np.zeros((1, 1), dtype=np.int64))  # [position, class] slots before
    codes: Array = field(default_factory=lambda: np.zeros(1, dtype=np.int64))  # mixed-radix state code -> index
    radix: Array = field(default_factory=lambda: np.ones(1, dtype=np.int64))
    hit_grids: dict[tuple[int, int, int], tuple[Array, Array]] = field(default_factory=dict)
    members: list[tuple[tuple[str, str, int], ...]] = field(default_factory=list)  # per state: (type, owner, n)

    @property
    def n(self) -> int:
        return len(self.states)

    @property
    def array(self) -> Array:
        """The states as one [state, class] array."""
        cached = self.__dict__.get("_array")
        if cached is None:
            cached = self.__dict__["_array"] = np.array(self.states, dtype=np.int64).reshape(self.n, -1)
        return cached

    @property
    def total(self) -> int:
        return int(self.cum.shape[0] - 1)

    def grid(self, idx: Array, subs: int, ans: int, anyh: int) -> Array:
        """[state, s, n, a] -> the state after s submarine hits, n aircraft-no-sub hits and a any-unit hits
        taken together, as the engine's casualty choice takes them: every class may lose at most the hits
        that may reach it, all classes at most the hits, first slots first (the greedy basis of the
        transversal matroid, which these per-class caps describe because any two classes together may take
        every kind). -1 where the result is not one of the states (the caller falls back)."""
        caps, total = self._hit_grid(subs, ans, anyh)
        states = self.array[idx]
        out = np.empty((len(idx), total.size), dtype=np.int64)
        step = max(1, 4_000_000 // max(1, total.size * self.cum.shape[0] * len(self.sizes)))
        for lo in range(0, len(idx), step):
            st = states[lo : lo + step]  # [m, C]
            left = np.maximum(self.cum[None, :, :] - st[:, None, :], 0)  # [m, P, C]
            took = np.minimum(left[:, None, :, :], caps.T[None, :, None, :])  # [m, G, P, C]
            reached = took.sum(axis=3) >= total[None, :, None]
            at = np.where(reached.any(axis=2), reached.argmax(axis=2), left.shape[1] - 1)  # [m, G]
            taken = np.take_along_axis(took, at[:, :, None, None], axis=2)[:, :, 0, :]  # [m, G, C]
            code = ((st[:, None, :] + taken) * self.radix).sum(axis=2)
            out[lo : lo + step] = self.codes[code]
        return out.reshape(len(idx), subs + 1, ans + 1, anyh + 1)

    def _hit_grid(self, subs: int, ans: int, anyh: int) -> tuple[Array, Array]:
        """Per hit vector of the grid (s, n, a): each class's cap and the total."""
        cached = self.hit_grids.get((subs, ans, anyh))
        if cached is None:
            axes = np.meshgrid(np.arange(subs + 1), np.arange(ans + 1), np.arange(anyh + 1), indexing="ij")
            s, n, a = (g.ravel() for g in axes)
            caps = np.array(self.masks, dtype=np.int64) @ np.stack([a, s, n])  # by kind: any, sub, ans
            cached = self.hit_grids[(subs, ans, anyh)] = (caps, a + s + n)
        return cached

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
        found = self.index.get(tuple(size - r for size, r in zip(self.sizes, remaining, strict=True)))
        if found is None or self.composition(stacks) != self.members[found]:
            return None  # not the prefix of each class this state stands for
        return found

    @staticmethod
    def composition(stacks: Stacks, marked: bool = False) -> tuple[tuple[str, str, int], ...]:
        """(type, owner, count) of the units present and not hit (`marked`: hit ones too, since they still
        fire until removed), as `members` lists them."""
        out: dict[tuple[str, str], int] = {}
        for key, n in stacks:
            if key.present and (marked or not key.marked):
                out[(key.type, key.owner)] = out.get((key.type, key.owner), 0) + n
        return tuple((t, o, n) for (t, o), n in sorted(out.items()))

    def firing(self, stacks: Stacks) -> int | None:
        """A state whose units fire as `stacks` do (the units present, hit or not), or None."""
        table = self.__dict__.get("_by_members")
        if table is None:
            table = self.__dict__["_by_members"] = {}
            for i, m in enumerate(self.members):
                table.setdefault(m, i)
        found: int | None = table.get(self.composition(stacks, marked=True))
        return found


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
        mask = tuple(k in kinds and eligible(cat, key, t) for k, t in enumerate(KINDS))  # kinds it can meet
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
    sub_step = np.empty((n, total + 1), dtype=np.int64)
    sub_step[:, 0] = np.arange(n)
    one = np.array([rank[nxt[K_SUB][order[i]]] for i in range(n)], dtype=np.int64)
    for h in range(1, total + 1):
        sub_step[:, h] = one[sub_step[:, h - 1]]
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
    owned = sorted({(k.type, k.owner) for k in keys})
    by_owned = np.zeros((len(keys), len(owned)), dtype=np.int64)
    for key, j in col.items():
        by_owned[j, owned.index((key.type, key.owner))] = 1
    rows = (alive @ by_owned).tolist()
    members = [tuple((t, o, c) for (t, o), c in zip(owned, row, strict=True) if c) for row in rows]
    takes = np.zeros((n, 3), dtype=bool)
    for c, mask in enumerate(masks):
        left = np.array([st[c] < sizes[c] for st in states])
        for k in range(3):
            if mask[k]:
                takes[:, k] |= left
    present = [k for k in range(3) if k in kinds]
    for i, m1 in enumerate(masks):
        for m2 in masks[i + 1 :]:
            if not all(m1[k] or m2[k] for k in present):
                return None  # the casualty choice would need the full matching, not per-class caps
    cum = np.zeros((total + 1, len(masks)), dtype=np.int64)
    for c, pos in enumerate(positions):
        for q in pos:
            cum[q + 1 :, c] += 1
    radix = np.cumprod([1] + [size + 1 for size in sizes[:-1]]).astype(np.int64)
    codes = np.full(int(np.prod([size + 1 for size in sizes])), -1, dtype=np.int64)
    for i, st in enumerate(states):
        codes[int(np.dot(st, radix))] = i
    return Fleet(
        side, masks, sizes, states, index, sub_step, units > 0, destroyer, units, (units > 0) & (air == units), takes,
        survivors, _table(rolls[K_SUB], n), _table(rolls[K_ANY], n), _table(rolls[K_ANS], n), classes_of,
        cum, codes, radix, {}, members,
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
    """Hits beyond `cap` (no slot left to take them) count as `cap`; trailing columns of zeros go."""
    if table.shape[1] > cap + 1:
        table = table.copy()
        table[:, cap] += table[:, cap + 1 :].sum(axis=1)
        table = table[:, : cap + 1]
    used = np.flatnonzero(table.any(axis=0))
    return table[:, : (int(used[-1]) + 1 if used.size else 1)]


def _scatter_cols(weights: Array, targets: Array, width: int) -> Array:
    """out[:, t] = sum of the columns of `weights` whose target is t."""
    order = np.argsort(targets, kind="stable")
    t = targets[order]
    starts = np.flatnonzero(np.r_[True, t[1:] != t[:-1]])
    out = np.zeros((weights.shape[0], width))
    out[:, t[starts]] = np.add.reduceat(weights[:, order], starts, axis=1)
    return out


class Outside(Exception):
    """A casualty choice led to a state the model did not list: the battle goes to the general solver."""


def _dist3(sub: Array, ans: Array, anyh: Array) -> Array:
    """[rows, s * n * a] joint distribution of three independent hit counts, in `Fleet.grid` order."""
    joint: Array = sub[:, :, None, None] * ans[:, None, :, None] * anyh[:, None, None, :]
    return joint.reshape(len(sub), -1)


def _none_of(rows: int, width: int) -> Array:
    out = np.zeros((rows, width))
    out[:, 0] = 1.0
    return out


@dataclass
class Sides:
    """The two fleets with their fire clipped to the other's slots, and cached stage matrices.

    `subs_main`: submarines facing an enemy destroyer fire in the main step instead of first (Anniversary
    style); otherwise they always fire first and an enemy destroyer only keeps their casualties firing back."""

    a: Fleet
    d: Fleet
    subs_main: bool = False
    _g: dict[int, Array] = field(default_factory=dict)
    _m: dict[int, Array] = field(default_factory=dict)

    def __post_init__(self) -> None:
        a, d = self.a, self.d
        self.sub_a, self.sub_d = _clip(a.subs, d.total), _clip(d.subs, a.total)
        self.ans_a, self.any_a = _clip(a.main_ans, d.total), _clip(a.main_any, d.total)
        self.ans_d, self.any_d = _clip(d.main_ans, a.total), _clip(d.main_any, a.total)
        s_a = self.sub_a.shape[1] - 1 if self.subs_main else 0
        s_d = self.sub_d.shape[1] - 1 if self.subs_main else 0
        self._shape_d = (s_d, self.ans_d.shape[1] - 1, self.any_d.shape[1] - 1)  # the defender's main fire
        grid = d.grid(np.arange(d.n), s_a, self.ans_a.shape[1] - 1, self.any_a.shape[1] - 1)
        self._grid_d = grid.reshape(d.n, -1)  # [y1, s n a] -> y'
        self._grid_a = a.grid(np.arange(a.n), *self._shape_d).reshape(a.n, -1)  # [x1, s n a] -> x'
        subs_d = self.sub_d if self.subs_main else _none_of(d.n, 1)
        self._w_d = {
            False: _dist3(_none_of(d.n, s_d + 1), self.ans_d, self.any_d),  # same grid, no submarine hits
            True: _dist3(subs_d, self.ans_d, self.any_d),
        }  # the defender's main fire without / with its submarines

    def hurts(self, x: int) -> tuple[Array, Array]:
        """Per defender state: whether the attacker at `x` can hit it, and whether it can hit the attacker."""
        a, d = self.a, self.d
        xy = (
            (self.sub_a[x, 1:].any() & d.takes[:, K_SUB])
            | (self.any_a[x, 1:].any() & d.takes[:, K_ANY])
            | (self.ans_a[x, 1:].any() & d.takes[:, K_ANS])
        )
        yx = (
            (self.sub_d[:, 1:].any(axis=1) & a.takes[x, K_SUB])
            | (self.any_d[:, 1:].any(axis=1) & a.takes[x, K_ANY])
            | (self.ans_d[:, 1:].any(axis=1) & a.takes[x, K_ANS])
        )
        return xy, yx

    def g(self, x1: int) -> Array:
        """[y, x']: the attacker at `x1` under the main fire of the defender at y."""
        out = self._g.get(x1)
        if out is None:
            weights = self._w_d[self.subs_main and bool(self.a.destroyer[x1])]
            targets = self._grid_a[x1]
            cols = np.flatnonzero(weights.any(axis=0))
            if (targets[cols] < 0).any():
                raise Outside
            out = _scatter_cols(weights[:, cols], targets[cols], self.a.n)
            self._g[x1] = out
        return out

    def m(self, xf: int) -> Array:
        """[y1, y']: the defender at y1 under the main fire of the attacker at `xf`."""
        out = self._m.get(xf)
        if out is None:
            d = self.d
            width = self._grid_d.shape[1]
            ans, anyh = self.ans_a[xf : xf + 1], self.any_a[xf : xf + 1]
            without = _dist3(_none_of(1, width // (ans.shape[1] * anyh.shape[1])), ans, anyh)[0]
            rows = np.repeat(without[None, :], d.n, axis=0)
            if self.subs_main:
                rows[d.destroyer] = _dist3(self.sub_a[xf : xf + 1], ans, anyh)[0]
            cols = np.flatnonzero(rows.any(axis=0))
            targets = self._grid_d[:, cols]
            if (targets < 0).any():
                raise Outside
            flat = (np.arange(d.n)[:, None] * d.n + targets).ravel()
            out = np.bincount(flat, weights=rows[:, cols].ravel(), minlength=d.n * d.n).reshape(d.n, d.n)
            self._m[xf] = out
        return out

    def terms(self, x: int, ys: Array) -> tuple[Array, Array, Array, Array]:
        """One cycle from (x, y) for each y in `ys`, as weighted outer products: (A [t, x'], D [t, y'],
        weight [t], source position in `ys` [t])."""
        a, d = self.a, self.d
        ps = self.sub_a[x]
        ks = np.union1d(np.flatnonzero(ps), [0])
        y1 = d.sub_step[ys][:, ks]  # [ys, k]
        dd_y = d.destroyer[ys]
        firsts: dict[int, Array] = {}
        if self.subs_main and a.destroyer[x]:
            firsts[x] = np.ones(ys.size)  # the defender's subs fire in the main step
        else:
            for h in np.flatnonzero(self.sub_d[ys].any(axis=0)).tolist():
                u = int(a.sub_step[x, h])
                firsts[u] = firsts.get(u, 0.0) + self.sub_d[ys, h]
        opening = np.repeat(ps[ks][None, :], ys.size, axis=0)  # [ys, k] the attacker's subs firing first
        if self.subs_main:
            opening[dd_y] = (ks == 0).astype(float)
        pos = np.arange(ys.size)
        single = ks.size == 1
        held, open_ = pos[dd_y | single], pos[~(dd_y | single)]  # the defender fires as it was / after subs
        blocks: list[tuple[Array, Array, Array, Array]] = []

        def hit_first(mx: Array, rows: Array) -> Array:
            return sum((opening[rows, j, None] * mx[y1[rows, j]] for j in range(ks.size)), np.zeros((rows.size, d.n)))

        if a.destroyer[x]:
            mx = self.m(x)
            if held.size:
                av = sum((c[held, None] * self.g(u)[ys[held]] for u, c in firsts.items()), np.zeros((held.size, a.n)))
                blocks.append((av, hit_first(mx, held), np.ones(held.size), held))
            for j in range(ks.size):
                if not open_.size:
                    break
                after = y1[open_, j]
                av = sum((c[open_, None] * self.g(u)[after] for u, c in firsts.items()), np.zeros((open_.size, a.n)))
                blocks.append((av, mx[after], opening[open_, j], open_))
        else:
            for u, c in firsts.items():
                mu, gu = self.m(u), self.g(u)
                if held.size:
                    blocks.append((gu[ys[held]], hit_first(mu, held), c[held], held))
                for j in range(ks.size):
                    if not open_.size:
                        break
                    after = y1[open_, j]
                    blocks.append((gu[after], mu[after], c[open_] * opening[open_, j], open_))
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
    live = a.alive[:, None] & d.alive[None, :]
    if (start * ~live).any():  # a side wiped out before the cycle's main fire (e.g. by AA fire): it has ended
        ended = np.where(live, 0.0, start)
        _ends(sides, ended, out)
        out.cycles += float(ended.sum())
        start = np.where(live, start, 0.0)
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
        later = np.flatnonzero(av[:, x + 1 :].any(axis=0)) + x + 1  # the attacker states this row reaches
        if later.size:
            arrivals[later, :] += (av[:, later] * coef[:, None]).T @ dv
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
    if policy.attacker_submerge or policy.defender_submerge:
        return False
    if policy.retreat_below is not None and policy.retreat_after is not None:
        return False  # the chance to win would depend on the cycles left
    steady = [st for st in setup.sequence.steps if not s.passed_over(st) and st.cycles != 1]
    standard = SEA_STEPS
    if not setup.rules.defender_subs_fire_first:  # the defender's subs fire in the main step: no step of their own
        standard = tuple(st for st in SEA_STEPS if st is not s.DEFENDER_SUBS)
    if len(steady) != len(standard):
        return False
    for mine, std in zip(steady, standard, strict=True):
        if mine is not std and mine.model != std.name:
            return False
    for key, _ in battle.state.attacker + battle.state.defender:
        unit = setup.unit(key)
        if set(key.flags) - KNOWN_FLAGS - {"casualty", "casualty:opening"}:
            return False
        if unit.has("cannot_hit_air") and not unit.has("first_strike"):
            return False  # a unit that is not a submarine but cannot hit aircraft: not modelled
        if setup.rules.lone_defenceless_removed and s.defenceless(battle, key):
            return False  # defenceless units left alone are removed without rolls: not modelled
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


def _firing(stacks: Stacks) -> Stacks:
    """What decides a side's main fire: its present units, hit or not (marks aside; detection decides whether a
    first-cycle sub fires in the main step)."""
    return tuple((k.without("casualty", "casualty:opening"), n) for k, n in stacks if k.present)


def _hidden(battle: Battle, state: BattleState) -> bool:
    """Whether a sub of `state` is still undetected: one that fired in opening fire and stayed does not fire again
    in the main step of the first cycle, which the cycle's stage tables do not know."""
    b = battle.with_state(state)
    return any(k.present and undetected(b, k) for k, _ in state.attacker + state.defender)


def _fire(battle: Battle, side: Side) -> tuple[Array, Array, Array]:
    """(submarine, air-no-sub, any) hit distributions of `side`'s main fire in `battle`'s current state."""
    groups = main_fire_groups(battle, side)
    kinds = (SUB_TARGET, AIR_NO_SUB_TARGET, ANY)
    if any(g.target not in kinds for g in groups):
        raise Outside
    return tuple(hit_distribution([g for g in groups if g.target == k]) for k in kinds)  # type: ignore[return-value]


def _after(fleet: Fleet, start: int, fire: tuple[Array, Array, Array]) -> Array:
    """Distribution over `fleet`'s states after main fire `fire` on state `start`."""
    sub, ans, anyh = (_clip(x[None, :], fleet.total) for x in fire)
    targets = fleet.grid(np.array([start]), sub.shape[1] - 1, ans.shape[1] - 1, anyh.shape[1] - 1).ravel()
    weights = _dist3(sub, ans, anyh)[0]
    if (targets[weights > 0] < 0).any():
        raise Outside
    return np.bincount(targets[weights > 0], weights=weights[weights > 0], minlength=fleet.n)


def _merge(units: Units, extra: Units) -> Units:
    if not extra:
        return units
    out = dict(units)
    for t, n in extra:
        out[t] = out.get(t, 0) + n
    return tuple(sorted(out.items()))


def solve_battle(
    battle: Battle, policy: Policy, branches: dict[BattleState, float], tally: Tally, scale: float = 1.0
) -> bool:
    """Add the exact outcome of `battle` (given as the distribution `branches` over its states at the
    steady point) to `tally`; False (and nothing added) if a branch falls outside the model.

    Branches are solved in groups by the units they have out of the battle (submerged in the first cycle):
    those survive whatever happens, and the rest fight as a battle of their own."""
    groups: dict[tuple[Stacks, Stacks], list[tuple[BattleState, float]]] = {}
    for state, p in branches.items():
        if not state.ended:
            groups.setdefault((_out(state.attacker), _out(state.defender)), []).append((state, p))
    try:
        solved = [(out, _solve_group(battle, policy, out, members)) for out, members in groups.items()]
    except Outside:
        return False
    for state, p in branches.items():
        if state.ended:
            done = battle.with_state(state)
            tally.add(state.result or "", freeze(survivors(done, "attacker")), freeze(survivors(done, "defender")),
                      p * scale, can_capture(done))  # fmt: skip
            tally.cycles += p * scale
    for (att_out, def_out), (a, d, outcome) in solved:
        _tally(tally, a, d, outcome, _types(att_out), _types(def_out), scale)
    return True


def at_cycle_start(battle: Battle, state: BattleState) -> bool:
    """Whether `state` fights the rest of its cycle as a whole cycle: nobody is marked hit and only first-cycle
    steps ran before it (e.g. submarines offered to submerge before the first fire), so every step of the
    steady cycle is still to come."""
    if any(k.marked for k, _ in state.attacker + state.defender):
        return False
    return all(st.cycles == 1 or s.is_anchor(st) for st in battle.setup.sequence.steps[: state.cursor])


def _out(stacks: Stacks) -> Stacks:
    """The units out of the battle but alive (submerged or retreated), as their plain keys."""
    out: dict[UnitKey, int] = {}
    for key, n in stacks:
        if not key.present and not key.marked:
            plain = UnitKey(key.type, key.owner)
            out[plain] = out.get(plain, 0) + n
    return tuple(sorted(out.items()))


def _types(stacks: Stacks) -> Units:
    out: dict[str, int] = {}
    for key, n in stacks:
        out[key.type] = out.get(key.type, 0) + n
    return tuple(sorted(out.items()))


def _without(stacks: Stacks, gone: Stacks) -> Stacks:
    """`stacks` less the units `gone` (matched by type and owner)."""
    left = dict(gone)
    out = []
    for key, n in stacks:
        take = min(n, left.get(UnitKey(key.type, key.owner), 0))
        if take:
            left[UnitKey(key.type, key.owner)] -= take
        if n - take:
            out.append((key, n - take))
    if any(left.values()):
        raise Outside
    return tuple(out)


def group_sides(battle: Battle, policy: Policy, out: tuple[Stacks, Stacks]) -> Sides:
    """The model of the battle fought by the units not `out` of it (submerged in the first cycle); the hit
    kinds are the whole battle's, since the first cycle's hits shaped the states."""
    st = battle.state
    fighting = battle.with_state(
        st.evolve(attacker=_without(st.attacker, out[0]), defender=_without(st.defender, out[1]))
    )
    a = compile_fleet(fighting, "attacker", policy, _kinds_against(battle, "attacker"))
    d = compile_fleet(fighting, "defender", policy, _kinds_against(battle, "defender"))
    if a is None or d is None:
        raise Outside
    rules = battle.setup.rules
    if not rules.defender_subs_fire_first:
        # the defender's subs always fire in the main step: the model's switch for subs facing a destroyer, with
        # the attacker counted as always having one (no side has a destroyer: nothing else reads the flag)
        if a.destroyer.any() or d.destroyer.any():
            raise Outside
        a.destroyer[:] = True
        return Sides(a, d, True)
    return Sides(a, d, rules.destroyer_moves_sub_fire_to_main_step)


def retreat_rows(battle: Battle, policy: Policy, a: Fleet) -> Array:
    """Per attacker state: the policy retreats there (down to K units, only aircraft left)."""
    rows = np.zeros(a.n, dtype=bool)
    if not policy.retreats or s.retreat_options(battle) is None:
        return rows
    if policy.retreat_at_units is not None:
        rows |= a.units <= policy.retreat_at_units
    if policy.retreat_when_only_air:
        rows |= a.air_only
    rows &= a.alive
    return rows


def _solve_group(
    battle: Battle, policy: Policy, out: tuple[Stacks, Stacks], members: list[tuple[BattleState, float]]
) -> tuple[Fleet, Fleet, Outcome]:
    """One group of branches: the battle of the units still in it, from each branch's state."""
    sides = group_sides(battle, policy, out)
    a, d = sides.a, sides.d
    cat = battle.setup.catalogue
    start, arrived, cycles = np.zeros((a.n, d.n)), np.zeros((a.n, d.n)), 0.0
    after_a: dict[tuple[int, Stacks], Array] = {}  # many branches share a damage state and the fire it meets
    after_d: dict[tuple[int, Stacks], Array] = {}
    for state, p in members:
        x, y = a.locate(state.attacker, cat), d.locate(state.defender, cat)
        if x is None or y is None:
            raise Outside
        if at_cycle_start(battle, state):
            start[x, y] += p
            continue
        xf, yf = a.firing(state.attacker), d.firing(state.defender)
        if xf is not None and yf is not None and not _hidden(battle, state) and (
            not sides.subs_main or (a.destroyer[xf] == a.destroyer[x] and d.destroyer[yf] == d.destroyer[y])
        ):  # both sides fire as states of ours: the cycle's stage tables
            arrived += p * np.outer(sides.g(x)[yf], sides.m(xf)[y])
            cycles += p
            continue
        b = battle.with_state(state)
        key_a, key_d = _firing(state.attacker), _firing(state.defender)
        if (x, key_d) not in after_a:
            after_a[x, key_d] = _after(a, x, _fire(b, "defender"))
        if (y, key_a) not in after_d:
            after_d[y, key_a] = _after(d, y, _fire(b, "attacker"))
        arrived += p * np.outer(after_a[x, key_d], after_d[y, key_a])
        cycles += p
    retreat = retreat_rows(battle, policy, a)
    retreats = policy.retreats and s.retreat_options(battle) is not None
    rounds, below = (policy.retreat_after, policy.retreat_below) if retreats else (None, None)
    outcome = solve(sides, start, arrived, retreat, rounds, below)
    outcome.cycles += cycles
    return a, d, outcome


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
                if tally.joint is not None and fleet is a:  # (result, attacker survivors) together
                    key = (name, units)
                    tally.joint[key] = tally.joint.get(key, 0.0) + float(marginal[i]) * scale
    tally.cycles += outcome.cycles * scale
