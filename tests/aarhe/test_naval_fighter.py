"""AARHE's optional naval fighter (option `naval_fighter`): the NAV's values, only NAV landing on and staying with
carriers, NAV riding its carrier without being cargo; with the option off fighters use carriers as before."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.events import Retreated
from aare.errors import MalformedInput
from aare.game_setup import new_game
from aare.movement import flags
from aare.odds import build_battle, odds
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe.air import FLOWN
from aare.rulesets.aarhe.naval_fighter import NAV
from aare.rulesets.aarhe.naval_retreats import uses_carriers
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.aarhe.common import GER, UK
from tests.aarhe.move_common import at
from tests.aarhe.test_land_combat import fire
from tests.aarhe.test_naval_combat import play, rolls
from tests.movement.helpers import end, move, mv, rejected, units_in

RULES = "aarhe"
R_LANDING = "AARHE-CARRIER-nav-only-landing"
R_CYCLE_END = "AARHE-CARRIER-cycle-end-with-nav"
R_STANDARD = "AARHE-CARRIER-cycle-end-standard"
R_NOT_CARGO = "AARHE-OPTUNIT-nav-not-cargo"
ON: dict[str, Any] = {NAV: True}
JAP = "Japan"


def stack(unit: str, count: int = 1, moved: int = 0) -> Stack:
    return Stack(JAP, unit, count, moved=moved)


# ---------------------------------------------------------------- the unit


@pytest.mark.rule(R_LANDING)
def test_the_option_adds_the_naval_fighter_with_the_seeds_values() -> None:
    units = load_ruleset(RULES, ON).units
    nav = units[NAV]
    assert (nav.cost, nav.move, nav.attack, nav.defense, nav.domain) == (8, 2, 3, 2, "air")
    assert units.resolve("NAV") == NAV and units.ids.index(NAV) == units.ids.index("fighter") + 1
    assert nav.carrier_size == 1 and units["fighter"].carrier_size == 0
    off = load_ruleset(RULES, {}).units
    assert NAV not in off and off["fighter"].carrier_size == 1


@pytest.mark.rule(R_LANDING)
def test_the_naval_fighter_is_bought_for_eight() -> None:
    g = scenario(RULES, nation=JAP, phase="purchase", banks={JAP: 20}, round=2, options=ON)
    g.apply({"type": "purchase", "units": "2 nav"})
    assert g.state.banks[JAP] == 4
    off = scenario(RULES, nation=JAP, phase="purchase", banks={JAP: 20}, round=2)
    with pytest.raises(MalformedInput, match="unknown unit 'nav'"):
        off.apply({"type": "purchase", "units": "2 nav"})


@pytest.mark.rule("AARHE-AIRCOMBAT-dogfight-values")
def test_naval_fighters_dogfight_at_two_and_two() -> None:
    b = build_battle("1 naval fighter, 1 destroyer", "1 naval fighter, 1 destroyer", RULES, "sea", options=ON)
    _, events = play(b, [6] * 10)
    fire = rolls(events, "attacker air fire") + rolls(events, "defender air fire")
    assert [(r.side, r.hit_on) for r in fire] == [("attacker", 2), ("defender", 2)]


@pytest.mark.rule("AARHE-AIRCOMBAT-fighter-tank-bonus", "AARHE-TECH-jet-plane")
def test_the_naval_fighter_is_a_fighter_for_the_tank_lift_and_jet_plane() -> None:
    b = build_battle("1 naval fighter, 2 armour", "3 infantry", RULES, "land", options=ON)
    _, events = fire(b, [6] * 6)
    assert sorted((r.count, r.hit_on) for r in rolls(events, "attacker land fire")) == [(1, 3), (1, 4)]
    jets = frozenset({"jet_fighters"})
    b = build_battle("1 naval fighter, 1 infantry", "2 infantry", RULES, "land", options=ON, attacker_techs=jets)
    _, events = fire(b, [6] * 6)
    assert [(r.unit, r.hit_on) for r in rolls(events, "attacker air fire")] == [(NAV, 4)]
    b = build_battle("1 naval fighter, 1 infantry", "1 naval fighter, 1 infantry", RULES, "land", options=ON,
                     attacker_techs=jets, defender_techs=jets)
    _, events = fire(b, [6] * 6)
    fire_ = rolls(events, "attacker air fire") + rolls(events, "defender air fire")
    assert [(r.side, r.hit_on) for r in fire_] == [("attacker", 4), ("defender", 3)]


@pytest.mark.rule(R_LANDING)
def test_uses_carriers_names_the_aircraft_that_land_at_sea() -> None:
    on, off = load_ruleset(RULES, ON), load_ruleset(RULES, {})
    assert uses_carriers(on, NAV) and not uses_carriers(on, "fighter") and not uses_carriers(on, "bomber")
    assert uses_carriers(off, "fighter") and not uses_carriers(off, "bomber")


@pytest.mark.rule(R_LANDING)
def test_fighters_that_start_aboard_carriers_are_naval_fighters() -> None:
    def at_sea(options: dict[str, Any]) -> dict[str, int]:
        state = new_game(RULES, options, seed=1).state
        ruleset = load_ruleset(RULES, options)
        out: dict[str, int] = {}
        for space, stacks in state.units.items():
            for s in stacks:
                if ruleset.board.spaces[space].is_sea and ruleset.units[s.unit].domain == "air":
                    out[s.unit] = out.get(s.unit, 0) + s.count
        return out

    before = at_sea({})
    assert before.get("fighter", 0) > 0 and NAV not in before
    assert at_sea(ON) == {NAV: before["fighter"]}


# ---------------------------------------------------------------- landing on carriers


@pytest.mark.rule(R_LANDING)
def test_only_naval_fighters_land_on_carriers_in_non_combat_move() -> None:
    units = {"Japan": "Japan: 1 fighter, 1 naval fighter", "SZ 60": "Japan: 1 carrier"}
    game = at(JAP, "non-combat-move", units, options=ON)
    rejected(game, mv("1 fighter", "Japan", "SZ 60"), R_LANDING, "only naval fighters land on carriers")
    move(game, "1 naval fighter", "Japan", "SZ 60")
    assert units_in(game, "SZ 60") == {"carrier": 1, NAV: 1}
    off = at(JAP, "non-combat-move", {"Japan": "Japan: 1 fighter", "SZ 60": "Japan: 1 carrier"})
    move(off, "1 fighter", "Japan", "SZ 60")
    assert units_in(off, "SZ 60") == {"carrier": 1, "fighter": 1}


@pytest.mark.rule(R_LANDING)
def test_a_fighter_flies_no_mission_whose_only_way_back_is_a_carrier() -> None:
    # SZ 53 is two from any land; a fighter with 2 of its 4 spent can only come back to the carrier in SZ 52
    units = {"SZ 52": "Japan: 1 carrier", "SZ 53": "United States: 1 destroyer"}
    game = at(JAP, "combat-move", units, options=ON, stacks=[("SZ 52", stack("fighter", moved=2)),
                                                           ("SZ 52", stack(NAV))])
    rejected(game, mv("1 fighter", "SZ 52", "SZ 53"), R_LANDING, "no place to land after SZ 53")
    move(game, "1 naval fighter", "SZ 52", "SZ 53")
    assert units_in(game, "SZ 53", JAP) == {NAV: 1}
    off = at(JAP, "combat-move", units, stacks=[("SZ 52", stack("fighter", moved=2))])
    move(off, "1 fighter", "SZ 52", "SZ 53")
    assert units_in(off, "SZ 53", JAP) == {"fighter": 1}


@pytest.mark.rule(R_LANDING)
def test_only_naval_fighters_are_placed_on_carriers() -> None:
    g = scenario(RULES, nation=JAP, phase="purchase", banks={JAP: 100}, round=2, options=ON, clear=True,
                 units={"Japan": "Japan: 1 industrial complex", "SZ 60": "Japan: 1 carrier"})
    g.apply({"type": "purchase", "units": "1 fighter, 1 nav"})
    while g.state.phase != "mobilize":
        g.apply({"type": "end_phase"})
    rejected(g, {"type": "place", "units": "1 fighter", "space": "SZ 60"}, "LHTR-MOBILIZE-fighters-on-new-carrier")
    g.apply({"type": "place", "units": "1 nav", "space": "SZ 60"})
    assert units_in(g, "SZ 60") == {"carrier": 1, NAV: 1}


@pytest.mark.rule(R_NOT_CARGO)
def test_naval_fighters_ride_their_carrier_and_may_still_fly() -> None:
    units = {"SZ 60": "Japan: 1 carrier, 2 naval fighter"}
    game = at(JAP, "non-combat-move", units, options=ON)
    move(game, "1 carrier", "SZ 60", "SZ 49", "SZ 58")
    assert units_in(game, "SZ 58") == {"carrier": 1, NAV: 2}
    assert all(s.moved == 0 for s in game.state.stacks("SZ 58") if s.unit == NAV)
    move(game, "1 naval fighter", "SZ 58", "Okinawa")  # launched from where the carrier took it
    assert units_in(game, "Okinawa") == {NAV: 1}
    off = at(JAP, "non-combat-move", {"SZ 60": "Japan: 1 carrier, 2 fighter"})
    move(off, "1 carrier", "SZ 60", "SZ 49", "SZ 58")
    assert units_in(off, "SZ 60") == {"fighter": 2}  # without the option own fighters launch before the carrier


@pytest.mark.rule(R_NOT_CARGO)
def test_a_carrier_moves_in_combat_move_and_then_its_naval_fighters_launch() -> None:
    units = {"SZ 60": "Japan: 1 carrier, 2 naval fighter", "SZ 53": "United States: 1 destroyer"}
    game = at(JAP, "combat-move", units, options=ON)
    move(game, "1 carrier", "SZ 60", "SZ 51", "SZ 52")  # nothing to attack in SZ 52: it carries the NAV to launch
    assert [(s.unit, s.count, s.moved) for s in game.state.stacks("SZ 52") if s.unit == NAV] == [(NAV, 2, 0)]
    rejected(game, {"type": "end_phase"}, "LHTR-TURN-combat-move-attack-only", "nothing to attack or support")
    move(game, "2 naval fighter", "SZ 52", "SZ 53")
    end(game)
    assert game.state.phase == "conduct-combat"
    off = at(JAP, "combat-move", {"SZ 60": "Japan: 1 carrier, 2 fighter", "SZ 53": "United States: 1 destroyer"})
    rejected(off, mv("1 carrier", "SZ 60", "SZ 51", "SZ 52"), "LHTR-TURN-combat-move-attack-only")


@pytest.mark.rule(R_NOT_CARGO, "LHTR-TURN-combat-move-attack-only")
def test_a_carrier_that_brought_a_naval_fighter_on_to_another_carrier_had_a_purpose() -> None:
    """Carrier A brings the NAV to SZ 52, where carrier B is; B sails into the battle in SZ 53 and the NAV rides on
    with it: A carried the NAV to a battle, so combat move may end."""
    units = {"SZ 60": "Japan: 1 carrier, 1 naval fighter", "SZ 52": "Japan: 1 carrier",
             "SZ 53": "United States: 1 destroyer"}
    game = at(JAP, "combat-move", units, options=ON)
    move(game, "1 carrier", "SZ 60", "SZ 51", "SZ 52")
    move(game, "1 carrier", "SZ 52", "SZ 53")  # the one that has not moved: the NAV rides with it
    assert units_in(game, "SZ 53") == {"carrier": 1, NAV: 1, "destroyer": 1}
    end(game)
    assert game.state.phase == "conduct-combat"


@pytest.mark.rule(R_NOT_CARGO, "AARHE-AXISCOOP-separation")
def test_no_carrier_moves_to_launch_its_naval_fighter_at_a_battle_it_may_not_join() -> None:
    """The only battle in the NAV's reach is in SZ 53, where German units are: a Japanese NAV may not go there, so
    the carrier has no reason to move in combat move."""
    units = {"SZ 60": "Japan: 1 carrier, 1 naval fighter",
             "SZ 53": "United States: 1 destroyer; Germany: 1 submarine"}
    game = at(JAP, "combat-move", units, options=ON)
    rejected(game, mv("1 carrier", "SZ 60", "SZ 51", "SZ 52"), "LHTR-TURN-combat-move-attack-only")


@pytest.mark.rule(R_NOT_CARGO)
def test_naval_fighters_riding_into_a_sea_battle_fly_a_combat_mission() -> None:
    units = {"SZ 60": "Japan: 1 carrier, 1 naval fighter", "SZ 51": "United States: 1 destroyer"}
    game = at(JAP, "combat-move", units, options=ON)
    move(game, "1 carrier", "SZ 60", "SZ 51")
    nav = next(s for s in game.state.stacks("SZ 51") if s.unit == NAV)
    assert nav.moved == 0 and flags.has(nav, flags.COMBAT) and flags.value(nav, FLOWN) == "0"


# ---------------------------------------------------------------- the end of a sea battle's cycle


def retreated(attacker: str, defender: str, **options: Any) -> list[dict[str, int]]:
    _, events = play(build_battle(attacker, defender, RULES, "sea", options=options or None), [6] * 12)
    return [e.units for e in events if isinstance(e, Retreated)]


@pytest.mark.rule(R_CYCLE_END)
def test_with_naval_fighters_every_other_aircraft_and_those_beyond_capacity_leave() -> None:
    assert retreated("3 naval fighter, 1 fighter, 1 carrier", "1 battleship", **ON) == [{"fighter": 1, NAV: 1}]
    assert retreated("2 bomber, 1 naval fighter, 1 carrier", "1 battleship", **ON) == [{"bomber": 2}]


@pytest.mark.rule(R_CYCLE_END, R_STANDARD)
def test_without_the_option_fighters_stay_as_far_as_the_carriers_hold_them() -> None:
    assert retreated("2 bomber, 3 fighter, 1 carrier", "1 battleship") == [{"bomber": 2, "fighter": 1}]


@pytest.mark.rule(R_CYCLE_END)
def test_the_calculator_keeps_only_naval_fighters_with_the_carriers() -> None:
    units = ("2 naval fighter, 1 fighter, 1 carrier", "2 destroyer")
    exact = odds(*units, RULES, battle="sea", options=ON)
    assert exact.attacker_win + exact.defender_win + exact.draw == pytest.approx(1.0)
    rolled = odds(*units, RULES, battle="sea", method="mc", runs=1_500, seed=5, options=ON)
    assert 0.5 < exact.attacker_win < 0.9
    assert rolled.attacker_win == pytest.approx(exact.attacker_win, abs=0.04)
    assert rolled.attacker_ipc_lost == pytest.approx(exact.attacker_ipc_lost, rel=0.08)


@pytest.mark.rule(R_CYCLE_END)
def test_the_command_line_calculator_takes_the_option() -> None:
    args = ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "2 nav, 1 fighter, 1 carrier",
            "--defender", "2 destroyer", "--json"]
    found = json.loads(CliRunner().invoke(cli, [*args, "--option", "naval_fighter=true"]).output)
    assert found["attacker_win"] == pytest.approx(odds("2 nav, 1 fighter, 1 carrier", "2 destroyer", RULES,
                                                       battle="sea", options=ON).attacker_win)
    assert any("naval fighter" in s["units"] for s in found["attacker_survivors"])
    assert "unknown unit 'nav'" in CliRunner().invoke(cli, args).output


def _defended_and_retreated(options: dict[str, Any], carrier_air: str) -> dict[str, dict[str, int]]:
    """Germany attacks a British carrier with `carrier_air` and a fighter in SZ 6; every die misses; the British
    retreat whatever is left in the battle to SZ 7: where the British units end up."""
    fleets = {"SZ 6": f"United Kingdom: 1 carrier, {carrier_air}"}
    g = at(GER, "combat-move", {"SZ 5": "Germany: 2 destroyer", **fleets}, options=options, dice=[6] * 60,
           stacks=[("SZ 6", Stack(UK, "fighter", 1))])
    g.apply({"type": "move", "units": "2 destroyer", "path": ["SZ 5", "SZ 6"]})
    g.apply({"type": "end_phase"})
    g.apply({"type": "fight", "space": "SZ 6"})
    g.apply({"type": "press"}, power=GER)
    g.apply({"type": "choose", "option": "press-on"}, power=GER)
    g.apply({"type": "retreat", "to": "SZ 7"}, power=UK)
    assert g.state.pending is None
    return {space: units_in(g, space, UK) for space in ("SZ 6", "SZ 7", "United Kingdom")}


@pytest.mark.rule(R_CYCLE_END)
def test_on_the_board_a_defending_fighter_leaves_for_land_and_the_naval_fighter_stays_with_its_carrier() -> None:
    assert _defended_and_retreated(ON, "1 naval fighter") == {
        "SZ 6": {}, "SZ 7": {"carrier": 1, NAV: 1}, "United Kingdom": {"fighter": 1}}
    assert _defended_and_retreated({}, "1 fighter") == {
        "SZ 6": {}, "SZ 7": {"carrier": 1, "fighter": 2}, "United Kingdom": {}}
