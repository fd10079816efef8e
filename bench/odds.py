"""Calculator benchmark: exact and Monte Carlo times on a fixed suite, against baselines.

    python bench/odds.py [--quick] [--numpy-solve]

Runs single-threaded (BLAS threads pinned to 1 before NumPy loads). `--numpy-solve` makes the land row
solver use NumPy's general solve even when SciPy's LAPACK triangular solve is installed.

Columns: exact median time; |sum of probabilities - 1|; Monte Carlo battles per second (numba kernel if
installed, else NumPy); the Monte Carlo time needed for +-0.5 % at 95 % on the attacker-win probability and
the ratio exact / that time; a baseline (the general step engine's exact mode — on the sea battles with
aircraft only without --quick, they take minutes —, a naive per-state DP for land battles too big for it, or
the ladder push that solved ships-only sea battles before the sea solver) and the speed-up over it.
"""

from __future__ import annotations

import os

for _var in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")  # before NumPy loads: the timings are single-threaded

import statistics  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from functools import cache  # noqa: E402

import numpy as np  # noqa: E402

from aare.combat.engine import start_battle  # noqa: E402
from aare.combat.policy import Policy  # noqa: E402
from aare.combat.setup import Battle  # noqa: E402
from aare.odds import build_battle, fast_exact  # noqa: E402
from aare.odds.calculator import exact_odds  # noqa: E402
from aare.odds.ladder import compile_ladder  # noqa: E402
from aare.odds.monte_carlo import HAVE_NUMBA, monte_carlo_odds  # noqa: E402

SUITE = [
    ("small land", "land", "3 infantry, 1 artillery, 2 armour, 1 fighter", "4 infantry, 1 fighter", {}),
    ("10v10 land", "land", "5 infantry, 2 artillery, 2 armour, 1 fighter", "7 infantry, 1 armour, 2 fighters", {}),
    (
        "30v30 mixed land",
        "land",
        "12 infantry, 6 artillery, 8 armour, 3 fighters, 1 bomber",
        "18 infantry, 4 artillery, 4 armour, 3 fighters, 1 bomber",
        {},
    ),
    (
        "100v100 land",
        "land",
        "40 infantry, 20 artillery, 30 armour, 10 fighters",
        "60 infantry, 20 artillery, 15 armour, 5 fighters",
        {},
    ),
    (
        "naval 20 ships",
        "sea",
        "3 submarines, 3 destroyers, 2 battleships, 2 carriers",
        "4 submarines, 2 destroyers, 2 battleships, 2 transports",
        {},
    ),
    (
        "naval 15v15",
        "sea",
        "4 submarines, 4 destroyers, 4 battleships, 3 carriers",
        "5 submarines, 4 destroyers, 3 battleships, 3 transports",
        {},
    ),
    (
        "naval 25v25",
        "sea",
        "8 submarines, 8 destroyers, 6 battleships, 3 carriers",
        "8 submarines, 7 destroyers, 6 battleships, 4 transports",
        {},
    ),
    (
        "sea 15v15 air lhtr",
        "sea",
        "3 submarines, 3 destroyers, 2 battleships, 2 carriers, 4 fighters, 1 bomber",
        "3 submarines, 4 destroyers, 2 battleships, 1 carrier, 2 fighters, 3 transports",
        {},
    ),
    (
        "sea 15v15 air aare",
        "sea",
        "3 submarines, 3 destroyers, 2 battleships, 2 carriers, 4 fighters, 1 bomber",
        "3 submarines, 4 destroyers, 2 battleships, 1 carrier, 2 fighters, 3 transports",
        {"rules": "aare-5.0"},
    ),
    (
        "sea 25v25 air lhtr",
        "sea",
        "5 submarines, 5 destroyers, 3 battleships, 3 carriers, 6 fighters, 3 bombers",
        "5 submarines, 6 destroyers, 3 battleships, 3 carriers, 6 fighters, 2 transports",
        {},
    ),
    (
        "sea 25v25 air aare",
        "sea",
        "5 submarines, 5 destroyers, 3 battleships, 3 carriers, 6 fighters, 3 bombers",
        "5 submarines, 6 destroyers, 3 battleships, 3 carriers, 6 fighters, 2 transports",
        {"rules": "aare-5.0"},
    ),
    (
        "100v100 mixed land",
        "land",
        "40 infantry, 20 artillery, 20 armour, 15 fighters, 5 bombers",
        "60 infantry, 15 artillery, 15 armour, 10 fighters",
        {},
    ),
    (
        "amphibious + bombard + AA",
        "amphibious",
        "4 infantry, 2 artillery, 2 armour, 2 fighters, 1 bomber",
        "6 infantry, 1 armour, 1 fighter",
        {"bombard": "2 battleships", "defender_aa": True},
    ),
]
ENGINE_BASELINE = {"small land", "10v10 land", "amphibious + bombard + AA", "naval 20 ships"}
# the general step engine takes minutes on these (81 s and 107 s when the sea solver landed): only without --quick
SLOW_BASELINE = {"sea 15v15 air lhtr", "sea 15v15 air aare"}


def median_time(fn, repeat: int) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def naive_dp(battle: Battle) -> float:
    """Baseline: plain recursive DP over (attacker lost, defender lost), every hit pair in a Python loop."""
    ladder = compile_ladder(battle, Policy())
    assert ladder is not None
    ta, td = ladder.attacker.total, ladder.defender.total
    sys.setrecursionlimit(100_000)

    @cache
    def win(a: int, d: int) -> float:
        if d == td:
            return 1.0 if a < ta else 0.0
        if a == ta:
            return 0.0
        pa, pd = ladder.attacker.main[a], ladder.defender.main[d]
        total = 0.0
        for i, x in enumerate(pd):
            for j, y in enumerate(pa):
                if i or j:
                    total += x * y * win(min(a + i, ta), min(d + j, td))
        return total / (1 - pa[0] * pd[0])

    return win(0, 0)


def ladder_push(battle: Battle) -> None:
    """Baseline for ships-only sea battles: the ladder's forward push, the sea path before the sea solver."""
    from aare.odds.calculator import new_tally

    ladder = compile_ladder(battle, Policy())
    assert ladder is not None
    fast_exact.solve_push(ladder, new_tally(battle))


def fmt(seconds: float | None) -> str:
    if seconds is None:
        return "—"
    return f"{seconds * 1000:9.2f} ms" if seconds < 10 else f"{seconds:9.1f} s "


def main() -> None:
    quick = "--quick" in sys.argv
    if "--numpy-solve" in sys.argv:
        fast_exact.lower_solve = fast_exact.numpy_lower_solve
    solver = "LAPACK (SciPy)" if fast_exact.lower_solve is not fast_exact.numpy_lower_solve else "NumPy"
    print(f"numba: {'yes' if HAVE_NUMBA else 'no (NumPy sampler)'}; row solver: {solver}; single thread")
    warm = start_battle("2 infantry", "1 infantry")
    monte_carlo_odds(warm, runs=1000, seed=1)  # compile the kernel outside the timings
    head = f"{'battle':28} {'exact':>12} {'|sum-1|':>9} {'MC/s':>10} {'MC ±0.5%':>12} {'exact/MC':>9}"
    print(head + f" {'baseline':>12} {'speed-up':>9}  baseline kind")
    for name, kind, attacker, defender, extra in SUITE:
        extra = dict(extra)
        rules = extra.pop("rules", "lhtr-1.3")
        battle = build_battle(attacker, defender, rules, kind, **extra)
        big = "100" in name or "25v25" in name
        repeat = 3 if big or quick else 7
        result = exact_odds(battle)
        t_exact = median_time(lambda b=battle: exact_odds(b), repeat)
        runs = 200_000 if quick else 1_000_000
        if compile_ladder(battle, Policy()) is None:  # Monte Carlo through the step engine: far slower per battle
            runs = 5_000 if quick else 20_000
        t_mc = median_time(lambda b=battle, r=runs: monte_carlo_odds(b, runs=r, seed=7), 1 if quick else 3)
        rate = runs / t_mc
        p = min(max(result.attacker_win, 0.01), 0.99)
        need = 1.96**2 * p * (1 - p) / 0.005**2
        t_need = need / rate
        base, label = None, ""
        if (name in ENGINE_BASELINE and not (quick and "naval" in name)) or (name in SLOW_BASELINE and not quick):
            base = median_time(lambda b=battle: exact_odds(b, fast=False), 1)
            label = "step engine exact"
        elif name in ("naval 15v15", "naval 25v25"):
            base = median_time(lambda b=battle: ladder_push(b), repeat)
            label = "ladder push (before the sea solver)"
        elif name == "30v30 mixed land":
            base = median_time(lambda b=battle: naive_dp(b), 1)
            label = "naive DP"
        speed = f"{base / t_exact:8.1f}x" if base else "       —"
        print(
            f"{name:28} {fmt(t_exact)} {abs(result.total - 1):9.1e} {rate:10.3g} {fmt(t_need)} "
            f"{t_exact / t_need:9.3f} {fmt(base)} {speed}  {label}"
        )
    np.random.seed(0)


if __name__ == "__main__":
    main()
