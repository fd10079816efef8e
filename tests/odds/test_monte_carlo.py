"""Monte Carlo against exact odds: property tests over random small battles."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aare.combat.engine import start_battle
from aare.odds.calculator import exact_odds
from aare.odds.monte_carlo import HAVE_NUMBA, monte_carlo_odds

LAND_A = ["infantry", "artillery", "armour", "fighter", "bomber"]
LAND_D = ["infantry", "armour", "fighter", "bomber"]
SEA = ["submarine", "destroyer", "battleship", "transport"]


def army(types: list[str], max_each: int, min_total: int = 1) -> st.SearchStrategy[dict[str, int]]:
    return st.fixed_dictionaries({t: st.integers(0, max_each) for t in types}).filter(
        lambda d: sum(d.values()) >= min_total
    )


def within(exact: float, mc: float, runs: int) -> bool:
    # The normal approximation fails for rare outcomes (a handful of events in `runs`, whose counts follow a
    # Poisson tail, and Hypothesis searches the seeds for a tail): floor p at 10/runs.
    p = min(max(exact, 10 / runs), 1 - 10 / runs) if 0 < exact < 1 else max(exact * (1 - exact), 1e-9)
    se = math.sqrt(p * (1 - p) / runs)
    return abs(exact - mc) <= 4 * se + 1e-9


@pytest.mark.rule("LHTR-COMBAT-land-sequence")
@settings(max_examples=12, deadline=None)
@given(army(LAND_A, 2), army(LAND_D, 2), st.booleans(), st.integers(0, 10_000))
def test_land_mc_within_four_standard_errors(att: dict, de: dict, aa: bool, seed: int) -> None:
    battle = start_battle(att, de, defender_aa=aa)
    exact = exact_odds(battle)
    runs = 20_000
    mc = monte_carlo_odds(battle, runs=runs, seed=seed, use_numba=False)
    for name in ("attacker_win", "defender_win", "draw"):
        assert within(getattr(exact, name), getattr(mc, name), runs), name


@pytest.mark.rule("LHTR-COMBAT-naval-sequence")
@settings(max_examples=10, deadline=None)
@given(army(SEA, 2), army(SEA, 2), st.integers(0, 10_000))
def test_sea_mc_within_four_standard_errors(att: dict, de: dict, seed: int) -> None:
    battle = start_battle(att, de, "sea")
    exact = exact_odds(battle)
    runs = 20_000
    mc = monte_carlo_odds(battle, runs=runs, seed=seed, use_numba=False)
    for name in ("attacker_win", "defender_win", "draw", "stalemate"):
        assert within(getattr(exact, name), getattr(mc, name), runs), name


@pytest.mark.skipif(not HAVE_NUMBA, reason="numba (calc-fast extra) not installed")
def test_numba_kernel_agrees_with_exact() -> None:
    battle = start_battle("3 infantry, 1 artillery, 2 armour, 1 fighter", "4 infantry, 1 fighter", defender_aa=True)
    exact = exact_odds(battle)
    mc = monte_carlo_odds(battle, runs=50_000, seed=3, use_numba=True)
    assert within(exact.attacker_win, mc.attacker_win, 50_000)
    lo, hi = mc.ci95["expected_cycles"]
    assert lo - 0.05 <= exact.expected_cycles <= hi + 0.05


def test_mc_falls_back_to_the_engine_for_unusual_rules() -> None:
    from aare.combat.rules import CombatRules

    rules = CombatRules(destroyer_moves_sub_fire_to_main_step=True)
    battle = start_battle("1 submarine, 1 destroyer", "1 destroyer, 1 transport", "sea", rules=rules)
    exact = exact_odds(battle)
    mc = monte_carlo_odds(battle, runs=3000, seed=1)
    assert within(exact.attacker_win, mc.attacker_win, 3000)
