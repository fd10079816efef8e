"""AARe jet fighters (seed WEAPONS DEVELOPMENT 1): defence 5, AA -1 against them, interceptors against raids,
rockets and Kamikazes."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.combat.battle_state import UnitKey
from aare.combat.decisions import ChooseCasualties
from aare.combat.engine import flyover_fire
from aare.combat.rules import CombatRules
from aare.dice import ScriptedDice
from aare.rules.ruleset import load_ruleset
from tests.aare.common import GER, JPN, RULES, UK, US, battle, one_cycle, present, rolls, steps, units
from tests.aare.tech_helpers import aare_battle, act, dice_of, end, game, move, raid, with_dice

JETS = frozenset({"jet_fighters"})
KAMI = UnitKey("fighter", JPN, flags=("kamikaze",))


def radar(b):  # type: ignore[no-untyped-def]
    """The battle with AA hitting on 2 (as UK Radar makes it)."""
    return replace(b, setup=replace(b.setup, rules=replace(b.setup.rules, aa_hit_on=2)))


@pytest.mark.rule("AARE-TECH-jet-defense-5")
def test_jets_defend_at_five_and_still_attack_at_three() -> None:
    b = battle("1 infantry", "1 fighter", "land", defender_techs=JETS)
    _, events = one_cycle(b, [6, 5])  # infantry misses; the jet hits on 5
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "defender fire")] == [("fighter", 5, 1)]
    b = battle("1 infantry", "1 fighter", "land", defender_techs=JETS)
    _, events = one_cycle(b, [6, 6])
    assert [r.hits for r in rolls(events, "defender fire")] == [0]
    b = battle("1 fighter", "1 infantry", "land", attacker_techs=JETS)
    _, events = one_cycle(b, [4, 6])
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "attacker fire")] == [("fighter", 3, 0)]


@pytest.mark.rule("AARE-TECH-jet-aa-reduction")
def test_aa_guns_cannot_hit_jets_and_radar_guns_hit_them_on_one() -> None:
    b = battle("1 fighter, 1 bomber, 1 infantry", "1 infantry", "land", attacker_techs=JETS, defender_aa=True)
    _, events = one_cycle(b, [1, 6, 6, 6])  # AA: only the bomber's die (1, hit); then the fight
    assert [(r.unit, r.hit_on, r.dice) for r in rolls(events, "aa fire")] == [("bomber", 1, (1,))]
    b = radar(battle("2 fighters", "1 infantry", "land", attacker_techs=JETS, defender_aa=True))
    b, events = one_cycle(b, [1, 2, 6, 6])  # radar AA hits jets on 1: 1 hit, 2 miss
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "aa fire")] == [("fighter", 1, 1)]
    assert present(b, "attacker") == {"fighter": 1}
    # without jets AA hits on 1 as always
    _, events = one_cycle(battle("1 fighter", "1 infantry", "land", defender_aa=True), [2, 6, 6])
    assert [r.hit_on for r in rolls(events, "aa fire")] == [1]
    # flying over an AA gun: no die for jets
    rules = load_ruleset(RULES).modify("combat_rules", CombatRules())
    left, events = flyover_fire({"fighter": 2, "bomber": 1}, ScriptedDice([1]), None, rules, JETS)
    assert left == {"fighter": 2} and [(e.unit, e.dice) for e in events] == [("bomber", (1,))]


@pytest.mark.rule("AARE-TECH-jet-ca-bb-reduction")
def test_combined_arms_battleships_cannot_hit_jet_kamikazes() -> None:
    ca = frozenset({"combined_bombardment"})
    b = battle({KAMI: 1}, units(US, battleship=1), attacker_techs=JETS, defender_techs=ca)
    _, events = one_cycle(b, [6])  # no battleship AA die; the Kamikaze rolls 6 at the battleship (Japan's NA)
    assert "battleship aa" in [s for s, _ in steps(events)] and rolls(events, "battleship aa") == []
    b = radar(battle({KAMI: 1}, units(UK, battleship=1), attacker_techs=JETS, defender_techs=ca))
    b, events = one_cycle(b, [1])  # UK radar battleship: hits the jet Kamikaze on 1
    assert [(r.unit, r.hit_on, r.hits) for r in rolls(events, "battleship aa")] == [("fighter (kamikaze)", 1, 1)]
    assert b.state.result == "defender"


@pytest.mark.rule("AARE-TECH-jet-intercept-roll")
def test_each_jet_rolls_one_die_and_a_one_downs_a_raiding_bomber() -> None:
    b = raid(units(UK, bomber=3), units(GER, factory=1, fighter=2), defender_techs=JETS, territory_value=10)
    b, events = one_cycle(b, [1, 4, 3, 5])  # interceptors 1, 4: one bomber down; two bombers bomb 3 + 5
    [intercept] = rolls(events, "interceptors")
    assert (intercept.count, intercept.hit_on, intercept.hits) == (2, 1, 1)
    assert [r.count for r in rolls(events, "bombing damage")] == [2] and b.state.damage == 8
    # fighters of a power without jets do not intercept
    plain = raid(units(UK, bomber=1), units(GER, factory=1, fighter=2), territory_value=10)
    _, events = one_cycle(plain, [4])
    assert rolls(events, "interceptors") == []


@pytest.mark.rule("AARE-TECH-jet-intercept-roll", "AARE-TECH-jet-intercept-attackers-only")
def test_a_raid_on_the_board_meets_the_jets_of_its_target_only() -> None:
    g = game(UK, "combat-move", {"United Kingdom": "United Kingdom: 1 bomber",
                                 "Western Europe": "Germany: 3 fighters",
                                 "Germany": "Germany: 1 fighter, 1 factory"},
             techs={GER: ["jet_fighters"]}, owners={"Germany": GER, "Western Europe": GER, "United Kingdom": UK})
    move(g, "1 bomber", "United Kingdom", "SZ 7", "Western Europe", "Germany", raid=True)
    end(g)  # no AA gun flown over: nothing fires on entering combat
    g = with_dice(g, [1])
    events = act(g, {"type": "fight", "space": "Germany"})
    assert dice_of(events) == [(1,)]  # the one jet in Germany intercepts; the three in Western Europe never roll
    assert not [s for s in g.state.stacks("Germany") if s.owner == UK]


@pytest.mark.rule("AARE-TECH-jet-intercept-timing")
def test_interceptors_roll_before_aa_and_remove_at_once_or_after_it_by_option() -> None:
    b = raid(units(UK, bomber=2), units(GER, factory=1, aa_gun=1, fighter=1), defender_techs=JETS,
             territory_value=10)
    b, events = one_cycle(b, [1, 6, 2])  # interceptor 1 (bomber down); AA one die 6; damage 2
    assert [(s, r.count) for s in ("interceptors", "aa fire") for r in rolls(events, s)] == [
        ("interceptors", 1), ("aa fire", 1)]
    order = [s for s, _ in steps(events)]
    assert order.index("interceptors") < order.index("aa fire") and b.state.damage == 2
    late = raid(units(UK, bomber=2), units(GER, factory=1, aa_gun=1, fighter=1), defender_techs=JETS,
                territory_value=10, options={"interceptors_before_aa": False})
    late, events = one_cycle(late, [1, 6, 1])  # AA first: 1, 6 (one down); interceptor 1 (the other)
    assert [s for s, _ in steps(events)][:2] == ["aa fire", "interceptors"]
    assert [r.count for r in rolls(events, "aa fire")] == [2] and late.state.damage == 0
    sea = load_ruleset(RULES, {"national_advantages": False, "interceptors_before_aa": False})
    from aare.combat.sequences import lhtr_sequence

    names = sea.modify("combat_sequence", lhtr_sequence("sea"), kind="sea").names
    assert names.index("battleship aa") < names.index("interceptors")


@pytest.mark.rule("AARE-TECH-jet-intercept-mixed-choice")
def test_the_attacker_chooses_whether_a_rocket_or_a_bomber_is_intercepted() -> None:
    rocket = UnitKey("aa_gun", GER, flags=("rocket",))
    b = raid({UnitKey("bomber", GER): 1, rocket: 1}, units(UK, factory=1, fighter=1), defender_techs=JETS,
             territory_value=8)
    b, _ = one_cycle(b, [1], stop=True)
    decision = b.state.pending
    assert isinstance(decision, ChooseCasualties) and decision.side == "attacker" and decision.required == 1
    b, _ = one_cycle(b, [5], {"aa_gun": 1})  # Germany gives up the rocket; the bomber bombs for 5
    assert present(b, "attacker") == {"bomber": 1} and b.state.damage == 5


@pytest.mark.rule("AARE-TECH-jet-intercept-mixed-choice")
def test_a_rocket_fired_at_a_raided_territory_strikes_with_the_raid() -> None:
    g = game(GER, "combat-move", {"Germany": "Germany: 1 bomber, 1 aa gun",
                                  "United Kingdom": "United Kingdom: 1 fighter, 1 factory"},
             techs={GER: ["rockets"], UK: ["jet_fighters"]}, owners={"Germany": GER, "United Kingdom": UK})
    move(g, "1 bomber", "Germany", "Western Europe", "SZ 7", "United Kingdom", raid=True)
    end(g)
    events = act(g, {"type": "rocket", "launcher": "Germany", "target": "United Kingdom"})
    assert dice_of(events) == []  # it waits for the raid
    assert g.state.extra["combat"]["joined"] == {"United Kingdom": 1}
    g = with_dice(g, [1, 4])  # the jet hits; Germany chooses; the bomber bombs for 4
    act(g, {"type": "fight", "space": "United Kingdom"})
    assert g.state.pending is not None and g.state.pending["power"] == GER
    assert g.state.pending["kind"] == "choose_casualties"
    bank = g.state.banks[UK]
    act(g, {"type": "choose_casualties", "units": "1 aa gun"})
    assert g.state.banks[UK] == bank - 4
    assert [s.unit for s in g.state.stacks("United Kingdom") if s.owner == GER] == ["bomber"]


@pytest.mark.rule("AARE-TECH-jet-still-defend")
def test_intercepting_jets_still_defend_at_five() -> None:
    b = battle({KAMI: 1, UnitKey("battleship", JPN): 1}, units(US, carrier=1, fighter=1), defender_techs=JETS)
    b, events = one_cycle(b, [6, 6, 6, 6, 6])  # interceptor 6; attack: fighter, battleship; defence: both
    assert [(r.unit, r.count, r.hit_on) for r in rolls(events, "interceptors")] == [("fighter", 1, 1)]
    assert ("fighter", 5) in [(r.unit, r.hit_on) for r in rolls(events, "defender fire")]
    b = battle({KAMI: 2}, units(US, carrier=1, fighter=2), defender_techs=JETS)
    b, events = one_cycle(b, [1, 1])  # both Kamikazes intercepted before they fire: the battle is over
    assert b.state.result == "defender" and rolls(events, "attacker fire") == []
    assert aare_battle({KAMI: 1}, units(US, carrier=1, fighter=1)).setup.sequence["interceptors"].rule == (
        "AARE-TECH-jet-intercept-roll")
