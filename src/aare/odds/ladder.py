"""The ladder model: a battle with a fixed order of loss, compiled to per-side hit-slot lists.

Each side's units become an ordered list of hit slots (a two-hit battleship's absorbing hit first, then
losses in order-of-loss order), and a side's state is just how many slots it has lost. This is exactly
the engine's order-of-loss choice whenever every hit a side can receive is assignable to a prefix of its
slots (`compile_ladder` refuses the other cases). Per lost-count the model holds, computed with the
engine's own value functions: the hit distribution of the side's main fire and of its submarines'
opening fire, whether it has a destroyer, and its survivors. The fast exact solvers and the Monte Carlo
sampler run on it.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from aare.combat import steps as s
from aare.combat.battle_state import SIDES, BattleState, DiceGroup, Side, UnitKey
from aare.combat.casualties import order_rank
from aare.combat.sequences import LHTR_SEQUENCES
from aare.combat.setup import Battle
from aare.combat.values import base_value, dice_per_unit
from aare.odds.policy import Policy
from aare.odds.report import Units, freeze

Array = np.ndarray


def hit_distribution(groups: list[DiceGroup]) -> Array:
    """Poisson-binomial distribution of total hits: binomials per distinct hit chance, convolved."""
    out = np.ones(1)
    by_p: dict[float, int] = {}
    for g in groups:
        by_p[g.hit_chance] = by_p.get(g.hit_chance, 0) + g.rolls
    for p, n in by_p.items():
        k = np.arange(n + 1)
        logc = _log_comb(n)
        with np.errstate(divide="ignore"):
            pmf = np.exp(logc + k * np.log(p) + (n - k) * np.log1p(-p)) if 0 < p < 1 else _degenerate(n, p)
        out = np.convolve(out, pmf)
    return out


def _degenerate(n: int, p: float) -> Array:
    pmf = np.zeros(n + 1)
    pmf[n if p >= 1 else 0] = 1.0
    return pmf


def _log_comb(n: int) -> Array:
    from math import lgamma

    return np.array([lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1) for k in range(n + 1)])


@dataclass
class SideLadder:
    slots: list[UnitKey]  # the unit each slot belongs to
    total: int  # number of slots
    main: list[Array]  # per lost-count: main fire hit distribution
    subs: list[Array]  # per lost-count: submarine opening-fire hit distribution
    destroyer: Array  # per lost-count: has a destroyer (bool)
    nonair: Array  # slots assignable to submarine hits (air slots come last)
    survivors: list[Units]  # per lost-count
    units: Array  # per lost-count: combat units alive
    land: Array  # per lost-count: has a land unit alive


@dataclass
class Ladder:
    kind: str
    attacker: SideLadder
    defender: SideLadder
    retreat: Array  # per attacker lost-count: the policy retreats there
    cycle: int  # cycle number of the start state

    def side(self, side: Side) -> SideLadder:
        return self.attacker if side == "attacker" else self.defender


STEADY = {kind: seq.steps for kind, seq in LHTR_SEQUENCES.items()}


def steady_point(battle: Battle) -> int | None:
    """Step index in cycle 1 from which the battle runs the same steps every cycle, or None."""
    seq = battle.setup.sequence
    limited = [i for i, step in enumerate(seq.steps) if step.cycles is not None]
    start = max(limited) + 1 if limited else 0
    if any(step.cycles != 1 for step in seq.steps[:start] if step.cycles is not None):
        return None
    if any(step.cycles is not None for step in seq.steps[start:]):
        return None
    return start


def fast_path_ok(battle: Battle, policy: Policy) -> bool:
    """Whether the ladder model reproduces the step engine for this battle and policy."""
    setup = battle.setup
    seq = setup.sequence
    std = STEADY.get(seq.kind)
    if std is None or seq.kind == "bombing" or tuple(seq.steps) != tuple(std):
        return False
    rules = setup.rules
    if rules.destroyer_moves_sub_fire_to_main_step or policy.attacker_submerge or policy.defender_submerge:
        return False
    if policy.retreat_after is not None:
        return False
    if battle.state.kind == "amphibious" and policy.retreats:
        return False
    subs = any(setup.unit(k).has("first_strike") for k, _ in battle.state.attacker + battle.state.defender)
    return not (subs and not rules.air_hits_subs_without_destroyer)


def _slots(battle: Battle, side: Side, policy: Policy) -> list[tuple[UnitKey, bool]]:
    """(unit, is last hit of that unit) per slot, in the order hits are taken."""
    cat = battle.setup.catalogue
    rank = order_rank(cat, side, policy.order(side))
    absorb: list[tuple[object, UnitKey]] = []
    last: list[tuple[object, int, UnitKey]] = []
    i = 0
    for key, n in battle.state.units(side):
        if not key.present or cat[key.type].has("not_casualty"):
            continue
        for _ in range(n):
            remaining = cat[key.type].hits - key.damage
            absorb += [((rank[key.type], key), key)] * (remaining - 1)
            last.append(((rank[key.type], -key.damage, key), i, key))
            i += 1
    absorb.sort(key=lambda x: x[0])  # type: ignore[arg-type, return-value]
    last.sort(key=lambda x: (x[0], x[1]))  # type: ignore[arg-type, return-value]
    # absorbing slots of a unit must come before its last slot: they all come first
    return [(k, False) for _, k in absorb] + [(k, True) for _, _, k in last]


@lru_cache(maxsize=8192)
def _binomial(n: int, p: float) -> Array:
    if p <= 0.0 or p >= 1.0 or n == 0:
        return _degenerate(n, p)
    k = np.arange(n + 1)
    return np.exp(_log_comb(n) + k * np.log(p) + (n - k) * np.log1p(-p))


def _pb(rolls: dict[float, Array], c: int) -> Array:
    out = np.ones(1)
    for p, n in rolls.items():
        if n[c]:
            out = np.convolve(out, _binomial(int(n[c]), p))
    return out


def _side(battle: Battle, side: Side, policy: Policy) -> SideLadder:
    """Per lost-count tables of one side. Values come from the engine's value functions per unit kind;
    artillery pairing is recounted at every lost-count as `main_fire_groups` does."""
    cat = battle.setup.catalogue
    slots = _slots(battle, side, policy)
    total = len(slots)
    sea = battle.state.kind == "sea"
    land_kind = battle.state.kind in ("land", "amphibious")
    kinds = sorted({k for k, last in slots if last}, key=lambda k: (cat.order(k.type), k.flags, k.owner))
    col = {k: i for i, k in enumerate(kinds)}
    onehot = np.zeros((total + 1, len(kinds)), dtype=np.int64)
    for i, (key, last) in enumerate(slots):
        if last:
            onehot[i, col[key]] = 1
    alive = np.cumsum(onehot[::-1], axis=0)[::-1]  # [c, kind] units alive after c slots lost
    probe = battle.with_state(battle.state)
    bonus = battle.setup.rules.artillery_support_bonus
    main: dict[float, Array] = {}
    subs: dict[float, Array] = {}
    support = np.zeros(total + 1, dtype=np.int64)
    if side == "attacker" and land_kind:
        for k in kinds:
            if cat[k.type].has("artillery"):
                support = support + alive[:, col[k]]
    for k in kinds:
        unit = cat[k.type]
        value = base_value(probe, side, k)
        dice, best = dice_per_unit(probe, side, k)
        n = alive[:, col[k]]
        is_sub = sea and unit.has("first_strike")
        table = subs if is_sub else main
        per = 1 if best else dice

        def add(
            v: int,
            count: Array,
            table: dict[float, Array] = table,
            t: str = k.type,
            dice: int = dice,
            best: bool = best,
            per: int = per,
        ) -> None:
            if v <= 0:
                return
            g = DiceGroup(side, t, 1, v, dice_per_unit=dice, best_of=best)
            table[g.hit_chance] = table.get(g.hit_chance, np.zeros(total + 1, dtype=np.int64)) + count * per

        if unit.has("artillery_supported") and support.any():
            paired = np.minimum(n, support)
            support = support - paired
            add(value + bonus, paired)
            add(value, n - paired)
        else:
            add(value, n)
    dd_cols = [col[k] for k in kinds if cat[k.type].has("anti_submarine")]
    land_cols = [col[k] for k in kinds if cat[k.type].domain == "land"]
    nonair = 0
    air_seen = False
    for idx, (key, _last) in enumerate(slots):
        if cat[key.type].domain == "air":
            air_seen = True
        elif air_seen:
            nonair = -1  # an air slot before a ship: sub hits would not take a prefix
            break
        else:
            nonair = idx + 1
    surv = []
    for c in range(total + 1):
        counts: dict[str, int] = {}
        for k in kinds:
            if alive[c, col[k]]:
                counts[k.type] = counts.get(k.type, 0) + int(alive[c, col[k]])
        surv.append(freeze(counts))
    return SideLadder(
        [k for k, _ in slots],
        total,
        [_pb(main, c) for c in range(total + 1)],
        [_pb(subs, c) for c in range(total + 1)],
        alive[:, dd_cols].sum(axis=1) > 0 if dd_cols else np.zeros(total + 1, dtype=bool),
        np.array(nonair),
        surv,
        alive.sum(axis=1),
        alive[:, land_cols].sum(axis=1) > 0 if land_cols else np.zeros(total + 1, dtype=bool),
    )


def compile_ladder(battle: Battle, policy: Policy) -> Ladder | None:
    """The ladder of `battle` (at a steady point, no unit marked), or None if it does not apply."""
    st = battle.state
    if st.hits or st.pending or st.roll or st.ended:
        return None
    if any(k.marked or not k.present for k, _ in st.attacker + st.defender):
        return None
    sides = {side: _side(battle, side, policy) for side in SIDES}
    a, d = sides["attacker"], sides["defender"]
    for me, enemy in ((a, d), (d, a)):
        enemy_subs = any(len(x) > 1 for x in enemy.subs)
        if enemy_subs and int(me.nonair) < 0:
            return None  # sub hits would not take a prefix of this side's slots
    retreat = np.zeros(a.total + 1, dtype=bool)
    if policy.retreats and s.retreat_options(battle) is not None:
        for c in range(a.total + 1):
            alive = int(a.units[c])
            if policy.retreat_at_units is not None and alive <= policy.retreat_at_units:
                retreat[c] = True
            if policy.retreat_when_only_air and not a.land[c]:
                retreat[c] = True
            if alive == 0:
                retreat[c] = False
    return Ladder(st.kind, a, d, retreat, st.cycle)


def result_of(ladder: Ladder, a: int, d: int, retreated: bool) -> str:
    if retreated:
        return "retreat"
    a_dead, d_dead = a >= ladder.attacker.total, d >= ladder.defender.total
    if a_dead and d_dead:
        return "draw"
    if d_dead:
        return "attacker"
    if a_dead:
        return "defender"
    return "stalemate"


def capture_of(ladder: Ladder, a: int, result: str) -> bool:
    return result == "attacker" and ladder.kind in ("land", "amphibious") and bool(ladder.attacker.land[a])


def initial_state(battle: Battle) -> BattleState:
    return battle.state
