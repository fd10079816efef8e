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
from itertools import compress
from math import lgamma

import numpy as np

from aare.combat import steps as s
from aare.combat.battle_state import JOINS_NEXT_CYCLE, SIDES, BattleState, DiceGroup, Side, UnitKey, hit_points
from aare.combat.casualties import order_rank
from aare.combat.policy import Policy
from aare.combat.sequences import LHTR_SEQUENCES
from aare.combat.setup import Battle
from aare.combat.values import base_value, dice_per_unit, supports
from aare.odds.report import Units

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
    main_table: Array | None = None  # `main` as one zero-padded [lost, hits] array (rows are views of it)


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
    live = tuple(step for step in seq.steps if not s.passed_over(step))  # empty anchors never run
    if seq.kind in ("land", "amphibious") and std is not None:
        # other first-cycle opening steps (e.g. anti-aircraft shots of an AARe national advantage) lie before the
        # steady point: the opening branches run them in the step engine
        live = tuple(step for step in live if step in std or step.cycles != 1)
    if std is None or seq.kind == "bombing" or live != tuple(std):
        return False
    if setup.conditional_values:
        return False
    rules = setup.rules
    sea = battle.state.kind == "sea"
    moved_subs = rules.destroyer_moves_sub_fire_to_main_step or not rules.defender_subs_fire_first
    if (sea and moved_subs) or policy.attacker_submerge or policy.defender_submerge:
        return False
    if battle.state.kind == "amphibious" and policy.retreats:
        return False
    units = battle.state.attacker + battle.state.defender
    if any(k.has(JOINS_NEXT_CYCLE) for k, _ in units):
        return False  # units joining at the next cycle: not modelled
    if rules.lone_defenceless_removed and any(s.defenceless(battle, k) for k, _ in units):
        return False  # defenceless units left alone are removed without rolls: not modelled
    subs = any(setup.unit(k).has("first_strike") for k, _ in units)
    return not (subs and not rules.air_hits_subs_without_destroyer)


def _slot_runs(battle: Battle, side: Side, policy: Policy) -> list[tuple[UnitKey, bool, int]]:
    """Runs of equal slots (unit, is last hit of that unit, slot count), in the order hits are taken."""
    cat = battle.setup.catalogue
    rank = order_rank(cat, side, policy.order(side), battle.setup.rules.last_casualty_tags)
    absorb: list[tuple[object, int, UnitKey, int]] = []
    last: list[tuple[object, int, UnitKey, int]] = []
    for i, (key, n) in enumerate(battle.state.units(side)):
        unit = cat[key.type]
        if not key.present or unit.has("not_casualty") or n <= 0:
            continue
        if hit_points(cat, key) - key.damage > 1:
            absorb.append(((rank[key.type], key), i, key, n * (hit_points(cat, key) - key.damage - 1)))
        last.append(((rank[key.type], -key.damage, key), i, key, n))
    # equal sort keys keep their stacking order (the units of one stack are contiguous and alike)
    absorb.sort(key=lambda x: (x[0], x[1]))
    last.sort(key=lambda x: (x[0], x[1]))
    # absorbing slots of a unit must come before its last slot: they all come first
    return [(k, False, n) for _, _, k, n in absorb] + [(k, True, n) for _, _, k, n in last]


@lru_cache(maxsize=256)
def _binomial_table(n_max: int, p: float) -> Array:
    """[n, k] = P(k hits from n rolls at chance p), for n <= n_max (zeros for k > n). Read-only."""
    n = np.arange(n_max + 1)[:, None]
    k = np.arange(n_max + 1)[None, :]
    if p <= 0.0 or p >= 1.0:
        out = (k == (n if p >= 1.0 else 0 * n)).astype(float)
    else:
        lf = np.array([lgamma(i + 1) for i in range(n_max + 1)])
        nk = np.maximum(n - k, 0)
        with np.errstate(over="ignore"):
            out = np.exp(lf[n] - lf[k] - lf[nk] + k * np.log(p) + nk * np.log1p(-p))
        out[k > n] = 0.0
    out.setflags(write=False)
    return out  # type: ignore[no-any-return]


def _convolve_rows(x: Array, y: Array) -> Array:
    """Row-wise convolution of two [rows, width] arrays, by one skewed outer product."""
    r, a = x.shape
    b = y.shape[1]
    if a > b:
        x, y, a, b = y, x, b, a
    if a == 1:
        return x * y  # type: ignore[no-any-return]
    buf = np.zeros((r, a, a + b))
    np.multiply(x[:, :, None], y[:, None, :], out=buf[:, :, :b])
    # row i of the flat buffer read with stride a + b - 1 lands shifted right by i
    skew = buf.reshape(r, a * (a + b))[:, : a * (a + b - 1)].reshape(r, a, a + b - 1)
    return skew.sum(axis=1)  # type: ignore[no-any-return]


def _pb_rows(rolls: dict[float, Array], rows: int) -> tuple[list[Array], Array]:
    """Per lost-count Poisson-binomial hit distributions: binomial rows per distinct chance, convolved.
    Returns the rows trimmed to their support and the zero-padded [lost, hits] array they are views of."""
    out = np.ones((rows, 1))
    length = np.ones(rows, dtype=np.int64)
    for p, n in rolls.items():
        top = int(n.max())
        if top:
            out = _convolve_rows(out, _binomial_table(top, p)[n])
            length = length + n
    return [out[c, :m] for c, m in enumerate(length.tolist())], out


def _side(battle: Battle, side: Side, policy: Policy) -> SideLadder:
    """Per lost-count tables of one side. Values come from the engine's value functions per unit kind;
    artillery pairing is recounted at every lost-count as `main_fire_groups` does."""
    cat = battle.setup.catalogue
    runs = _slot_runs(battle, side, policy)
    sizes = np.array([n for _, _, n in runs], dtype=np.int64)
    total = int(sizes.sum())
    sea = battle.state.kind == "sea"
    land_kind = battle.state.kind in ("land", "amphibious")
    kinds = sorted({k for k, last, _ in runs if last}, key=lambda k: (cat.order(k.type), k.flags, k.owner))
    col = {k: i for i, k in enumerate(kinds)}
    onehot = np.zeros((total + 1, len(kinds)), dtype=np.int64)
    run_col = np.array([col[k] if last else -1 for k, last, _ in runs], dtype=np.int64)
    slot_col = np.repeat(run_col, sizes)
    is_last = slot_col >= 0
    onehot[np.nonzero(is_last)[0], slot_col[is_last]] = 1
    alive = np.cumsum(onehot[::-1], axis=0)[::-1]  # [c, kind] units alive after c slots lost
    probe = battle.with_state(battle.state)
    bonus = battle.setup.rules.artillery_support_bonus
    main: dict[float, Array] = {}
    subs: dict[float, Array] = {}
    support = np.zeros(total + 1, dtype=np.int64)
    if side == "attacker" and land_kind:
        for k in kinds:
            support = support + alive[:, col[k]] * supports(probe, side, k)
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
    for key, _last, count in runs:
        if cat[key.type].domain == "air":
            air_seen = True
        elif air_seen:
            nonair = -1  # an air slot before a ship: sub hits would not take a prefix
            break
        else:
            nonair += count
    types = sorted({k.type for k in kinds})
    by_type = np.zeros((len(kinds), len(types)), dtype=np.int64)
    for k in kinds:
        by_type[col[k], types.index(k.type)] = 1
    surv = [tuple(compress(zip(types, row, strict=True), row)) for row in (alive @ by_type).tolist()]
    main_rows, main_table = _pb_rows(main, total + 1)
    return SideLadder(
        [k for k, _, n in runs for _ in range(n)],
        total,
        main_rows,
        _pb_rows(subs, total + 1)[0],
        alive[:, dd_cols].sum(axis=1) > 0 if dd_cols else np.zeros(total + 1, dtype=bool),
        np.array(nonair),
        surv,
        alive.sum(axis=1),
        alive[:, land_cols].sum(axis=1) > 0 if land_cols else np.zeros(total + 1, dtype=bool),
        main_table,
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
