"""AA50E Improved Factories (2 more units at every complex, half-price repairs, no effect on convoy raids),
Improved Shipyards' prices, Long Range Aircraft's range and Mechanized Infantry's pairing."""

from __future__ import annotations

import pytest

from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.production import producers
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import UnitDamaged, apply_events
from aare.game_log import GameLog
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.scenario import scenario
from tests.aa50e.test_convoy import collect

RULES = "aa50e-1942"
IF = ("improved_factories",)


def damaged(game: Game, territory: str, points: int) -> Game:
    stack = complex_stack(game.state, game.ruleset, territory)
    assert stack is not None
    state = apply_events(game.state, [UnitDamaged(territory, stack, points, "test")])
    return Game(GameLog(state), game.dice)


@pytest.mark.rule("AA50E-TECH-improved-factories-cap")
def test_improved_factories_add_two_units_at_every_complex() -> None:
    australia = {"Australia": "United Kingdom: 1 factory", "India": "United Kingdom: 1 factory"}
    for techs, germany, india, sydney in (((), 10, 3, 2), (IF, 12, 5, 4)):
        ger = scenario(RULES, nation="Germany", phase="mobilize", techs={"Germany": techs})
        assert producers(ger.state, ger.ruleset, "Germany")["Germany"] == germany
        uk = scenario(RULES, nation="United Kingdom", phase="mobilize", units=australia,
                      techs={"United Kingdom": techs})
        made = producers(uk.state, uk.ruleset, "United Kingdom")
        assert (made["India"], made["Australia"]) == (india, sydney)  # Australia is worth 2
    game = damaged(scenario(RULES, nation="Germany", phase="mobilize", techs={"Germany": IF},
                            extra={"purchased": {"Germany": {"infantry": 13}}}), "Germany", 3)
    assert producers(game.state, game.ruleset, "Germany")["Germany"] == 9  # 10 - 3 + 2
    full = scenario(RULES, nation="Germany", phase="mobilize", techs={"Germany": IF},
                    extra={"purchased": {"Germany": {"infantry": 13}}})
    with pytest.raises(IllegalAction):
        full.apply({"type": "place", "units": "13 infantry", "space": "Germany"})
    full.apply({"type": "place", "units": "12 infantry", "space": "Germany"})


@pytest.mark.rule("AA50E-TECH-improved-factories-cap")
def test_the_anniversary_floor_of_3_is_an_option() -> None:
    factories = {"Australia": "United Kingdom: 1 factory", "India": "United Kingdom: 1 factory"}
    uk = scenario(RULES, nation="United Kingdom", phase="mobilize", units=factories,
                  techs={"United Kingdom": IF}, options={"improved_factories_min_value": 3})
    made = producers(uk.state, uk.ruleset, "United Kingdom")
    assert (made["India"], made["Australia"]) == (5, 2)


@pytest.mark.rule("AA50E-TECH-improved-factories-repair")
def test_repairs_cost_half_rounded_up() -> None:
    game = damaged(scenario(RULES, nation="Germany", phase="purchase", banks={"Germany": 6},
                            techs={"Germany": IF}), "Germany", 11)
    game.apply({"type": "repair", "space": "Germany", "points": 11})  # the seed's example: 11 points for 6 IPCs
    assert game.state.banks["Germany"] == 0 and complex_damage(game.state, game.ruleset, "Germany") == 0
    game = damaged(scenario(RULES, nation="Germany", phase="purchase", banks={"Germany": 6},
                            techs={"Germany": IF}), "Germany", 11)
    game.apply({"type": "repair", "space": "Germany", "points": 3})
    assert game.state.banks["Germany"] == 4
    plain = damaged(scenario(RULES, nation="Germany", phase="purchase", banks={"Germany": 6}), "Germany", 11)
    with pytest.raises(IllegalAction):
        plain.apply({"type": "repair", "space": "Germany", "points": 11})


@pytest.mark.rule("AA50E-TECH-improved-factories-no-crd-effect")
def test_improved_factories_change_no_convoy_raid() -> None:
    ic = {"United Kingdom": "United Kingdom: 1 factory", "SZ 7": "Germany: 3 submarines"}
    _, plain = collect("United Kingdom", ic)
    game, improved = collect("United Kingdom", ic, techs={"United Kingdom": list(IF)})
    assert improved == plain and game.state.extra["convoy"]["raids"][0]["damage"] == 3


@pytest.mark.rule("AA50E-TECH-improved-shipyards-costs")
def test_improved_shipyards_prices() -> None:
    game = scenario(RULES, nation="Japan", phase="purchase", banks={"Japan": 27},
                    techs={"Japan": ["improved_shipyards"]})
    costs = {u: game.ruleset.unit_cost(u, power="Japan", state=game.state).value
             for u in ("battleship", "carrier", "cruiser", "destroyer", "transport", "submarine")}
    assert costs == {"battleship": 17, "carrier": 11, "cruiser": 10, "destroyer": 7, "transport": 6, "submarine": 5}
    game.apply({"type": "purchase", "units": "1 battleship, 2 submarine"})
    assert game.state.banks["Japan"] == 0


@pytest.mark.rule("AA50E-TECH-lra-range")
def test_long_range_fighters_move_6_and_bombers_8() -> None:
    for techs, fighter, bomber in (((), 4, 6), (("long_range_aircraft",), 6, 8)):
        game = scenario(RULES, nation="Germany", phase="combat-move", techs={"Germany": techs})
        view = Situation(game.state, game.ruleset, "Germany")
        units = game.ruleset.units
        assert (allowance(view, units["fighter"]), allowance(view, units["bomber"])) == (fighter, bomber)


@pytest.mark.rule("AA50E-TECH-mech-inf-pairing")
def test_infantry_paired_with_armour_move_2_and_blitz() -> None:
    units = {"Germany": "Germany: 2 infantry, 1 armour"}
    owners = {"Poland": "Germany", "East Poland": "Germany"}
    game = scenario(RULES, nation="Germany", phase="non-combat-move", clear=["Germany", "Poland", "East Poland"],
                    units=units, owners=owners, techs={"Germany": ["improved_mechanized_infantry"]})
    path = ["Germany", "Poland", "East Poland"]
    with pytest.raises(IllegalAction, match="only with one tank each"):
        game.apply({"type": "move", "units": "2 infantry, 1 armour", "path": path})
    game.apply({"type": "move", "units": "1 infantry, 1 armour", "path": path})
    blitz = scenario(RULES, nation="Germany", phase="combat-move", clear=["Germany", "Poland", "East Poland"],
                     units={**units, "East Poland": "Soviet Union: 1 infantry"}, owners={"Poland": "Soviet Union"},
                     techs={"Germany": ["improved_mechanized_infantry"]})
    blitz.apply({"type": "move", "units": "1 infantry, 1 armour", "path": path})  # through empty enemy Poland
    assert blitz.state.owners["Poland"] == "Germany"
