"""Anniversary Enhanced over the Anniversary rules: the variant's modules after the aa50 ones (the FAQ's rulings kept
where the variant says nothing), the new prices, the unchanged ship statistics, battleships with AA guns in battle
and in the calculator, and no Combined Arms."""

from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.engine import run
from aare.combat.policy import DEFAULT_POLICY
from aare.errors import IllegalAction
from aare.odds import build_battle, fleet, odds
from aare.odds.calculator import exact_tally
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.aa50.common import battle, begun, ended, fire, left
from tests.aa50.test_odds import gap
from tests.combat.helpers import play

RULESETS = ("aa50e-1941", "aa50e-1942")
BASE = {"aa50e-1941": "aa50-1941", "aa50e-1942": "aa50-1942"}


def bought(rules: str, units: str, bank: int = 100) -> int:
    game = scenario(rules, nation="Germany", phase="purchase", banks={"Germany": bank})
    game.apply({"type": "purchase", "units": units})
    return bank - game.state.banks["Germany"]


@pytest.mark.rule("AA50E-BASE-faq-applies")
@pytest.mark.parametrize("rules", RULESETS)
def test_the_anniversary_modules_play_first_and_rule_what_the_variant_leaves_alone(rules: str) -> None:
    enhanced, base = load_ruleset(rules), load_ruleset(BASE[rules])
    assert [m.id for m in enhanced.modules][: len(base.modules)] == [m.id for m in base.modules]
    assert enhanced.board.id == base.board.id and enhanced.board.scenario == base.board.scenario
    # the FAQ's reading the variant does not touch: the AA gun fires only at aircraft attacking its own territory
    # (no flyover fire), and a land battle with an AA gun runs exactly as in the base game
    assert enhanced.modify("flyover_aa", {"x": "y"}) == {} == base.modify("flyover_aa", {"x": "y"})
    dice = [1, 6, 3, 3, 3, 2]
    runs = [play(battle("2 infantry, 1 artillery, 1 fighter", "2 infantry, 1 aa gun", "land", rules=r), dice)
            for r in (rules, BASE[rules])]
    assert runs[0][1] == runs[1][1]
    assert fire(runs[0][1], "aa fire") == [("fighter", 1, 1)]
    assert "fighter" not in left(runs[0][0].state.attacker)


@pytest.mark.rule("AA50E-BASE-variant-over-faq", "AA50E-UNIT-bomber-cost")
@pytest.mark.parametrize("rules", RULESETS)
def test_a_bomber_costs_14(rules: str) -> None:
    assert load_ruleset(BASE[rules]).units["bomber"].cost == 12
    unit = load_ruleset(rules).units["bomber"]
    assert (unit.cost, unit.attack, unit.defense, unit.move, unit.rule) == (14, 4, 1, 6, "AA50E-UNIT-bomber-cost")
    assert bought(rules, "2 bombers") == 28


@pytest.mark.rule("AA50E-BASE-variant-over-rulebook", "AA50E-UNIT-ic-cost")
@pytest.mark.parametrize("rules", RULESETS)
def test_an_industrial_complex_costs_12(rules: str) -> None:
    assert bought(rules, "1 industrial complex", bank=12) == 12
    game = scenario(BASE[rules], nation="Germany", phase="purchase", banks={"Germany": 12})
    with pytest.raises(IllegalAction, match="cost 15 IPCs; Germany has 12"):
        game.apply({"type": "purchase", "units": "1 industrial complex"})
    assert game.state.banks["Germany"] == 12


@pytest.mark.rule("AA50E-UNIT-external-aare-stats")
@pytest.mark.parametrize("rules", RULESETS)
def test_carrier_battleship_and_destroyer_keep_the_anniversary_values(rules: str) -> None:
    units = load_ruleset(rules).units
    assert {u: (units[u].cost, units[u].attack, units[u].defense, units[u].move)
            for u in ("carrier", "battleship", "destroyer")} == {
        "carrier": (14, 1, 2, 2), "battleship": (20, 4, 4, 2), "destroyer": (8, 2, 2, 2)}
    assert bought(rules, "1 destroyer, 1 carrier, 1 battleship") == 8 + 14 + 20
    ten = load_ruleset(rules, {"destroyer_cost": 10}).units["destroyer"]
    assert (ten.cost, ten.rule) == (10, "AA50E-UNIT-external-aare-stats")


@pytest.mark.rule("AA50E-UNIT-battleship-aa")
def test_a_defending_battleship_fires_aa_at_each_attacking_aircraft_before_the_first_round() -> None:
    # 2 fighters attack a battleship: one AA die each, hit on 1; the hit fighter is gone before the sea battle
    b, events = play(battle("2 fighters", "1 battleship", rules="aa50e-1942"), [1, 6, 6, 6])
    assert fire(events, "battleship aa") == [("fighter", 2, 1)]
    assert fire(events, "attacker fire") == [("fighter", 1, 3)]
    assert left(b.state.attacker) == {"fighter": 1}
    # the base game's battleship has no AA: the same dice go to the attack
    _, base = play(battle("2 fighters", "1 battleship", rules="aa50-1942"), [6, 6, 6])
    assert fire(base, "battleship aa") == [] and fire(base, "attacker fire") == [("fighter", 2, 3)]


@pytest.mark.rule("AA50E-UNIT-battleship-aa")
def test_battleship_aa_follows_its_nations_aa_guns_and_several_battleships_fire_as_one() -> None:
    # with Radar the battleship hits on 2, as the nation's AA guns do
    _, events = play(battle("1 bomber", "1 battleship", rules="aa50e-1942", defender_techs={"radar"}), [2])
    assert fire(events, "battleship aa") == [("bomber", 1, 2)]
    assert ended(events).result == "defender"
    # two battleships and a carrier: still one die per attacking aircraft
    b, _ = run(battle("1 fighter, 1 bomber", "2 battleships, 1 carrier", rules="aa50e-1942"))
    assert b.state.roll is not None and b.state.roll.step == "battleship aa"
    assert sorted((g.unit, g.count, g.hit_on) for g in b.state.roll.groups) == [("bomber", 1, 1), ("fighter", 1, 1)]
    # only when aircraft attack the zone: ships alone meet no AA; an attacking battleship fires none
    for attacker, defender in (("1 battleship", "1 battleship"), ("1 battleship", "1 fighter")):
        b = begun(battle(attacker, defender, rules="aa50e-1942"))
        assert b.state.roll is not None and b.state.roll.step == "attacker fire"


@pytest.mark.rule("AA50E-UNIT-battleship-aa")
@pytest.mark.parametrize(("attacker", "defender"), [
    ("2 fighters", "1 battleship"),
    ("1 fighter", "1 battleship"),
    ("2 fighters, 1 bomber, 1 destroyer", "1 battleship, 1 submarine, 1 carrier, 1 fighter"),
])
def test_the_calculator_counts_battleship_aa_exactly(attacker: str, defender: str) -> None:
    b = build_battle(attacker, defender, "aa50e-1942", "sea")
    assert fleet.applies(b, DEFAULT_POLICY)
    assert gap(exact_tally(b), exact_tally(b, fast=False)) <= 1e-12
    result = odds(attacker, defender, "aa50e-1942", battle="sea")
    assert abs(result.attacker_win + result.defender_win + result.draw - 1) < 1e-12


@pytest.mark.rule("AA50E-UNIT-battleship-aa")
def test_one_fighter_against_a_battleship_loses_a_sixth_more_often_than_in_the_base_game() -> None:
    base = odds("1 fighter", "1 battleship", "aa50-1942", battle="sea")
    enhanced = odds("1 fighter", "1 battleship", "aa50e-1942", battle="sea")
    # the AA die takes the fighter on a 1 (a defender win at once); on 2-6 the base battle is fought
    assert enhanced.attacker_win == pytest.approx(base.attacker_win * 5 / 6, abs=1e-12)
    assert enhanced.defender_win == pytest.approx(1 / 6 + base.defender_win * 5 / 6, abs=1e-12)
    assert enhanced.stalemate == pytest.approx(0.0, abs=1e-12)
    mc = odds("1 fighter", "1 battleship", "aa50e-1942", battle="sea", method="mc", runs=3_000, seed=5)
    assert mc.stalemate == 0.0 and abs(mc.defender_win - enhanced.defender_win) < 0.04


@pytest.mark.rule("AA50E-UNIT-no-combined-arms")
@pytest.mark.parametrize("rules", RULESETS)
def test_no_combined_arms_technology_battleship_aa_is_there_from_the_start(rules: str) -> None:
    ruleset = load_ruleset(rules)
    techs = ruleset.modify("technologies", ())
    assert not any("combined" in t for t in techs) and len(techs) == 12
    assert all("combined" not in o.key for m in ruleset.modules for o in m.options)
    game = scenario(rules)  # round 1, nobody has researched anything
    assert all(not t for t in game.state.techs.values())
    _, events = play(battle("1 fighter", "1 battleship", rules=rules), [6, 6, 6])
    assert fire(events, "battleship aa") == [("fighter", 1, 1)]


@pytest.mark.rule("AA50E-UNIT-battleship-aa")
@pytest.mark.parametrize("rules", RULESETS)
def test_aare_odds_and_the_rulesets_list_know_the_variant(rules: str) -> None:
    runner = CliRunner()
    res = runner.invoke(cli, ["odds", "--rules", rules, "--battle", "sea", "--attacker", "2 fighters",
                              "--defender", "1 battleship", "--explain"])
    assert res.exit_code == 0, res.output
    assert "3. battleship aa — 1st cycle only [AA50E-UNIT-battleship-aa]" in res.output  # after sub detection
    res = runner.invoke(cli, ["odds", "--rules", rules, "--battle", "sea", "--attacker", "2 fighters",
                              "--defender", "1 battleship", "--json"])
    data = json.loads(res.output)
    assert data["attacker_win"] == pytest.approx(odds("2 fighters", "1 battleship", rules, battle="sea").attacker_win)
    listed = runner.invoke(cli, ["rulesets"])
    assert listed.exit_code == 0 and rules in listed.output
