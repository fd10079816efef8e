"""Anniversary Enhanced submarine detection: every sub starts undetected, destroyers roll once each in the first
cycle at a destroyer-to-detect value of 2 and its modifiers, undetected subs' opening fire and submerge, and the
calculator following it (AA50E-SUBDET-*)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import UnitKey
from aare.combat.decisions import ChooseSubmerge, Submerge
from aare.combat.events import UnitsRemoved
from aare.combat.policy import DEFAULT_POLICY, Policy
from aare.combat.setup import Battle
from aare.combat.sub_detection import detect_value, detector_groups, hidden_subs
from aare.odds import build_battle, fleet, odds
from aare.odds.calculator import exact_tally
from tests.aa50.common import move, position
from tests.aa50.test_odds import gap
from tests.aare.common import detections, first_cycle, flagged, one_cycle, present, rolls, steps, units, until_roll

RULES = "aa50e-1941"
GER, JPN, UK, US = "Germany", "Japan", "United Kingdom", "United States"
R = "AA50E-SUBDET-"


def battle(attacker: Any, defender: Any, **inputs: Any) -> Battle:
    return build_battle(attacker, defender, RULES, "sea", **inputs)


def value(b: Battle, side: str = "defender", owner: str | None = None) -> int:
    """The DD-to-detect value of the other side's first sub against `side`'s (or `owner`'s) destroyers."""
    subs = hidden_subs(b, "attacker" if side == "defender" else "defender")  # type: ignore[arg-type]
    groups = [g for g in detector_groups(b, side) if owner in (None, g.owner)]  # type: ignore[arg-type]
    return detect_value(b, groups[0], subs[0][0])[0]


def techs(**by_owner: set[str]) -> dict[str, frozenset[str]]:
    names = {"uk": UK, "us": US, "ger": GER, "jpn": JPN}
    return {names[k]: frozenset(v) for k, v in by_owner.items()}


@pytest.mark.rule(R + "start-undetected")
def test_every_sub_on_both_sides_starts_undetected() -> None:
    b = until_roll(battle({**units(GER, submarine=2, destroyer=1)}, units(UK, submarine=1, destroyer=1)),
                   "sub detection")
    assert flagged(b, "attacker") == {} == flagged(b, "defender")
    assert sum(n for _, n in hidden_subs(b, "attacker")) == 2 and sum(n for _, n in hidden_subs(b, "defender")) == 1
    # the base game knows no detection: the destroyer alone cancels the surprise strike
    base = build_battle(units(GER, submarine=2), units(UK, destroyer=1), "aa50-1941", "sea")
    assert base.setup.rules.sub_detection is None and battle(units(GER, submarine=2), units(UK, destroyer=1)).setup \
        .rules.sub_detection is not None


@pytest.mark.rule(R + "base-value")
def test_the_value_is_two_a_two_detects_a_three_does_not() -> None:
    b = battle(units(GER, submarine=2), units(UK, destroyer=1, transport=1))
    [group] = detector_groups(b, "defender")
    assert detect_value(b, group, UnitKey("submarine", GER)) == (2, ((R + "base-value", "2 base"),))
    _seen, events = first_cycle(b, [2, 6, 6, 6])  # 2 detects: the subs fire in the main step, the destroyer back
    assert detections(events)["attacker"].detected == {"submarine": 2}
    assert [(r.step, r.unit) for r in rolls(events)][1:] == [("attacker fire", "submarine"),
                                                             ("defender fire", "destroyer")]
    _unseen, events = first_cycle(b, [3, 6, 6, 6])  # 3 does not: the subs fire in opening fire
    assert detections(events)["attacker"].undetected == {"submarine": 2}
    assert [(r.step, r.unit) for r in rolls(events)][1:] == [("attacker sub first strike", "submarine"),
                                                             ("defender fire", "destroyer")]


@pytest.mark.rule(R + "only-destroyers")
def test_without_a_destroyer_nobody_rolls_and_the_subs_stay_undetected() -> None:
    b = battle(units(UK, battleship=1, cruiser=1), units(GER, submarine=2))
    b, events = first_cycle(b, [6, 6, 6, 6])
    assert rolls(events, "sub detection") == [] and "sub detection" not in [s for s, _ in steps(events)]
    assert next((r.step, r.side) for r in rolls(events)) == ("defender sub first strike", "defender")


@pytest.mark.rule(R + "roll-timing")
def test_one_die_per_destroyer_before_opening_fire_in_the_first_cycle_only() -> None:
    b = battle(units(GER, submarine=2), units(US, destroyer=3))
    # detection 4, 5, 6: nothing; subs 6, 6 in opening fire; destroyers 6, 6, 6
    b, events = first_cycle(b, [4, 5, 6, 6, 6, 6, 6, 6])
    [roll] = rolls(events, "sub detection")
    assert (roll.count, roll.dice, roll.side) == (3, (4, 5, 6), "defender")
    order = [s for s, _ in steps(events)]
    assert order.index("sub detection") < order.index("attacker sub first strike")
    b, events = one_cycle(b, [6, 6, 6, 6, 6])  # round 2: no detection die
    assert rolls(events, "sub detection") == [] and "sub detection" not in [s for s, _ in steps(events)]
    # a side whose enemy has no submarines does not roll: only the defender's destroyer faces subs here
    both = until_roll(battle(units(GER, submarine=1, destroyer=2), units(UK, destroyer=1)), "sub detection")
    assert both.state.roll is not None and [(g.side, g.count) for g in both.state.roll.groups] == [("defender", 1)]


@pytest.mark.rule(R + "group-result")
def test_one_success_detects_every_opposing_sub() -> None:
    b = battle(units(GER, submarine=4), units(UK, destroyer=2))
    b, events = first_cycle(b, [5, 1, 6, 6, 6, 6, 6, 6])
    assert rolls(events, "sub detection")[0].dice == (5, 1)
    assert detections(events)["attacker"].detected == {"submarine": 4}
    nothing = battle(units(GER, submarine=4), units(UK, destroyer=2))
    _, events = first_cycle(nothing, [5, 3, 6, 6, 6, 6, 6, 6], Submerge(0))
    assert detections(events)["attacker"].undetected == {"submarine": 4}


@pytest.mark.rule(R + "detected-normal-rules")
def test_detected_subs_fire_in_the_main_step_their_casualties_fire_back_and_they_cannot_submerge() -> None:
    b = battle(units(GER, submarine=2), units(UK, destroyer=1, cruiser=1))
    # detected (1); subs 1, 6 in the main step with the destroyer and cruiser (6, 6): the hit ship fires back
    b, events = first_cycle(b, [1, 1, 6, 6, 6], {"destroyer": 1})
    assert [(r.step, r.unit) for r in rolls(events)][1:] == [
        ("attacker fire", "submarine"), ("defender fire", "destroyer"), ("defender fire", "cruiser")]
    assert not any(isinstance(e, ChooseSubmerge) for e in events)
    assert "attacker undetected subs submerge" not in [s for s, _ in steps(events)]
    assert present(b, "defender") == {"cruiser": 1}


@pytest.mark.rule(R + "undetected-hits-removed")
def test_undetected_subs_hits_are_removed_at_the_end_of_opening_fire_despite_a_destroyer() -> None:
    b = battle(units(GER, submarine=2), units(UK, destroyer=1, cruiser=1))
    # not detected (3); subs 1, 6 in opening fire: the destroyer goes before it can fire; the cruiser 6
    b, events = first_cycle(b, [3, 1, 6, 6], {"destroyer": 1}, Submerge(0))
    removed = [e for e in events if isinstance(e, UnitsRemoved)]
    assert (removed[0].units, removed[0].step) == ({"destroyer": 1}, "remove opening fire casualties")
    assert [(r.step, r.unit) for r in rolls(events)][1:] == [("attacker sub first strike", "submarine"),
                                                             ("defender fire", "cruiser")]


@pytest.mark.rule(R + "undetected-submerge")
def test_undetected_subs_fire_then_submerge_despite_a_destroyer() -> None:
    b = battle(units(GER, submarine=2), units(UK, destroyer=2))
    b, events = first_cycle(b, [3, 4, 1, 6], Submerge(2))
    assert b.state.result == "retreat" and present(b, "attacker") == {}
    assert present(b, "defender") == {"destroyer": 1}
    assert [r.step for r in rolls(events)] == ["sub detection", "attacker sub first strike"]  # no more fire
    # detected, they may not: no offer after opening fire
    seen = battle(units(GER, submarine=2), units(UK, destroyer=2))
    seen, events = first_cycle(seen, [3, 1, 6, 6, 6, 6])
    assert "attacker undetected subs submerge" not in [s for s, _ in steps(events)]


@pytest.mark.rule(R + "stay-becomes-detected")
def test_subs_that_stay_are_detected_they_do_not_fire_twice_and_round_two_follows_the_destroyer_rules() -> None:
    b = battle(units(GER, submarine=2), units(UK, destroyer=2))
    # not detected; opening fire 6, 6; they stay; the destroyers fire 6, 6 (the subs do not fire again)
    b, events = first_cycle(b, [3, 4, 6, 6, 6, 6], Submerge(0))
    assert [(r.step, r.unit) for r in rolls(events)][1:] == [("attacker sub first strike", "submarine"),
                                                             ("defender fire", "destroyer")]
    assert hidden_subs(b, "attacker") == []  # past the first cycle: detected
    # round 2: they fire in the main step with the destroyers, their casualties fire back
    b, events = one_cycle(b, [1, 6, 6, 6])
    assert [(r.step, r.unit) for r in rolls(events)] == [("attacker fire", "submarine"), ("defender fire", "destroyer")]


@pytest.mark.rule(R + "modifier-table")
def test_the_modifiers_sum_super_destroyers_long_range_air_and_a_fighter_against_improved_shipyards() -> None:
    b = battle(units(GER, submarine=1), units(US, destroyer=1, fighter=1, carrier=1),
               owner_techs=techs(us={"super_destroyers", "long_range_aircraft"}, ger={"improved_shipyards"}))
    [group] = detector_groups(b, "defender")
    total, reasons = detect_value(b, group, UnitKey("submarine", GER))
    assert total == 2 + 1 + 2 - 2 == 3
    assert [r for r, _ in reasons] == [R + "base-value", R + "mod-long-range-air", R + "mod-super-destroyers",
                                       R + "mod-improved-shipyards"]


@pytest.mark.rule(R + "mod-airpower")
def test_an_aircraft_of_the_detecting_side_adds_one() -> None:
    for aircraft in ("bomber", "fighter"):
        b = battle(units(GER, submarine=1), units(UK, destroyer=1, **{aircraft: 1}))
        assert value(b) == 3
        _, events = first_cycle(b, [3, 6, 6, 6])  # a 3 detects
        assert detections(events)["attacker"].detected == {"submarine": 1}
    # the side's aircraft count whoever owns them; the enemy's do not
    ally = battle(units(GER, submarine=1), {**units(UK, destroyer=1), **units(US, fighter=1)})
    assert value(ally) == 3
    enemy = battle({**units(GER, submarine=1), **units(GER, bomber=1)}, units(UK, destroyer=1))
    assert value(enemy) == 2


@pytest.mark.rule(R + "mod-long-range-air")
def test_long_range_aircraft_make_the_air_bonus_two_not_three() -> None:
    lra = techs(uk={"long_range_aircraft"})
    assert value(battle(units(GER, submarine=1), units(UK, destroyer=1, fighter=1), owner_techs=lra)) == 4
    assert value(battle(units(GER, submarine=1), units(UK, destroyer=1), owner_techs=lra)) == 2  # no air: nothing
    both = battle(units(GER, submarine=1), units(UK, destroyer=1, fighter=1, bomber=1), defender_techs={
        "long_range_aircraft"})
    assert value(both) == 4


@pytest.mark.rule(R + "mod-improved-shipyards")
def test_improved_shipyards_take_two_a_value_of_nothing_cannot_detect() -> None:
    shipyards = techs(ger={"improved_shipyards"})
    b = battle(units(GER, submarine=1), units(UK, destroyer=1), owner_techs=shipyards)
    assert value(b) == 0
    _, events = first_cycle(b, [6, 6], Submerge(0))  # no die could detect: none is rolled, the sub stays hidden
    assert [(r.step, r.unit) for r in rolls(events)] == [("attacker sub first strike", "submarine"),
                                                         ("defender fire", "destroyer")]
    assert value(battle(units(GER, submarine=1), units(UK, destroyer=1, fighter=1), owner_techs=shipyards)) == 1


@pytest.mark.rule(R + "mod-super-destroyers")
def test_super_destroyers_add_one() -> None:
    b = battle(units(GER, submarine=1), units(US, destroyer=1), owner_techs=techs(us={"super_destroyers"}))
    assert value(b) == 3
    _, events = first_cycle(b, [3, 6, 6])
    assert detections(events)["attacker"].detected == {"submarine": 1}


@pytest.mark.rule(R + "multinational")
def test_each_nation_rolls_with_its_own_modifiers_and_one_success_detects_for_all() -> None:
    b = battle(units(GER, submarine=2), {**units(UK, destroyer=1), **units(US, destroyer=1)},
               owner_techs=techs(us={"super_destroyers"}))
    assert (value(b, owner=UK), value(b, owner=US)) == (2, 3)
    roll = until_roll(b, "sub detection").state.roll
    assert roll is not None and sorted((g.unit, g.count) for g in roll.groups) == [
        ("United Kingdom destroyers", 1), ("United States destroyers", 1)]
    _, events = first_cycle(b, [5, 3, 6, 6, 6, 6])  # UK 5 misses, US 3 detects: both subs detected
    assert detections(events)["attacker"].detected == {"submarine": 2}


# ---------------------------------------------------------------- the calculator


@pytest.mark.rule(R + "roll-timing", R + "undetected-hits-removed", R + "stay-becomes-detected")
def test_the_calculator_reproduces_one_sub_against_one_destroyer_by_hand() -> None:
    # detected (1/3): the Anniversary battle, 2/5 each way; undetected (2/3): the sub hits first (1/3), else it
    # stays and only the destroyer fires in that cycle (it hits 1/3), then the Anniversary battle
    result = odds("1 submarine", "1 destroyer", RULES, battle="sea")
    assert result.attacker_win == pytest.approx(1 / 3 * 2 / 5 + 2 / 3 * (1 / 3 + 2 / 3 * 2 / 3 * 2 / 5), abs=1e-12)
    assert result.attacker_win == pytest.approx(64 / 135, abs=1e-12)
    base = odds("1 submarine", "1 destroyer", "aa50-1941", battle="sea")
    assert base.attacker_win == pytest.approx(2 / 5, abs=1e-12)
    # with the undetected sub submerging after its shot: a win on its hit, else a retreat
    away = odds("1 submarine", "1 destroyer", RULES, battle="sea", attacker_submerge_undetected=True)
    assert away.attacker_win == pytest.approx(2 / 15 + 2 / 9, abs=1e-12)
    assert away.retreat == pytest.approx(4 / 9, abs=1e-12)


@pytest.mark.rule(R + "group-result", R + "multinational", R + "mod-airpower", R + "undetected-submerge")
@pytest.mark.parametrize(("attacker", "defender", "inputs"), [
    ("2 submarines, 1 fighter", "2 destroyers, 1 cruiser", {}),
    ("1 destroyer, 1 submarine", "2 submarines, 1 destroyer", {}),
    ("3 submarines", "1 destroyer, 1 battleship", {"defender_techs": {"long_range_aircraft"}}),
    ("2 submarines, 1 bomber", "1 destroyer, 1 carrier, 1 fighter", {"attacker_techs": {"improved_shipyards"}}),
])
def test_the_fast_solver_follows_the_step_engine(attacker: str, defender: str, inputs: dict[str, Any]) -> None:
    b = build_battle(attacker, defender, RULES, "sea", **inputs)
    assert fleet.applies(b, DEFAULT_POLICY)
    assert gap(exact_tally(b), exact_tally(b, fast=False)) <= 1e-12
    away = Policy(attacker_submerge_undetected=True, defender_submerge_undetected=True)
    assert gap(exact_tally(b, away), exact_tally(b, away, fast=False)) <= 1e-12
    mc = odds(attacker, defender, RULES, battle="sea", method="mc", runs=3_000, seed=3, **inputs)
    exact = odds(attacker, defender, RULES, battle="sea", **inputs)
    assert abs(mc.attacker_win - exact.attacker_win) < 0.05


@pytest.mark.rule(R + "roll-timing", R + "mod-long-range-air")
def test_aare_odds_explains_the_detection_steps_and_reads_the_techs() -> None:
    runner = CliRunner()
    base = ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "1 submarine", "--defender", "1 destroyer"]
    res = runner.invoke(cli, [*base, "--explain"])
    assert res.exit_code == 0, res.output
    assert "1. sub detection — 1st cycle only [AA50E-SUBDET-roll-timing]" in res.output
    assert "attacker undetected subs submerge — 1st cycle only [AA50E-SUBDET-undetected-submerge]" in res.output
    data = json.loads(runner.invoke(cli, [*base, "--json"]).output)
    assert data["attacker_win"] == pytest.approx(64 / 135, abs=1e-9)
    away = json.loads(runner.invoke(cli, [*base, "--json", "--submerge-undetected", "attacker"]).output)
    assert away["retreat"] == pytest.approx(4 / 9, abs=1e-9)
    # the destroyer's side with Long Range Aircraft and a fighter detects on 4: the subs take fewer ships
    air = ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "1 submarine", "--defender",
           "1 destroyer, 1 carrier, 1 fighter", "--json"]
    plain = json.loads(runner.invoke(cli, air).output)
    lra = json.loads(runner.invoke(cli, [*air, "--defender-tech", "long_range_aircraft"]).output)
    assert lra["defender_ipc_lost"] < plain["defender_ipc_lost"]


@pytest.mark.rule(R + "mod-improved-shipyards", R + "base-value")
@pytest.mark.parametrize(("techs_held", "first"), [
    ({}, "sub detection: United Kingdom 1 United Kingdom destroyers at 2, 1 hit"),
    ({GER: ["improved_shipyards"]}, "attacker sub first strike: Germany 1 submarine at 2, 1 hit"),
])
def test_in_a_game_the_powers_technologies_set_the_value(techs_held: dict[str, list[str]], first: str) -> None:
    game = position(GER, "combat-move", {"SZ 6": "United Kingdom: 1 destroyer", "SZ 5": "Germany: 1 submarine"},
                    rules=RULES, techs=techs_held, dice=[1, 6, 6, 6])
    move(game, "1 submarine", "SZ 5", "SZ 6")
    game.apply({"type": "end_phase"})
    events = game.apply({"type": "fight", "space": "SZ 6"})
    assert next(e.purpose for e in events if e.type == "dice_rolled") == f"sea battle in SZ 6: {first}"
