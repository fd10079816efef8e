"""The calculator under the Classic rules: exact odds on the fast solvers (the sea solver with the Classic
cycle: attacking subs strike first every round, defending subs fire in the main step) against the general step
engine and against Monte Carlo, land battles, an assault with a bombarding battleship, raids; `aare odds
--rules classic-2e`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner
from tests.aa50.test_odds import gap

from aare.cli.main import cli
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.odds import build_battle, fleet, odds
from aare.odds.calculator import exact_tally
from aare.odds.ladder import fast_path_ok

RULES = "classic-2e"
POLICIES = (DEFAULT_POLICY, Policy(retreat_after=1), Policy(retreat_after=2))


def assert_as_step_engine(battle: Any) -> None:
    """The fast exact solvers give the general step engine's tally, fighting on or retreating after a round or
    two."""
    for policy in POLICIES:
        assert gap(exact_tally(battle, policy), exact_tally(battle, policy, fast=False)) <= 1e-12


def assert_within_monte_carlo(attacker: str, defender: str, **args: Any) -> None:
    """Exact odds inside Monte Carlo's 95% interval (with a margin)."""
    exact = odds(attacker, defender, RULES, **args)
    assert abs(exact.attacker_win + exact.defender_win + exact.draw - 1) < 1e-12
    mc = odds(attacker, defender, RULES, method="mc", runs=5_000, seed=7, **args)
    assert mc.ci95 is not None
    low, high = mc.ci95["attacker_win"]
    assert low - 0.01 <= exact.attacker_win <= high + 0.01

SEA = [
    ("2 submarines, 1 battleship", "1 submarine, 1 carrier, 2 fighters, 1 transport"),  # sneak attack, no air hits
    ("3 submarines", "1 battleship, 1 carrier, 2 fighters"),  # the subs can never sink the fighters
    ("2 fighters, 1 bomber", "2 submarines, 1 transport"),  # defending subs only hit sea units: none here
    ("1 submarine, 1 bomber", "2 submarines, 1 carrier, 1 fighter"),  # subs on both sides, fire at once back
    ("1 battleship, 1 carrier, 1 fighter", "1 battleship, 2 transports"),  # transports defend at 1
]


@pytest.mark.rule("CL-NAVALCOMBAT-sub-sneak-attack", "CL-NAVALCOMBAT-defending-subs-normal",
                  "CL-NAVALCOMBAT-sub-no-air-hits", "CL-NAVALCOMBAT-sea-battle-units")
@pytest.mark.parametrize(("attacker", "defender"), SEA)
def test_sea_battles_on_the_sea_solver_match_the_step_engine(attacker: str, defender: str) -> None:
    battle = build_battle(attacker, defender, RULES, "sea")
    assert fleet.applies(battle, DEFAULT_POLICY) and not fast_path_ok(battle, DEFAULT_POLICY)
    assert_as_step_engine(battle)


@pytest.mark.rule("CL-NAVALCOMBAT-sub-sneak-attack", "CL-NAVALCOMBAT-defending-subs-normal")
def test_a_sea_battle_exact_against_monte_carlo() -> None:
    assert_within_monte_carlo("2 submarines, 1 fighter", "1 submarine, 1 battleship, 1 transport", battle="sea")


def _lhtr_differs() -> bool:
    """The same sea battle under the LHTR rules (defending subs strike first, their victims never fire back)."""
    classic = odds("1 battleship", "2 submarines", RULES, battle="sea")
    lhtr = odds("1 battleship", "2 submarines", "lhtr-1.3", battle="sea")
    return abs(classic.attacker_win - lhtr.attacker_win) > 0.01


@pytest.mark.rule("CL-NAVALCOMBAT-defending-subs-normal")
def test_the_classic_sea_cycle_gives_other_odds_than_the_lhtr_one() -> None:
    assert _lhtr_differs()


LAND: list[tuple[str, str, dict[str, Any]]] = [
    ("3 infantry, 2 armour", "4 infantry", {}),
    ("2 infantry, 1 armour, 2 fighters, 1 bomber", "3 infantry, 1 armour", {"defender_aa": True}),
    ("2 armour, 1 fighter", "2 infantry, 1 fighter", {"defender_techs": ["jet_fighters"]}),
    ("1 infantry, 1 bomber", "2 infantry", {"attacker_techs": ["heavy_bombers"]}),
]


@pytest.mark.rule("CL-TURN-d6-hit-rule", "CL-COMBAT-round-sequence", "CL-COMBAT-defender-casualties-fire-back",
                  "CL-AA-attacked-territory", "CL-WEAPONS-jet-power", "CL-WEAPONS-heavy-bombers")
@pytest.mark.parametrize(("attacker", "defender", "inputs"), LAND)
def test_land_battles_on_the_ladder_match_the_step_engine(attacker: str, defender: str, inputs: dict[str, Any]) -> None:
    battle = build_battle(attacker, defender, RULES, "land", **inputs)
    assert fast_path_ok(battle, DEFAULT_POLICY)
    assert_as_step_engine(battle)


@pytest.mark.rule("CL-BOMBARD-battleship-support", "CL-BOMBARD-casualties-fire-back")
def test_a_battleship_bombarding_an_assault_exact_against_monte_carlo() -> None:
    assert_as_step_engine(build_battle("2 infantry, 1 armour", "3 infantry", RULES, "amphibious",
                                       bombard="1 battleship"))
    assert_within_monte_carlo("2 infantry, 1 armour", "3 infantry", battle="amphibious", bombard="1 battleship")


@pytest.mark.rule("CL-SBR-aa-then-damage", "CL-SBR-no-territory-cap", "CL-WEAPONS-heavy-bombers")
def test_raid_odds_sum_heavy_bomber_dice_with_no_territory_cap() -> None:
    plain = odds("1 bomber", "1 factory", RULES, battle="raid", territory_value=1)
    assert abs(plain.expected_damage - 5 / 6 * 3.5) < 1e-9  # AA hits on 1; the territory's 1 IPC is no cap
    heavy = odds("1 bomber", "1 factory", RULES, battle="raid", attacker_techs=["heavy_bombers"])
    assert abs(heavy.expected_damage - 5 / 6 * 10.5) < 1e-9
    capped = odds("1 bomber", "1 factory", RULES, battle="raid", attacker_techs=["heavy_bombers"], treasury=4)
    assert capped.expected_damage < 4


@pytest.mark.rule("CL-NAVALCOMBAT-sub-sneak-attack", "CL-BOMBARD-battleship-support")
def test_cli_odds_with_the_classic_rules() -> None:
    res = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--battle", "sea", "--attacker",
                                   "2 submarines, 1 battleship", "--defender", "1 submarine, 1 transport", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    expected = odds("2 submarines, 1 battleship", "1 submarine, 1 transport", RULES, battle="sea")
    assert out["method"] == "exact" and abs(out["attacker_win"] - expected.attacker_win) < 1e-9
    res = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "1 submarine",
                                   "--defender", "1 submarine", "--explain"])
    assert res.exit_code == 0 and "CL-NAVALCOMBAT-sub-sneak-attack" in res.output
    assert "defender sub first strike" not in res.output
    res = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--battle", "amphibious", "--attacker", "2 infantry",
                                   "--defender", "2 infantry", "--bombard", "1 battleship", "--json"])
    assert res.exit_code == 0, res.output
