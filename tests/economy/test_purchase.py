"""Purchase: prices, budget, the pool that waits for mobilize, no purchases without the capital."""

from __future__ import annotations

import pytest

from aare.errors import IllegalAction, MalformedInput
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from tests.economy.helpers import act, end, pooled

PRICES = {"infantry": 3, "artillery": 4, "armour": 5, "aa_gun": 5, "factory": 15, "fighter": 10, "bomber": 15,
          "transport": 8, "submarine": 8, "destroyer": 12, "carrier": 16, "battleship": 24}


@pytest.mark.rule("LHTR-PURCHASE-price-list")
def test_prices_and_a_battleship_with_two_infantry_cost_30() -> None:
    ruleset = load_ruleset("lhtr-1.3")
    assert {u: ruleset.unit_cost(u).value for u in PRICES} == PRICES
    game = scenario(nation="United Kingdom", phase="purchase")
    act(game, {"type": "purchase", "units": "1 battleship, 2 infantry"})
    assert game.state.banks["United Kingdom"] == 0
    assert pooled(game) == {"battleship": 1, "infantry": 2}


@pytest.mark.rule("LHTR-PURCHASE-budget")
def test_purchases_cannot_exceed_the_treasury() -> None:
    game = scenario(nation="Russia", phase="purchase")
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "purchase", "units": "5 armour"})
    assert err.value.rule_id == "LHTR-PURCHASE-budget" and game.state.banks["Russia"] == 24
    act(game, {"type": "purchase", "units": "8 infantry"})
    assert game.state.banks["Russia"] == 0
    assert [a.to_json() for a in game.legal_actions()] == [{"type": "end_phase"}]


@pytest.mark.rule("LHTR-PURCHASE-budget", "LHTR-TECH-research-dice")
def test_research_dice_bought_earlier_reduce_the_budget() -> None:
    game = scenario(nation="Russia", phase="develop-weapons", dice=[1, 2])
    act(game, {"type": "research", "dice": 2, "tech": "rockets"})
    end(game)
    assert game.state.banks["Russia"] == 14
    with pytest.raises(IllegalAction, match="14"):
        game.apply({"type": "purchase", "units": "5 infantry"})


@pytest.mark.rule("LHTR-PURCHASE-budget")
def test_repeated_purchases_add_up_and_candidates_are_one_of_each_affordable_unit() -> None:
    game = scenario(nation="Germany", phase="purchase", banks={"Germany": 13})
    offered = {a.units for a in game.legal_actions() if a.type == "purchase"}
    assert offered == {"1 infantry", "1 artillery", "1 armour", "1 aa gun", "1 fighter", "1 transport",
                       "1 submarine", "1 destroyer"}
    act(game, {"type": "purchase", "units": "2 infantry"})
    act(game, {"type": "purchase", "units": "1 infantry, 1 artillery"})
    assert pooled(game) == {"infantry": 3, "artillery": 1}
    assert game.state.banks["Germany"] == 0


@pytest.mark.rule("LHTR-PURCHASE-units-wait-for-mobilize")
def test_bought_units_wait_off_the_board_until_mobilize() -> None:
    game = scenario(nation="United Kingdom", phase="purchase")
    fighters_before = sum(s.count for st in game.state.units.values() for s in st
                          if s.owner == "United Kingdom" and s.unit == "fighter")
    act(game, {"type": "purchase", "units": "1 fighter"})
    with pytest.raises(IllegalAction):
        game.apply({"type": "place", "units": "1 fighter", "space": "United Kingdom"})
    end(game, 4)  # through combat-move, conduct-combat and non-combat-move: still not on the board
    assert game.state.phase == "mobilize" and pooled(game) == {"fighter": 1}
    count = sum(s.count for st in game.state.units.values() for s in st
                if s.owner == "United Kingdom" and s.unit == "fighter")
    assert count == fighters_before
    act(game, {"type": "place", "units": "1 fighter", "space": "United Kingdom"})
    assert pooled(game) == {}


@pytest.mark.rule("LHTR-PURCHASE-unplaced-lost")
def test_units_that_cannot_be_placed_are_lost_without_refund() -> None:
    game = scenario(nation="Germany", phase="purchase", banks={"Germany": 51})
    act(game, {"type": "purchase", "units": "17 infantry"})
    end(game, 4)
    act(game, {"type": "place", "units": "10 infantry", "space": "Germany"})
    act(game, {"type": "place", "units": "6 infantry", "space": "Southern Europe"})
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "place", "units": "1 infantry", "space": "Germany"})
    assert err.value.rule_id == "LHTR-MOBILIZE-capacity-ipc-value"
    act(game, {"type": "end_phase"})
    assert pooled(game, "Germany") == {} and game.state.phase == "collect-income"
    assert game.state.banks["Germany"] == 40  # nothing refunded: 0 left + 40 income


@pytest.mark.rule("LHTR-PURCHASE-needs-capital")
def test_no_purchase_while_the_capital_is_held_by_the_enemy() -> None:
    game = scenario(nation="United Kingdom", phase="purchase", owners={"United Kingdom": "Germany"},
                    banks={"United Kingdom": 6})
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "purchase", "units": "1 infantry"})
    assert err.value.rule_id == "LHTR-PURCHASE-needs-capital"
    assert [a.type for a in game.legal_actions()] == ["end_phase"]


@pytest.mark.rule("LHTR-ECON-treasury-carryover")
def test_unspent_ipcs_carry_over_and_income_is_added() -> None:
    game = scenario(nation="United Kingdom", phase="purchase")
    act(game, {"type": "purchase", "units": "3 infantry"})
    assert game.state.banks["United Kingdom"] == 21
    end(game, 5)
    assert game.state.phase == "collect-income" and game.state.banks["United Kingdom"] == 51


@pytest.mark.rule("LHTR-UNITS-roster-closed")
def test_a_cruiser_is_not_a_unit_of_the_game() -> None:
    game = scenario(nation="Japan", phase="purchase")
    with pytest.raises(MalformedInput, match="cruiser"):
        game.apply({"type": "purchase", "units": "1 cruiser"})
    assert not game.log.entries


@pytest.mark.rule("LHTR-TURN-no-shared-economy")
def test_no_buying_for_or_placing_at_an_ally() -> None:
    game = scenario(nation="United States", phase="purchase")
    act(game, {"type": "purchase", "units": "2 infantry"})
    pools = game.state.extra["purchased"]
    assert pools == {"United States": {"infantry": 2}}
    uk = scenario(nation="United Kingdom", phase="mobilize", extra={"purchased": {"United Kingdom": {"infantry": 3}}})
    with pytest.raises(IllegalAction) as err:
        uk.apply({"type": "place", "units": "3 infantry", "space": "Eastern United States"})
    assert err.value.rule_id in ("LHTR-TURN-no-shared-economy", "LHTR-MOBILIZE-at-owned-complex")
    owned = scenario(nation="United Kingdom", phase="mobilize", owners={"Eastern United States": "United Kingdom"},
                     extra={"purchased": {"United Kingdom": {"infantry": 3}}})
    with pytest.raises(IllegalAction) as err:
        owned.apply({"type": "place", "units": "3 infantry", "space": "Eastern United States"})
    assert err.value.rule_id == "LHTR-TURN-no-shared-economy"
