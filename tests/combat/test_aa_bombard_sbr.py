"""LHTR AA fire, shore bombardment and strategic bombing raids with scripted dice."""

from __future__ import annotations

import pytest

from aare.combat.engine import flyover_fire
from aare.combat.events import BattleEnded, BombingDamage
from aare.dice import ScriptedDice
from aare.errors import IllegalAction, MalformedInput
from tests.combat.helpers import play, rolls, start_battle, steps


def ended(events: list) -> BattleEnded:
    return [e for e in events if isinstance(e, BattleEnded)][-1]


def units(stacks: tuple) -> dict[str, int]:
    out: dict[str, int] = {}
    for k, n in stacks:
        out[k.type] = out.get(k.type, 0) + n
    return out


@pytest.mark.rule("LHTR-AA-battle-fire")
@pytest.mark.rule("LHTR-UNITS-aa-gun")
def test_aa_rolls_per_aircraft_and_its_hits_do_not_fire() -> None:
    battle = start_battle("1 infantry, 3 fighters, 1 bomber", "1 infantry", defender_aa=True)
    battle, events = play(battle, [6, 6, 6, 1, 6, 6, 6, 6, 6])
    aa = rolls(events, "aa fire")
    assert [(r.unit, r.count, r.hit_on) for r in aa] == [("fighter", 3, 1), ("bomber", 1, 1)]
    assert sorted(r.unit for r in rolls(events, "attacker fire")) == ["fighter", "infantry"]
    assert units(battle.state.attacker) == {"infantry": 1, "fighter": 3}


@pytest.mark.rule("LHTR-AA-battle-fire")
def test_aa_fires_in_the_first_cycle_only_and_even_alone() -> None:
    battle = start_battle("1 infantry, 1 fighter", "1 aa gun")
    battle, events = play(battle, [1])
    end = ended(events)
    assert (end.result, end.attacker, end.attacker_can_capture) == ("attacker", {"infantry": 1}, True)


@pytest.mark.rule("LHTR-AA-one-gun-per-territory")
def test_two_aa_guns_still_roll_one_die_per_aircraft() -> None:
    battle = start_battle("2 bombers", "2 aa guns, 1 infantry")
    _, events = play(battle, [6, 6, 1, 6, 6])
    assert sum(r.count for r in rolls(events, "aa fire")) == 2


@pytest.mark.rule("LHTR-AA-rolled-per-aircraft")
def test_aa_hits_stay_with_the_aircraft_type_they_were_rolled_for() -> None:
    battle = start_battle("1 infantry, 2 fighters, 1 bomber", "1 infantry", defender_aa=True)
    battle, _ = play(battle, [1, 4, 5, 6, 6, 6, 6])
    assert units(battle.state.attacker) == {"infantry": 1, "fighter": 1, "bomber": 1}
    battle = start_battle("1 infantry, 2 fighters, 1 bomber", "1 infantry", defender_aa=True)
    battle, _ = play(battle, [4, 5, 1, 6, 6, 6, 6])
    assert units(battle.state.attacker) == {"infantry": 1, "fighter": 2}


@pytest.mark.rule("LHTR-AA-flyover")
def test_overflown_aa_fires_one_die_per_aircraft() -> None:
    left, events = flyover_fire("1 bomber, 1 fighter", ScriptedDice([1, 2]))
    assert left == {"fighter": 1} and [r.count for r in events] == [1, 1]
    with pytest.raises(MalformedInput):
        flyover_fire("1 infantry", ScriptedDice([1]))


@pytest.mark.rule("LHTR-AA-targets-air-only")
def test_aa_does_not_fire_at_land_units() -> None:
    _, events = play(start_battle("2 infantry", "1 infantry, 1 aa gun"), [1, 6, 6])
    assert ("aa fire", 1) not in steps(events)
    assert ended(events).result == "attacker"


@pytest.mark.rule("LHTR-AA-sbr-fire")
@pytest.mark.rule("LHTR-SBR-damage-roll")
def test_raid_aa_fire_then_damage_from_surviving_bombers() -> None:
    battle = start_battle("2 bombers", "1 factory, 1 aa gun", kind="bombing", territory_value=10)
    battle, events = play(battle, [1, 5, 4])
    assert [(r.count, r.hits) for r in rolls(events, "aa fire")] == [(2, 1)]
    assert [e.damage for e in events if isinstance(e, BombingDamage)] == [4]
    assert battle.state.damage == 4 and ended(events).result == "bombed"


@pytest.mark.rule("LHTR-SBR-eligibility")
def test_only_bombers_raid_and_only_a_complex() -> None:
    with pytest.raises(MalformedInput):
        start_battle("1 bomber, 1 fighter", "1 factory", kind="bombing")
    with pytest.raises(IllegalAction) as err:
        start_battle("1 bomber", "1 aa gun", kind="bombing")
    assert err.value.rule_id == "LHTR-SBR-eligibility"


@pytest.mark.rule("LHTR-SBR-turn-cap")
@pytest.mark.rule("LHTR-ECON-damage-cap-per-turn")
def test_raid_damage_capped_at_territory_value() -> None:
    battle = start_battle("3 bombers", "1 factory", kind="bombing", territory_value=6)
    battle, events = play(battle, [5, 4, 6])
    assert [(e.rolled, e.damage) for e in events if isinstance(e, BombingDamage)] == [(15, 6)]


@pytest.mark.rule("LHTR-SBR-and-normal-attack-same-territory")
@pytest.mark.rule("LHTR-TECH-rockets-damage")
def test_earlier_damage_this_turn_counts_toward_the_cap() -> None:
    battle = start_battle("1 bomber", "1 factory", kind="bombing", territory_value=4, already_lost=3)
    battle, _ = play(battle, [5])
    assert battle.state.damage == 1


@pytest.mark.rule("LHTR-ECON-economic-damage-from-treasury")
def test_damage_limited_by_treasury() -> None:
    battle = start_battle("1 bomber", "1 factory", kind="bombing", territory_value=8, treasury=3)
    battle, _ = play(battle, [5])
    assert battle.state.damage == 3


@pytest.mark.rule("LHTR-TECH-heavy-bombers-sbr")
def test_heavy_bombers_raid_best_die_plus_one() -> None:
    heavy = frozenset({"heavy_bombers"})
    battle = start_battle("1 bomber", "1 factory", kind="bombing", territory_value=10, attacker_techs=heavy)
    battle, _ = play(battle, [3, 4])
    assert battle.state.damage == 5
    battle = start_battle("2 bombers", "1 factory", kind="bombing", territory_value=10, attacker_techs=heavy)
    battle, _ = play(battle, [3, 4, 1, 2])
    assert battle.state.damage == 8


@pytest.mark.rule("LHTR-BOMBARD-who-and-when")
def test_bombardment_rolls_at_4_in_the_first_cycle_only() -> None:
    battle = start_battle("1 infantry", "2 infantry", kind="amphibious", bombard="1 battleship")
    _, events = play(battle, [6, 6, 6, 6, 1, 1, 6])
    assert [(r.step, r.hit_on) for r in rolls(events, "bombardment")] == [("bombardment", 4)]
    assert ("bombardment", 2) not in steps(events)
    assert ended(events).result == "defender"


@pytest.mark.rule("LHTR-TECH-combined-bombardment")
def test_destroyers_bombard_at_3_only_with_combined_bombardment() -> None:
    plain = start_battle("1 infantry", "1 infantry", kind="amphibious", bombard="1 destroyer")
    _, events = play(plain, [1, 6])
    assert rolls(events, "bombardment") == []
    tech = start_battle(
        "1 infantry", "1 infantry", kind="amphibious", bombard="1 destroyer", attacker_techs={"combined_bombardment"}
    )
    _, events = play(tech, [3])
    assert [(r.hit_on, r.hits) for r in rolls(events, "bombardment")] == [(3, 1)]
    assert ended(events).result == "attacker"


@pytest.mark.rule("LHTR-BOMBARD-no-sea-battle")
@pytest.mark.rule("LHTR-COMBAT-one-battle-per-unit")
def test_no_bombardment_after_a_sea_battle_in_that_zone() -> None:
    with pytest.raises(IllegalAction) as err:
        start_battle("1 infantry", "1 infantry", kind="amphibious", bombard="1 battleship", sea_battle_fought=True)
    assert err.value.rule_id == "LHTR-BOMBARD-no-sea-battle"
    with pytest.raises(MalformedInput):
        start_battle("1 infantry", "1 infantry", kind="land", bombard="1 battleship")


@pytest.mark.rule("LHTR-BOMBARD-one-battle-per-ship")
def test_every_battleship_bombards_whatever_the_number_landing() -> None:
    battle = start_battle("1 infantry", "3 infantry", kind="amphibious", bombard="2 battleships")
    _, events = play(battle, [1, 1, 1, 6])
    assert [r.count for r in rolls(events, "bombardment")] == [2]
    assert ended(events).result == "attacker"
