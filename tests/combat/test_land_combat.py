"""LHTR land combat with scripted dice: sequence, fire, casualties, retreat, capture."""

from __future__ import annotations

import pytest

from aare.combat.battle_state import UnitKey
from aare.combat.decisions import Casualties, ChooseCasualties, PressOrRetreat, Retreat
from aare.combat.events import BattleEnded, Retreated
from aare.combat.rules import CombatRules
from aare.errors import IllegalAction, MalformedInput
from tests.combat.helpers import play, rolls, start_battle, steps


def ended(events: list) -> BattleEnded:
    last = [e for e in events if isinstance(e, BattleEnded)]
    assert last, "battle did not end"
    return last[-1]


@pytest.mark.rule("LHTR-COMBAT-land-sequence")
@pytest.mark.rule("LHTR-BOMBARD-casualties-no-return-fire")
def test_bombardment_casualty_removed_before_main_fire_and_does_not_fire() -> None:
    battle = start_battle("2 infantry", "3 infantry", kind="amphibious", bombard="1 battleship")
    # bombard 2 = hit; attackers 1,1 = 2 hits; the 2 remaining defenders roll 6,6
    battle, events = play(battle, [2, 1, 1, 6, 6])
    assert steps(events) == [
        ("bombardment", 1),
        ("remove opening fire casualties", 1),
        ("attacker fire", 1),
        ("defender fire", 1),
        ("remove casualties", 1),
    ]
    assert [r.count for r in rolls(events, "defender fire")] == [2]
    assert ended(events).result == "attacker"


@pytest.mark.rule("LHTR-COMBAT-simultaneous-fire")
def test_defenders_hit_in_attacker_fire_still_fire_back() -> None:
    _battle, events = play(start_battle("3 armour", "2 infantry"), [1, 1, 6, 6, 6])
    assert sum(r.count for r in rolls(events, "defender fire")) == 2
    assert ended(events).result == "attacker"


@pytest.mark.rule("LHTR-COMBAT-owner-chooses-casualties")
def test_defender_chooses_which_unit_takes_the_hit() -> None:
    battle, _ = play(start_battle("1 armour", "1 infantry, 1 fighter"), [1])
    assert isinstance(battle.pending, ChooseCasualties) and battle.pending.side == "defender"
    battle, _events = play(battle, [6, 6], {"infantry": 1})
    assert dict((k.type, n) for k, n in battle.state.defender) == {"fighter": 1}
    assert isinstance(battle.pending, PressOrRetreat)


@pytest.mark.rule("LHTR-COMBAT-end-conditions")
def test_both_sides_destroyed_is_a_draw() -> None:
    _battle, events = play(start_battle("1 infantry", "1 infantry"), [1, 1])
    end = ended(events)
    assert (end.result, end.attacker, end.defender, end.attacker_can_capture) == ("draw", {}, {}, False)


@pytest.mark.rule("LHTR-COMBAT-attacker-retreat")
def test_attacker_retreats_all_units_together_after_a_cycle() -> None:
    battle = start_battle("2 infantry, 1 armour", "2 infantry", retreat_to=("Belorussia",))
    battle, events = play(battle, [6, 6, 6, 6, 6])
    assert isinstance(battle.pending, PressOrRetreat) and battle.pending.side == "attacker"
    battle, events = play(battle, [], Retreat())
    assert [e for e in events if isinstance(e, Retreated)] == [Retreated({"infantry": 2, "armour": 1}, "Belorussia")]
    assert ended(events).result == "retreat"


@pytest.mark.rule("LHTR-COMBAT-retreat-destination")
@pytest.mark.rule("LHTR-COMBAT-attack-from-several-spaces")
def test_retreat_only_to_a_space_the_attack_came_from() -> None:
    battle = start_battle("1 infantry, 1 armour", "2 infantry", retreat_to=("Belorussia", "Eastern Europe"))
    battle, _ = play(battle, [6, 6, 6, 6])
    assert battle.pending.destinations == ("Belorussia", "Eastern Europe")
    with pytest.raises(IllegalAction) as err:
        play(battle, [], Retreat("Norway"))
    assert err.value.rule_id == "LHTR-COMBAT-retreat-destination"
    battle, events = play(battle, [], Retreat("Eastern Europe"))
    assert ended(events).result == "retreat"


@pytest.mark.rule("LHTR-LANDCOMBAT-no-retreat-amphibious")
@pytest.mark.rule("LHTR-COMBAT-air-retreat")
def test_amphibious_land_units_cannot_retreat_but_air_may() -> None:
    battle = start_battle("2 infantry, 2 fighters", "3 infantry", kind="amphibious")
    battle, _ = play(battle, [6, 6, 6, 6, 6, 6, 6])
    decision = battle.pending
    assert isinstance(decision, PressOrRetreat)
    assert (decision.can_retreat_all, decision.can_retreat_air) == (False, True)
    with pytest.raises(IllegalAction) as err:
        play(battle, [], Retreat())
    assert err.value.rule_id == "LHTR-LANDCOMBAT-no-retreat-amphibious"
    # fighters leave; the infantry fight on: cycle 2 two hits, cycle 3 one hit
    battle, events = play(battle, [1, 1, 6, 6, 6, 1, 6, 6], Retreat(air_only=True))
    end = ended(events)
    assert end.result == "attacker" and end.attacker == {"infantry": 2, "fighter": 2}
    assert sum(r.count for r in rolls(events, "attacker fire")) == 4


@pytest.mark.rule("LHTR-COMBAT-capture")
def test_only_a_surviving_land_unit_captures() -> None:
    _, events = play(start_battle("2 fighters", "1 infantry"), [1, 6, 6])
    assert ended(events).result == "attacker" and not ended(events).attacker_can_capture
    _, events = play(start_battle("1 infantry", "1 infantry"), [1, 6])
    assert ended(events).attacker_can_capture


@pytest.mark.rule("LHTR-COMBAT-no-joint-attacks")
def test_allies_never_attack_together() -> None:
    with pytest.raises(IllegalAction) as err:
        start_battle({UnitKey("infantry", "uk"): 1, UnitKey("infantry", "us"): 1}, "1 infantry")
    assert err.value.rule_id == "LHTR-COMBAT-no-joint-attacks"


@pytest.mark.rule("LHTR-COMBAT-joint-defense")
@pytest.mark.rule("LHTR-TECH-permanent-unshared")
@pytest.mark.rule("LHTR-TECH-jet-fighters")
def test_allies_defend_together_each_with_its_own_techs() -> None:
    uk, us = UnitKey("fighter", "uk"), UnitKey("fighter", "us")
    battle = start_battle("1 armour", {uk: 1, us: 1}, owner_techs={"uk": frozenset({"jet_fighters"})})
    battle, events = play(battle, [1])
    assert isinstance(battle.pending, ChooseCasualties)
    battle, events = play(battle, [6, 6], Casualties(((us, 1),)))
    assert sorted((r.unit, r.hit_on) for r in rolls(events, "defender fire")) == [("fighter", 4), ("fighter", 5)]
    assert dict(battle.state.defender) == {uk: 1}


@pytest.mark.rule("LHTR-LANDCOMBAT-artillery-support")
@pytest.mark.rule("LHTR-UNITS-artillery")
def test_artillery_supports_one_infantry_each_on_attack_only() -> None:
    _, events = play(start_battle("3 infantry, 1 artillery", "2 infantry, 1 artillery"), [6, 6, 6, 6, 6, 6, 6])
    attack = sorted((r.unit, r.hit_on, r.count) for r in rolls(events, "attacker fire"))
    assert attack == [("artillery", 2, 1), ("infantry", 1, 2), ("infantry", 2, 1)]
    defense = sorted((r.unit, r.hit_on, r.count) for r in rolls(events, "defender fire"))
    assert defense == [("artillery", 2, 1), ("infantry", 2, 2)]


@pytest.mark.rule("LHTR-LANDCOMBAT-artillery-support")
def test_support_is_recounted_after_artillery_is_lost() -> None:
    battle = start_battle("2 infantry, 1 artillery", "2 infantry")
    battle, _ = play(battle, [6, 6, 6, 1, 6], {"artillery": 1})
    from aare.combat.decisions import Press

    battle, events = play(battle, [6, 6, 6, 6], Press())
    assert [(r.unit, r.hit_on, r.count) for r in rolls(events, "attacker fire")] == [("infantry", 1, 2)]


@pytest.mark.rule("LHTR-LANDCOMBAT-infrastructure-not-casualties")
def test_complex_and_aa_gun_neither_fight_nor_keep_the_battle_going() -> None:
    battle = start_battle("1 armour", "1 infantry, 1 factory, 1 aa gun")
    _, events = play(battle, [1, 6])
    end = ended(events)
    assert (end.result, end.defender, end.attacker_can_capture) == ("attacker", {}, True)
    assert all(r.step != "aa fire" for r in rolls(events))


@pytest.mark.rule("LHTR-LANDCOMBAT-ships-not-in-land-battle")
def test_ships_cannot_fight_in_a_land_battle_and_bombarding_ships_cannot_be_hit() -> None:
    with pytest.raises(MalformedInput):
        start_battle("1 battleship, 1 infantry", "1 infantry")
    battle = start_battle("2 infantry", "2 infantry", kind="amphibious", bombard="1 battleship")
    battle, events = play(battle, [6, 6, 6, 1, 1])
    assert ended(events).result == "defender"
    assert dict((k.type, n) for k, n in battle.setup.bombard) == {"battleship": 1}


@pytest.mark.rule("LHTR-LANDCOMBAT-air-values")
@pytest.mark.rule("LHTR-UNITS-fighter")
@pytest.mark.rule("LHTR-UNITS-bomber")
def test_air_units_attack_and_defend_at_their_values() -> None:
    _, events = play(start_battle("1 armour", "1 fighter"), [6, 4])
    assert [(r.hit_on, r.hits) for r in rolls(events, "defender fire")] == [(4, 1)]
    _, events = play(start_battle("1 fighter, 1 bomber", "1 bomber"), [6, 6, 1])
    assert [r.hit_on for r in rolls(events, "attacker fire")] == [3, 4]
    assert [r.hit_on for r in rolls(events, "defender fire")] == [1]


@pytest.mark.rule("LHTR-TECH-heavy-bombers-combat")
def test_heavy_bomber_rolls_two_dice_and_keeps_the_best() -> None:
    heavy = {"attacker_techs": {"heavy_bombers"}}
    _, events = play(start_battle("1 bomber", "2 infantry", **heavy), [5, 3, 6, 6])
    assert [(r.dice, r.hits) for r in rolls(events, "attacker fire")] == [((5, 3), 1)]
    _battle, events = play(start_battle("1 bomber", "2 infantry", **heavy), [6, 5, 6, 6])
    assert [r.hits for r in rolls(events, "attacker fire")] == [0]
    _, events = play(start_battle("1 bomber", "2 infantry", **heavy), [1, 1, 6, 6])
    assert [r.hits for r in rolls(events, "attacker fire")] == [1]
    oob = CombatRules(heavy_bomber_best_of=False)
    _, events = play(start_battle("1 bomber", "2 infantry", rules=oob, **heavy), [1, 1, 6, 6])
    assert ended(events).result == "attacker"


def test_events_have_a_json_form() -> None:
    _, events = play(start_battle("1 infantry", "1 infantry"), [1, 1])
    kinds = [e.to_json()["type"] for e in events]
    assert kinds[0] == "step_entered" and "dice_rolled" in kinds and kinds[-1] == "battle_ended"
    assert rolls(events)[0].to_json()["dice"] == [1]
