"""AA50E technologies in battle: Advanced Artillery, Super Destroyers, Jet Power, Radar, Heavy Bombers, on the
board and in the calculator."""

from __future__ import annotations

from fractions import Fraction

import pytest

from aare.combat.decisions import Press
from aare.economy.complex_damage import complex_damage
from aare.odds import odds
from aare.scenario import scenario
from tests.aa50.common import battle, begun, fire
from tests.combat.helpers import play

RULES = "aa50e-1941"


def close(value: float, exact: Fraction | float) -> bool:
    return abs(value - float(exact)) < 1e-9


@pytest.mark.rule("AA50E-TECH-adv-artillery-attack-3")
def test_advanced_artillery_attacks_at_3_in_the_first_cycle_only() -> None:
    tech = {"advanced_artillery"}
    b = battle("1 artillery", "2 infantry", "land", rules=RULES, attacker_techs=tech)
    b, events = play(b, [6, 6, 6, 6, 6, 6], Press())
    assert fire(events, "attacker fire")[:2] == [("artillery", 1, 3), ("artillery", 1, 2)]  # round 1, round 2
    _, events = play(battle("1 infantry", "1 artillery", "land", rules=RULES, defender_techs=tech), [6, 6])
    assert fire(events, "defender fire") == [("artillery", 1, 2)]  # defence unchanged


@pytest.mark.rule("AA50E-TECH-adv-artillery-attack-3")
def test_the_calculator_counts_the_first_cycle_artillery() -> None:
    # round 1 hit 1/2 against 1/3, then 1/3 against 1/3: 1/3 + 1/3 * 2/5 = 7/15
    assert close(odds("1 artillery", "1 infantry", RULES, attacker_techs={"advanced_artillery"}).attacker_win,
                 Fraction(7, 15))
    assert close(odds("1 artillery", "1 infantry", RULES).attacker_win, Fraction(2, 5))


@pytest.mark.rule("AA50E-TECH-adv-artillery-support-two", "AA50E-TECH-adv-artillery-attack-3")
def test_each_artillery_supports_two_infantry() -> None:
    b = battle("4 infantry, 1 artillery", "6 infantry", "land", rules=RULES,
               attacker_techs={"advanced_artillery"})
    _, events = play(b, [6] * 11 + [6] * 11, Press())
    rounds = fire(events, "attacker fire")
    assert rounds[:3] == [("infantry", 2, 2), ("infantry", 2, 1), ("artillery", 1, 3)]
    assert rounds[3:6] == [("infantry", 2, 2), ("infantry", 2, 1), ("artillery", 1, 2)]  # round 2


@pytest.mark.rule("AA50E-TECH-adv-artillery-support-two")
def test_the_seeds_example_two_infantry_and_one_artillery_roll_three_dice_at_2() -> None:
    b = battle("2 infantry, 1 artillery", "6 infantry", "land", rules=RULES, attacker_techs={"advanced_artillery"})
    _, events = play(b, [6] * 9 + [6] * 9, Press())
    rounds = fire(events, "attacker fire")
    assert rounds[2:] == [("infantry", 2, 2), ("artillery", 1, 2)]  # after the first cycle: 3 dice at 2 or less
    plain = battle("2 infantry, 1 artillery", "6 infantry", "land", rules=RULES)
    _, events = play(plain, [6] * 9 + [6] * 9, Press())
    assert fire(events, "attacker fire")[3:] == [("infantry", 1, 2), ("infantry", 1, 1), ("artillery", 1, 2)]


@pytest.mark.rule("AA50E-TECH-super-destroyers-attack")
def test_super_destroyers_attack_at_3_and_defend_at_2() -> None:
    tech = {"super_destroyers"}
    _, events = play(begun(battle("1 destroyer", "1 destroyer", rules=RULES, attacker_techs=tech,
                                  defender_techs=tech)), [6, 6])
    assert fire(events) == [("destroyer", 1, 3), ("destroyer", 1, 2)]
    _, events = play(begun(battle("1 submarine", "1 submarine", rules=RULES, attacker_techs=tech)), [6, 6])
    assert fire(events)[0] == ("submarine", 1, 2)  # no AA50E tech raises submarines
    assert close(odds("1 destroyer", "1 destroyer", RULES, battle="sea", attacker_techs=tech).attacker_win,
                 Fraction(1, 2) * Fraction(4, 6) / (1 - Fraction(1, 2) * Fraction(4, 6)))


@pytest.mark.rule("AA50E-TECH-jet-attack")
def test_jet_fighters_attack_at_4_and_defend_at_4() -> None:
    tech = {"jet_fighters"}
    _, events = play(battle("1 fighter", "1 fighter", "land", rules=RULES, attacker_techs=tech,
                            defender_techs=tech), [6, 6])
    assert fire(events) == [("fighter", 1, 4), ("fighter", 1, 4)]


@pytest.mark.rule("AA50E-TECH-jet-attack")
def test_jet_defence_5_is_an_option() -> None:
    tech = {"jet_fighters"}
    b = battle("1 fighter", "1 fighter", "land", rules=RULES, options={"jet_defence_5": True},
               attacker_techs=tech, defender_techs=tech)
    _, events = play(b, [6, 6])
    assert fire(events) == [("fighter", 1, 4), ("fighter", 1, 5)]


@pytest.mark.rule("AA50E-TECH-jet-aa-minus-one")
def test_aa_cannot_hit_jets_unless_radar_then_on_1() -> None:
    jets = {"jet_fighters"}
    _, events = play(battle("1 fighter, 1 armour", "1 infantry, 1 aa gun", "land", rules=RULES,
                            attacker_techs=jets), [6, 6, 6])
    assert fire(events, "aa fire") == []  # a hit on 0: no die is rolled
    _, events = play(battle("1 fighter, 1 armour", "1 infantry, 1 aa gun", "land", rules=RULES,
                            attacker_techs=jets, defender_techs={"radar"}), [1, 6, 6])
    assert fire(events, "aa fire") == [("fighter", 1, 1)]
    _, events = play(battle("1 fighter", "1 battleship", rules=RULES, attacker_techs=jets,
                            defender_techs={"radar"}), [2, 6, 6])
    assert fire(events, "battleship aa") == [("fighter", 1, 1)]  # battleship AA too
    plain = odds("1 fighter", "1 infantry, 1 aa gun", RULES, attacker_techs=jets)
    assert close(plain.attacker_win, odds("1 fighter", "1 infantry", RULES, attacker_techs=jets).attacker_win)


@pytest.mark.rule("AA50E-TECH-radar-aa-2")
def test_radar_aa_guns_and_battleships_hit_on_2() -> None:
    radar = {"radar"}
    _, events = play(battle("1 bomber, 1 armour", "1 infantry, 1 aa gun", "land", rules=RULES,
                            defender_techs=radar), [2, 6, 6])
    assert fire(events, "aa fire") == [("bomber", 1, 2)]
    _, events = play(battle("1 bomber", "1 battleship", rules=RULES, defender_techs=radar), [3, 6, 6])
    assert fire(events, "battleship aa") == [("bomber", 1, 2)]
    shot = odds("1 fighter", "1 aa gun, 1 infantry", RULES, defender_techs=radar)
    assert close(shot.attacker_win, Fraction(4, 6) * odds("1 fighter", "1 infantry", RULES).attacker_win)


@pytest.mark.rule("AA50E-TECH-heavy-bombers-dice")
def test_heavy_bombers_roll_two_dice_in_attack_and_raids() -> None:
    heavy = {"heavy_bombers"}
    _, events = play(battle("1 bomber", "2 infantry", "land", rules=RULES, attacker_techs=heavy), [2, 4, 6, 6])
    assert next((e.dice, e.hits) for e in events if type(e).__name__ == "DiceRolled") == ((2, 4), 2)
    raid = odds("1 bomber", "", RULES, battle="raid", territory_value=20, attacker_techs=heavy, defender_aa=False)
    assert close(raid.expected_damage or 0, 7)  # the sum of two dice, no AA gun


@pytest.mark.rule("AA50E-TECH-heavy-bombers-cap")
def test_heavy_bomber_raids_are_capped_at_twice_the_value() -> None:
    game = scenario(RULES, nation="Germany", phase="combat-move", clear=True, techs={"Germany": ["heavy_bombers"]},
                    units={"Germany": "Germany: 5 bomber", "Karelia S.S.R.": "Soviet Union: 1 factory"},
                    owners={"Baltic States": "Germany", "Poland": "Germany"}, dice=[6] * 10)
    game.apply({"type": "move", "units": "5 bomber", "path": ["Germany", "Poland", "Baltic States", "Karelia S.S.R."],
                "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Karelia S.S.R."})
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 4  # 60 rolled, Karelia is worth 2
