"""Submarine detection (AARe 5.0, BASE GAME 10): detection dice per destroyer group, DD-to-detect values with
their modifiers, undetected subs' opening fire and early submerge; the seed's two worked examples."""

from __future__ import annotations

import pytest

from aare.combat.decisions import ChooseSubmerge, Submerge
from aare.combat.engine import apply_answer, resolve_roll, roll_with_dice, run
from aare.combat.events import UnitsRemoved
from aare.combat.sub_detection import detect_value, detector_groups, hidden_subs
from aare.dice import ScriptedDice
from tests.aare.common import (
    GER,
    JPN,
    UK,
    US,
    battle,
    detections,
    first_cycle,
    flagged,
    kaitens,
    one_cycle,
    present,
    rolls,
    steps,
    sub_key,
    units,
    until_roll,
)


def values(b, side: str = "defender") -> dict[str, int]:  # type: ignore[no-untyped-def]
    """DD-to-detect value of each of the other side's subs against each of `side`'s destroyer groups."""
    subs = [k for k, _ in hidden_subs(b, "attacker" if side == "defender" else "defender")]
    return {
        f"{g.owner or '-'}:{k.type}{'/' + ','.join(k.flags) if k.flags else ''}": detect_value(b, g, k)[0]
        for g in detector_groups(b, side)  # type: ignore[arg-type]
        for k in subs
    }


@pytest.mark.rule("AARE-SUBDET-start-undetected")
def test_every_sub_starts_undetected() -> None:
    b = until_roll(battle(units(GER, submarine=2), units(UK, destroyer=1)), "sub detection")
    assert flagged(b, "attacker") == {} and sum(n for _, n in hidden_subs(b, "attacker")) == 2


@pytest.mark.rule("AARE-SUBDET-baseline-value-3")
def test_baseline_value_is_three() -> None:
    b = battle(units(GER, submarine=1), units(UK, destroyer=1))
    [group] = detector_groups(b, "defender")
    value, reasons = detect_value(b, group, sub_key(GER))
    assert value == 3 and reasons == (("AARE-SUBDET-baseline-value-3", "3 base"),)


@pytest.mark.rule("AARE-SUBDET-only-dds-roll", "AARE-SUBDET-no-opposing-dd")
def test_without_destroyers_nobody_rolls_and_subs_stay_undetected() -> None:
    b = battle(units(UK, battleship=1, carrier=1, fighter=1), units(GER, submarine=2))
    # defending subs: 6, 1 -> one hit on a ship (nothing detected them); then the attackers miss
    b, events = first_cycle(b, [6, 1, 6, 6, 6], {"battleship": 1})
    assert rolls(events, "sub detection") == [] and "sub detection" not in [s for s, _ in steps(events)]
    assert next((r.step, r.unit) for r in rolls(events)) == ("defender sub first strike", "submarine")
    assert flagged(b, "defender") == {"submarine": 2}  # they stayed at 3a, so they are detected from now on


@pytest.mark.rule("AARE-SUBDET-no-opposing-dd")
def test_subs_facing_no_destroyer_keep_both_undetected_benefits() -> None:
    b = battle(units(GER, submarine=2), units(UK, battleship=1, transport=1))
    b, events = first_cycle(b, [1, 6], {"transport": 1}, Submerge(2))
    assert rolls(events, "sub detection") == []
    removed = [e for e in events if isinstance(e, UnitsRemoved)]
    assert (removed[0].units, removed[0].step) == ({"transport": 1}, "remove opening fire casualties")
    assert b.state.result == "retreat" and present(b, "attacker") == {}


@pytest.mark.rule("AARE-SUBDET-one-roll-per-dd")
def test_one_detection_die_per_destroyer_in_the_first_cycle_only() -> None:
    b = battle(units(US, destroyer=3), units(GER, submarine=2))
    # detection 4, 5, 6: nothing; subs 6, 6; destroyers 6, 6, 6
    b, events = first_cycle(b, [4, 5, 6, 6, 6, 6, 6, 6])
    [roll] = rolls(events, "sub detection")
    assert (roll.side, roll.count, roll.dice) == ("attacker", 3, (4, 5, 6))
    b, events = one_cycle(b, [6, 6, 6, 6, 6])
    assert rolls(events, "sub detection") == [] and ("sub detection", 2) not in steps(events)


@pytest.mark.rule("AARE-SUBDET-roll-threshold")
@pytest.mark.parametrize(("die", "seen"), [(3, True), (4, False)])
def test_a_die_at_or_under_the_value_detects_the_whole_group(die: int, seen: bool) -> None:
    b = until_roll(battle(units(GER, submarine=4), units(UK, destroyer=1)), "sub detection")
    b, _ = resolve_roll(b, {("lowest", "defender", "United Kingdom destroyers"): die})
    b, events = first_cycle(b, [6, 6, 6, 6, 6], *([] if seen else [Submerge(0)]))
    assert flagged(b, "attacker") == {"submarine": 4}  # at the end of cycle 1 all are detected either way
    report = detections(events)["attacker"]
    assert report.detected == ({"submarine": 4} if seen else {})
    assert report.undetected == ({} if seen else {"submarine": 4})


@pytest.mark.rule("AARE-SUBDET-sides")
def test_each_side_detects_only_the_other_sides_subs() -> None:
    b = battle(units(UK, destroyer=1, submarine=1), units(GER, destroyer=1, submarine=1))
    # detection: attacker's destroyer 1 (detects), defender's destroyer 6 (misses); then all fire misses
    b, events = first_cycle(b, [1, 6, 6, 6, 6, 6], Submerge(0))
    found = detections(events)
    assert found["defender"].detected == {"submarine": 1} and found["attacker"].detected == {}
    assert [r.side for r in rolls(events, "sub detection")] == ["attacker", "defender"]


@pytest.mark.rule("AARE-SUBDET-detected-normal")
def test_a_detected_subs_victim_fires_back_and_the_sub_cannot_submerge_past_a_destroyer() -> None:
    b = battle(units(GER, submarine=1), units(UK, destroyer=1, transport=1))
    # detection 2 (detected); sub 1 hits the destroyer; the destroyer still fires (6)
    b, events = first_cycle(b, [2, 1, 6, 6], {"destroyer": 1})
    assert [(r.step, r.unit) for r in rolls(events)][-2:] == [
        ("defender fire", "transport"), ("defender fire", "destroyer")]
    removed = [e for e in events if isinstance(e, UnitsRemoved)]
    assert (removed[0].units, removed[0].step) == ({"destroyer": 1}, "remove casualties")
    # detection 2, 6 (detected); everybody misses: no early submerge, and none at step 7 past the destroyers
    kept = battle(units(GER, submarine=1), units(UK, destroyer=2))
    kept, events = first_cycle(kept, [2, 6, 6, 6, 6])
    assert "attacker undetected subs submerge" not in [s for s, _ in steps(events)]
    assert "attacker submerge" in [s for s, _ in steps(events)] and kept.state.cycle == 2


@pytest.mark.rule("AARE-SUBDET-undetected-hits-stick")
def test_an_undetected_subs_victim_is_removed_before_it_fires() -> None:
    b = battle(units(GER, submarine=1), units(UK, destroyer=1, transport=1))
    # detection 4 (missed); sub 1 hits; the destroyer is removed at step 3 and never rolls
    b, events = first_cycle(b, [4, 1, 6], {"destroyer": 1}, Submerge(0))
    removed = [e for e in events if isinstance(e, UnitsRemoved)]
    assert (removed[0].units, removed[0].step) == ({"destroyer": 1}, "remove opening fire casualties")
    assert [r.unit for r in rolls(events, "defender fire")] == ["transport"]


@pytest.mark.rule("AARE-SUBDET-undetected-submerge")
def test_an_undetected_sub_may_submerge_right_after_opening_fire_despite_destroyers() -> None:
    b = until_roll(battle(units(GER, submarine=1), units(UK, destroyer=2)), "sub detection")
    b, _ = resolve_roll(b, {("lowest", "defender", "United Kingdom destroyers"): 6})
    b, _ = run(b)
    b, events = roll_with_dice(b, ScriptedDice([6]))  # the sub misses
    b, _ = run(b)
    assert isinstance(b.state.pending, ChooseSubmerge)
    assert (b.state.pending.stage, b.state.pending.available) == ("after opening fire", 1)
    b, events = apply_answer(b, Submerge(1))
    assert b.state.result == "retreat" and present(b, "attacker") == {}
    assert rolls(events, "defender fire") == []


@pytest.mark.rule("AARE-SUBDET-decline-becomes-detected")
def test_an_undetected_sub_that_stays_is_detected_for_the_rest_of_the_battle() -> None:
    b = battle(units(GER, submarine=1), units(UK, destroyer=1))
    b, events = first_cycle(b, [6, 6, 6], Submerge(0))  # undetected, stays; everybody misses
    assert flagged(b, "attacker") == {"submarine": 1}
    assert "attacker submerge" in [s for s, _ in steps(events)]
    assert not isinstance(b.state.pending, ChooseSubmerge)  # the destroyer blocks a submerge at step 7
    # cycle 2: its hit stays on the board and the destroyer fires back
    b, events = one_cycle(b, [1, 6])
    assert [(r.step, r.unit) for r in rolls(events)] == [("attacker sub first strike", "submarine"),
                                                         ("defender fire", "destroyer")]
    assert b.state.result == "attacker"


@pytest.mark.rule("AARE-SUBDET-air-modifier")
def test_own_aircraft_add_one() -> None:
    b = battle(units(GER, submarine=2), {**units(UK, destroyer=1, carrier=1, fighter=1)})
    assert values(b) == {"United Kingdom:submarine": 4}
    b2 = until_roll(b, "sub detection")
    assert b2.state.roll is not None and b2.state.roll.groups[0].hit_on == 4
    b2, events = first_cycle(b2, [4, 6, 6, 6, 6, 6])
    assert detections(events)["attacker"].detected == {"submarine": 2}
    allied = battle(units(GER, submarine=2), {**units(UK, destroyer=1), **units(US, carrier=1, fighter=1)})
    assert values(allied) == {"United Kingdom:submarine": 3}  # a US fighter does not help UK destroyers


@pytest.mark.rule("AARE-SUBDET-lra-modifier")
def test_long_range_aircraft_make_the_air_bonus_two() -> None:
    lra = {"owner_techs": {US: frozenset({"long_range_aircraft"})}}
    assert values(battle(units(GER, submarine=1), units(US, destroyer=1, carrier=1, fighter=1), **lra)) == {
        "United States:submarine": 5}
    assert values(battle(units(GER, submarine=1), units(US, destroyer=1), **lra)) == {"United States:submarine": 3}
    attacking = battle(units(US, destroyer=1, bomber=1), units(GER, submarine=1),
                       attacker_techs={"long_range_aircraft"})
    assert values(attacking, "attacker") == {"United States:submarine": 5}


@pytest.mark.rule("AARE-SUBDET-ca-modifier")
def test_combined_arms_adds_one() -> None:
    ca = battle(units(GER, submarine=1), units(UK, destroyer=1), owner_techs={UK: frozenset({"combined_bombardment"})})
    assert values(ca) == {"United Kingdom:submarine": 4}


@pytest.mark.rule("AARE-SUBDET-supersub-modifier")
def test_super_subs_are_one_harder_to_find() -> None:
    b = battle(units(JPN, submarine=2), units(US, destroyer=1), attacker_techs={"super_submarines"})
    assert values(b) == {"United States:submarine": 2}
    b, events = first_cycle(b, [3, 6, 6, 6], Submerge(0))
    assert detections(events)["attacker"].undetected == {"submarine": 2}


@pytest.mark.rule("AARE-SUBDET-kaiten-modifier")
def test_kaitens_are_one_harder_to_find_and_it_adds_to_super_subs() -> None:
    plain = battle(kaitens(1), units(US, destroyer=1))
    assert values(plain) == {"United States:submarine/kaiten": 2}
    both = battle(kaitens(1), units(US, destroyer=1), attacker_techs={"super_submarines"})
    assert values(both) == {"United States:submarine/kaiten": 1}


@pytest.mark.rule("AARE-SUBDET-modifiers-sum")
def test_modifiers_add_up() -> None:
    b = battle(kaitens(1), units(US, destroyer=1, carrier=1, fighter=1), attacker_techs={"super_submarines"},
               owner_techs={US: frozenset({"long_range_aircraft", "combined_bombardment"})})
    [group] = detector_groups(b, "defender")
    [(key, _)] = hidden_subs(b, "attacker")
    value, reasons = detect_value(b, group, key)
    assert value == 4  # 3 + 2 + 1 - 1 - 1
    assert [rule for rule, _ in reasons] == [
        "AARE-SUBDET-baseline-value-3", "AARE-SUBDET-lra-modifier", "AARE-SUBDET-ca-modifier",
        "AARE-SUBDET-supersub-modifier", "AARE-SUBDET-kaiten-modifier"]


@pytest.mark.rule("AARE-SUBDET-split-dd-groups")
def test_worked_example_five_german_subs_against_uk_and_us_destroyers_with_lra() -> None:
    """BASE GAME 10 C, tricky case 1: 5 German subs attack 2 UK DD, 1 US DD, 1 US AC, 1 US FTR; the US has LRA.
    UK destroyers roll at 3, the US destroyer at 5; UK rolls 4, 6 and the US rolls 5: all five are detected."""
    b = battle(units(GER, submarine=5), {**units(UK, destroyer=2), **units(US, destroyer=1, carrier=1, fighter=1)},
               owner_techs={US: frozenset({"long_range_aircraft"})})
    b, events = first_cycle(b, [4, 6, 5] + [6] * 5 + [6] * 5)
    assert [(r.unit, r.count, r.hit_on, r.dice) for r in rolls(events, "sub detection")] == [
        ("United Kingdom destroyers", 2, 3, (4, 6)),
        ("United States destroyers", 1, 5, (5,)),
    ]
    report = detections(events)["attacker"]
    assert report.detected == {"submarine": 5} and report.undetected == {}
    assert any("5 = 3 base" in v and "AARE-SUBDET-lra-modifier" in v for v in report.values)
    assert "attacker undetected subs submerge" not in [s for s, _ in steps(events)]


@pytest.mark.rule("AARE-SUBDET-split-sub-groups")
def test_worked_example_super_subs_detected_kaitens_not() -> None:
    """BASE GAME 10 C, tricky case 2: 2 Japanese super subs and 2 Kaitens attack 3 US DDs; Japan has Super Subs.
    Values 2 and 1; the US rolls 2, 4, 5: the super subs are detected, the Kaitens are not."""
    b = battle({**units(JPN, submarine=2), **kaitens(2)}, units(US, destroyer=3), attacker_techs={"super_submarines"})
    assert values(b) == {"United States:submarine": 2, "United States:submarine/kaiten": 1}
    b = until_roll(b, "sub detection")
    b, events = roll_with_dice(b, ScriptedDice([2, 4, 5]))
    b, more = run(b)  # the detection result, up to the first Kaiten's roll (the Kaiten advantage)
    events += more
    assert b.state.roll is not None and b.state.roll.step == "kaitens"
    [roll] = rolls(events, "sub detection")
    assert (roll.count, roll.hit_on, roll.dice) == (3, 2, (2, 4, 5))
    report = detections(events)["attacker"]
    assert report.detected == {"submarine": 2} and report.undetected == {"submarine": 2}
    assert flagged(b, "attacker") == {"submarine": 2} and flagged(b, "attacker", "kaiten") == {"submarine": 2}
    assert not any(k.has("detected") for k, _ in b.state.attacker if k.has("kaiten"))


@pytest.mark.rule("AARE-SUBDET-undetected-hits-stick", "AARE-SUBDET-detected-normal", "AARE-SUBDET-split-sub-groups")
def test_one_sides_undetected_and_detected_subs_remove_their_hits_differently() -> None:
    """German super subs (value 2) and Japanese subs (value 3) defend together; UK destroyers roll 3, 6."""
    b = battle(units(UK, destroyer=2), {**units(GER, submarine=1), **units(JPN, submarine=1)},
               owner_techs={GER: frozenset({"super_submarines"}), JPN: frozenset()})
    # both subs hit (1, 1); the German hit is removed at step 3, the Japanese one fires back (6) first
    b, events = first_cycle(b, [3, 6, 1, 1, 6], Submerge(0))
    assert detections(events)["defender"].detected == {"submarine": 1}
    removed = [(e.units, e.step) for e in events if isinstance(e, UnitsRemoved)]
    assert removed == [({"destroyer": 1}, "remove opening fire casualties"), ({"destroyer": 1}, "remove casualties")]
    assert [(r.step, r.count) for r in rolls(events, "attacker fire")] == [("attacker fire", 1)]
    assert b.state.result == "defender"


@pytest.mark.rule("AARE-SUBDET-pass-through")
def test_subs_pass_hostile_zones_unless_a_destroyer_is_there() -> None:
    from aare.errors import IllegalAction
    from tests.aare.common import position

    placed = {"SZ 8": "Germany: 1 submarine", "SZ 7": "United Kingdom: 1 battleship"}
    game = position("Germany", "non-combat-move", placed)
    game.apply({"type": "move", "units": "1 submarine", "path": ["SZ 8", "SZ 7", "SZ 6"]})
    guarded = position("Germany", "non-combat-move", {**placed, "SZ 7": "United Kingdom: 1 destroyer"})
    with pytest.raises(IllegalAction) as err:
        guarded.apply({"type": "move", "units": "1 submarine", "path": ["SZ 8", "SZ 7", "SZ 6"]})
    assert err.value.rule_id == "LHTR-SEAMOVE-sub-passage"
