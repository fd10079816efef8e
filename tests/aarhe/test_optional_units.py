"""AARHE's optional units, each an option: the cruiser, the dive bomber, the heavy tank (two hits, repaired at a
friendly complex or victory city) and the heavy artillery."""

from __future__ import annotations

import pytest

from aare.combat.engine import advance
from aare.combat.policy import DEFAULT_POLICY
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import AareError
from aare.game_log import GameLog
from aare.odds import build_battle, odds
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe import combat_values as v
from aare.rulesets.aarhe import naval_values as nv
from aare.state.unit_stacks import Stack, add_stack
from tests.aarhe.common import GER, JAP, UK, end_turn, game, refused

RULES = "aarhe"
ALL = {"cruiser": True, "dive_bomber": True, "heavy_tank": True, "heavy_artillery": True}


@pytest.mark.rule("AARHE-OPTUNIT-table")
def test_each_option_adds_its_unit_with_the_seeds_values() -> None:
    units = load_ruleset(RULES, ALL).units
    table = {u: (units[u].cost, units[u].move, units[u].attack, units[u].defense, units[u].hits)
             for u in ("cruiser", "dive_bomber", "heavy_tank", "heavy_artillery")}
    assert table == {"cruiser": (15, 3, 3, 3, 1), "dive_bomber": (8, 4, 3, 2, 1), "heavy_tank": (8, 2, 4, 3, 2),
                     "heavy_artillery": (5, 1, 3, 2, 1)}
    assert [units.resolve(n) for n in ("CA", "DIV", "H.ARM", "H.ART")] == list(table)
    plain = load_ruleset(RULES).units
    for name in ("cruiser", "dive_bomber"):
        assert name not in plain
    assert "cruiser" in load_ruleset(RULES, {"cruiser": True}).units
    assert "dive_bomber" not in load_ruleset(RULES, {"cruiser": True}).units
    # the heavy tank and heavy artillery are listed without their options: their technologies unlock them


@pytest.mark.rule("AARHE-OPTUNIT-table")
@pytest.mark.parametrize("on", [True, False])
def test_the_cruiser_is_bought_for_fifteen_only_with_its_option(on: bool) -> None:
    g = game({"cruiser": on})
    bank = g.state.banks["Russia"]
    buy = {"type": "purchase", "units": "1 cruiser"}
    if on:
        g.apply(buy)
        assert g.state.banks["Russia"] == bank - 15
    else:
        with pytest.raises(AareError):
            g.apply(buy)


@pytest.mark.rule("AARHE-OPTUNIT-table")
def test_the_new_units_fight_with_their_values() -> None:
    sea = build_battle("1 cruiser", "1 destroyer", RULES, "sea", options={"cruiser": True})
    assert nv.anti_air(sea, next(k for k, _ in sea.state.attacker)) == 4
    assert [(g.count, g.hit_on) for g in nv.fire_groups(sea, "attacker", nv.ESCORT, "cycle")] == [(1, 3)]
    land = build_battle("1 dive_bomber", "1 fighter", RULES, options={"dive_bomber": True})
    diver = next(k for k, _ in land.state.attacker)
    assert v.dogfight_value(land, "attacker", diver) == 1
    assert v.dogfight_value(land.with_state(land.state.evolve(defender=land.state.attacker)), "defender", diver) == 2
    found = odds("1 heavy_artillery, 1 heavy_tank", "2 infantry", RULES, options=ALL)
    assert found.method == "exact" and 0 < found.attacker_win < 1


@pytest.mark.rule("AARHE-OPTUNIT-harm-two-hits")
def test_a_heavy_tank_takes_two_hits() -> None:
    b = build_battle("1 heavy_tank", "2 infantry", RULES, options={"heavy_tank": True})
    b, _ = advance(b, ScriptedDice([6, 2, 6]), lambda bt, d: None if d.__class__.__name__ == "PressOrRetreat"
                   else DEFAULT_POLICY(bt, d))
    (key, n), = [(k, n) for k, n in b.state.attacker if k.present]
    assert (key.type, n, key.damage) == ("heavy_tank", 1, 1)


def _damaged_tanks(g: Game) -> Game:
    state = g.state
    for space in ("Germany", "Norway"):
        state = state.with_stacks(space, add_stack(state.stacks(space), Stack(GER, "heavy_tank", 1, damage=1)))
    return Game(GameLog(state))


def _tank_damage(g: Game, space: str) -> int:
    return next(s.damage for s in g.state.stacks(space) if s.unit == "heavy_tank")


@pytest.mark.rule("AARHE-OPTUNIT-harm-repair")
@pytest.mark.parametrize("on", [True, False])
def test_a_damaged_heavy_tank_is_repaired_as_any_turn_begins_at_a_complex_or_city(on: bool) -> None:
    g = game({"heavy_tank": True})
    if not on:  # without the option (or the Heavy Tank technology) there is no heavy tank to repair
        assert refused(game({}), {"type": "purchase", "units": "1 heavy tank"}) == "AARHE-TECH-heavy-tank"
        return
    end_turn(g)  # round 1: the Soviet Union alone
    g = _damaged_tanks(g)
    while UK not in g.state.members:  # Germany's own team turn: no repair until a turn begins
        for power in (GER, JAP):
            end_turn(g, power)
        if UK not in g.state.members:
            assert _tank_damage(g, "Germany") == 1
    assert _tank_damage(g, "Germany") == 0  # the enemy's turn began: Berlin repairs it
    assert _tank_damage(g, "Norway") == 1  # no complex, no victory city
