"""AARHE land combat: the cycle's opening fire and main round, dogfights and air supremacy, hit allocation,
terrain, infrastructure defence and the forced retreat."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import HitBatch, Target, UnitKey, make_stacks
from aare.combat.board_battle import build_battle as board_battle
from aare.combat.decisions import ChooseCasualties, ChooseTargets, Press, PressOrRetreat, Retreat, Targets
from aare.combat.engine import advance, casualties_from_types, decide, start_battle
from aare.combat.events import DiceRolled, Retreated, UnitsMarked, UnitsRemoved
from aare.combat.policy import default_targets
from aare.combat.rules import CombatRules
from aare.combat.sequences import lhtr_sequence
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.errors import IllegalAction
from aare.movement.battles import pending_battles
from aare.odds import build_battle, odds
from aare.rules.ruleset import load_ruleset
from tests.aarhe.common import no_missions, refused, units
from tests.aarhe.move_common import at

RULES = "aarhe"
MOUNTAINS = frozenset({"terrain:mountainous"})


def battle(attacker: str, defender: str, kind: str = "land", **inputs: Any) -> Battle:
    return build_battle(attacker, defender, RULES, kind, **inputs)


def rolls(events: list[Any], step: str = "") -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and (not step or e.step == step)]


def fire(b: Battle, dice: list[int], targets: tuple[str, ...] = ()) -> tuple[Battle, list[Any]]:
    """Run on with `dice`, aircraft choosing their targets (`targets`, else the dearest units) as asked."""
    source = ScriptedDice(dice)
    b, events = advance(b, source)
    while isinstance(b.state.pending, ChooseTargets):
        b, more = advance(decide(b, default_targets(b, b.state.pending, targets)), source)
        events += more
    return b, events


@pytest.mark.rule("AARHE-LANDSEQ-opening-fire", "AARHE-LANDSEQ-main-round", "AARHE-AIRCOMBAT-opening-fire")
def test_the_land_cycle_runs_opening_fire_then_the_main_round() -> None:
    names = battle("1 infantry", "1 infantry").setup.sequence.names
    assert names == ("jets", "id search", "id attack", "attacker air targets", "defender air targets",
                     "attacker jets skip the dogfight", "defender jets skip the dogfight", "attacker air fire",
                     "defender air fire",
                     "remove opening fire casualties", "attacker land fire", "defender land fire",
                     "remove casualties", "forced retreat", "press or retreat", "defender retreat", "capture dice",
                     "retreat ends")


@pytest.mark.rule("AARHE-AIRCOMBAT-opening-fire", "AARHE-AIRCOMBAT-supremacy-values")
def test_an_attacking_fighters_hit_is_removed_before_the_defending_land_units_fire() -> None:
    b = battle("1 fighter, 1 infantry", "1 armour, 1 infantry")
    # the fighter (3: its attack value under air supremacy) hits the tank it chose; the infantry misses
    b, events = fire(b, [3, 6, 6], targets=("armour",))
    assert rolls(events, "attacker air fire")[0].hit_on == 3
    # only the defending infantry fires in the main round
    assert [(r.step, r.unit, r.count) for r in rolls(events)][1:] == [
        ("attacker land fire", "infantry", 1), ("defender land fire", "infantry", 1)]
    assert any(isinstance(e, UnitsRemoved) and e.units == {"armour": 1} for e in events)


@pytest.mark.rule("AARHE-AIRCOMBAT-supremacy-selective")
def test_aircraft_alone_in_the_sky_choose_their_targets_before_rolling() -> None:
    b, _ = advance(battle("2 fighter, 1 bomber, 1 infantry", "1 armour, 1 artillery, 2 infantry"), ScriptedDice([]))
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.side == "attacker" and decision.count == 2
    assert decision.rule == "AARHE-AIRCOMBAT-supremacy-selective"
    with pytest.raises(IllegalAction):
        decide(b, Targets((("", "armour"), ("", "armour"))))  # one tank cannot be named twice
    b = decide(b, Targets((("", "armour"), ("", "artillery"))))
    # fighter 1 hits the tank, fighter 2 misses; the bomber's hit is the defender's to allocate
    b, events = advance(b, ScriptedDice([1, 6, 2]))
    air = rolls(events, "attacker air fire")
    assert sorted((r.unit, r.target) for r in air) == [
        ("bomber", "first air"), ("fighter", "only armour"), ("fighter", "only artillery")]
    # the tank is lost whatever the defender wishes; the bomber's hit is the defender's to place
    assert isinstance(b.state.pending, ChooseCasualties) and b.state.pending.required == 2
    with pytest.raises(IllegalAction):
        decide(b, {"infantry": 2})
    b, _ = advance(decide(b, {"armour": 1, "infantry": 1}), ScriptedDice([6] * 4))
    assert units(b, "defender") == {"artillery": 1, "infantry": 1}
    # the defender alone in the air chooses too
    b, _ = advance(battle("2 infantry", "1 fighter, 1 infantry"), ScriptedDice([]))
    assert isinstance(b.state.pending, ChooseTargets) and b.state.pending.side == "defender"


@pytest.mark.rule("AARHE-LANDSEQ-main-round")
def test_a_defending_unit_hit_in_the_main_round_still_fires() -> None:
    b, events = fire(battle("1 infantry", "1 infantry"), [1, 2])
    assert [r.hits for r in rolls(events)] == [1, 1]
    assert b.state.result == "draw"


@pytest.mark.rule("AARHE-AIRCOMBAT-dogfight-values")
def test_aircraft_on_both_sides_fight_with_dogfight_values() -> None:
    _, events = fire(battle("1 fighter, 1 bomber, 1 infantry", "1 fighter, 1 infantry"), [6, 6, 6, 6])
    air = rolls(events, "attacker air fire") + rolls(events, "defender air fire")
    assert [(r.side, r.unit, r.hit_on) for r in air] == [("attacker", "fighter", 2), ("defender", "fighter", 3)]


@pytest.mark.rule("AARHE-AIRCOMBAT-supremacy-values")
def test_a_side_alone_in_the_air_fires_its_combat_values() -> None:
    _, events = fire(battle("1 fighter, 1 bomber, 1 infantry", "2 infantry"), [6, 6, 6, 6, 6])
    assert sorted((r.unit, r.hit_on) for r in rolls(events, "attacker air fire")) == [("bomber", 4), ("fighter", 3)]
    _, events = fire(battle("1 infantry", "1 fighter, 1 infantry"), [6, 6, 6])
    assert [(r.unit, r.hit_on) for r in rolls(events, "defender air fire")] == [("fighter", 4)]


@pytest.mark.rule("AARHE-AIRCOMBAT-air-hits-air-first")
def test_air_hits_go_to_aircraft_first_and_spill_over() -> None:
    # dogfight: the defending fighter hits (3) -- only one die, so a second hit comes from a second fighter
    b = battle("1 fighter, 5 infantry", "2 fighter, 1 infantry")
    b, _ = fire(b, [6, 1, 1])
    decision = b.state.pending
    assert isinstance(decision, ChooseCasualties) and decision.required == 2
    with pytest.raises(IllegalAction) as err:
        decide(b, {"infantry": 2})
    assert err.value.rule_id == "LHTR-COMBAT-hit-eligibility"
    b = decide(b, {"fighter": 1, "infantry": 1})
    b, events = fire(b, [6] * 5 + [6])
    assert any(isinstance(e, UnitsRemoved) and e.units == {"fighter": 1, "infantry": 1} for e in events)


@pytest.mark.rule("AARHE-AIRCOMBAT-fighter-tank-bonus")
def test_each_fighter_under_air_supremacy_lifts_one_tank() -> None:
    _, events = fire(battle("2 fighter, 3 armour", "4 infantry"), [6] * 9)
    assert sorted((r.count, r.hit_on) for r in rolls(events, "attacker land fire")) == [(1, 3), (2, 4)]
    # with enemy aircraft in the battle there is no bonus
    _, events = fire(battle("2 fighter, 3 armour", "1 fighter, 4 infantry"), [6] * 10)
    assert [(r.count, r.hit_on) for r in rolls(events, "attacker land fire")] == [(3, 3)]


@pytest.mark.rule("AARHE-LANDHIT-land-on-land")
def test_land_hits_go_to_land_units_only() -> None:
    b, _ = fire(battle("1 fighter, 1 infantry", "1 infantry"), [6, 6, 1])
    # the defender's hit must take the infantry: no choice is asked
    assert b.state.pending is None
    assert units(b, "attacker") == {"fighter": 1} or b.state.result is not None
    # against aircraft only, land hits are lost
    b, _ = fire(battle("2 fighter", "1 infantry, 1 fighter"), [6, 6, 6, 1])
    assert sum(n for k, n in b.state.attacker if k.type == "fighter" and not k.marked) == 2


@pytest.mark.rule("AARHE-LANDHIT-tank-priority")
def test_tank_hits_go_to_tanks_and_artillery_first() -> None:
    # the armour hits; the artillery is taken without a choice; the defenders miss
    b, _ = fire(battle("1 armour", "3 infantry, 1 artillery"), [1, 6, 6, 6, 6])
    assert isinstance(b.state.pending, PressOrRetreat)
    assert units(b, "defender") == {"infantry": 3}
    b, _ = fire(battle("1 armour", "3 infantry"), [1, 6, 6, 6])
    assert units(b, "defender") == {"infantry": 2}
    # infantry hits may take any land unit
    b, _ = fire(battle("1 infantry", "1 armour, 1 infantry"), [1])
    assert isinstance(b.state.pending, ChooseCasualties)


@pytest.mark.rule("AARHE-TERRAIN-combat-modifier")
def test_snow_and_mountains_cost_land_units_one_but_never_below_one() -> None:
    _, events = fire(battle("1 armour, 1 infantry", "2 infantry", site_tags=MOUNTAINS), [6] * 4)
    assert sorted((r.unit, r.hit_on) for r in rolls(events, "attacker land fire")) == [("armour", 2), ("infantry", 1)]
    assert [(r.unit, r.hit_on) for r in rolls(events, "defender land fire")] == [("infantry", 1)]
    _, events = fire(battle("1 armour", "1 infantry", site_tags=frozenset({"terrain:snowy"})), [6, 6])
    assert [r.hit_on for r in rolls(events)] == [2, 1]
    _, events = fire(battle("1 armour", "1 infantry", site_tags=frozenset({"terrain:desert"})), [6, 6])
    assert [r.hit_on for r in rolls(events)] == [3, 2]
    # aircraft are not land units
    _, events = fire(battle("1 fighter, 1 infantry", "1 infantry", site_tags=MOUNTAINS), [6, 6, 6])
    assert rolls(events, "attacker air fire")[0].hit_on == 3


@pytest.mark.rule("AARHE-ID-land-opening-fire", "AARHE-ID-search", "AARHE-ID-attack")
def test_an_id_searches_then_attacks_a_detected_aircraft() -> None:
    b = battle("1 fighter, 1 infantry", "1 aa_gun, 1 infantry")
    # search 1: detected; attack 1: destroyed; the fighter still fires in opening fire (removed at step 3)
    b, events = fire(b, [1, 1, 6, 6, 6])
    assert [(r.step, r.hit_on) for r in rolls(events)][:3] == [
        ("id search", 1), ("id attack", 1), ("attacker air fire", 3)]
    assert any(isinstance(e, UnitsMarked) and e.flag == "id-detected" for e in events)
    assert any(isinstance(e, UnitsRemoved) and e.units == {"fighter": 1} for e in events)
    # attack 2: repelled, it leaves the battle without loss
    b, events = fire(battle("1 fighter, 1 infantry", "1 aa_gun, 1 infantry"), [1, 2, 6, 6, 6])
    assert any(isinstance(e, Retreated) and e.units == {"fighter": 1} for e in events)
    assert rolls(events, "id attack")[0].repels == 1
    # search missed: no attack die
    _, events = fire(battle("1 fighter, 1 infantry", "1 aa_gun, 1 infantry"), [2, 6, 6, 6])
    assert not rolls(events, "id attack")


@pytest.mark.rule("AARHE-ID-land-opening-fire")
def test_an_id_fires_in_every_cycle() -> None:
    b = battle("1 fighter, 2 infantry", "1 aa_gun, 2 infantry")
    b, events = fire(b, [6, 6, 6, 6, 6, 6])  # cycle 1: all miss
    assert len(rolls(events, "id search")) == 1
    b, events = fire(decide(b, Press()), [6, 6, 6, 6, 6, 6])  # cycle 2: all miss
    assert len(rolls(events, "id search")) == 1


@pytest.mark.rule("AARHE-ID-search", "AARHE-ID-stacking")
def test_ids_spread_their_search_over_the_aircraft() -> None:
    _, events = fire(battle("1 bomber, 1 fighter, 1 infantry", "3 aa_gun, 1 infantry"), [6] * 10)
    searched = rolls(events, "id search")
    # three IDs, two aircraft: the dearer one (the bomber) gets two dice, the fighter one
    assert sorted((r.unit, r.count, r.per_unit) for r in searched) == [("bomber", 1, 2), ("fighter", 1, 1)]


@pytest.mark.rule("AARHE-ID-replaces-aa")
def test_the_id_stands_in_the_aa_guns_place() -> None:
    ruleset = load_ruleset(RULES)
    assert ruleset.units.resolve("ID") == ruleset.units.resolve("infrastructure defence") == "aa_gun"
    assert "aa fire" not in battle("1 fighter", "1 aa_gun, 1 infantry").setup.sequence.names
    _, events = fire(battle("2 fighter", "1 aa_gun, 1 infantry"), [6, 6, 6, 6, 6])
    assert [r.step for r in rolls(events)][:1] == ["id search"]


@pytest.mark.rule("AARHE-ID-not-casualty")
def test_an_id_is_never_a_casualty() -> None:
    b, _ = fire(battle("2 infantry", "1 infantry, 1 aa_gun"), [1, 1, 6])
    assert b.state.result == "attacker"
    assert units(b, "defender") == {"aa_gun": 1}


@pytest.mark.rule("AARHE-ID-search", "AARHE-ID-attack")
def test_the_calculators_exact_id_dice_agree_with_rolled_ones() -> None:
    units = ("2 fighter, 1 bomber, 2 armour", "3 infantry, 2 aa_gun")
    exact = odds(*units, RULES)
    assert exact.attacker_win + exact.defender_win + exact.draw == pytest.approx(1.0)
    rolled = odds(*units, RULES, method="mc", runs=4_000, seed=7)
    assert rolled.attacker_win == pytest.approx(exact.attacker_win, abs=0.02)
    assert rolled.attacker_ipc_lost == pytest.approx(exact.attacker_ipc_lost, rel=0.1)


@pytest.mark.rule("AARHE-TERRAIN-combat-modifier")
def test_the_calculator_takes_the_terrain() -> None:
    args = ["odds", "--rules", RULES, "--attacker", "3 armour", "--defender", "3 infantry", "--json"]
    flat = json.loads(CliRunner().invoke(cli, args).output)
    hills = json.loads(CliRunner().invoke(cli, [*args, "--terrain", "mountainous"]).output)
    # infantry defending at 1 instead of 2 hurts more than armour attacking at 2 instead of 3
    assert hills["attacker_win"] > flat["attacker_win"]
    assert hills["attacker_ipc_lost"] < flat["attacker_ipc_lost"]


@pytest.mark.rule("AARHE-LANDRETREAT-forced")
def test_aircraft_left_alone_against_land_units_must_retreat() -> None:
    b, events = fire(battle("1 fighter, 1 infantry", "2 infantry"), [6, 6, 1, 6])
    assert b.state.result == "retreat"
    assert any(isinstance(e, Retreated) and e.units == {"fighter": 1} for e in events)
    # land units still on both sides: the attacker decides
    b, _ = fire(battle("1 fighter, 2 infantry", "2 infantry"), [6, 6, 6, 1, 6])
    assert b.state.result is None and isinstance(b.state.pending, PressOrRetreat)


@pytest.mark.rule("AARHE-ID-implicit", "AARHE-ID-stacking")
def test_complexes_and_victory_cities_hold_built_in_ids() -> None:
    g = at("Germany", "combat-move", {
        "Eastern Europe": "Germany: 2 infantry", "Karelia S.S.R.": "Russia: 1 infantry",
        "Russia": "Russia: 1 infantry, 2 aa_gun, 1 factory", "Belorussia": "Russia: 1 infantry"},
        owners={"Belorussia": "Russia"})
    for target in ("Karelia S.S.R.", "Belorussia"):
        g.apply({"type": "move", "units": "1 infantry", "path": ["Eastern Europe", target]})
    found = {site.space: board_battle(g.state, g.ruleset, site) for site in pending_battles(g.state, g.ruleset)}
    # Karelia: Leningrad's 1; Belorussia: no city, no complex
    assert dict((k.type, n) for k, n in found["Karelia S.S.R."].state.defender)["aa_gun"] == 1
    assert "aa_gun" not in {k.type for k, _ in found["Belorussia"].state.defender}
    # Russia: Moscow's 1 + the complex's 3 + 2 pieces
    g = at("Germany", "combat-move", {"West Russia": "Germany: 1 infantry",
                                      "Russia": "Russia: 1 infantry, 2 aa_gun, 1 factory"},
           owners={"West Russia": "Germany"})
    g.apply({"type": "move", "units": "1 infantry", "path": ["West Russia", "Russia"]})
    (site,) = pending_battles(g.state, g.ruleset)
    b = board_battle(g.state, g.ruleset, site)
    assert sum(n for k, n in b.state.defender if k.type == "aa_gun") == 6


@pytest.mark.rule("AARHE-TERRAIN-combat-modifier")
def test_a_battle_knows_its_terrain() -> None:
    g = at("Russia", "combat-move", {"Caucasus": "Russia: 1 armour", "Persia": "Germany: 1 infantry"},
           owners={"Persia": "Germany"})
    g.apply({"type": "move", "units": "1 armour", "path": ["Caucasus", "Persia"]})
    (site,) = pending_battles(g.state, g.ruleset)
    assert board_battle(g.state, g.ruleset, site).setup.site_tags == {"terrain:mountainous"}


# ---------------------------------------------------------------- retreats




@pytest.mark.rule("AARHE-LANDRETREAT-attacker")
def test_the_attacker_may_retreat_some_of_its_units() -> None:
    b = battle("2 armour, 3 infantry", "4 infantry")
    b, _ = fire(b, [6] * 9)
    decision = b.state.pending
    assert isinstance(decision, PressOrRetreat) and decision.partial and decision.rule == "AARHE-LANDRETREAT-attacker"
    with pytest.raises(IllegalAction):
        decide(b, Retreat("origin", units=(("infantry", 4),)))
    b = decide(b, Retreat("origin", units=(("infantry", 3),)))
    assert units(b, "attacker") == {"armour": 2}
    b, events = fire(b, [6] * 6)
    assert [(r.side, r.unit, r.count) for r in rolls(events, "attacker land fire")] == [("attacker", "armour", 2)]


@pytest.mark.rule("AARHE-LANDRETREAT-defender-choice", "AARHE-LANDRETREAT-capture")
def test_the_defender_may_retreat_too_and_tanks_capture_some() -> None:
    b = battle("4 armour", "1 armour, 3 infantry", defender_retreat_to=("Karelia S.S.R.",))
    b, _ = fire(b, [6] * 8)
    b, _ = fire(decide(b, Press()), [])
    decision = b.state.pending
    assert isinstance(decision, PressOrRetreat) and decision.side == "defender" and decision.partial
    b = decide(b, Retreat("Karelia S.S.R.", units=(("infantry", 3),)))
    # 4 tanks stay against 1 defending tank: 3 capture dice, two 1s destroy two retreating infantry
    b, events = fire(b, [1, 4, 1] + [6] * 5)
    (capture,) = rolls(events, "capture dice")
    assert (capture.count, capture.hits) == (3, 2)
    assert sum(n for k, n in b.state.defender if k.type == "infantry") == 1
    # the escaped infantry is out of reach in the next cycle
    assert all(k.has("escaped") for k, _ in b.state.defender if k.type == "infantry")


@pytest.mark.rule("AARHE-LANDRETREAT-capture")
def test_no_capture_dice_without_tanks_in_excess() -> None:
    b = battle("1 armour, 2 infantry", "1 armour, 3 infantry", defender_retreat_to=("Karelia S.S.R.",))
    b, _ = fire(b, [6] * 7)
    b, _ = fire(decide(b, Press()), [])
    b = decide(b, Retreat("Karelia S.S.R.", units=(("infantry", 2),)))
    b, events = fire(b, [6] * 5)
    assert not rolls(events, "capture dice")


@pytest.mark.rule("AARHE-LANDRETREAT-forced")
def test_a_defender_left_with_aircraft_only_must_retreat_them() -> None:
    # defender fighter misses (6), attacking infantry hit (1, 6), defending infantry misses (6)
    b, _ = fire(battle("2 infantry", "1 fighter, 1 infantry", defender_retreat_to=("Karelia S.S.R.",)), [6, 1, 6, 6])
    decision = b.state.pending
    assert isinstance(decision, PressOrRetreat) and decision.forced and decision.side == "defender"
    with pytest.raises(IllegalAction) as err:
        decide(b, Press())
    assert err.value.rule_id == "AARHE-LANDRETREAT-forced"
    b, _ = fire(decide(b, Retreat("Karelia S.S.R.")), [])
    assert b.state.result == "attacker"
    # with nowhere to go the fighter is destroyed
    b, events = fire(battle("2 infantry", "1 fighter, 1 infantry", defender_stays=frozenset({"fighter"})),
                     [6, 1, 6, 6])
    assert b.state.result == "attacker"
    assert any(isinstance(e, UnitsRemoved) and e.units == {"fighter": 1} for e in events)


def _two_attacks() -> Any:
    """Germany attacks Karelia (3 infantry and a fighter) and West Russia (1 infantry); every die of Karelia's first
    cycle misses, then 1 capture die of 4 hits, and West Russia falls."""
    g = at("Germany", "combat-move", {
        "Eastern Europe": "Germany: 4 armour", "Belorussia": "Germany: 3 armour",
        "Karelia S.S.R.": "Russia: 3 infantry, 1 fighter", "West Russia": "Russia: 1 infantry"},
        owners={"West Russia": "Russia"}, dice=[6] * 8 + [1, 6, 6, 6] + [1, 1, 1, 6])
    g.apply({"type": "move", "units": "4 armour", "path": ["Eastern Europe", "Karelia S.S.R."]})
    g.apply({"type": "move", "units": "3 armour", "path": ["Belorussia", "West Russia"]})
    g.apply({"type": "end_phase"})
    no_missions(g)  # the Soviet fighter stays in Karelia (AARHE-DAS-declare)
    g.apply({"type": "fight", "space": "Karelia S.S.R."})
    g.apply({"type": "declare_targets", "targets": "armour"}, power="Russia")  # the fighter alone in the air
    g.apply({"type": "press"})
    return g


def _units_in(g: Any, space: str, owner: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for stack in g.state.stacks(space):
        if stack.owner == owner:
            out[stack.unit] = out.get(stack.unit, 0) + stack.count
    return out


@pytest.mark.rule("AARHE-LANDRETREAT-defender-destinations")
def test_defenders_retreat_to_adjacent_friendly_land_and_aircraft_within_two() -> None:
    g = _two_attacks()
    assert g.to_act() == ["Russia"]
    assert refused(g, {"type": "retreat", "split": {"Russia": "3 infantry"}}, "Russia") == \
        "AARHE-LANDRETREAT-defender-destinations"  # not adjacent
    assert refused(g, {"type": "retreat", "split": {"West Russia": "3 infantry", "Kazakh S.S.R.": "1 fighter"}},
                   "Russia") == "AARHE-LANDRETREAT-defender-destinations"  # three spaces away
    g.apply({"type": "retreat", "split": {"West Russia": "3 infantry", "Russia": "1 fighter"}}, power="Russia")
    assert _units_in(g, "Russia", "Russia") == {"fighter": 1}
    assert _units_in(g, "West Russia", "Russia") == {"infantry": 3}  # 1 there before, 2 of the 3 escaped
    assert g.state.owners["Karelia S.S.R."] == "Germany"


@pytest.mark.rule("AARHE-LANDRETREAT-lost-destination")
def test_units_that_retreated_into_a_territory_lost_that_phase_are_lost() -> None:
    g = _two_attacks()
    g.apply({"type": "retreat", "split": {"West Russia": "3 infantry", "Russia": "1 fighter"}}, power="Russia")
    # the retreated infantry take no part in West Russia's battle; it falls, and they are lost as combat ends
    g.apply({"type": "fight", "space": "West Russia"})
    assert g.state.owners["West Russia"] == "Germany"
    assert _units_in(g, "West Russia", "Russia") == {"infantry": 2}
    g.apply({"type": "end_phase"})
    assert _units_in(g, "West Russia", "Russia") == {}
    assert _units_in(g, "Russia", "Russia") == {"fighter": 1}


@pytest.mark.rule("AARHE-LANDRETREAT-attacker")
def test_the_attacker_retreats_some_units_to_where_they_came_from() -> None:
    g = at("Germany", "combat-move", {"Eastern Europe": "Germany: 4 armour", "Karelia S.S.R.": "Russia: 3 infantry"},
           dice=[6] * 7 + [1, 1, 6, 6, 6] + [1, 6, 6])
    g.apply({"type": "move", "units": "4 armour", "path": ["Eastern Europe", "Karelia S.S.R."]})
    g.apply({"type": "end_phase"})
    g.apply({"type": "fight", "space": "Karelia S.S.R."})
    assert refused(g, {"type": "retreat", "split": {"Belorussia": "2 armour"}}) == "AARHE-LANDRETREAT-attacker"
    g.apply({"type": "retreat", "split": {"Eastern Europe": "2 armour"}})
    assert g.state.pending is not None and g.state.pending["side"] == "defender"
    g.apply({"type": "press"}, power="Russia")  # the defender stays
    assert g.state.pending is not None and g.state.pending["cycle"] == 2  # the other two fought on
    g.apply({"type": "press"})
    g.apply({"type": "press"}, power="Russia")
    assert g.state.owners["Karelia S.S.R."] == "Germany"
    assert _units_in(g, "Eastern Europe", "Germany") == {"armour": 2}
    assert _units_in(g, "Karelia S.S.R.", "Germany") == {"armour": 2}


# ---------------------------------------------------------------- jets


@pytest.mark.rule("AARHE-TECH-jet-plane", "AARHE-TECH-jet-plane-table")
def test_jet_plane_gives_aircraft_their_jet_values() -> None:
    jets = frozenset({"jet_fighters"})
    _, events = fire(battle("1 fighter, 1 bomber, 1 infantry", "2 infantry", attacker_techs=jets), [6] * 6)
    assert sorted((r.unit, r.hit_on) for r in rolls(events, "attacker air fire")) == [("bomber", 3), ("fighter", 4)]
    _, events = fire(battle("1 infantry", "1 fighter, 1 bomber, 1 infantry", defender_techs=jets), [6] * 6)
    assert sorted((r.unit, r.hit_on) for r in rolls(events, "defender air fire")) == [("bomber", 3), ("fighter", 5)]
    # dogfight: jet fighter 4/4, jet bomber 0/2
    _, events = fire(battle("1 fighter, 1 infantry", "1 fighter, 1 bomber, 1 infantry", attacker_techs=jets,
                            defender_techs=jets), [6] * 6)
    air = rolls(events, "attacker air fire") + rolls(events, "defender air fire")
    assert sorted((r.side, r.unit, r.hit_on) for r in air) == [
        ("attacker", "fighter", 4), ("defender", "bomber", 2), ("defender", "fighter", 4)]


def _owned(*units: tuple[str, str, int]) -> Any:
    return make_stacks((UnitKey(unit, owner), n) for owner, unit, n in units)


@pytest.mark.rule("AARHE-AIRCOMBAT-jet-hits-jets-first")
def test_jet_hits_in_a_dogfight_go_to_enemy_jets_first() -> None:
    # a German jet fighter hits (4 in a dogfight) a British jet fighter and an American plain one defending
    # together: the British jet is lost without a choice
    jets = frozenset({"jet_fighters"})
    ruleset = load_ruleset(RULES)
    rules = ruleset.modify("combat_rules", CombatRules())
    b = start_battle(_owned(("Germany", "fighter", 1), ("Germany", "infantry", 1)),
                     _owned(("United Kingdom", "fighter", 1), ("United States", "fighter", 1),
                            ("United Kingdom", "infantry", 1)),
                     "land", units=ruleset.units, rules=rules,
                     sequence=ruleset.modify("combat_sequence", lhtr_sequence("land"), kind="land"),
                     attacker_techs=jets, owner_techs={"United Kingdom": jets, "United States": frozenset()})
    b, events = fire(b, [4, 6, 6, 6, 6])
    assert rolls(events, "attacker air fire")[0].hit_on == 4
    assert b.state.pending is None or not isinstance(b.state.pending, ChooseCasualties)
    left = {(k.owner, k.type) for k, _ in b.state.defender if k.present}
    assert ("United Kingdom", "fighter") not in left and ("United States", "fighter") in left


@pytest.mark.rule("AARHE-AIRCOMBAT-jet-supremacy")
def test_jets_alone_may_skip_the_dogfight_and_strike_land_units() -> None:
    jets = frozenset({"jet_fighters"})
    b, _ = advance(battle("2 fighter, 1 infantry", "1 fighter, 1 armour, 1 infantry", attacker_techs=jets),
                   ScriptedDice([]))
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.rule == "AARHE-AIRCOMBAT-jet-supremacy"
    # one jet strikes the tank (its combat value 4), the other dogfights (4); the British fighter (3) hits
    b, events = advance(decide(b, Targets((("", "armour"), ("", "fighter")))), ScriptedDice([1, 6, 1, 6, 6]))
    air = rolls(events, "attacker air fire")
    assert sorted((r.hit_on, r.target) for r in air) == [(4, "first jet, first air"), (4, "only armour")]
    (british,) = rolls(events, "defender air fire")
    assert british.hit_on == 3 and "skips-dogfight" in british.target
    # the British hit can only take the jet that dogfought: no choice is asked, and the tank is gone
    assert not isinstance(b.state.pending, ChooseCasualties)
    assert units(b, "defender") == {"fighter": 1, "infantry": 1}
    assert sum(n for k, n in b.state.attacker if k.type == "fighter" and k.present and not k.marked) == 1


def test_bots_may_ask_for_an_estimate_where_no_fast_exact_solver_exists() -> None:
    # the base sequence's exact odds with AARHE's units and switches stand in for the AARHE cycle's
    found = odds("8 infantry, 4 armour, 2 fighter", "10 infantry, 2 armour", RULES, estimate=True)
    base = odds("8 infantry, 4 armour, 2 fighter", "10 infantry, 2 armour", "lhtr-1.3")
    assert found.attacker_win == pytest.approx(base.attacker_win, abs=0.02)
    assert found.method == "exact"


@pytest.mark.rule("AARHE-LANDRETREAT-lost-destination", "AARHE-ORDER-team-concurrency")
def test_a_landing_in_a_territory_an_ally_took_meanwhile_has_no_battle_with_enemies_who_retreated_there() -> None:
    """Found by self-play: the United States landed in Trans-Jordan, the United Kingdom took it first, and a German
    infantry had retreated there from another battle; no battle is due (the German is lost as combat ends), so
    the phase may end."""
    from aare.phases.conduct_combat import open_battles
    from aare.state.unit_stacks import Stack

    stacks = [("Trans-Jordan", Stack("Germany", "infantry", 1, flags=("turn:retreated",))),
              ("Trans-Jordan", Stack("United States", "infantry", 1, flags=("turn:combat",)))]
    g = at("United States", "conduct-combat", {}, owners={"Trans-Jordan": "United Kingdom"}, stacks=stacks)
    assert "Trans-Jordan" not in {b.space for b in open_battles(g.state, g.ruleset)}
    g.apply({"type": "end_phase"})
    held = at("United States", "conduct-combat", {}, owners={"Trans-Jordan": "Germany"}, stacks=stacks)
    assert "Trans-Jordan" in {b.space for b in open_battles(held.state, held.ruleset)}  # enemy land: a battle


@pytest.mark.rule("AARHE-DAS-return", "AARHE-ORDER-team-concurrency")
def test_a_landing_in_a_territory_an_ally_took_meanwhile_has_no_battle_with_enemy_aircraft_on_support() -> None:
    """Found by self-play: German fighters flew defensive air support to Western Europe, the United States took it,
    and the United Kingdom's landing there then faced only the fighters in an ally's territory; no battle is due
    (the fighters land elsewhere as the Allies' combat ends), so the phase may end."""
    from aare.phases.conduct_combat import open_battles
    from aare.state.unit_stacks import Stack

    stacks = [("Western Europe", Stack("Germany", "fighter", 2, flags=("turn:das=Germany",))),
              ("Western Europe", Stack("United Kingdom", "infantry", 1, flags=("turn:combat",)))]
    g = at("United Kingdom", "conduct-combat", {}, owners={"Western Europe": "United States"}, stacks=stacks)
    assert "Western Europe" not in {b.space for b in open_battles(g.state, g.ruleset)}
    g.apply({"type": "end_phase"})
    held = at("United Kingdom", "conduct-combat", {}, owners={"Western Europe": "Germany"}, stacks=stacks)
    assert "Western Europe" in {b.space for b in open_battles(held.state, held.ruleset)}  # enemy land: a battle


@pytest.mark.rule("AARHE-ID-attack", "LHTR-COMBAT-hit-eligibility")
def test_casualties_named_by_type_go_to_the_detected_aircraft_the_hits_may_take() -> None:
    """Two IDs hit a detected fighter and the detected bomber; the UK names "1 fighter, 1 bomber": of its three
    fighters, the detected one is taken (not one the hits may not reach)."""
    b = battle("3 fighter, 1 bomber, 1 infantry", "1 infantry")
    detected = "id-detected"
    owner = next(k.owner for k, _ in b.state.attacker)
    stacks = make_stacks([(UnitKey("fighter", owner), 2), (UnitKey("fighter", owner, flags=(detected,)), 1),
                          (UnitKey("bomber", owner, flags=(detected,)), 1), (UnitKey("infantry", owner), 1)])
    batches = tuple(HitBatch("attacker", Target(types=(t,), flags=(detected,), one_each=True), 1, "opening")
                    for t in ("bomber", "fighter"))
    b = b.with_state(replace(b.state.with_units("attacker", stacks), pending=ChooseCasualties("attacker", batches, 2)))
    hits = casualties_from_types(b, "attacker", "1 fighter, 1 bomber").hits
    assert sorted((k.type, k.flags, n) for k, n in hits) == [("bomber", (detected,), 1), ("fighter", (detected,), 1)]
