"""AARHE national attacks (option `national_attacks`): each power's battle ability on the board and in the
calculator."""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.board_battle import build_battle as board_battle
from aare.combat.decisions import ChooseOption, Option, Press
from aare.combat.engine import advance, decide
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.movement.battles import pending_battles
from aare.odds import build_battle, odds
from aare.rulesets.aarhe.national_attacks import (
    BLITZKRIEG,
    HOME_DEFENCE,
    LANCE_TORPEDO,
    MARINE,
    RADAR,
    SHOCK_TROOPS,
)
from tests.aarhe.move_common import at
from tests.aarhe.test_amphibious import cycle
from tests.aarhe.test_land_combat import fire, rolls
from tests.movement.helpers import move

ON = {"national_attacks": True}
GER, RUS, UK = "Germany", "Russia", "United Kingdom"


def battle(attacker: str, defender: str, kind: str = "land", **inputs: Any) -> Battle:
    return build_battle(attacker, defender, "aarhe", kind, options=ON, **inputs)


def fired(b: Battle, dice: int, side: str = "") -> list[tuple[str, str, int, int]]:
    """(step, unit, dice, hit on) of each group `b` rolls up to its first decision, every die a 6."""
    _, events = fire(b, [6] * dice)
    return [(r.step, r.unit, r.count, r.hit_on) for r in rolls(events) if not side or r.side == side]


def board_techs(power: str, units: dict[str, str], path: tuple[str, ...], moving: str, **kwargs: Any
                ) -> tuple[frozenset[str], dict[str, frozenset[str]]]:
    """The attacker's and the defenders' abilities in the battle `power`'s move makes."""
    g = at(power, "combat-move", units, options=ON, **kwargs)
    move(g, moving, *path)
    site = next(s for s in pending_battles(g.state, g.ruleset) if s.space == path[-1])
    b = board_battle(g.state, g.ruleset, site)
    return b.setup.techs("attacker"), dict(b.setup.owner_techs)


@pytest.mark.rule("AARHE-NATATTACK-germany-blitzkrieg")
def test_blitzkrieg_fighters_attack_at_four_and_lift_a_tank_each_without_enemy_fighters() -> None:
    assert fired(battle("2 fighter, 2 armour", "4 infantry", attacker_techs={BLITZKRIEG}), 8, "attacker") == [
        ("attacker air fire", "fighter", 2, 4), ("attacker land fire", "armour", 2, 4)]  # the lift once only
    # enemy bombers only: the dogfight, but the tanks still gain
    assert ("attacker land fire", "armour", 2, 4) in fired(
        battle("2 fighter, 2 armour", "1 bomber, 4 infantry", attacker_techs={BLITZKRIEG}), 9)
    assert ("attacker land fire", "armour", 2, 3) in fired(battle("2 fighter, 2 armour", "1 bomber, 4 infantry"), 9)
    assert ("attacker land fire", "armour", 2, 3) in fired(  # an enemy fighter: no blitzkrieg
        battle("2 fighter, 2 armour", "1 fighter, 4 infantry", attacker_techs={BLITZKRIEG}), 9)
    units = {"Eastern Europe": f"{GER}: 1 armour", "Ukraine S.S.R.": f"{RUS}: 1 infantry"}
    soviet = {"Ukraine S.S.R.": RUS}
    attacker, _ = board_techs(GER, units, ("Eastern Europe", "Ukraine S.S.R."), "1 armour", owners=soviet)
    assert BLITZKRIEG in attacker
    g = at(GER, "combat-move", units, owners=soviet)
    move(g, "1 armour", "Eastern Europe", "Ukraine S.S.R.")
    site = pending_battles(g.state, g.ruleset)[0]
    assert BLITZKRIEG not in board_battle(g.state, g.ruleset, site).setup.techs("attacker")  # option off


@pytest.mark.rule("AARHE-NATATTACK-italy-home-defence")
def test_home_defence_infantry_defend_at_three_in_the_first_cycle() -> None:
    b = battle("2 infantry", "2 infantry", defender_techs={HOME_DEFENCE})
    assert fired(b, 4, "defender") == [("defender land fire", "infantry", 2, 3)]
    b, _ = fire(b, [6] * 4)
    assert fired(decide(b, Press()), 4, "defender") == [("defender land fire", "infantry", 2, 2)]


@pytest.mark.rule("AARHE-NATATTACK-italy-home-defence")
def test_home_defence_counts_in_italys_original_territories_on_the_italy_map() -> None:
    units = {"Anglo Egypt": f"{UK}: 2 infantry", "Libya": "Italy: 1 infantry; Germany: 1 infantry"}
    options = {**ON, "italy": True}
    g = at(UK, "combat-move", units, options=options)
    move(g, "2 infantry", "Anglo Egypt", "Libya")
    site = next(s for s in pending_battles(g.state, g.ruleset) if s.space == "Libya")
    b = board_battle(g.state, g.ruleset, site)
    assert HOME_DEFENCE in b.setup.owner_techs["Italy"] and HOME_DEFENCE in b.setup.owner_techs[GER]
    assert sorted((r.unit, r.count, r.hit_on) for r in rolls(fire(b, [6] * 4)[1], "defender land fire")) == [
        ("infantry", 2, 3)]
    units = {"Libya": f"{UK}: 2 infantry", "Anglo Egypt": "Italy: 1 infantry"}
    g = at(UK, "combat-move", units, options=options, owners={"Libya": UK, "Anglo Egypt": "Italy"})
    move(g, "2 infantry", "Libya", "Anglo Egypt")  # not an original Italian territory
    site = next(s for s in pending_battles(g.state, g.ruleset) if s.space == "Anglo Egypt")
    assert HOME_DEFENCE not in board_battle(g.state, g.ruleset, site).setup.owner_techs["Italy"]


@pytest.mark.rule("AARHE-NATATTACK-japan-lance-torpedo")
def test_lance_torpedo_fighters_attack_at_four_at_sea_only() -> None:
    assert ("attacker air fire", "fighter", 1, 4) in fired(
        battle("1 fighter, 1 destroyer", "1 destroyer", "sea", attacker_techs={LANCE_TORPEDO}), 5)
    assert ("attacker air fire", "fighter", 1, 3) in fired(
        battle("1 fighter, 1 infantry", "2 infantry", attacker_techs={LANCE_TORPEDO}), 6)


@pytest.mark.rule("AARHE-NATATTACK-japan-lance-torpedo")
def test_lance_torpedo_destroyers_fire_in_the_opening_fire_of_the_first_cycle() -> None:
    # their two hits are removed before the enemy's main round: the defending destroyers never fire
    b = battle("2 destroyer", "2 destroyer", "sea", attacker_techs={LANCE_TORPEDO})
    _, events = fire(b, [1, 1])
    assert [(r.step, r.count) for r in rolls(events)] == [("attacker lance torpedo fire", 2)]
    _, events = fire(battle("2 destroyer", "2 destroyer", "sea"), [1, 1, 6, 6])
    assert [(r.step, r.count) for r in rolls(events)] == [("attacker sea fire", 2), ("defender sea fire", 2)]
    b, _ = fire(battle("2 destroyer", "2 destroyer", "sea", attacker_techs={LANCE_TORPEDO}), [6, 6, 6, 6])
    stay = lambda _b, d: Option(d.options[0]) if isinstance(d, ChooseOption) else None  # noqa: E731  (press on)
    _, events = advance(decide(b, Press()), ScriptedDice([6] * 4), stay)  # the second cycle: the main round
    assert [(r.step, r.count) for r in rolls(events)] == [("attacker sea fire", 2), ("defender sea fire", 2)]
    lance = odds("2 destroyer", "2 destroyer", "aarhe", battle="sea", options=ON, attacker_techs={LANCE_TORPEDO})
    assert lance.attacker_win > odds("2 destroyer", "2 destroyer", "aarhe", battle="sea", options=ON).attacker_win


@pytest.mark.rule("AARHE-NATATTACK-ussr-shock-troops")
def test_one_shock_troop_attacks_at_two_in_the_first_cycle_of_three_battles_a_turn() -> None:
    b = battle("3 infantry", "3 infantry", attacker_techs={SHOCK_TROOPS})
    _, events = fire(b, [2, 6, 6, 6, 6])  # its hit is removed before the defenders fire: two are left
    assert [(r.step, r.count, r.hit_on) for r in rolls(events)] == [
        ("shock troop fire", 1, 2), ("attacker land fire", 2, 1), ("defender land fire", 2, 2)]
    b, _ = fire(b, [6] * 6)
    _, events = fire(decide(b, Press()), [6] * 6)  # the second cycle: all in the main round, at 1
    assert [(r.step, r.count, r.hit_on) for r in rolls(events, "attacker land fire")] == [
        ("attacker land fire", 3, 1)]
    units = {"Caucasus": f"{RUS}: 2 infantry"}
    path = ("Caucasus", "Ukraine S.S.R.")
    attacker, _ = board_techs(RUS, units, path, "2 infantry", owners={"Ukraine S.S.R.": GER})
    assert SHOCK_TROOPS in attacker
    g = at(RUS, "combat-move", units, owners={"Ukraine S.S.R.": GER}, options=ON)
    move(g, "2 infantry", *path)
    three = {"round": g.state.round, "nation": RUS, "fought": ["Karelia S.S.R.", "SZ 4", "West Russia", "Norway"],
             "current": None, "rockets": {}}
    state = replace(g.state, extra={**g.state.extra, "combat": {**three, "fought": ["Norway", "SZ 4", "West Russia"]}})
    site = pending_battles(state, g.ruleset)[0]
    assert SHOCK_TROOPS in board_battle(state, g.ruleset, site).setup.techs("attacker")  # two land battles before
    state = replace(g.state, extra={**g.state.extra, "combat": three})
    assert SHOCK_TROOPS not in board_battle(state, g.ruleset, site).setup.techs("attacker")  # the fourth


@pytest.mark.rule("AARHE-NATATTACK-uk-radar")
def test_radar_fighters_defend_at_five_at_home() -> None:
    assert ("defender air fire", "fighter", 1, 5) in fired(
        battle("4 infantry", "1 fighter, 1 infantry", defender_techs={RADAR}), 6)
    assert ("defender air fire", "fighter", 1, 4) in fired(  # the dogfight value too
        battle("1 fighter, 2 infantry", "1 fighter, 1 infantry", defender_techs={RADAR}), 5)
    for space, has in (("India", True), ("Persia", False)):
        start = "French Indochina" if space == "India" else "Kazakh S.S.R."
        units = {start: "Japan: 1 infantry", space: f"{UK}: 1 fighter, 1 infantry"}
        _, owners = board_techs("Japan", units, (start, space), "1 infantry", owners={start: "Japan"})
        assert (RADAR in owners[UK]) is has


@pytest.mark.rule("AARHE-NATATTACK-us-marine")
def test_marines_attack_at_plus_one_in_the_first_cycle_of_an_assault() -> None:
    b = battle("2 infantry", "2 infantry", "amphibious", bombard="1 battleship", attacker_techs={MARINE})
    b, events = cycle(b, [6] * 4)
    assert sorted((r.count, r.hit_on) for r in rolls(events, "attacking infantry fire")) == [(1, 2), (1, 3)]
    _, events = cycle(b, [6] * 4)
    assert [(r.count, r.hit_on) for r in rolls(events, "attacker land fire")] == [(2, 1)]


@pytest.mark.rule("AARHE-NATATTACK-germany-blitzkrieg")
def test_the_calculator_takes_a_national_attack() -> None:
    args = ["odds", "--rules", "aarhe", "--attacker", "2 fighter, 2 armour", "--defender", "4 infantry", "--json"]
    plain = json.loads(CliRunner().invoke(cli, [*args, "--option", "national_attacks=true"]).output)
    blitz = json.loads(CliRunner().invoke(cli, [*args, "--option", "national_attacks=true",
                                                "--attacker-advantage", "blitzkrieg"]).output)
    assert blitz["attacker_win"] > plain["attacker_win"]
    refused = CliRunner().invoke(cli, [*args, "--option", "national_attacks=true", "--attacker-advantage", "radr"])
    assert refused.exit_code != 0 and "blitzkrieg" in refused.output
