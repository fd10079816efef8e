"""AARHE build schedule: battleships and carriers mobilised the turn after they are bought; a new infrastructure
defence lies undeployed (it does not fire) until deployed in mobilize, and a deployed one never moves."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.actions import Designate
from aare.economy.pool import pool
from aare.engine import Game
from aare.events import DiceRolled, UnitsChanged, apply_events
from aare.game_log import GameLog
from aare.rulesets.aarhe.build import BUILDING, UNDEPLOYED
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.aarhe.common import GER, RULES, UK, end_phase, refused

ID_STACK = Stack(UK, "aa_gun", 1)


def place(units: str, space: str) -> dict[str, Any]:
    return {"type": "place", "units": units, "space": space}


def deploy(units: str, space: str) -> dict[str, Any]:
    return {"type": "designate", "advantage": "deploy", "units": units, "space": space}



def bought(units: str, rules: str = RULES) -> Game:
    """The UK buys `units` and goes on to its mobilize phase."""
    g = scenario(rules, nation=UK, phase="purchase", banks={UK: 100}, round=2)
    g.apply({"type": "purchase", "units": units})
    while g.state.phase != "mobilize":
        end_phase(g)
    return g


def next_mobilize(g: Game) -> Game:
    """The same power's mobilize phase a turn later (the turn record starts afresh)."""
    extra = {k: v for k, v in g.state.extra.items() if k != "turn"}
    return Game(GameLog(replace(g.state, round=g.state.round + 1, extra=extra)))


@pytest.mark.rule("AARHE-BUILD-two-turn-ships")
def test_battleships_and_carriers_are_mobilised_the_turn_after_they_are_bought() -> None:
    g = bought("1 battleship, 1 carrier, 1 destroyer, 1 artillery")
    assert g.state.extra[BUILDING] == {UK: {"battleship": 1, "carrier": 1}}
    assert refused(g, place("1 battleship", "SZ 7")) == "AARHE-BUILD-two-turn-ships"
    assert refused(g, place("1 carrier", "SZ 7")) == "AARHE-BUILD-two-turn-ships"
    assert not [a for a in g.legal_actions() if a.type == "place" and "battleship" in a.units]
    g.apply(place("1 destroyer", "SZ 7"))
    end_phase(g)  # the artillery left unplaced is lost; the ships wait
    assert pool(g.state, UK) == {"battleship": 1, "carrier": 1} and g.state.extra[BUILDING] == {}
    later = next_mobilize(replace_phase(g, "mobilize"))
    later.apply(place("1 battleship", "SZ 7"))
    assert pool(later.state, UK) == {"carrier": 1}
    # LHTR alone mobilises them at once
    lhtr = bought("1 battleship", rules="lhtr-1.3")
    lhtr.apply(place("1 battleship", "SZ 7"))


def replace_phase(g: Game, phase: str) -> Game:
    return Game(GameLog(replace(g.state, nation=UK, phase=phase)))


@pytest.mark.rule("AARHE-BUILD-two-turn-ships")
def test_ships_bought_last_turn_are_ready_beside_those_bought_this_turn() -> None:
    g = bought("1 battleship")
    end_phase(g)
    g = Game(GameLog(replace(g.state, nation=UK, phase="purchase")))
    g.apply({"type": "purchase", "units": "1 battleship"})
    g = Game(GameLog(replace(g.state, phase="mobilize")))
    assert pool(g.state, UK) == {"battleship": 2}
    g.apply(place("1 battleship", "SZ 7"))
    assert refused(g, place("1 battleship", "SZ 7")) == "AARHE-BUILD-two-turn-ships"


@pytest.mark.rule("AARHE-BUILD-id-undeployed", "AARHE-BUILD-id-deploy")
def test_a_new_id_lies_on_its_side_until_deployed_the_same_turn_or_later() -> None:
    g = bought("1 aa gun")
    g.apply(place("1 aa gun", "United Kingdom"))
    stacks = [s for s in g.state.stacks("United Kingdom") if s.unit == "aa_gun"]
    assert sorted((s.count, s.flags) for s in stacks) == [(1, ()), (1, (UNDEPLOYED,))]
    offered = [a for a in g.legal_actions() if isinstance(a, Designate)]
    assert [(a.advantage, a.space) for a in offered] == [("deploy", "United Kingdom")]
    assert refused(g, deploy("2 aa gun", "United Kingdom")) == "AARHE-BUILD-id-deploy"
    assert refused(g, deploy("1 infantry", "United Kingdom")) == "AARHE-BUILD-id-deploy"
    assert refused(g, {**deploy("1 aa gun", "United Kingdom"), "advantage": "kamikaze"}) == "AARHE-BUILD-id-deploy"
    g.apply(deploy("1 aa gun", "United Kingdom"))
    assert [(s.count, s.flags) for s in g.state.stacks("United Kingdom") if s.unit == "aa_gun"] == [(2, ())]
    # left undeployed, it may be deployed in a later mobilize phase
    g = bought("1 aa gun")
    g.apply(place("1 aa gun", "United Kingdom"))
    end_phase(g)
    later = next_mobilize(replace_phase(g, "mobilize"))
    later.apply(deploy("1 aa gun", "United Kingdom"))


def _raid_on_germany(deployed: bool) -> Game:
    g = scenario(RULES, nation=UK, phase="combat-move", units={"Western Europe": "United Kingdom: 1 bomber"},
                 owners={"Western Europe": UK}, clear=["Western Europe"], round=2, dice=[2, 3, 6, 6])
    gun = Stack(GER, "aa_gun", 1)
    if not deployed:
        state = apply_events(g.state, [UnitsChanged("Germany", gun, replace(gun, flags=(UNDEPLOYED,)))])
        g = Game(GameLog(state), g.dice)
    g.apply({"type": "move", "units": "1 bomber", "path": ["Western Europe", "Germany"], "raid": True})
    end_phase(g)
    g.apply({"type": "fight", "space": "Germany"})
    return g


@pytest.mark.rule("AARHE-BUILD-id-undeployed")
def test_an_undeployed_id_does_not_fire() -> None:
    fired = _raid_on_germany(deployed=True)
    rolls = [e.purpose for e in fired.log.entries[-1].events if isinstance(e, DiceRolled)]
    assert any("aa" in p.lower() for p in rolls)
    quiet = _raid_on_germany(deployed=False)
    rolls = [e.purpose for e in quiet.log.entries[-1].events if isinstance(e, DiceRolled)]
    assert rolls and not any("aa" in p.lower() for p in rolls)


@pytest.mark.rule("AARHE-BUILD-id-fixed")
def test_a_deployed_id_never_moves_an_undeployed_one_does() -> None:
    where = {"units": {"Anglo Egypt": "United Kingdom: 1 aa gun"}, "clear": ["Anglo Egypt"], "round": 2}
    g = scenario(RULES, nation=UK, phase="non-combat-move", **where)  # type: ignore[arg-type]
    move = {"type": "move", "units": "1 aa gun", "path": ["Anglo Egypt", "Trans-Jordan"]}
    assert refused(g, move) == "AARHE-BUILD-id-fixed"
    lying = apply_events(g.state, [UnitsChanged("Anglo Egypt", ID_STACK, replace(ID_STACK, flags=(UNDEPLOYED,)))])
    g = Game(GameLog(lying))
    g.apply(move)
    assert any(s.unit == "aa_gun" for s in g.state.stacks("Trans-Jordan"))
    # LHTR alone moves it
    lhtr = scenario("lhtr-1.3", nation=UK, phase="non-combat-move", **where)  # type: ignore[arg-type]
    lhtr.apply(move)
