"""Exact chance outcomes of a roll request: the distribution of hits per hit key (and bombing damage)."""

from __future__ import annotations

import itertools
from functools import lru_cache
from math import comb
from typing import Any

from aare.combat.battle_state import DiceGroup, RollRequest, other

Outcome = dict[tuple[Any, ...], int]
# a group with `repel_on` reports hits and repels as one number: hits x REPEL_STRIDE + repels
REPEL_STRIDE = 64


def convolve(a: list[float], b: list[float]) -> list[float]:
    out = [0.0] * (len(a) + len(b) - 1)
    for i, x in enumerate(a):
        if x:
            for j, y in enumerate(b):
                out[i + j] += x * y
    return out


@lru_cache(maxsize=4096)
def binomial(n: int, p: float) -> tuple[float, ...]:
    return tuple(comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1))


@lru_cache(maxsize=1024)
def damage_die(dice: int, bonus: int, best_of: bool = True) -> tuple[float, ...]:
    """Distribution of one bomber's damage: best of `dice` dice (or with `best_of` off their sum) plus `bonus`
    (index = damage)."""
    if not best_of:
        total = [1.0]
        for _ in range(dice):
            total = convolve(total, [0.0] + [1 / 6] * 6)
        return tuple([0.0] * bonus + total)
    out = [0.0] * (7 + bonus)
    for k in range(1, 7):
        out[k + bonus] = (k / 6) ** dice - ((k - 1) / 6) ** dice
    return tuple(out)


@lru_cache(maxsize=1024)
def lowest_die(dice: int, cap: int) -> tuple[float, ...]:
    """Distribution of the lowest of `dice` dice, values above `cap` lumped at `cap` + 1 (index = value)."""
    cap = min(max(cap, 0), 6)
    out = [0.0] * (cap + 2)
    for k in range(1, cap + 1):
        out[k] = ((7 - k) / 6) ** dice - ((6 - k) / 6) ** dice
    out[cap + 1] = ((6 - cap) / 6) ** dice
    return tuple(out)


@lru_cache(maxsize=1024)
def hits_and_repels(n: int, p_hit: float, p_repel: float) -> tuple[float, ...]:
    """Joint distribution of hits and repels of `n` independent chances (index = hits x REPEL_STRIDE + repels)."""
    if n >= REPEL_STRIDE:
        raise ValueError(f"at most {REPEL_STRIDE - 1} repel chances in one roll")
    out = [0.0] * (n * REPEL_STRIDE + n + 1)
    p_miss = 1.0 - p_hit - p_repel
    for h in range(n + 1):
        for r in range(n - h + 1):
            ways = comb(n, h) * comb(n - h, r)
            out[h * REPEL_STRIDE + r] = ways * p_hit**h * p_repel**r * p_miss ** (n - h - r)
    return tuple(out)


def repel_chances(g: DiceGroup) -> tuple[int, float, float]:
    """(chances, hit probability, repel probability) of a `repel_on` group: per unit with `best_of` (its best die
    decides), else per die."""
    h, r = min(max(g.hit_on, 0), 6) / 6, min(max(g.repel_on, g.hit_on, 0), 6) / 6
    if g.best_of and g.dice_per_unit > 1:
        d = g.dice_per_unit
        return g.count, 1 - (1 - h) ** d, (1 - h) ** d - (1 - r) ** d
    return g.count * g.dice_per_unit, h, r - h


def group_key(g: DiceGroup) -> tuple[Any, ...]:
    if g.repel_on:
        return ("hits+repels", other(g.side), g.target, g.removal)
    if g.lowest:
        return ("lowest", g.side, g.unit)
    return ("damage",) if g.damage else ("hits", other(g.side), g.target, g.removal)


def key_distributions(request: RollRequest) -> dict[tuple[Any, ...], list[float]]:
    """Per hit key, the probability of each total."""
    dists: dict[tuple[Any, ...], list[float]] = {}
    for g in request.groups:
        if g.damage:
            one = list(damage_die(g.dice_per_unit, g.bonus, g.best_of))
            d = [1.0]
            for _ in range(g.count):
                d = convolve(d, one)
        elif g.repel_on:
            d = list(hits_and_repels(*repel_chances(g)))
        elif g.lowest:
            d = list(lowest_die(g.count, g.hit_on))
            if g.threshold:
                d = [0.0] * max(g.hit_on, 0) + [sum(d[: g.hit_on + 1]), d[-1]]
        else:
            d = list(binomial(g.rolls, g.hit_chance))
        key = group_key(g)
        if g.lowest and key in dists:
            raise ValueError(f"two lowest-die groups share the key {key}")
        dists[key] = convolve(dists[key], d) if key in dists else d
    return dists


def outcomes(request: RollRequest) -> list[tuple[float, Outcome]]:
    """Every outcome with its probability (zero-probability totals left out)."""
    dists = key_distributions(request)
    keys = list(dists)
    ranges = [[(v, p) for v, p in enumerate(dists[k]) if p > 0.0] for k in keys]
    out = []
    for combo in itertools.product(*ranges):
        prob = 1.0
        for _v, p in combo:
            prob *= p
        out.append((prob, {k: v for k, (v, _p) in zip(keys, combo, strict=True)}))
    return out


def _faces(g: DiceGroup, hits: int, repels: int = 0) -> list[int]:
    """Canonical dice of one group scoring `hits` (and `repels`): hitting dice show 1, repelling ones the face
    above `hit_on`, missing ones 6; with `best_of` a unit's dice all show its one result."""
    miss, repel = 6, g.hit_on + 1
    per_unit = g.dice_per_unit if g.best_of else 1
    results = [1] * hits + [repel] * repels + [miss] * (g.rolls - hits - repels)
    return [face for face in results for _ in range(per_unit)]


def canonical_dice(request: RollRequest, outcome: Outcome) -> tuple[int, ...] | None:
    """Dice, in the order the request's groups roll them, whose result is `outcome`; None for a request with
    lowest-die or damage groups, or repel groups sharing a key (their outcomes are not mapped back to dice).
    Groups sharing a hit key get their forced hits first (a group hitting on 6 hits with every die), the rest
    in order."""
    if any(g.lowest or g.damage or (g.repel_on and g.best_of and g.dice_per_unit > 1) for g in request.groups):
        return None
    keys = [group_key(g) for g in request.groups]
    if any(g.repel_on and keys.count(k) > 1 for g, k in zip(request.groups, keys, strict=True)):
        return None
    left = dict(outcome)
    assigned = [0] * len(request.groups)
    for i, g in enumerate(request.groups):  # forced hits
        if not g.repel_on and g.hit_chance >= 1.0:
            assigned[i] = g.rolls
            left[keys[i]] = left.get(keys[i], 0) - g.rolls
    dice: list[int] = []
    for i, g in enumerate(request.groups):
        if g.repel_on:
            hits, repels = divmod(left.get(keys[i], 0), REPEL_STRIDE)
            dice += _faces(g, hits, repels)
            continue
        if not assigned[i] and g.hit_chance > 0.0:
            assigned[i] = max(0, min(g.rolls, left.get(keys[i], 0)))
            left[keys[i]] = left.get(keys[i], 0) - assigned[i]
        dice += _faces(g, assigned[i])
    if any(v for k, v in left.items() if not any(g.repel_on for g, gk in zip(request.groups, keys, strict=True)
                                                  if gk == k)):
        return None
    return tuple(dice)
