"""AARHE's atomic bomb: bought one a turn, built in two turns, loaded on a heavy bomber in non-combat move, the armed
bomber out of combat, the nuclear attack on income and on one group of units."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

import pytest

from aare.economy.summary import income
from aare.engine import Game
from aare.rulesets.aarhe.atomic import ARMED, groups, ready_bombs
from aare.state.unit_stacks import Stack
from tests.aarhe.common import GER, JAP, US, refused
from tests.aarhe.move_common import at


def with_techs(g: Game, power: str, *techs: str, **extra: Any) -> Game:
    g.log.state = replace(g.state, techs={**g.state.techs, power: tuple(sorted(techs))},
                          extra={**g.state.extra, **extra})
    g.log.initial = g.log.state
    return g


def buy(g: Game) -> None:
    g.apply({"type": "atomic", "step": "buy"})


@pytest.mark.rule("AARHE-TECH-atomic-purchase")
def test_a_nation_with_atomic_weaponry_buys_one_bomb_a_turn() -> None:
    plain = at(US, "purchase", {"Eastern United States": "United States: 1 factory"}, banks={US: 60})
    assert refused(plain, {"type": "atomic", "step": "buy"}) == "AARHE-TECH-atomic-purchase"
    g = with_techs(at(US, "purchase", {"Eastern United States": "United States: 1 factory"}, banks={US: 60}),
                   US, "atomic_weaponry")
    buy(g)
    assert g.state.banks[US] == 40
    assert refused(g, {"type": "atomic", "step": "buy"}) == "AARHE-TECH-atomic-purchase"


@pytest.mark.rule("AARHE-TECH-atomic-build-time")
def test_a_bomb_is_ready_the_turn_after_it_is_bought_and_another_may_be_started() -> None:
    g = with_techs(at(US, "purchase", {"Eastern United States": "United States: 1 factory"}, banks={US: 60}),
                   US, "atomic_weaponry")
    buy(g)
    assert ready_bombs(g.state, US) == 0
    g.log.state = replace(g.state, round=g.state.round + 1)
    assert ready_bombs(g.state, US) == 1
    buy(g)  # a second one, ready a round after the first
    assert ready_bombs(g.state, US) == 1
    g.log.state = replace(g.state, round=g.state.round + 1)
    assert ready_bombs(g.state, US) == 2


def loader(*techs: str, phase: str = "non-combat-move", dice: Iterable[int] = ()) -> Game:
    """The US with a bomb bought last round and two bombers in the United Kingdom."""
    g = at(US, phase, {"United Kingdom": "United States: 2 bomber"}, dice=list(dice))
    bought = {"aarhe_atomic": {US: {"bought": [g.state.round - 1], "used": 0}}}
    return with_techs(g, US, "atomic_weaponry", *techs, **bought)


LOAD = {"type": "atomic", "step": "load", "space": "United Kingdom"}


@pytest.mark.rule("AARHE-TECH-atomic-loading")
def test_the_bomb_is_loaded_in_non_combat_move_with_heavy_bomber_only() -> None:
    assert refused(loader(), LOAD) == "AARHE-TECH-atomic-loading"  # no Heavy Bomber
    assert refused(loader("heavy_bombers", phase="combat-move"), LOAD) == "AARHE-TECH-atomic-loading"
    g = loader("heavy_bombers")
    g.apply(LOAD)
    assert sorted((s.count, ARMED in s.flags) for s in g.state.stacks("United Kingdom")) == [(1, False), (1, True)]
    assert refused(g, LOAD) == "AARHE-TECH-atomic-build-time"  # no bomb left


def armed_at(power: str, space: str, phase: str, units: dict[str, str], dice: Iterable[int] = (),
             owners: dict[str, str] | None = None) -> Game:
    """`power` with an armed bomber and a plain one in `space`."""
    g = at(power, phase, units, owners=owners, dice=list(dice),
           stacks=[(space, Stack(power, "bomber", 1, flags=(ARMED,))), (space, Stack(power, "bomber", 1))])
    return with_techs(g, power, "atomic_weaponry", "heavy_bombers")


@pytest.mark.rule("AARHE-TECH-atomic-bomber-lockout")
def test_an_armed_bomber_takes_no_part_in_an_attack_until_after_its_strike() -> None:
    units = {"Western Europe": "Germany: 1 infantry"}
    g = armed_at(US, "United Kingdom", "combat-move", units, owners={"United Kingdom": "United Kingdom"})
    attack = {"type": "move", "units": "1 bomber", "path": ["United Kingdom", "SZ 7", "Western Europe"]}
    g.apply(attack)  # the plain one
    assert refused(g, attack) == "AARHE-TECH-atomic-bomber-lockout"
    g = armed_at(US, "United Kingdom", "conduct-combat", units, dice=[2])
    g.apply({"type": "atomic", "step": "strike", "space": "United Kingdom", "target": "Western Europe"})
    g.apply({"type": "atomic", "step": "groups", "groups": "1 infantry / none"})  # Western Europe (6): 2 groups
    g.apply({"type": "atomic", "step": "target", "group": 2})
    spent = [s for s in g.state.stacks("United Kingdom") if s.owner == US]
    assert not any(ARMED in s.flags for s in spent)  # disarmed: a bomber like any other from its next turn
    assert refused(g, {"type": "atomic", "step": "strike", "space": "United Kingdom", "target": "Western Europe"}) ==\
        "AARHE-TECH-atomic-attack-income"


@pytest.mark.rule("AARHE-TECH-atomic-attack-income")
def test_a_nuclear_attack_lowers_the_territorys_income_for_good() -> None:
    g = armed_at(US, "Eastern Europe", "conduct-combat", {"Germany": "Germany: 1 factory"}, dice=[5],
                 owners={"Eastern Europe": US})
    before = income(g.state, g.ruleset, GER)
    g.apply({"type": "atomic", "step": "strike", "space": "Eastern Europe", "target": "Germany"})  # 5 off: 10 -> 5
    assert g.state.extra["aarhe_nuked"] == {"Germany": 5}
    assert income(g.state, g.ruleset, GER) == before - 5
    rolled = [e.purpose for e in g.log.entries[-1].events if e.type == "dice_rolled"]
    assert rolled == ["nuclear attack on Germany: income lost"]  # no fire against the bomber
    far = armed_at(US, "Eastern United States", "conduct-combat", {"Germany": "Germany: 1 factory"}, dice=[5])
    strike = {"type": "atomic", "step": "strike", "space": "Eastern United States", "target": "Germany"}
    assert refused(far, strike) == "AARHE-TECH-atomic-attack-income"


@pytest.mark.rule("AARHE-TECH-atomic-attack-units")
def test_the_defender_divides_its_units_the_attacker_picks_a_group_each_destroyed_on_five_or_less() -> None:
    units = {"Germany": "Germany: 1 factory, 6 infantry, 3 armour"}  # Germany (10): 3 groups
    g = armed_at(US, "Eastern Europe", "conduct-combat", units, dice=[5, 5, 6, 2, 3, 1, 4],
                 owners={"Eastern Europe": US})
    assert [sorted(group.items()) for group in groups(g.state, g.ruleset, US, "Germany")] == [
        [("armour", 1), ("infantry", 2)]] * 3  # the plain division offered first
    g.apply({"type": "atomic", "step": "strike", "space": "Eastern Europe", "target": "Germany"})  # 5 off: 10 -> 5
    assert g.state.pending["kind"] == "atomic_groups" and g.to_act() == [GER]
    offered = [a for a in g.legal_actions() if a.type == "atomic"]
    assert [a.groups for a in offered] == [" / ".join(["2 infantry, 1 armour"] * 3)]
    assert refused(g, {"type": "atomic", "step": "groups", "groups": "6 infantry / 3 armour"}) == \
        "AARHE-TECH-atomic-attack-units"  # two groups, not three
    assert refused(g, {"type": "atomic", "step": "groups", "groups": "5 infantry / 3 armour / none"}) == \
        "AARHE-TECH-atomic-attack-units"  # every unit in a group
    g.apply({"type": "atomic", "step": "groups", "groups": "6 infantry / 3 armour / none"})
    assert g.state.pending["kind"] == "atomic_target" and g.to_act() == [US]
    assert refused(g, {"type": "atomic", "step": "target", "group": 4}) == "AARHE-TECH-atomic-attack-units"
    g.apply({"type": "atomic", "step": "target", "group": 1})  # six dice: 5, 6, 2, 3, 1, 4
    assert g.state.pending is None
    assert {s.unit: s.count for s in g.state.stacks("Germany")} == {"factory": 1, "infantry": 1, "armour": 3}
    small = armed_at(JAP, "Manchuria", "conduct-combat", {"China": "United States: 2 infantry"}, dice=[1, 6, 5],
                     owners={"Manchuria": JAP})
    small.apply({"type": "atomic", "step": "strike", "space": "Manchuria", "target": "China"})  # worth 2: one group
    assert small.state.pending is None
    assert {s.unit: s.count for s in small.state.stacks("China")} == {"infantry": 1}
