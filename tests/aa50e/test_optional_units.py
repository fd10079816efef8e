"""Anniversary Enhanced optional units, with the option `optional_units` on and off: the pocket battleship and the
escort carrier (AA50E-OPTUNIT-*)."""

from __future__ import annotations

import pytest

from aare.errors import IllegalAction, MalformedInput
from aare.odds import build_battle, odds
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.aa50.common import fire, position
from tests.combat.helpers import play
from tests.movement.helpers import move, rejected

RULESETS = ("aa50e-1941", "aa50e-1942")
ON = {"optional_units": True}


def spent(rules: str, units: str, on: bool = True, techs: tuple[str, ...] = ()) -> int:
    game = scenario(rules, nation="Germany", phase="purchase", banks={"Germany": 60}, options=ON if on else {},
                    techs={"Germany": techs})
    game.apply({"type": "purchase", "units": units})
    return 60 - game.state.banks["Germany"]


@pytest.mark.rule("AA50E-OPTUNIT-table")
@pytest.mark.parametrize("rules", RULESETS)
def test_the_option_adds_the_two_units_to_the_purchase_list(rules: str) -> None:
    units = load_ruleset(rules, ON).units
    stats = {u: (units[u].attack, units[u].defense, units[u].move, units[u].cost, units[u].hits)
             for u in ("pocket_battleship", "escort_carrier")}
    assert stats == {"pocket_battleship": (4, 4, 2, 17, 1), "escort_carrier": (0, 1, 2, 8, 1)}
    assert units["escort_carrier"].carrier_capacity == 1
    assert spent(rules, "1 pocket battleship, 1 escort carrier") == 25
    game = scenario(rules, nation="Germany", phase="purchase", banks={"Germany": 60}, options=ON)
    offered = {a.units for a in game.legal_actions() if a.type == "purchase"}
    assert any("pocket battleship" in u for u in offered) and any("escort carrier" in u for u in offered)
    # off (the default): neither exists
    plain = load_ruleset(rules)
    assert "pocket_battleship" not in plain.units and "escort_carrier" not in plain.units
    with pytest.raises(MalformedInput, match="unknown unit 'pocket battleship'"):
        spent(rules, "1 pocket battleship", on=False)
    assert [o.default for m in plain.modules for o in m.options if o.key == "optional_units"] == [False]


@pytest.mark.rule("AA50E-OPTUNIT-pocket-battleship")
def test_the_pocket_battleship_costs_17_or_14_with_shipyards_and_bombards_at_4() -> None:
    assert spent("aa50e-1941", "1 pocket battleship") == 17
    assert spent("aa50e-1941", "1 pocket battleship", techs=("improved_shipyards",)) == 14
    b = build_battle("1 infantry", "1 infantry", "aa50e-1941", "amphibious", bombard="1 pocket battleship",
                     options=ON)
    _, events = play(b, [4, 6, 6])
    assert fire(events, "bombardment") == [("pocket_battleship", 1, 4)]
    # one hit sinks it, and it has no AA gun: a fighter meets no battleship AA
    sea = build_battle("1 fighter", "1 pocket battleship", "aa50e-1941", "sea", options=ON)
    b, events = play(sea, [3, 6])
    assert fire(events, "battleship aa") == [] and fire(events, "attacker fire") == [("fighter", 1, 3)]
    assert b.state.result == "attacker"
    assert odds("1 fighter", "1 pocket battleship", "aa50e-1941", battle="sea", options=ON).attacker_win > 0
    with pytest.raises(MalformedInput):
        build_battle("1 infantry", "1 infantry", "aa50e-1941", "amphibious", bombard="1 pocket battleship")


@pytest.mark.rule("AA50E-OPTUNIT-escort-carrier")
def test_the_escort_carrier_carries_one_fighter_and_costs_8() -> None:
    assert spent("aa50e-1941", "1 escort carrier") == 8
    assert spent("aa50e-1941", "1 escort carrier", techs=("improved_shipyards",)) == 8  # no shipyard price
    game = position("Germany", "non-combat-move", {"SZ 5": "Germany: 1 escort carrier",
                                                   "Germany": "Germany: 2 fighters, 1 factory"},
                    rules="aa50e-1941", options=ON)
    move(game, "1 fighter", "Germany", "SZ 5")
    rejected(game, {"type": "move", "units": "1 fighter", "path": ["Germany", "SZ 5"]}, "AA50-AIRMOVE-carrier-landing")
    # a fleet carrier takes two
    fleet = position("Germany", "non-combat-move", {"SZ 5": "Germany: 1 carrier",
                                                    "Germany": "Germany: 2 fighters, 1 factory"}, rules="aa50e-1941")
    move(fleet, "2 fighters", "Germany", "SZ 5")
    with pytest.raises((IllegalAction, MalformedInput)):
        position("Germany", "non-combat-move", {"SZ 5": "Germany: 1 escort carrier"}, rules="aa50e-1941")
    b = build_battle("1 destroyer", "1 escort carrier", "aa50e-1941", "sea", options=ON)
    _, events = play(b, [6, 1])
    assert fire(events, "defender fire") == [("escort_carrier", 1, 1)]
