"""The battle calculator under AARe techs (`aare odds --rules aare-5.0 --attacker-tech/--defender-tech`): exact
odds against values worked out by hand, and Monte Carlo against exact."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from aare.cli.odds_cmd import odds_command
from aare.odds import odds
from tests.aare.common import RULES

CA = frozenset({"combined_bombardment"})


def approx(x: float) -> object:
    return pytest.approx(x, abs=1e-9)


@pytest.mark.rule("AARE-TECH-jet-aa-reduction")
def test_aa_makes_no_difference_to_attacking_jets() -> None:
    jets = frozenset({"jet_fighters"})
    with_aa = odds("2 fighters, 1 infantry", "2 infantry", RULES, defender_aa=True, attacker_techs=jets)
    without = odds("2 fighters, 1 infantry", "2 infantry", RULES, attacker_techs=jets)
    assert with_aa.attacker_win == approx(without.attacker_win)
    plain = odds("2 fighters, 1 infantry", "2 infantry", RULES, defender_aa=True)
    assert plain.attacker_win < without.attacker_win


@pytest.mark.rule("AARE-TECH-hb-two-dice")
def test_heavy_bombers_defend_with_one_die() -> None:
    # infantry (1) against a heavy bomber defending with one die (1): 5/11 for the attacker
    result = odds("1 infantry", "1 bomber", RULES, defender_techs={"heavy_bombers"})
    assert result.attacker_win == approx(5 / 11)


@pytest.mark.rule("AARE-TECH-ca-dd-bombard")
def test_a_combined_arms_destroyer_bombards_in_the_calculator() -> None:
    # bombardment at 3 clears the defender half the time; else 1 infantry against 1: 1/4
    result = odds("1 infantry", "1 infantry", RULES, battle="amphibious", bombard="1 destroyer", attacker_techs=CA)
    assert result.attacker_win == approx(1 / 2 + 1 / 2 * 1 / 4)
    assert odds("1 infantry", "1 infantry", RULES, battle="amphibious", bombard="1 destroyer").attacker_win == approx(
        1 / 4)


@pytest.mark.rule("AARE-TECH-ca-bb-aa-attackers")
def test_battleship_aa_is_exact_and_matches_monte_carlo() -> None:
    base = odds("1 fighter", "1 battleship", RULES, battle="sea")
    ca = odds("1 fighter", "1 battleship", RULES, battle="sea", defender_techs=CA)
    assert ca.attacker_win == approx(5 / 6 * base.attacker_win)  # a 1 downs the fighter before it fires
    exact = odds("2 fighters, 1 bomber", "1 battleship", RULES, battle="sea", defender_techs=CA)
    mc = odds("2 fighters, 1 bomber", "1 battleship", RULES, battle="sea", defender_techs=CA, method="mc",
              runs=3000, seed=3)
    assert abs(exact.attacker_win - mc.attacker_win) < 0.04


@pytest.mark.rule("AARE-TECH-supersub-attack-3", "AARE-TECH-ca-bb-aa-attackers")
def test_the_odds_command_takes_techs_of_both_sides() -> None:
    runner = CliRunner()
    args = ["--rules", RULES, "--attacker", "2 submarines, 1 fighter", "--defender", "1 battleship", "--battle", "sea",
            "--attacker-tech", "super_submarines", "--defender-tech", "combined_bombardment", "--explain"]
    result = runner.invoke(odds_command, args)
    assert result.exit_code == 0, result.output
    assert "battleship aa — 1st cycle only [AARE-TECH-ca-bb-aa-attackers]" in result.output
