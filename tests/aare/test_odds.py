"""The calculator under AARe 5.0: detection dice are chance nodes, so exact odds include them; Monte Carlo
agrees; `aare odds --rules aare-5.0` takes the sides' techs, game options and the early-submerge policy."""

from __future__ import annotations

import json
from fractions import Fraction

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import DiceGroup, RollRequest
from aare.combat.chance import lowest_die, outcomes
from aare.combat.policy import Policy
from aare.odds import odds
from aare.odds.calculator import exact_odds
from tests.aare.common import RULES, battle, units, until_roll

UK, GER = "United Kingdom", "Germany"


def close(x: float, fraction: Fraction) -> bool:
    return abs(x - float(fraction)) < 1e-12


@pytest.mark.rule("AARE-SUBDET-one-roll-per-dd", "AARE-SUBDET-roll-threshold")
def test_a_detection_roll_is_a_chance_node_over_the_lowest_die() -> None:
    b = until_roll(battle(units(GER, submarine=1), units(UK, destroyer=3)), "sub detection")
    assert b.state.roll is not None and b.state.roll.groups[0].lowest
    dist = {outcome[("lowest", "defender", "United Kingdom destroyers")]: p for p, outcome in outcomes(b.state.roll)}
    assert sorted(dist) == [1, 2, 3, 4]  # the lowest of three dice: 1, 2, 3 or "above 3"
    assert close(dist[1], Fraction(91, 216)) and close(dist[4], Fraction(1, 8))
    assert abs(sum(dist.values()) - 1) < 1e-12
    assert lowest_die(1, 6)[-1] == 0.0
    groups = (DiceGroup("attacker", "a", 2, 2, lowest=True), DiceGroup("defender", "b", 1, 3, lowest=True))
    two = RollRequest("t", groups)
    assert len(outcomes(two)) == 3 * 4


@pytest.mark.rule("AARE-SUBDET-undetected-hits-stick", "AARE-SUBDET-detected-normal")
def test_exact_odds_of_one_sub_against_one_destroyer() -> None:
    """Detected (1/2): LHTR odds 1/4, 1/2, 1/4. Undetected (1/2): the sub's hit sticks (1/3); else the
    destroyer fires (1/2) and then LHTR cycles: 5/12, 1/2, 1/12. Together: 1/3, 1/2, 1/6."""
    aare = odds("1 submarine", "1 destroyer", RULES, battle="sea")
    assert close(aare.attacker_win, Fraction(1, 3)) and close(aare.defender_win, Fraction(1, 2))
    assert close(aare.draw, Fraction(1, 6))
    lhtr = odds("1 submarine", "1 destroyer", "lhtr-1.3", battle="sea")
    assert close(lhtr.attacker_win, Fraction(1, 4)) and close(lhtr.draw, Fraction(1, 4))
    dive = odds("1 submarine", "1 destroyer", RULES, battle="sea", attacker_submerge_undetected=True)
    assert close(dive.attacker_win, Fraction(7, 24)) and close(dive.retreat, Fraction(1, 2) * Fraction(2, 3))


@pytest.mark.rule("AARE-SUBDET-air-modifier", "AARE-SUBDET-lra-modifier", "AARE-SUBDET-supersub-modifier")
def test_modifiers_move_the_odds() -> None:
    def sea(defender: str, **techs: frozenset[str]):  # type: ignore[no-untyped-def]
        return odds("3 submarines", defender, RULES, battle="sea", **techs)

    # the subs cannot win against a fighter, but the better the detection, the less they sink
    air = sea("1 destroyer, 1 carrier, 1 fighter")
    lra = sea("1 destroyer, 1 carrier, 1 fighter", defender_techs=frozenset({"long_range_aircraft"}))
    assert lra.defender_ipc_lost < air.defender_ipc_lost
    plain = sea("1 destroyer, 1 transport")
    hidden = sea("1 destroyer, 1 transport", attacker_techs=frozenset({"super_submarines"}))
    assert hidden.attacker_win > plain.attacker_win


def test_exact_and_monte_carlo_agree_on_an_aare_naval_battle() -> None:
    attacker, defender = "2 submarines, 1 destroyer", "1 destroyer, 1 submarine, 1 transport"
    policy = {"attacker_submerge_undetected": False, "defender_submerge_undetected": True}
    exact = odds(attacker, defender, RULES, battle="sea", **policy)
    general = exact_odds(battle(attacker, defender), Policy(defender_submerge_undetected=True), fast=False)
    assert abs(general.attacker_win - exact.attacker_win) < 1e-12
    mc = odds(attacker, defender, RULES, battle="sea", method="mc", runs=2000, seed=11, **policy)
    for name in ("attacker_win", "defender_win", "draw"):
        low, high = mc.ci95[name]
        spread = (high - low) / 2
        assert abs(getattr(mc, name) - getattr(exact, name)) < 2.2 * spread + 1e-9, name
    assert abs(mc.attacker_ipc_lost - exact.attacker_ipc_lost) < 1.0


def test_cli_odds_with_aare_rules_explains_the_sequence_and_takes_techs_and_options() -> None:
    runner = CliRunner()
    base = ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "1 submarine", "--defender", "1 destroyer"]
    res = runner.invoke(cli, [*base, "--json", "--explain"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert abs(data["attacker_win"] - 1 / 3) < 1e-9
    assert any("sub detection" in line for line in data["steps"])
    assert any("kaitens" in line and "AARE-NA-JPN-kaiten-hit-3" in line for line in data["steps"])
    text = runner.invoke(cli, [*base, "--explain"])
    assert "sea battle steps" in text.output and "attacker undetected subs submerge" in text.output
    dive = json.loads(runner.invoke(cli, [*base, "--json", "--submerge-undetected", "attacker"]).output)
    assert abs(dive["attacker_win"] - 7 / 24) < 1e-9
    hidden = json.loads(runner.invoke(cli, [*base, "--json", "--attacker-tech", "super_submarines"]).output)
    assert hidden["attacker_win"] > data["attacker_win"]
    bad = runner.invoke(cli, [*base, "--attacker-tech", "super_subs"])
    assert bad.exit_code == 2 and "super_submarines" in bad.output
    air = ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "2 fighters", "--defender", "1 sub, 1 transport"]
    assert runner.invoke(cli, air).exit_code == 0
    refused = runner.invoke(cli, [*air, "--option", "air_attack_transports_are_surface=false"])
    assert refused.exit_code == 2 and "AARE-AIRSUB-air-only-vs-subs-only" in refused.output


@pytest.mark.rule("AARE-LANDSEQ-step-order", "AARE-LHTR-baseline")
def test_aare_land_battles_take_the_fast_path_and_match_lhtr() -> None:
    from aare.odds.ladder import fast_path_ok

    b = battle("4 infantry, 2 armour, 1 fighter", "5 infantry, 1 fighter", "amphibious", bombard="1 battleship",
               defender_aa=True)
    assert fast_path_ok(b, Policy())  # the empty anchors never run
    fast, general = exact_odds(b, Policy()), exact_odds(b, Policy(), fast=False)
    assert abs(fast.attacker_win - general.attacker_win) < 1e-12
    lhtr = odds("4 infantry, 2 armour, 1 fighter", "5 infantry, 1 fighter", "lhtr-1.3", battle="amphibious",
                bombard="1 battleship", defender_aa=True)
    assert abs(lhtr.attacker_win - fast.attacker_win) < 1e-12
