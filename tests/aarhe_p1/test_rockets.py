"""AARHE Phase 1 rockets, in force once Rockets is developed: bought at 2 IPCs, fired from territories joined to
the capital, at most 2 spaces to an enemy complex, the higher of two dice, at most the territory's value a turn."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.rulesets.aarhe_p1.rockets import ROCKETS, STOCK, stock
from aare.scenario import scenario
from tests.aarhe_p1.common import GER, RULES, UK, at, buy, purchase, refused, to

ROCKETS_ON = {GER: (ROCKETS,)}


def firing(ready: int = 1, dice: list[int] | None = None, techs: Any = ROCKETS_ON, **extra: Any) -> Game:
    """Germany in conduct combat of round 2 with `ready` rockets; the United Kingdom holds 50 IPCs."""
    return scenario(RULES, nation=GER, phase="conduct-combat", round=2, banks={GER: 20, UK: 50}, techs=techs,
                    extra={STOCK: {GER: {"ready": ready, "new": 0, "round": 1}}, **extra}, dice=dice)


def rocket(launcher: str, target: str) -> dict[str, Any]:
    return {"type": "rocket", "launcher": launcher, "target": target}


@pytest.mark.rule("AARHEP1-OPT-rockets-purchase")
def test_rockets_cost_2_each_and_fire_from_the_next_turn() -> None:
    g = at(GER, techs=ROCKETS_ON)
    assert buy(g, "3 rockets") == 6
    assert stock(g.state, GER) == {"ready": 0, "new": 3, "round": 2}
    assert any(a.type == "purchase" and a.units == "1 rocket" for a in g.legal_actions())
    to(g, "conduct-combat")
    assert refused(g, rocket("Western Europe", "United Kingdom")) == "AARHEP1-OPT-rockets-purchase"


@pytest.mark.rule("AARHEP1-OPT-rockets-purchase")
def test_no_rockets_without_the_technology() -> None:
    g = at(GER)
    assert refused(g, purchase("1 rocket")) == "AARHEP1-OPT-rockets-purchase"
    assert not any(a.type == "purchase" and "rocket" in a.units for a in g.legal_actions())


@pytest.mark.rule("AARHEP1-OPT-rockets-launch-sites")
def test_rockets_fire_from_territories_joined_to_the_capital() -> None:
    g = firing(ready=2, dice=[3, 1])
    # Libya is German but cut off from Berlin by the sea; Southern Europe is 2 spaces from it
    assert refused(g, rocket("Libya", "Southern Europe")) == "AARHEP1-OPT-rockets-launch-sites"
    g.apply(rocket("Western Europe", "United Kingdom"))
    assert g.state.banks[UK] == 47
    # Western Europe taken this turn: no launch site until held since the turn began
    owners = {**g.ruleset.board.owners, "Western Europe": UK}
    taken = firing(turn={"round": 2, "power": GER, "owners": owners, "placed": {}, "damage": {}})
    assert refused(taken, rocket("Western Europe", "United Kingdom")) == "AARHEP1-OPT-rockets-launch-sites"


@pytest.mark.rule("AARHEP1-OPT-rockets-range")
def test_a_rocket_flies_at_most_2_spaces_to_an_enemy_complex() -> None:
    g = firing(dice=[2, 2])
    assert refused(g, rocket("Germany", "United Kingdom")) == "AARHEP1-OPT-rockets-range"  # 3 spaces
    assert refused(g, rocket("Western Europe", "Norway")) == "AARHEP1-OPT-rockets-range"  # no complex
    assert any(a.type == "rocket" and a.target == "United Kingdom" for a in g.legal_actions())
    g.apply(rocket("Western Europe", "United Kingdom"))  # Western Europe, sea zone, United Kingdom
    assert g.state.banks[UK] == 48


@pytest.mark.rule("AARHEP1-OPT-rockets-damage")
def test_a_rocket_does_the_higher_of_two_dice() -> None:
    g = firing(ready=2, dice=[2, 5, 6, 1])
    g.apply(rocket("Western Europe", "United Kingdom"))
    assert g.state.banks[UK] == 45
    assert stock(g.state, GER)["ready"] == 1
    assert refused(firing(techs={}), rocket("Western Europe", "United Kingdom")) == "AARHEP1-OPT-rockets-purchase"


@pytest.mark.rule("AARHEP1-OPT-rockets-cap")
def test_rocket_damage_on_a_complex_is_capped_at_its_value() -> None:
    g = firing(ready=5, dice=[5, 1, 6, 2, 4, 1, 3, 2])
    for _ in range(4):
        g.apply(rocket("Western Europe", "United Kingdom"))
    assert g.state.banks[UK] == 50 - 8  # 5 + 6 + 4 + 3 rolled, the United Kingdom is worth 8
    assert not any(a.type == "rocket" and a.target == "United Kingdom" for a in g.legal_actions())
