"""The calculator under the Anniversary rules: exact odds on the fast solvers against the general step engine
and against Monte Carlo, cruisers, subs and destroyers, aircraft and subs, transports, a cruiser bombarding;
`aare odds --rules aa50-1942`."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.odds import build_battle, fleet, odds
from aare.odds.calculator import exact_tally
from aare.odds.ladder import fast_path_ok
from aare.odds.report import Tally

RULES = "aa50-1942"


def gap(fast: Tally, slow: Tally) -> float:
    """Largest difference between two tallies (results, both survivor distributions, cycles)."""
    pairs = ((fast.results, slow.results), (fast.attacker, slow.attacker), (fast.defender, slow.defender))
    diffs = [abs(f.get(k, 0.0) - s.get(k, 0.0)) for f, s in pairs for k in set(f) | set(s)]
    return max([*diffs, abs(fast.cycles - slow.cycles)])


SEA = [
    ("2 cruisers, 1 submarine", "1 destroyer, 2 submarines"),  # subs facing a destroyer fire in the main step
    ("3 submarines", "1 cruiser, 1 carrier, 1 fighter"),  # surprise strike; sub hits never on the fighter
    ("2 fighters, 1 destroyer", "2 submarines, 1 cruiser"),  # with a destroyer the fighters hit subs
    ("2 fighters, 1 bomber", "2 submarines, 1 battleship"),  # without one they cannot
    ("1 battleship, 1 cruiser, 1 fighter", "1 battleship, 1 destroyer, 1 submarine, 1 carrier, 1 fighter"),
]


@pytest.mark.rule("AA50-UNITS-cruiser", "AA50-NAVALCOMBAT-surprise-strike", "AA50-NAVALCOMBAT-subs-vs-air")
@pytest.mark.parametrize(("attacker", "defender"), SEA)
def test_sea_battles_on_the_sea_solver_match_the_step_engine(attacker: str, defender: str) -> None:
    battle = build_battle(attacker, defender, RULES, "sea")
    assert fleet.applies(battle, DEFAULT_POLICY)
    assert gap(exact_tally(battle), exact_tally(battle, fast=False)) <= 1e-12


@pytest.mark.rule("AA50-NAVALCOMBAT-transports-last", "AA50-COMBAT-defenceless-units-removed")
def test_transports_in_a_sea_battle_are_solved_exactly_and_agree_with_monte_carlo() -> None:
    exact = odds("1 cruiser, 1 destroyer", "1 destroyer, 1 submarine, 2 transports", RULES, battle="sea")
    assert abs(exact.attacker_win + exact.defender_win + exact.draw - 1) < 1e-12
    mc = odds("1 cruiser, 1 destroyer", "1 destroyer, 1 submarine, 2 transports", RULES, battle="sea",
              method="mc", runs=4_000, seed=3)
    assert mc.ci95 is not None
    low, high = mc.ci95["attacker_win"]
    assert low - 0.02 <= exact.attacker_win <= high + 0.02
    assert not fleet.applies(build_battle("1 cruiser", "1 transport", RULES, "sea"), DEFAULT_POLICY)
    alone = odds("1 destroyer", "2 transports", RULES, battle="sea")  # lost without a roll
    assert alone.attacker_win == 1.0 and alone.attacker_ipc_lost == 0.0 and alone.defender_ipc_lost == 14


LAND: list[tuple[str, str, dict[str, Any]]] = [
    ("3 infantry, 1 artillery, 2 armour, 1 fighter", "4 infantry, 1 armour, 1 fighter", {}),
    ("4 infantry, 2 artillery, 1 armour", "5 infantry", {"attacker_techs": {"advanced_artillery"}}),
    ("3 infantry, 2 fighters, 1 bomber", "3 infantry, 1 fighter", {"attacker_techs": {"jet_fighters", "heavy_bombers"},
                                                                   "defender_aa": True, "defender_techs": {"radar"}}),
]


@pytest.mark.rule("AA50-RESEARCH-advanced-artillery", "AA50-RESEARCH-jet-fighters", "AA50-RESEARCH-heavy-bombers",
                  "AA50-RESEARCH-radar", "AA50-AA-fires-at-attackers")
@pytest.mark.parametrize(("attacker", "defender", "inputs"), LAND)
def test_land_battles_on_the_ladder_match_the_step_engine(attacker: str, defender: str, inputs: dict[str, Any]) -> None:
    battle = build_battle(attacker, defender, RULES, "land", **inputs)
    assert fast_path_ok(battle, DEFAULT_POLICY)
    assert gap(exact_tally(battle), exact_tally(battle, fast=False)) <= 1e-12
    retreat = Policy(retreat_after=2)
    assert gap(exact_tally(battle, retreat), exact_tally(battle, retreat, fast=False)) <= 1e-12


@pytest.mark.rule("AA50-BOMBARD-who", "AA50-BOMBARD-casualties-fire-back")
def test_a_cruiser_bombarding_an_assault_exact_against_monte_carlo() -> None:
    args: dict[str, Any] = {"battle": "amphibious", "bombard": "1 cruiser", "defender_aa": True}
    exact = odds("2 infantry, 1 armour, 1 fighter", "3 infantry", RULES, **args)
    slow = exact_tally(build_battle("2 infantry, 1 armour, 1 fighter", "3 infantry", RULES, **args), fast=False)
    assert abs(exact.attacker_win - slow.odds("exact").attacker_win) <= 1e-12
    mc = odds("2 infantry, 1 armour, 1 fighter", "3 infantry", RULES, method="mc", runs=5_000, seed=5, **args)
    assert mc.ci95 is not None
    low, high = mc.ci95["attacker_win"]
    assert low - 0.02 <= exact.attacker_win <= high + 0.02


@pytest.mark.rule("AA50-UNITS-cruiser", "AA50-BOMBARD-who")
def test_cli_odds_with_the_anniversary_rules() -> None:
    res = CliRunner().invoke(cli, ["odds", "--rules", "aa50-1942", "--battle", "sea", "--attacker",
                                   "2 cruisers, 1 submarine", "--defender", "1 destroyer, 1 transport", "--json"])
    assert res.exit_code == 0, res.output
    out = json.loads(res.output)
    assert out["method"] == "exact" and abs(out["attacker_win"] + out["defender_win"] + out["draw"] - 1) < 1e-9
    res = CliRunner().invoke(cli, ["odds", "--rules", "aa50-1941", "--battle", "amphibious", "--attacker",
                                   "2 infantry", "--defender", "2 infantry", "--bombard", "1 cruiser", "--explain"])
    assert res.exit_code == 0 and "bombardment" in res.output
    res = CliRunner().invoke(cli, ["odds", "--rules", "aa50-1942", "--battle", "amphibious", "--attacker",
                                   "1 infantry", "--defender", "2 infantry", "--bombard", "2 cruisers"])
    assert res.exit_code == 2 and "AA50-BOMBARD-per-land-unit" in res.output
