"""The AARe land and naval combat sequences (seed LAND / NAVAL COMBAT SEQUENCE): step order, the empty
opening-fire anchors techs and national advantages fill, the main exchange, press or retreat, capture."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.combat.decisions import ChooseSubmerge, Press, PressOrRetreat, Retreat, Submerge
from aare.combat.events import BattleEnded, Retreated, UnitsRemoved
from aare.combat.sequences import lhtr_sequence
from aare.combat.steps import Step, is_anchor
from aare.rules.ruleset import load_ruleset
from tests.aare.common import GER, JPN, RULES, UK, US, battle, one_cycle, present, rolls, steps, units

LAND_STEPS = [
    "interceptors", "aa fire", "bombardment", "german 88s", "remove opening fire casualties",
    "attacker fire", "defender fire", "remove casualties", "press or retreat",
]
NAVAL_STEPS = [
    "declare suicide targets", "sub detection", "sub detection result",
    "interceptors", "battleship aa", "coastal defence", "kaitens", "kaiten 2", "kamikazes", "kamikaze 2",
    "suicide attacks result", "attacker sub first strike", "defender sub first strike",
    "remove opening fire casualties",
    "attacker undetected subs submerge", "defender undetected subs submerge",
    "attacker fire", "defender fire", "remove casualties", "attacker submerge", "press or retreat",
    "defender submerge",
]
FIRST_CYCLE_ONLY_SEA = {
    "declare suicide targets", "sub detection", "sub detection result", "interceptors", "battleship aa",
    "coastal defence", "kaitens", "kamikazes", "attacker undetected subs submerge", "defender undetected subs submerge",
    "kaiten 2", "kamikaze 2", "suicide attacks result",  # Japan's Kaitens and Kamikazes roll one at a time
}


def sequence(kind: str):  # type: ignore[no-untyped-def]
    return load_ruleset(RULES).modify("combat_sequence", lhtr_sequence(kind), kind=kind)


def ended(events: list) -> BattleEnded:  # type: ignore[type-arg]
    return next(e for e in events if isinstance(e, BattleEnded))


@pytest.mark.rule("AARE-LANDSEQ-step-order")
def test_land_sequence_order_and_first_cycle_steps() -> None:
    seq = sequence("land")
    assert list(seq.names) == LAND_STEPS
    assert [s.name for s in seq.steps if s.cycles == 1] == LAND_STEPS[:5]
    assert [s.name for s in seq.steps if is_anchor(s)] == ["interceptors"]  # German 88's fills 2d
    assert list(sequence("amphibious").names) == LAND_STEPS
    assert list(sequence("bombing").names) == [  # aare_tech adds the escorts' protection roll
        "interceptors", "aa fire", "escort protection", "escort protection result", "radar rocket defence",
        "bombing damage", "bombing result"]  # Radar (UK) adds the rocket shoot-down
    # an amphibious assault with AA and bombardment: opening fire in order, none in cycle 2
    b = battle("2 infantry, 1 fighter", "2 infantry", "amphibious", bombard="1 battleship", defender_aa=True)
    b, events = one_cycle(b, [6, 6, 6, 6, 6, 6, 6])  # AA 6; bombard 6; attack 6, 6, 6; defence 6, 6
    assert [s for s, _ in steps(events)] == [
        "aa fire", "bombardment", "remove opening fire casualties", "attacker fire", "defender fire",
        "remove casualties", "press or retreat"]
    b, events = one_cycle(b, [6, 6, 6, 6, 6])
    assert [s for s, _ in steps(events)] == ["attacker fire", "defender fire", "remove casualties", "press or retreat"]


@pytest.mark.rule("AARE-NAVALSEQ-step-order")
def test_naval_sequence_order_and_first_cycle_steps() -> None:
    seq = sequence("sea")
    assert list(seq.names) == NAVAL_STEPS
    assert {s.name for s in seq.steps if s.cycles == 1} == FIRST_CYCLE_ONLY_SEA
    assert seq["attacker sub first strike"].cycles is None  # 2f: regular subs fire every cycle
    b = battle(units(GER, submarine=2), units(UK, destroyer=1, transport=1))
    b, events = one_cycle(b, [5, 6, 6, 6, 6], Submerge(0))  # detection 5; subs 6, 6; defence 6, 6
    assert [s for s, _ in steps(events)] == [
        "sub detection", "sub detection result", "attacker sub first strike", "remove opening fire casualties",
        "attacker undetected subs submerge", "attacker fire", "defender fire", "remove casualties",
        "attacker submerge", "press or retreat", "defender submerge"]
    b, events = one_cycle(b, [6, 6, 6, 6])
    assert [s for s, _ in steps(events)] == [
        "attacker sub first strike", "remove opening fire casualties", "attacker fire", "defender fire",
        "remove casualties", "attacker submerge", "press or retreat", "defender submerge"]


@pytest.mark.rule("AARE-LANDSEQ-step-order", "AARE-NAVALSEQ-step-order")
def test_anchors_are_empty_until_a_module_fills_them() -> None:
    seq = sequence("sea")
    # aare_tech fills 2a, 2b; Atlantic Wall 2c; Japan's Kaiten and Kamikaze advantages 1a, 2d, 2e
    assert not any(is_anchor(step) for step in seq.steps)
    bare = load_ruleset(RULES, {"national_advantages": False}).modify("combat_sequence", lhtr_sequence("sea"),
                                                                        kind="sea")
    for name in ("declare suicide targets", "kaitens", "kamikazes", "coastal defence"):
        assert is_anchor(bare[name]) and "empty" in bare[name].describe()
    filled = bare.replace("coastal defence", Step("coastal defence", lambda b: (b.state, []), cycles=1))
    assert not is_anchor(filled["coastal defence"])
    assert list(lhtr_sequence("sea").names) == [  # LHTR is unchanged
        "attacker sub first strike", "defender sub first strike", "remove opening fire casualties", "attacker fire",
        "defender fire", "remove casualties", "attacker submerge", "press or retreat", "defender submerge"]


@pytest.mark.rule("AARE-LANDSEQ-interceptors-sbr-rocket-only")
def test_jets_do_not_intercept_a_regular_land_attack_and_defend_at_five() -> None:
    b = battle("1 fighter, 1 bomber", "1 fighter", "land", defender_techs={"jet_fighters"})
    _, events = one_cycle(b, [6, 6, 6])
    assert "interceptors" not in [s for s, _ in steps(events)]
    assert [(r.step, r.unit, r.hit_on) for r in rolls(events)][-1] == ("defender fire", "fighter", 5)


@pytest.mark.rule("AARE-NAVALSEQ-interceptors-kami-only")
def test_jets_do_not_intercept_a_regular_naval_attack_and_defend_at_five() -> None:
    b = battle(units(JPN, fighter=2), units(US, carrier=1, fighter=1), defender_techs={"jet_fighters"})
    _, events = one_cycle(b, [6, 6, 6, 6])
    assert "interceptors" not in [s for s, _ in steps(events)]
    assert [(r.unit, r.hit_on) for r in rolls(events, "defender fire")] == [("fighter", 5), ("carrier", 2)]


@pytest.mark.rule("AARE-LANDSEQ-aa-per-aircraft-type")
def test_aa_fires_one_die_per_aircraft_by_type_and_hits_go_at_once() -> None:
    b = battle("2 fighters, 1 bomber, 1 infantry", "1 infantry", "land", defender_aa=True)
    b, events = one_cycle(b, [6, 6, 1, 6, 6, 6, 6])  # AA: fighters 6, 6; bomber 1
    aa = rolls(events, "aa fire")
    assert [(r.unit, r.count, r.hits) for r in aa] == [("fighter", 2, 0), ("bomber", 1, 1)]
    assert "bomber" not in present(b, "attacker")
    assert [r.unit for r in rolls(events, "attacker fire")] == ["infantry", "fighter"]


@pytest.mark.rule("AARE-LANDSEQ-bombardment", "AARE-LANDSEQ-opening-casualty-removal")
def test_bombardment_casualties_go_at_step_three_and_never_fire() -> None:
    b = battle("2 infantry", "3 infantry", "amphibious", bombard="2 battleships")
    b, events = one_cycle(b, [1, 1, 6, 6, 6])  # both battleships hit; attack 6, 6; one defender left: 6
    removed = [e for e in events if isinstance(e, UnitsRemoved)]
    assert (removed[0].units, removed[0].step) == ({"infantry": 2}, "remove opening fire casualties")
    assert [r.count for r in rolls(events, "defender fire")] == [1]
    b, events = one_cycle(b, [6, 6, 6])
    assert rolls(events, "bombardment") == []


@pytest.mark.rule("AARE-LANDSEQ-main-exchange", "AARE-NAVALSEQ-main-exchange")
def test_defenders_hit_in_step_four_still_fire_in_step_five() -> None:
    b = battle("2 armour", "2 infantry", "land")
    b, events = one_cycle(b, [1, 1, 6, 6])
    assert [r.count for r in rolls(events, "defender fire")] == [2]
    removed = [e for e in events if isinstance(e, UnitsRemoved)]
    assert [(r.units, r.step) for r in removed] == [({"infantry": 2}, "remove casualties")]
    assert b.state.result == "attacker"
    # at sea: a UK destroyer hit by a detected German sub fires in step 5 and goes at step 6
    sea = battle(units(GER, submarine=1), units(UK, destroyer=1))
    sea, events = one_cycle(sea, [1, 1, 1])  # detection 1; sub 1; destroyer 1
    assert [(e.units, e.step) for e in events if isinstance(e, UnitsRemoved)] == [
        ({"submarine": 1}, "remove casualties"), ({"destroyer": 1}, "remove casualties")]
    assert sea.state.result == "draw"


@pytest.mark.rule("AARE-LANDSEQ-press-or-retreat")
def test_the_attacker_presses_or_retreats_and_the_battle_ends_when_a_side_is_gone() -> None:
    b = battle("1 infantry", "2 infantry", "land", retreat_to=("Poland",))
    b, _ = one_cycle(b, [6, 6, 6], Retreat("Poland"))
    assert b.state.result == "retreat"
    b = battle("1 infantry", "2 infantry", "land", retreat_to=("Poland",))
    b, events = one_cycle(b, [6, 6, 6], Press())
    assert b.state.cycle == 2 and not b.state.ended
    gone = battle("1 armour", "1 infantry", "land")
    gone, events = one_cycle(gone, [1, 6])
    assert "press or retreat" not in [s for s, _ in steps(events)] and gone.state.result == "attacker"


@pytest.mark.rule("AARE-LANDSEQ-capture")
def test_only_a_surviving_land_unit_captures() -> None:
    _, events = one_cycle(battle("1 infantry, 1 fighter", "1 infantry", "land"), [1, 6, 6])
    assert ended(events).attacker_can_capture
    _, events = one_cycle(battle("1 fighter", "1 infantry", "land"), [1, 6])
    assert ended(events).result == "attacker" and not ended(events).attacker_can_capture


@pytest.mark.rule("AARE-NAVALSEQ-regular-sub-values", "AARE-TECH-supersub-attack-3")
def test_attacking_subs_hit_on_two_or_three_with_super_subs_defending_subs_on_two() -> None:
    def sub_value(attacker: dict, defender: dict, **techs: frozenset[str]) -> int:  # type: ignore[type-arg]
        _, events = one_cycle(battle(attacker, defender, **techs), [6, 6], Submerge(0))
        return next(r.hit_on for r in rolls(events) if r.unit == "submarine")

    ss = frozenset({"super_submarines"})
    assert sub_value(units(GER, submarine=1), units(UK, transport=1)) == 2
    assert sub_value(units(GER, submarine=1), units(UK, transport=1), attacker_techs=ss) == 3
    assert sub_value(units(UK, battleship=1), units(GER, submarine=1)) == 2
    assert sub_value(units(UK, battleship=1), units(GER, submarine=1), defender_techs=ss) == 2


@pytest.mark.rule("AARE-NAVALSEQ-opening-casualty-removal")
def test_undetected_subs_victims_go_at_step_three_detected_subs_victims_at_step_six() -> None:
    b = battle(units(GER, submarine=1, destroyer=1, transport=1), units(UK, submarine=1, destroyer=1))
    # detection: German destroyer 1 (UK sub detected), UK destroyer 6 (German sub not); both subs hit
    b, events = one_cycle(b, [1, 6, 1, 1, 6], {"destroyer": 1}, {"transport": 1}, Submerge(0))
    removed = [(e.side, e.units, e.step) for e in events if isinstance(e, UnitsRemoved)]
    assert removed == [("defender", {"destroyer": 1}, "remove opening fire casualties"),
                       ("attacker", {"transport": 1}, "remove casualties")]


@pytest.mark.rule("AARE-NAVALSEQ-press-retreat-submerge")
def test_at_step_seven_detected_subs_submerge_only_without_an_enemy_destroyer() -> None:
    b = battle(units(GER, submarine=1), units(UK, destroyer=1, transport=1))
    b, _ = one_cycle(b, [6, 6, 6, 6], Submerge(0))  # undetected, stays: detected now
    b, events = one_cycle(b, [6, 6, 6])
    assert "attacker submerge" in [s for s, _ in steps(events)] and b.state.cycle == 3  # refused: UK DD
    b, events = one_cycle(b, [1, 6, 6], {"destroyer": 1}, stop=True)  # cycle 3: the destroyer goes at step 6
    assert isinstance(b.state.pending, ChooseSubmerge) and b.state.pending.stage == "end of cycle"


@pytest.mark.rule("AARE-NAVALSEQ-subs-retreat-with-fleet", "AARE-LHTR-retreat-single-sz")
def test_subs_retreat_with_the_fleet_to_one_zone_past_an_enemy_destroyer() -> None:
    b = battle(units(GER, submarine=1, destroyer=1), units(UK, destroyer=1), retreat_to=("SZ 5", "SZ 6"))
    b, events = one_cycle(b, [1, 6, 6, 6], stop=True)  # detected; everybody misses
    assert isinstance(b.state.pending, PressOrRetreat) and b.state.pending.destinations == ("SZ 5", "SZ 6")
    b, events = one_cycle(b, [], Retreat("SZ 5"))
    [moved] = [e for e in events if isinstance(e, Retreated)]
    assert (moved.units, moved.to) == ({"destroyer": 1, "submarine": 1}, "SZ 5")


def test_lhtr_sequences_are_untouched_by_aare() -> None:
    lhtr = load_ruleset("lhtr-1.3")
    for kind in ("land", "amphibious", "sea", "bombing"):
        assert lhtr.modify("combat_sequence", lhtr_sequence(kind), kind=kind) == lhtr_sequence(kind)
    assert replace(lhtr_sequence("land")).names == lhtr_sequence("land").names
