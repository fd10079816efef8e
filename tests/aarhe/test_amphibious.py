"""AARHE amphibious assaults: the landing's first cycle (infantry first, bombardment capped by the infantry, the
IDs against the ships, the defending artillery early), the armour and artillery that land only behind
infantry, and the outcome on the map."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.decisions import ChooseCasualties, ChooseTargets, Press, PressOrRetreat
from aare.combat.engine import decide, roll_with_dice, run
from aare.combat.events import DiceRolled, StepEntered, UnitsRemoved
from aare.combat.policy import default_targets
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.invariants import check_log
from aare.movement import flags
from aare.odds import build_battle, odds
from aare.rulesets.aarhe.sea_transport import STAYED_ABOARD
from aare.state.unit_stacks import Stack
from tests.aarhe.common import units
from tests.aarhe.move_common import at
from tests.movement.helpers import boat, end, move, units_in

RULES = "aarhe"
UK, GER = "United Kingdom", "Germany"


def assault(attacker: str, defender: str, bombard: str | None = None, **inputs: Any) -> Battle:
    return build_battle(attacker, defender, RULES, "amphibious", bombard=bombard, **inputs)


def cycle(b: Battle, dice: list[int]) -> tuple[Battle, list[Any]]:
    """Run `b` with `dice` to the start of its next cycle (or its end, or a casualty choice), pressing on."""
    source = ScriptedDice(list(dice))
    events: list[Any] = []
    while True:
        b, more = run(b, stop_at_cycle_start=True)
        events += more
        if isinstance(b.state.pending, PressOrRetreat):
            b = decide(b, Press())
            continue
        if isinstance(b.state.pending, ChooseTargets):
            b = decide(b, default_targets(b, b.state.pending))
            continue
        if b.state.roll is None:
            assert not source.remaining, "dice left over"
            return b, events
        b, more = roll_with_dice(b, source)
        events += more


def rolls(events: list[Any], step: str = "") -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and (not step or e.step == step)]


def fired(events: list[Any], step: str) -> list[tuple[str, int, int]]:
    """(unit, dice, hit on) of each group rolled in `step`."""
    return sorted((r.unit, r.count, r.hit_on) for r in rolls(events, step))


def aboard(b: Battle) -> dict[str, int]:
    return {k.type: n for k, n in b.state.attacker if k.has("aboard")}


@pytest.mark.rule("AARHE-AMPHIB-sequence")
def test_the_first_cycle_runs_the_landing_sequence_and_later_cycles_the_land_cycle() -> None:
    b = assault("1 fighter, 4 infantry, 1 armour", "2 infantry, 1 artillery, 1 aa_gun", "1 battleship")
    b, events = cycle(b, [6] * 11)
    entered = [e.step for e in events if isinstance(e, StepEntered)]
    assert entered == [
        "armour and artillery stay aboard", "id search", "attacker air targets", "attacker air fire",
        "remove opening fire casualties", "coastal bombardment", "id coastal search", "remove bombardment casualties",
        "defending artillery fire", "remove artillery casualties", "attacking infantry fire",
        "other defending land fire", "remove casualties", "offload", "press or retreat", "defender retreat"]
    assert b.state.cycle == 2
    _, events = cycle(b, [6] * 10)
    entered = [e.step for e in events if isinstance(e, StepEntered)]
    assert entered == ["id search", "attacker air targets", "attacker air fire", "remove opening fire casualties",
                       "attacker land fire", "defender land fire", "remove casualties", "press or retreat",
                       "defender retreat"]


@pytest.mark.rule("AARHE-AMPHIB-bombard-cap")
def test_bombardment_kills_at_most_one_defender_per_four_infantry() -> None:
    # 2 battleships hit twice in support of 4 infantry: one defender goes
    b, events = cycle(assault("4 infantry", "3 infantry", "2 battleship"), [1, 1] + [6] * 6)
    assert [r.hits for r in rolls(events, "coastal bombardment")] == [2]
    assert [e.units for e in events if isinstance(e, UnitsRemoved)] == [{"infantry": 1}]
    assert units(b, "defender") == {"infantry": 2}
    # with 8 infantry both hits count
    b, _ = cycle(assault("8 infantry", "3 infantry", "2 battleship"), [1, 1] + [6] * 9)
    assert units(b, "defender") == {"infantry": 1}
    # fewer than 4 infantry: the ships inflict no casualty, so they roll no dice
    _, events = cycle(assault("3 infantry", "3 infantry", "2 battleship"), [6] * 6)
    assert not rolls(events, "coastal bombardment")


@pytest.mark.rule("AARHE-AMPHIB-bombard-inf-bonus")
def test_each_ship_offshore_lifts_one_infantry_in_the_first_cycle() -> None:
    b, events = cycle(assault("3 infantry", "3 infantry", "1 battleship"), [6] * 6)
    assert fired(events, "attacking infantry fire") == [("infantry", 1, 2), ("infantry", 2, 1)]
    # from the second cycle on, no bonus
    _, events = cycle(b, [6] * 6)
    assert fired(events, "attacker land fire") == [("infantry", 3, 1)]
    # more ships than infantry: each infantry gets one +1, no more
    _, events = cycle(assault("4 infantry", "3 infantry", "2 battleship, 3 battleship"), [6] * 12)
    assert fired(events, "attacking infantry fire") == [("infantry", 4, 2)]


@pytest.mark.rule("AARHE-AMPHIB-id-coastal-fire", "AARHE-ID-search", "AARHE-ID-attack")
def test_the_ids_search_and_attack_the_bombarding_ships() -> None:
    # 2 IDs, 2 battleships: one ID on each; both detect (1, 1); attack 1 damages one, 2 repels the other
    b = assault("4 infantry", "4 infantry, 2 aa_gun", "2 battleship")
    b, events = cycle(b, [6, 6, 1, 1, 1, 2] + [6] * 8)
    assert fired(events, "id coastal search") == [("battleship", 1, 1), ("battleship", 1, 1)]
    assert [(r.hits, r.repels) for r in rolls(events, "id coastal attack")] == [(1, 0), (0, 1)]
    # the damaged battleship stays offshore and lifts one infantry; the repelled one left
    assert fired(events, "attacking infantry fire") == [("infantry", 1, 2), ("infantry", 3, 1)]
    assert ("stays", "", "battleship", 1, 1) in ship_fates(b) and ("repelled", "", "battleship", 0, 1) in ship_fates(b)
    # a sunk bombarding ship lifts nobody: test_on_the_map_the_id_sinks_a_damaged_battleship_that_then_lifts_nobody
    # (AARHE's technology list has no Combined Bombardment, so no one-hit ship bombards)


def ship_fates(b: Battle) -> list[tuple[str, str, str, int, int]]:
    from aare.rulesets.aarhe.amphibious import ship_notes

    return ship_notes(b)


@pytest.mark.rule("AARHE-ID-amphibious-naval", "AARHE-ID-land-opening-fire")
def test_an_id_fires_at_aircraft_and_ships_in_the_first_cycle_and_at_aircraft_only_after() -> None:
    b = assault("1 fighter, 3 infantry", "3 infantry, 1 aa_gun", "1 battleship")
    b, events = cycle(b, [6] * 9)
    assert [r.step for r in rolls(events) if r.step.startswith("id")] == ["id search", "id coastal search"]
    _, events = cycle(b, [6] * 8)
    assert [r.step for r in rolls(events) if r.step.startswith("id")] == ["id search"]


@pytest.mark.rule("AARHE-AMPHIB-infantry-first")
def test_landing_armour_and_artillery_neither_fire_nor_are_hit_in_the_first_cycle() -> None:
    b = assault("2 infantry, 2 armour, 1 artillery", "3 infantry")
    b, events = cycle(b, [6, 6, 1, 1, 6])
    assert fired(events, "attacking infantry fire") == [("infantry", 2, 1)]
    # two hits: no choice, the infantry are the only units ashore; the landing fails
    assert b.state.result == "retreat" and units(b, "attacker") == {}
    assert aboard(b) == {"armour": 2, "artillery": 1}
    # armour that came overland fights from the first round
    b = assault("1 infantry, 1 armour", "3 infantry", overland="1 armour")
    _, events = cycle(b, [6, 6, 6, 6, 6])
    assert fired(events, "attacking infantry fire") == [("armour", 1, 3), ("infantry", 1, 1)]


@pytest.mark.rule("AARHE-AMPHIB-defending-art-on-inf")
def test_defending_artillery_hits_go_to_the_landing_infantry() -> None:
    b = assault("1 fighter, 1 infantry", "1 artillery, 1 infantry", "1 battleship")
    # fighter 6, no bombardment (1 infantry), artillery 1: the infantry goes, though a fighter and a ship are there
    b, events = cycle(b, [6, 1, 6])
    assert [e.units for e in events if isinstance(e, UnitsRemoved) and e.side == "attacker"] == [{"infantry": 1}]
    assert not rolls(events, "attacking infantry fire")
    # no infantry to hit: the artillery's hit is lost
    b, events = cycle(assault("1 fighter", "1 artillery, 1 infantry"), [6, 1, 6])
    assert not [e for e in events if isinstance(e, UnitsRemoved) and e.side == "attacker"]


@pytest.mark.rule("AARHE-AMPHIB-defending-art-early")
def test_defending_artillery_fire_once_before_the_first_round() -> None:
    b = assault("3 infantry", "2 infantry, 1 artillery")
    b, events = cycle(b, [2, 6, 6, 6, 6])
    assert fired(events, "defending artillery fire") == [("artillery", 1, 2)]
    assert fired(events, "attacking infantry fire") == [("infantry", 2, 1)]
    assert fired(events, "other defending land fire") == [("infantry", 2, 2)]
    _, events = cycle(b, [6] * 5)
    assert fired(events, "defender land fire") == [("artillery", 1, 2), ("infantry", 2, 2)]


@pytest.mark.rule("AARHE-AMPHIB-bombard-casualties-no-return-fire")
def test_bombardment_casualties_are_gone_before_the_defence_fires() -> None:
    b = assault("4 infantry", "1 artillery, 1 infantry", "1 battleship")
    b, _ = cycle(b, [1])
    assert isinstance(b.state.pending, ChooseCasualties)
    b = decide(b, {"artillery": 1})
    b, events = cycle(b, [6, 6, 6, 6, 6])
    assert not rolls(events, "defending artillery fire")
    assert fired(events, "other defending land fire") == [("infantry", 1, 2)]


@pytest.mark.rule("AARHE-AMPHIB-offload-condition")
def test_armour_and_artillery_land_only_if_infantry_are_left() -> None:
    # all 3 infantry die in the first cycle: the armour never lands, the assault ends as a retreat
    b, events = cycle(assault("3 infantry, 2 armour", "3 infantry"), [6, 6, 6, 1, 1, 1])
    assert b.state.result == "retreat" and aboard(b) == {"armour": 2}
    # one infantry left: the armour lands and fires from the second cycle
    b, _ = cycle(assault("3 infantry, 2 armour", "3 infantry"), [6, 6, 6, 1, 1, 6])
    assert b.state.cycle == 2 and units(b, "attacker") == {"infantry": 1, "armour": 2} and not aboard(b)
    _, events = cycle(b, [6, 6, 6, 6, 6, 6])
    assert fired(events, "attacker land fire") == [("armour", 2, 3), ("infantry", 1, 1)]
    # the defenders all die with the infantry: a draw, no capture, the armour still aboard
    b, _ = cycle(assault("1 infantry, 1 armour", "1 infantry"), [1, 1])
    assert b.state.result == "draw" and aboard(b) == {"armour": 1}


def landing(dice: list[int], options: dict[str, Any] | None = None, damaged: bool = False) -> Game:
    """The United Kingdom lands 1 infantry and 1 armour from SZ 7 in Western Europe (2 German infantry; Paris holds
    one built-in ID), a battleship (`damaged` or not) offshore; the battle is fought with `dice`."""
    ship = Stack(UK, "battleship", 1, damage=1 if damaged else 0)
    g = at(UK, "combat-move", {"Western Europe": f"{GER}: 2 infantry"},
           stacks=[("SZ 7", boat(UK, f"{UK}:infantry", f"{UK}:armour")), ("SZ 7", ship)], options=options)
    move(g, "1 infantry, 1 armour", "SZ 7", "Western Europe")
    end(g)
    g = Game(g.log, ScriptedDice(dice))
    g.apply({"type": "fight", "space": "Western Europe"})
    while g.state.pending and g.state.pending.get("kind") == "press_or_retreat":  # both sides stand
        g.apply({"type": "press"}, power=g.state.pending["power"])
    return g


def zone(g: Game) -> dict[str, Any]:
    return {s.unit: s for s in g.state.stacks("SZ 7")}


@pytest.mark.rule("AARHE-AMPHIB-id-coastal-fire", "AARHE-ID-amphibious-naval", "AARHE-AMPHIB-offload-condition")
def test_on_the_map_the_id_damages_the_battleship_and_the_armour_lands_behind_the_infantry() -> None:
    # ID search 1, attack 1: the battleship is damaged; infantry 2 (at 2: lifted) hits; defence 6, 6;
    # cycle 2: infantry 1, armour 1; defence 6
    g = landing([1, 1, 2, 6, 6, 1, 1, 6])
    # Paris's ID searches the battleship, not the transport
    searched = [e.purpose for entry in g.log.entries for e in entry.events
                if e.type == "dice_rolled" and "id coastal search" in e.purpose]
    assert len(searched) == 1 and "1 battleship" in searched[0]
    assert g.state.owners["Western Europe"] == UK
    assert units_in(g, "Western Europe") == {"infantry": 1, "armour": 1}
    assert zone(g)["battleship"].damage == 1
    assert check_log(g.log) == []


@pytest.mark.rule("AARHE-AMPHIB-id-coastal-fire")
def test_on_the_map_the_id_sinks_a_damaged_battleship_that_then_lifts_nobody() -> None:
    # ID search 1, attack 1: the damaged battleship sinks; infantry 1 (at 1) hits; defence 6, 6;
    # cycle 2: infantry 1, armour 1; defence 6
    g = landing([1, 1, 1, 6, 6, 1, 1, 6], damaged=True)
    assert "battleship" not in zone(g)
    fired_at = [e.purpose for entry in g.log.entries for e in entry.events
                if e.type == "dice_rolled" and "attacking infantry fire" in e.purpose]
    assert len(fired_at) == 1 and "1 infantry at 1," in fired_at[0]
    assert g.state.owners["Western Europe"] == UK
    assert check_log(g.log) == []


@pytest.mark.rule("AARHE-AMPHIB-offload-condition")
@pytest.mark.parametrize("lost", [False, True])
def test_on_the_map_armour_that_could_not_land_stays_aboard_its_transport(lost: bool) -> None:
    # ID search 6; infantry 6; defence 1, 6: the infantry dies, the armour stays aboard
    g = landing([6, 6, 1, 6], {"aboard_lost_after_failed_landing": True} if lost else None)
    assert g.state.owners["Western Europe"] == GER
    assert units_in(g, "Western Europe") == {"infantry": 2}
    transport = zone(g)["transport"]
    assert flags.cargo(transport) == (() if lost else ((UK, "armour"),))
    assert flags.has(transport, STAYED_ABOARD) != lost
    assert check_log(g.log) == []
    # the same-turn unloading rule leaves it aboard into the next turn (or there is nothing aboard)
    end(g)
    end(g)
    assert flags.cargo(zone(g)["transport"]) == (() if lost else ((UK, "armour"),))


@pytest.mark.rule("AARHE-AMPHIB-sequence", "AARHE-AMPHIB-bombard-cap", "AARHE-AMPHIB-id-coastal-fire")
def test_the_calculators_exact_assault_agrees_with_rolled_ones() -> None:
    args = ("4 infantry, 1 armour", "3 infantry, 1 artillery, 1 aa_gun")
    exact = odds(*args, RULES, battle="amphibious", bombard="1 battleship")
    assert exact.attacker_win + exact.defender_win + exact.draw == pytest.approx(1.0)
    rolled = odds(*args, RULES, battle="amphibious", bombard="1 battleship", method="mc", runs=3_000, seed=5)
    assert rolled.attacker_win == pytest.approx(exact.attacker_win, abs=0.025)
    assert rolled.attacker_ipc_lost == pytest.approx(exact.attacker_ipc_lost, rel=0.1)


@pytest.mark.rule("AARHE-AMPHIB-bombard-inf-bonus")
def test_the_cli_prices_bombardment() -> None:
    args = ["odds", "--rules", RULES, "--battle", "amphibious", "--attacker", "4 infantry", "--defender",
            "3 infantry", "--json"]
    bare = json.loads(CliRunner().invoke(cli, args).output)
    ships = json.loads(CliRunner().invoke(cli, [*args, "--bombard", "2 battleship"]).output)
    assert ships["method"] == "exact" and ships["attacker_win"] > bare["attacker_win"]
