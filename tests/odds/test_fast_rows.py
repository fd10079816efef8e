"""The row solver against the forward push on synthetic land ladders (stuck rows, retreats, void hits), both
triangular-solve back ends, and the batched hit-distribution tables against plain convolution."""

from __future__ import annotations

from collections.abc import Callable
from math import comb

import numpy as np
import pytest

from aare.combat.engine import start_battle
from aare.combat.policy import DEFAULT_POLICY
from aare.odds import fast_exact
from aare.odds.calculator import exact_odds, new_tally
from aare.odds.fast_exact import rows_apply, solve_push, solve_rows
from aare.odds.ladder import Array, Ladder, SideLadder, _binomial_table, _pb_rows, compile_ladder
from aare.odds.report import Tally

Solve = Callable[[Array, Array], Array]
BACKENDS: list[Solve] = [fast_exact.numpy_lower_solve, fast_exact.lower_solve]


def _side(main: list[list[float]], with_table: bool) -> SideLadder:
    total = len(main) - 1
    rows = [np.array(x, dtype=float) for x in main]
    table = None
    if with_table:
        table = np.zeros((total + 1, max(len(x) for x in rows) + 2))  # wider than needed on purpose
        for i, x in enumerate(rows):
            table[i, : len(x)] = x
    return SideLadder(
        slots=[],
        total=total,
        main=rows,
        subs=[np.ones(1) for _ in rows],
        destroyer=np.zeros(total + 1, dtype=bool),
        nonair=np.array(total),
        survivors=[(("unit", total - c),) if c < total else () for c in range(total + 1)],
        units=np.arange(total, -1, -1),
        land=np.arange(total + 1) < total,
        main_table=table,
    )


def _random_dist(rng: np.random.Generator, dice: int, miss_only: bool = False) -> list[float]:
    if miss_only or dice == 0:
        return [1.0]
    p = rng.dirichlet(np.ones(dice + 1))
    return list(p)


def _ladders(seed: int) -> list[Ladder]:
    rng = np.random.default_rng(seed)
    out = []
    for ta, td in ((1, 1), (3, 2), (5, 7), (9, 6)):
        for stuck in (False, True):
            # attacker: fewer dice as it loses slots; with `stuck`, its last live rows cannot hit
            att = [_random_dist(rng, max(ta - c, 1), stuck and c >= ta - 2) for c in range(ta)] + [[1.0]]
            # defender: some live rows cannot hit either (then those states are stuck)
            dfd = [_random_dist(rng, td - c + 1, stuck and c % 2 == 1) for c in range(td)] + [[1.0]]
            for table in (False, True):
                for retreat_at in (None, 1):
                    retreat = np.zeros(ta + 1, dtype=bool)
                    if retreat_at is not None and ta > 1:
                        retreat[ta - retreat_at : ta] = True
                    out.append(Ladder("land", _side(att, table), _side(dfd, table), retreat, 1))
    return out


def _as_dict(t: Tally) -> dict[str, object]:
    return {"results": t.results, "attacker": t.attacker, "defender": t.defender, "capture": t.capture}


@pytest.mark.parametrize("solve", BACKENDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_rows_agree_with_push_on_synthetic_ladders(solve: Solve, seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(fast_exact, "lower_solve", solve)
    cat = start_battle("1 infantry", "1 infantry").setup.catalogue
    for ladder in _ladders(seed):
        assert rows_apply(ladder)
        rows, push = Tally((), (), cat), Tally((), (), cat)
        solve_rows(ladder, rows, 0.5)
        solve_push(ladder, push, 0.5)
        r, p = _as_dict(rows), _as_dict(push)
        for key in ("results", "attacker", "defender"):
            assert r[key].keys() == p[key].keys(), key  # type: ignore[attr-defined]
            for k, v in p[key].items():  # type: ignore[attr-defined]
                assert abs(r[key][k] - v) < 1e-13, (key, k)  # type: ignore[index]
        assert abs(rows.capture - push.capture) < 1e-13
        assert abs(rows.cycles - push.cycles) < 1e-12
        assert abs(sum(rows.results.values()) - 0.5) < 1e-13


@pytest.mark.parametrize("solve", BACKENDS)
def test_row_solver_back_ends_agree_on_a_real_battle(solve: Solve, monkeypatch: pytest.MonkeyPatch) -> None:
    battle = start_battle("8 infantry, 3 artillery, 4 armour, 2 fighters", "10 infantry, 2 armour, 2 fighters")
    monkeypatch.setattr(fast_exact, "lower_solve", solve)
    fast = exact_odds(battle)
    push = new_tally(battle)
    ladder = compile_ladder(battle, DEFAULT_POLICY)
    assert ladder is not None and rows_apply(ladder)
    solve_push(ladder, push)
    slow = push.odds("exact")
    for name in ("attacker_win", "defender_win", "draw", "capture", "expected_cycles", "attacker_ipc_lost"):
        assert abs(getattr(fast, name) - getattr(slow, name)) < 1e-12, name
    assert abs(fast.total - 1) < 1e-12


def test_batched_hit_tables_match_plain_convolution() -> None:
    rng = np.random.default_rng(5)
    rolls = {p: rng.integers(0, top, 12) for p, top in ((1 / 6, 9), (2 / 6, 4), (3 / 6, 6), (1.0, 2))}
    rows, table = _pb_rows(rolls, 12)
    for c in range(12):
        ref = np.ones(1)
        for p, n in rolls.items():
            k = int(n[c])
            pmf = np.array([comb(k, j) * p**j * (1 - p) ** (k - j) for j in range(k + 1)])
            ref = np.convolve(ref, pmf)
        assert len(rows[c]) == len(ref)
        assert np.allclose(rows[c], ref, rtol=1e-12, atol=1e-300)
        assert not table[c, len(ref) :].any()
    assert _binomial_table(3, 0.0)[2].tolist() == [1.0, 0.0, 0.0, 0.0]
