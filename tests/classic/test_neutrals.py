"""Classic neutrals: entered by land units in combat movement for a fee paid at once, then their taker's
territory worth 0; no flying over them, land units stop on entering, aircraft and ships cannot take them."""

from __future__ import annotations

import pytest
from tests.classic.test_move_land import at, fight_all
from tests.movement.helpers import boat, move, mv, rejected, to_phase, units_in

from aare.economy.summary import base_income
from aare.movement import flags
from aare.movement.battles import pending_battles

NEUTRALS = ("Afghanistan", "Angola", "Argentina-Chile", "Colombia", "Eire", "Mongolia", "Mozambique", "Peru",
            "Rio del Oro", "Saudi Arabia", "Spain", "Sweden", "Switzerland", "Turkey")


@pytest.mark.rule("CL-NEUTRAL-list")
def test_the_fourteen_neutrals_start_empty_with_no_owner_and_are_enterable() -> None:
    game = at("Germany", "combat-move", {"West Europe": "Germany: 1 armour"}, banks={"Germany": 10})
    board = game.ruleset.board
    unowned = sorted(t for t, s in board.spaces.items() if s.is_land and game.state.owners.get(t) is None)
    assert [board.spaces[t].name for t in unowned] == sorted(board.resolve(n) for n in NEUTRALS)
    assert all(board.spaces[t].ipc == 0 and not board.spaces[t].neutral for t in unowned)
    assert any(a.type == "move" and a.path[-1] == "Spain" for a in game.legal_actions())


@pytest.mark.rule("CL-NEUTRAL-entry-fee", "CL-NEUTRAL-no-income")
def test_entering_a_neutral_costs_three_ipcs_paid_at_once_and_it_becomes_the_takers() -> None:
    game = at("Germany", "combat-move", {"West Europe": "Germany: 1 armour, 1 infantry"}, banks={"Germany": 10})
    income = base_income(game.state, game.ruleset, "Germany")
    events = move(game, "1 armour", "West Europe", "Spain")
    assert game.state.banks["Germany"] == 7
    [fee] = [e for e in events if e.type == "bank_changed"]
    assert (fee.power, fee.delta, fee.rule_id) == ("Germany", -3, "CL-NEUTRAL-entry-fee")
    move(game, "1 infantry", "West Europe", "Spain")  # one fee per territory
    assert game.state.banks["Germany"] == 7
    [site] = pending_battles(game.state, game.ruleset)
    assert site.space == "Spain" and not site.defenders
    fight_all(game)
    assert game.state.owners["Spain"] == "Germany"
    assert base_income(game.state, game.ruleset, "Germany") == income  # worth 0
    assert units_in(game, "Spain") == {"armour": 1, "infantry": 1}


@pytest.mark.rule("CL-NEUTRAL-entry-fee")
def test_a_power_that_cannot_pay_the_fee_cannot_enter_a_neutral() -> None:
    game = at("Germany", "combat-move", {"West Europe": "Germany: 1 armour"}, banks={"Germany": 2})
    rejected(game, mv("1 armour", "West Europe", "Spain"), "CL-NEUTRAL-entry-fee", "costs 3 IPCs")
    assert not any(a.type == "move" and a.path[-1] == "Spain" for a in game.legal_actions())
    assert game.state.banks["Germany"] == 2
    free = at("Germany", "combat-move", {"West Europe": "Germany: 1 armour"}, banks={"Germany": 0},
              options={"neutral_entry_fee": 0})
    move(free, "1 armour", "West Europe", "Spain")
    assert units_in(free, "Spain") == {"armour": 1}


@pytest.mark.rule("CL-NEUTRAL-entry-fee", "CL-TRANSPORT-amphibious-assault")
def test_land_units_may_take_a_neutral_from_a_transport() -> None:
    game = at("United Kingdom", "combat-move", {}, banks={"United Kingdom": 5},
              stacks=[("North Sea Zone", boat("United Kingdom", "United Kingdom:infantry", "United Kingdom:infantry"))])
    move(game, "2 infantry", "North Sea Zone", "Eire")
    assert game.state.banks["United Kingdom"] == 2
    fight_all(game)
    assert game.state.owners["Eire"] == "United Kingdom"
    poor = at("United Kingdom", "combat-move", {}, banks={"United Kingdom": 1},
              stacks=[("North Sea Zone", boat("United Kingdom", "United Kingdom:infantry"))])
    rejected(poor, mv("1 infantry", "North Sea Zone", "Eire"), "CL-NEUTRAL-entry-fee")


@pytest.mark.rule("CL-NEUTRAL-entry-fee")
def test_neutrals_are_entered_only_in_combat_movement() -> None:
    game = at("Germany", "non-combat-move", {"West Europe": "Germany: 1 armour"}, banks={"Germany": 10})
    rejected(game, mv("1 armour", "West Europe", "Spain"), "CL-LANDMOVE-noncombat-friendly-only")
    assert game.state.banks["Germany"] == 10


@pytest.mark.rule("CL-NEUTRAL-no-overflight")
def test_no_flying_over_a_neutral_and_land_units_stop_on_entering_one() -> None:
    game = at("Russia", "combat-move", {"Caucasus": "Russia: 1 fighter, 1 armour",
                                        "East Mediterranean Sea Zone": "Germany: 1 transport"},
              owners={"Syria Jordan": "Germany"}, banks={"Russia": 10})
    rejected(game, mv("1 fighter", "Caucasus", "Turkey", "East Mediterranean Sea Zone"), "CL-NEUTRAL-no-overflight",
             "fly over neutral Turkey")
    rejected(game, mv("1 armour", "Caucasus", "Turkey", "Syria Jordan"), "CL-NEUTRAL-no-overflight",
             "stop there")
    assert game.state.banks["Russia"] == 10
    move(game, "1 fighter", "Caucasus", "Black Sea Zone", "East Mediterranean Sea Zone")
    move(game, "1 armour", "Caucasus", "Turkey")
    assert units_in(game, "Turkey") == {"armour": 1}
    allowed = at("Russia", "combat-move", {"Caucasus": "Russia: 1 fighter",
                                           "East Mediterranean Sea Zone": "Germany: 1 transport"},
                 options={"neutral_overflight": True})
    move(allowed, "1 fighter", "Caucasus", "Turkey", "East Mediterranean Sea Zone")
    assert units_in(allowed, "East Mediterranean Sea Zone", "Russia") == {"fighter": 1}


@pytest.mark.rule("CL-NEUTRAL-air-cannot-take")
def test_aircraft_and_ships_cannot_take_a_neutral() -> None:
    game = at("Germany", "combat-move", {"Germany": "Germany: 1 fighter, 1 bomber",
                                         "Baltic Sea Zone": "Germany: 1 battleship"}, banks={"Germany": 10})
    rejected(game, mv("1 fighter", "Germany", "Baltic Sea Zone", "Sweden"), "CL-NEUTRAL-air-cannot-take")
    rejected(game, mv("1 bomber", "Germany", "Baltic Sea Zone", "Sweden"), "CL-NEUTRAL-air-cannot-take")
    rejected(game, mv("1 battleship", "Baltic Sea Zone", "Sweden"), "CL-SEAMOVE-adjacent-zones")
    assert game.state.owners.get("Sweden") is None and game.state.banks["Germany"] == 10
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 fighter", "Germany", "Baltic Sea Zone", "Sweden"), "CL-NEUTRAL-air-cannot-take")
    assert not any(flags.has(s, flags.COMBAT) for s in ncm.state.stacks("Germany"))


@pytest.mark.rule("CL-NEUTRAL-no-overflight", "CL-COMBATMOVE-air-landing-plan")
def test_air_routes_and_landing_ranges_go_around_neutrals() -> None:
    # Brazil to Peru Sea Zone: 2 spaces over Peru or Argentina-Chile (neutral), 4 around them (by Panama), which
    # leaves a fighter no way back: no attack on the Japanese transport is possible, and none is offered
    units = {"Brazil": "United States: 1 fighter", "Peru Sea Zone": "Japan: 1 transport"}
    game = at("United States", "combat-move", units)
    rejected(game, mv("1 fighter", "Brazil", "Peru", "Peru Sea Zone"), "CL-NEUTRAL-no-overflight")
    rejected(game, mv("1 fighter", "Brazil", "North Brazil Sea Zone", "Caribbean Sea Zone", "West Panama Sea Zone",
                      "Peru Sea Zone"), "CL-COMBATMOVE-air-landing-plan", "no place to land")
    assert not any(a.type == "move" and a.path[-1] == "Peru Sea Zone" for a in game.legal_actions())
    over = at("United States", "combat-move", units, options={"neutral_overflight": True})
    assert any(a.type == "move" and a.path[-1] == "Peru Sea Zone" for a in over.legal_actions())
    move(over, "1 fighter", "Brazil", "Peru", "Peru Sea Zone")  # 2 left to fly back over Peru
    # the route offered to the East Mediterranean goes by the Black Sea, not over Turkey (as short)
    east = at("Russia", "combat-move", {"Caucasus": "Russia: 1 fighter",
                                        "East Mediterranean Sea Zone": "Germany: 1 transport"})
    offered = [a.path for a in east.legal_actions() if a.type == "move" and a.path[-1] == "East Mediterranean Sea Zone"]
    assert offered == [["Caucasus", "Black Sea Zone", "East Mediterranean Sea Zone"]]
