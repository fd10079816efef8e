"""Monte Carlo on the sea solver's model against the exact odds of the same battles."""

from __future__ import annotations

import math
from typing import Any

import pytest

from aare.combat.engine import start_battle
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.combat.rules import CombatRules
from aare.odds import build_battle, fleet
from aare.odds.calculator import exact_odds
from aare.odds.monte_carlo import monte_carlo_odds

RUNS = 20_000


def agree(battle: Any, policy: Policy = DEFAULT_POLICY) -> None:
    """Each outcome's sampled share within 4.5 standard errors of the exact one, the same for cycles."""
    assert fleet.applies(battle, policy)
    exact = exact_odds(battle, policy)
    sampled = monte_carlo_odds(battle, policy, runs=RUNS, seed=11)
    for name in ("attacker_win", "defender_win", "draw", "stalemate", "retreat"):
        p = getattr(exact, name)
        se = math.sqrt(max(p * (1 - p), 1e-9) / RUNS)
        assert abs(getattr(sampled, name) - p) <= 4.5 * se + 1e-12, name
    assert sampled.expected_cycles == pytest.approx(exact.expected_cycles, rel=0.03)
    assert sampled.attacker_ipc_lost == pytest.approx(exact.attacker_ipc_lost, rel=0.03, abs=0.3)
    assert sampled.seconds < 60  # far under what the step engine would take per battle


FLEETS = [
    ("3 submarines, 3 destroyers, 2 battleships, 2 carriers, 4 fighters, 1 bomber",
     "3 submarines, 4 destroyers, 2 battleships, 1 carrier, 2 fighters, 3 transports"),
    ("2 submarines, 1 destroyer, 1 battleship, 1 bomber", "2 submarines, 1 carrier, 2 fighters"),
]  # fmt: skip


@pytest.mark.rule("LHTR-NAVALCOMBAT-sub-surprise-strike")
@pytest.mark.rule("AARE-SUBDET-roll-threshold")
@pytest.mark.parametrize("rules", ["lhtr-1.3", "aare-5.0"])
@pytest.mark.parametrize(("attacker", "defender"), FLEETS)
def test_sampled_sea_battles_agree_with_the_exact_odds(rules: str, attacker: str, defender: str) -> None:
    agree(build_battle(attacker, defender, rules, "sea"))


@pytest.mark.rule("AARE-SUBDET-undetected-submerge")
def test_sampled_with_undetected_subs_submerging() -> None:
    battle = build_battle("2 submarines, 1 destroyer", "1 destroyer, 1 submarine, 1 transport", "aare-5.0", "sea")
    agree(battle, Policy(defender_submerge_undetected=True, attacker_submerge_undetected=True))


@pytest.mark.rule("LHTR-COMBAT-attacker-retreat")
@pytest.mark.parametrize(
    "policy", [Policy(retreat_at_units=3), Policy(retreat_when_only_air=True), Policy(retreat_after=2)]
)
def test_sampled_retreats_agree(policy: Policy) -> None:
    agree(build_battle("2 submarines, 1 destroyer, 2 fighters", "2 submarines, 2 destroyers, 1 carrier", "lhtr-1.3",
                       "sea"), policy)  # fmt: skip


@pytest.mark.rule("LHTR-NAVALCOMBAT-destroyer-cancels-surprise")
@pytest.mark.parametrize("rules", [CombatRules(air_hits_subs_without_destroyer=False),
                                   CombatRules(destroyer_moves_sub_fire_to_main_step=True,
                                               air_hits_subs_without_destroyer=False)])  # fmt: skip
def test_sampled_under_other_sub_rules(rules: CombatRules) -> None:
    agree(start_battle(*FLEETS[1], "sea", rules=rules))
