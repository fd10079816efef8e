"""AARHE defensive air support and air interdiction through the engine: the declarations as the enemy's conduct
combat starts, supporting aircraft defending from the second cycle and returning, the interdiction strike (IDs
first) and the interdiction dice against the enemy's non-combat moves."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.action_text import format_action, parse_action_text
from aare.cli.main import cli
from aare.combat.battle_state import JOINS_NEXT_CYCLE
from aare.combat.board_battle import build_battle as board_battle
from aare.engine import Game
from aare.movement.battles import pending_battles
from aare.odds import odds
from aare.state.unit_stacks import count_units
from tests.aarhe.common import (
    GER,
    JAP,
    RUS,
    UK,
    asked_for_missions,
    end_phase,
    end_turn,
    game,
    no_missions,
    phase_of,
    refused,
)
from tests.aarhe.move_common import at

KAR, ARC, EE = "Karelia S.S.R.", "Archangel", "Eastern Europe"
NONE = {"type": "air_missions", "missions": ""}


def missions(text: str) -> dict[str, Any]:
    return {"type": "air_missions", "missions": text}


def attack_karelia(defence: dict[str, str], dice: list[int], **kw: Any) -> Game:
    """Germany attacks Karelia with one tank from Eastern Europe; the Soviet position `defence`."""
    g = at(GER, "combat-move", {EE: "Germany: 1 armour", **defence}, dice=dice, **kw)
    g.apply({"type": "move", "units": "1 armour", "path": [EE, KAR]})
    g.apply({"type": "end_phase"})
    return g


def fight(g: Game, space: str) -> list[str]:
    """Fight the battle in `space` to its end (the attacker presses on, casualties as first offered); the dice
    rolled, by purpose."""
    start = len(g.log.entries)
    g.apply({"type": "fight", "space": space})
    while g.state.pending is not None:
        legal = [a.to_json() for a in g.legal_actions()]
        g.apply(next((a for a in legal if a["type"] == "press"), legal[0]))
    return [e.purpose for entry in g.log.entries[start:] for e in entry.events if e.type == "dice_rolled"]


def stacks(g: Game, space: str, power: str) -> dict[str, int]:
    return count_units(g.state.stacks(space), power)


# ---------------------------------------------------------------- defensive air support


@pytest.mark.rule("AARHE-DAS-eligibility", "AARHE-DAS-declare")
def test_a_soviet_fighter_next_door_is_asked_and_flies_to_the_attacked_territory() -> None:
    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter"}, [])
    assert g.to_act() == [RUS]  # during Germany's turn, before any battle
    assert g.state.pending["kind"] == "air_missions"
    assert [a.missions for a in g.legal_actions()][:2] == ["", f"1 fighter from {ARC} -> {KAR}"]
    assert refused(g, {"type": "fight", "space": KAR}, GER)  # Germany waits for the declaration
    assert refused(g, missions(f"1 fighter from {ARC} -> West Russia"), RUS) == "AARHE-DAS-eligibility"  # German
    assert refused(g, missions(f"1 fighter from {ARC} -> {EE}"), RUS) == "AARHE-DAS-eligibility"  # not adjacent
    assert refused(g, missions(f"1 infantry from {KAR} -> {ARC}"), RUS) == "AARHE-DAS-eligibility"
    g.apply(missions(f"1 fighter {ARC} -> {KAR}"), power=RUS)  # the units and their home, no "from": read too
    assert stacks(g, KAR, RUS) == {"infantry": 1, "fighter": 1} and not stacks(g, ARC, RUS)
    assert g.state.pending is None and g.to_act() == [GER]


@pytest.mark.rule("AARHE-DAS-declare")
def test_no_declaration_once_the_battles_began() -> None:
    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter"}, [6, 1])
    g.apply(NONE, power=RUS)
    fight(g, KAR)
    assert refused(g, missions(f"1 fighter from {ARC} -> {KAR}"), RUS) in ("AARHE-DAS-declare",
                                                                            "LHTR-TURN-power-order")
    assert refused(g, missions(f"1 fighter from {ARC} -> {KAR}"), GER) == "AARHE-DAS-declare"


@pytest.mark.rule("AARHE-DAS-declare", "AARHE-ORDER-team-concurrency")
def test_in_a_team_turn_no_member_fights_before_every_declaration_is_in() -> None:
    g = game()
    end_turn(g)  # round 1: the Soviet Union alone
    for power in (GER, JAP):
        while phase_of(g, power) != "combat-move":
            end_phase(g, power)
    g.apply({"type": "move", "units": "1 infantry", "path": ["Libya", "Anglo Egypt"]}, power=GER)
    g.apply({"type": "move", "units": "2 infantry", "path": ["Manchuria", "Buryatia S.S.R."]}, power=JAP)
    g.apply({"type": "end_phase"}, power=GER)
    g.apply({"type": "end_phase"}, power=JAP)
    asked = asked_for_missions(g)
    assert asked and set(asked) <= {RUS, UK, "United States"}
    assert asked[0] in g.to_act()  # an Allied power acts in the Axis turn
    assert refused(g, {"type": "fight", "space": "Buryatia S.S.R."}, JAP) == "AARHE-DAS-declare"
    no_missions(g)
    g.apply({"type": "fight", "space": "Buryatia S.S.R."}, power=JAP)


@pytest.mark.rule("AARHE-DAS-second-cycle")
@pytest.mark.parametrize("dice", [[6, 1], [1, 6]], ids=["attacker-destroyed", "defence-destroyed"])
def test_a_battle_over_in_the_first_cycle_never_sees_the_supporting_fighter(dice: list[int]) -> None:
    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter"}, dice)
    g.apply(missions(f"1 fighter from {ARC} -> {KAR}"), power=RUS)
    [site] = [s for s in pending_battles(g.state, g.ruleset) if s.space == KAR]
    keys = board_battle(g.state, g.ruleset, site).state.defender
    assert [(k.type, k.has(JOINS_NEXT_CYCLE), n) for k, n in keys if k.type in ("fighter", "infantry")] == [
        ("fighter", True, 1), ("infantry", False, 1)]
    rolled = fight(g, KAR)  # one side's only unit is hit: over in cycle 1
    assert len(rolled) == 2 and not any("fighter" in r for r in rolled)
    assert stacks(g, KAR, RUS).get("fighter") == 1  # never hit; it flies home after the combat phase


@pytest.mark.rule("AARHE-DAS-second-cycle")
def test_the_supporting_fighter_fires_from_the_second_cycle() -> None:
    # cycle 1: tank and infantry miss; cycle 2: the fighter joins and hits the tank in the opening fire
    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter"}, [6, 6, 1] + [6] * 6)
    g.apply(missions(f"1 fighter from {ARC} -> {KAR}"), power=RUS)
    rolled = fight(g, KAR)
    assert not any("fighter" in r for r in rolled[:2])
    assert "defender air fire" in rolled[2] and "fighter" in rolled[2]
    assert g.state.owners[KAR] == RUS and stacks(g, KAR, RUS) == {"infantry": 1, "fighter": 1}
    assert not stacks(g, KAR, GER)


@pytest.mark.rule("AARHE-DAS-one-space", "AARHE-DAS-unattacked-target")
def test_a_fighter_flying_support_is_absent_from_its_home_and_flies_one_mission() -> None:
    # Germany attacks Archangel from West Russia; its fighter flies to Karelia, which nobody attacks
    g = at(GER, "combat-move", {"West Russia": "Germany: 2 armour", ARC: "Russia: 1 infantry, 2 fighter",
                                KAR: "Russia: 1 infantry"}, dice=[6, 6, 6] + [6] * 30)
    g.apply({"type": "move", "units": "2 armour", "path": ["West Russia", ARC]})
    g.apply({"type": "end_phase"})
    assert g.to_act() == [RUS]
    assert refused(g, missions(f"2 fighter from {ARC} -> {KAR}; 1 fighter from {ARC} -> Russia"),
                   RUS) == "AARHE-DAS-one-space"
    g.apply(missions(f"1 fighter from {ARC} -> {KAR}"), power=RUS)
    [site] = [s for s in pending_battles(g.state, g.ruleset) if s.space == ARC]
    assert count_units(site.defenders[RUS], RUS) == {"infantry": 1, "fighter": 1}
    assert stacks(g, KAR, RUS) == {"infantry": 1, "fighter": 1}


@pytest.mark.rule("AARHE-DAS-return")
def test_supporting_aircraft_return_home_after_the_combat_phase() -> None:
    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter"}, [6, 1])
    g.apply(missions(f"1 fighter from {ARC} -> {KAR}"), power=RUS)
    fight(g, KAR)
    end_phase(g)
    assert g.state.phase == "non-combat-move"
    assert stacks(g, ARC, RUS) == {"fighter": 1} and stacks(g, KAR, RUS) == {"infantry": 1}
    assert all(not s.flags for s in g.state.stacks(ARC))


@pytest.mark.rule("AARHE-DAS-return")
def test_a_fighter_whose_home_fell_stays_in_the_territory_it_supported() -> None:
    # Archangel falls to two tanks (the infantry misses, both tanks hit); the fighter went to Russia
    g = at(GER, "combat-move", {"West Russia": "Germany: 2 armour", ARC: "Russia: 1 infantry, 1 fighter"},
           dice=[1, 1, 6] + [6] * 10)
    g.apply({"type": "move", "units": "2 armour", "path": ["West Russia", ARC]})
    g.apply({"type": "end_phase"})
    g.apply(missions(f"1 fighter from {ARC} -> Russia"), power=RUS)
    fight(g, ARC)
    assert g.state.owners[ARC] == GER
    end_phase(g)
    assert stacks(g, "Russia", RUS) == {"fighter": 1} and not stacks(g, ARC, RUS)


@pytest.mark.rule("AARHE-DAS-second-cycle")
def test_the_calculator_agrees_with_rolled_dice_on_a_battle_with_a_supporting_fighter() -> None:
    units = ("2 armour, 1 infantry", "1 infantry")
    exact = odds(*units, "aarhe", late_defender="1 fighter")
    assert exact.attacker_win + exact.defender_win + exact.draw == pytest.approx(1.0)
    rolled = odds(*units, "aarhe", late_defender="1 fighter", method="mc", runs=1_200, seed=11)
    assert rolled.attacker_win == pytest.approx(exact.attacker_win, abs=0.035)
    from_the_start = odds(units[0], "1 infantry, 1 fighter", "aarhe")
    assert exact.attacker_win > from_the_start.attacker_win  # a fighter joining late defends less
    args = ["odds", "--rules", "aarhe", "--attacker", units[0], "--defender", units[1], "--late-defender",
            "1 fighter", "--json"]
    shown = json.loads(CliRunner().invoke(cli, args).output)
    assert shown["attacker_win"] == pytest.approx(exact.attacker_win)


# ---------------------------------------------------------------- air interdiction


def strike_ee(defence: str, dice: list[int], bombers: int = 1, extra: dict[str, str] | None = None) -> Game:
    """Germany's turn: British bombers in Karelia are asked as Germany's conduct combat starts."""
    g = at(GER, "combat-move", {EE: defence, KAR: f"United Kingdom: {bombers} bomber; Russia: 1 infantry",
                                **(extra or {})}, dice=dice)
    g.apply({"type": "end_phase"})
    assert g.to_act() == [UK]
    return g


@pytest.mark.rule("AARHE-INTERDICT-mission")
def test_a_bomber_strikes_an_adjacent_hostile_territory_and_its_holder_chooses_the_casualty() -> None:
    g = strike_ee("Germany: 2 infantry, 1 armour", [6, 2])  # Warsaw's ID misses the search; the bomber hits
    assert f"1 bomber from {KAR} => {EE}" in [a.missions for a in g.legal_actions()]
    assert refused(g, missions(f"1 bomber from {KAR} => {ARC}"), UK) == "AARHE-INTERDICT-mission"  # friendly
    g.apply(missions(f"1 bomber from {KAR} => {EE}"), power=UK)
    assert g.state.pending["kind"] == "interdiction_casualties" and g.to_act() == [GER]
    g.apply({"type": "choose_casualties", "units": "1 armour"}, power=GER)
    assert stacks(g, EE, GER) == {"infantry": 2} and g.state.pending is None


@pytest.mark.rule("AARHE-INTERDICT-mission")
def test_no_strike_on_a_territory_holding_enemy_aircraft() -> None:
    g = strike_ee("Germany: 2 infantry, 1 fighter", [6], extra={"Belorussia": "Germany: 1 armour"})
    assert refused(g, missions(f"1 bomber from {KAR} => {EE}"), UK) == "AARHE-INTERDICT-mission"
    assert refused(g, missions(f"1 bomber from {KAR} -> {ARC}; 1 bomber from {KAR} => Belorussia"),
                   UK) == "AARHE-DAS-one-space"
    g.apply(missions(f"1 bomber from {KAR} => Belorussia"), power=UK)


@pytest.mark.rule("AARHE-INTERDICT-id-fire")
def test_the_targets_ids_fire_once_before_the_bombers_attack() -> None:
    # a complex and Warsaw: 4 IDs search the bomber (one 1 detects it), then attack it (a 1 destroys it)
    g = strike_ee("Germany: 2 infantry, 1 factory", [1, 6, 6, 6, 1, 6, 6, 6])
    g.apply(missions(f"1 bomber from {KAR} => {EE}"), power=UK)
    rolled = [(e.purpose, e.values) for e in g.log.entries[-1].events if e.type == "dice_rolled"]
    assert [v for _, v in rolled] == [(1, 6, 6, 6), (1, 6, 6, 6)]
    assert all("IDs in Eastern Europe" in p for p, _ in rolled)
    assert not stacks(g, KAR, UK) and stacks(g, EE, GER) == {"infantry": 2, "factory": 1}


@pytest.mark.rule("AARHE-INTERDICT-no-normal-combat", "AARHE-INTERDICT-return")
def test_bombers_on_interdiction_do_not_defend_their_home_and_fly_back_after_combat() -> None:
    g = at(GER, "combat-move", {EE: "Germany: 1 infantry", "Belorussia": "Germany: 1 armour",
                                KAR: "United Kingdom: 1 bomber; Russia: 1 infantry"}, dice=[6, 6, 6, 1] + [6] * 10)
    g.apply({"type": "move", "units": "1 armour", "path": ["Belorussia", KAR]})
    g.apply({"type": "end_phase"})
    g.apply(missions(f"1 bomber from {KAR} => {EE}"), power=UK)  # the ID misses, so does the bomber
    [site] = [s for s in pending_battles(g.state, g.ruleset) if s.space == KAR]
    assert UK not in site.defenders
    fight(g, KAR)  # the tank misses, the infantry hits
    end_phase(g)
    assert [(s.owner, s.unit, s.flags) for s in g.state.stacks(KAR) if s.owner == UK] == [(UK, "bomber", ())]


@pytest.mark.rule("AARHE-INTERDICT-return")
def test_bombers_whose_home_fell_land_next_to_the_target_or_are_lost() -> None:
    def play(owners: dict[str, str]) -> Game:
        g = at(GER, "combat-move", {EE: "Germany: 1 infantry", "Belorussia": "Germany: 1 armour",
                                    KAR: "United Kingdom: 1 bomber"}, owners=owners, dice=[6, 6] + [6] * 10)
        g.apply({"type": "move", "units": "1 armour", "path": ["Belorussia", KAR]})
        g.apply({"type": "end_phase"})
        g.apply(missions(f"1 bomber from {KAR} => {EE}"), power=UK)
        g.apply({"type": "fight", "space": KAR})  # nobody defends: Karelia falls
        no_missions(g)
        end_phase(g)
        assert g.state.owners[KAR] == GER
        return g

    g = play({"Ukraine S.S.R.": RUS})
    assert stacks(g, "Ukraine S.S.R.", UK) == {"bomber": 1}
    g = play({})
    assert not any(s.owner == UK for stacks_ in g.state.units.values() for s in stacks_)


@pytest.mark.rule("AARHE-INTERDICT-movement-rolls")
def test_enemy_units_leaving_an_interdicted_territory_roll_a_die_per_bomber() -> None:
    # two bombers strike Eastern Europe (the ID and both bombers miss); in non-combat move each German unit
    # leaving it rolls two dice: a 2 stops the first tank, a 1 destroys the second, the third goes
    g = strike_ee("Germany: 3 armour", [6, 6, 6, 2, 5, 1, 6, 6, 6], bombers=2)
    g.apply(missions(f"2 bomber from {KAR} => {EE}"), power=UK)
    end_phase(g)
    assert g.state.phase == "non-combat-move"
    g.apply({"type": "move", "units": "1 armour", "path": [EE, "Germany"]})
    assert stacks(g, EE, GER) == {"armour": 3} and not stacks(g, "Germany", GER)
    rolled = [e for e in g.log.entries[-1].events if e.type == "dice_rolled"]
    assert [e.values for e in rolled] == [(2, 5)] and "interdiction" in rolled[0].purpose
    assert refused(g, {"type": "move", "units": "3 armour", "path": [EE, "Germany"]}) != ""  # it moves no more
    g.apply({"type": "move", "units": "2 armour", "path": [EE, "Germany"]})
    assert stacks(g, "Germany", GER) == {"armour": 1} and stacks(g, EE, GER) == {"armour": 1}


@pytest.mark.rule("AARHE-DAS-declare")
def test_a_declaration_in_text_notation() -> None:
    ruleset = game().ruleset
    text = f"United Kingdom: missions 1 fighter from {ARC} -> {KAR}; 2 bomber from {KAR} => {EE}"
    action = parse_action_text(text, ruleset)
    assert action == {"type": "air_missions", "power": UK,
                      "missions": f"1 fighter from {ARC} -> {KAR}; 2 bomber from {KAR} => {EE}"}
    assert format_action(action) == text
    assert parse_action_text("missions none", ruleset) == {"type": "air_missions", "missions": ""}
    assert format_action({"type": "air_missions", "missions": ""}) == "missions none"


@pytest.mark.rule("AARHE-DAS-declare", "AARHE-DAS-unattacked-target")
@pytest.mark.parametrize(("asked", "expected"), [("useful", []), ("always", [RUS])])
def test_a_power_with_no_mission_that_matters_is_asked_only_under_the_option(asked: str, expected: list[str]) -> None:
    # Germany attacks far away (Karelia's neighbour Archangel is quiet): the Soviet fighter in Russia could
    # only fly to a quiet neighbour
    g = at(GER, "combat-move", {EE: "Germany: 1 armour", KAR: "Russia: 1 infantry", "Russia": "Russia: 1 fighter"},
           options={"air_missions_asked": asked}, dice=[6, 1])
    g.apply({"type": "move", "units": "1 armour", "path": [EE, KAR]})
    g.apply({"type": "end_phase"})
    assert asked_for_missions(g) == expected
    if expected:
        g.apply(missions(f"1 fighter from Russia -> {ARC}"), power=RUS)
        assert stacks(g, ARC, RUS) == {"fighter": 1}


@pytest.mark.rule("AARHE-DAS-eligibility")
@pytest.mark.parametrize(("ships", "accepted"), [("", False), ("Russia: 1 destroyer", True)])
def test_support_at_sea_goes_to_a_zone_with_friendly_ships(ships: str, accepted: bool) -> None:
    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter", **({"SZ 4": ships} if ships else {})},
                       [])
    action = missions(f"1 fighter from {ARC} -> SZ 4")
    if accepted:
        g.apply(action, power=RUS)
        assert stacks(g, "SZ 4", RUS) == {"destroyer": 1, "fighter": 1}
    else:
        assert refused(g, action, RUS) == "AARHE-DAS-eligibility"


@pytest.mark.rule("AARHE-DAS-declare")
def test_the_declaration_reads_as_a_line_of_text() -> None:
    from aare.action_text import format_decision

    g = attack_karelia({KAR: "Russia: 1 infantry", ARC: "Russia: 1 fighter"}, [])
    line = format_decision(g.state.pending)
    assert line.startswith("Russia declares its air missions for this enemy turn") and "'missions none'" in line
