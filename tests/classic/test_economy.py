"""Classic economy: the treasury and purchases, income at the end of the turn, capitals (their treasury taken, no
income while lost), liberation, treasuries never below 0."""

from __future__ import annotations

import pytest

from aare.economy.pool import pool
from aare.economy.summary import base_income
from aare.engine import Game
from aare.errors import IllegalAction
from aare.scenario import scenario

RULES = "classic-2e"


def end(game: Game, times: int = 1) -> None:
    for _ in range(times):
        game.apply({"type": "end_phase"})


def take(game: Game, units: str, *path: str) -> None:
    """Move `units` along `path` in combat movement, then fight the battle at its end (a capture when empty)."""
    game.apply({"type": "move", "units": units, "path": list(path)})
    end(game)
    game.apply({"type": "fight", "space": path[-1]})


def income(game: Game, power: str) -> int:
    return base_income(game.state, game.ruleset, power)


# --- purchase ----------------------------------------------------------------------------------------------------


@pytest.mark.rule("CL-PURCHASE-spend-treasury")
def test_units_are_paid_from_the_treasury_with_no_borrowing() -> None:
    game = scenario(RULES, nation="Russia", phase="purchase")
    game.apply({"type": "purchase", "units": "8 infantry"})
    assert game.state.banks["Russia"] == 0 and pool(game.state, "Russia") == {"infantry": 8}
    before = game.state
    with pytest.raises(IllegalAction, match="1 infantry cost 3 IPCs; Russia has 0") as info:
        game.apply({"type": "purchase", "units": "1 infantry"})
    assert info.value.rule_id == "CL-PURCHASE-spend-treasury" and game.state == before
    assert not [a for a in game.legal_actions() if a.type == "purchase"]


@pytest.mark.rule("CL-PURCHASE-save-unspent", "CL-ECON-collect-income")
def test_unspent_ipcs_stay_and_income_comes_at_the_end_of_the_turn() -> None:
    game = scenario(RULES, nation="Germany", phase="purchase")
    game.apply({"type": "purchase", "units": "5 armour"})
    end(game, 4)  # purchase, combat movement, combat, non-combat movement
    game.apply({"type": "place", "units": "5 armour", "space": "Germany"})
    assert game.state.banks["Germany"] == 7
    end(game)
    assert game.state.phase == "collect-income" and game.state.banks["Germany"] == 39
    end(game)
    assert game.state.nation == "United Kingdom" and game.state.banks["Germany"] == 39


@pytest.mark.rule("CL-PURCHASE-unit-limits")
def test_no_limit_on_the_number_of_units() -> None:
    game = scenario(RULES, nation="United States", phase="purchase", units={"East US": "United States: 30 infantry"})
    game.apply({"type": "purchase", "units": "12 infantry"})
    assert pool(game.state, "United States") == {"infantry": 12} and game.state.banks["United States"] == 0


@pytest.mark.rule("CL-PURCHASE-unplaced-lost", "CL-MOBILIZE-naval-adjacent")
def test_units_that_cannot_be_placed_are_lost_without_refund() -> None:
    blocked = {"Baltic Sea Zone": "United Kingdom: 1 submarine", "Central Mediterranean Sea Zone":
               "United Kingdom: 1 submarine"}
    game = scenario(RULES, nation="Germany", phase="mobilize", units=blocked, banks={"Germany": 4},
                    extra={"purchased": {"Germany": {"transport": 1}}})
    transports = sum(s.count for sea in blocked for s in game.state.stacks(sea) if s.unit == "transport")
    for sea in blocked:
        with pytest.raises(IllegalAction, match="holds enemy ships") as info:
            game.apply({"type": "place", "units": "1 transport", "space": sea})
        assert info.value.rule_id == "CL-MOBILIZE-naval-adjacent"
    assert not [a for a in game.legal_actions() if a.type == "place"]
    end(game)
    assert pool(game.state, "Germany") == {} and game.state.banks["Germany"] == 4 + 32
    assert sum(s.count for sea in blocked for s in game.state.stacks(sea) if s.unit == "transport") == transports


# --- income ------------------------------------------------------------------------------------------------------


@pytest.mark.rule("CL-ECON-collect-income", "CL-ECON-income-level-changes")
def test_income_is_the_value_of_the_territories_held_at_the_end_of_the_turn() -> None:
    game = scenario(RULES, nation="Russia", phase="mobilize", banks={"Russia": 0}, owners={"Caucasus": "Germany"})
    end(game)
    assert game.state.phase == "collect-income" and game.state.banks["Russia"] == 21


@pytest.mark.rule("CL-ECON-income-level-changes")
def test_a_capture_moves_the_territorys_value_between_the_income_levels() -> None:
    game = scenario(RULES, nation="Japan", phase="combat-move", clear=["India", "French Indo China"],
                    units={"French Indo China": "Japan: 1 armour"})
    assert (income(game, "United Kingdom"), income(game, "Japan")) == (30, 25)
    take(game, "1 armour", "French Indo China", "India")
    assert game.state.owners["India"] == "Japan"
    assert (income(game, "United Kingdom"), income(game, "Japan")) == (27, 28)


@pytest.mark.rule("CL-ECON-capital-capture-treasury")
def test_capturing_a_capital_takes_the_treasury() -> None:
    game = scenario(RULES, nation="Germany", phase="combat-move", clear=["Russia", "Caucasus"],
                    units={"Caucasus": "Germany: 1 armour"}, owners={"Caucasus": "Germany"}, banks={"Russia": 7})
    take(game, "1 armour", "Caucasus", "Russia")
    assert game.state.owners["Russia"] == "Germany"
    assert (game.state.banks["Russia"], game.state.banks["Germany"]) == (0, 39)
    plunder = [e for e in game.log.entries[-1].events if e.type == "bank_changed"]  # type: ignore[attr-defined]
    assert [(e.power, e.delta) for e in plunder] == [("Russia", -7), ("Germany", 7)]  # type: ignore[attr-defined]


@pytest.mark.rule("CL-ECON-no-income-without-capital")
def test_no_income_and_no_purchase_while_the_capital_is_lost() -> None:
    game = scenario(RULES, nation="Russia", phase="mobilize", banks={"Russia": 0}, owners={"Russia": "Germany"})
    assert game.state.owners["Caucasus"] == "Russia" and income(game, "Russia") == 16
    end(game)
    assert game.state.phase == "collect-income" and game.state.banks["Russia"] == 0
    game = scenario(RULES, nation="Russia", phase="purchase", banks={"Russia": 6}, owners={"Russia": "Germany"})
    before = game.state
    with pytest.raises(IllegalAction, match="cannot buy units while Russia is held by the enemy") as info:
        game.apply({"type": "purchase", "units": "1 infantry"})
    assert info.value.rule_id == "CL-ECON-no-income-without-capital" and game.state == before


@pytest.mark.rule("CL-ECON-no-income-without-capital")
def test_as_an_option_the_income_goes_to_the_capitals_holder() -> None:
    game = scenario(RULES, nation="Russia", phase="mobilize", banks={"Russia": 0, "Germany": 5},
                    owners={"Russia": "Germany"}, options={"income_to_capital_holder": True})
    end(game)
    assert game.state.phase == "collect-income"
    assert (game.state.banks["Russia"], game.state.banks["Germany"]) == (0, 5 + 16)
    game = scenario(RULES, nation="Russia", phase="mobilize", banks={"Germany": 5},
                    options={"income_to_capital_holder": True})
    end(game)
    assert (game.state.banks["Russia"], game.state.banks["Germany"]) == (24 + 24, 5)


@pytest.mark.rule("CL-ECON-liberation")
def test_a_liberated_territory_returns_to_its_owner_while_the_owner_holds_its_capital() -> None:
    game = scenario(RULES, nation="United States", phase="combat-move", clear=["Caucasus", "Persia"],
                    units={"Persia": "United States: 1 armour"},
                    owners={"Caucasus": "Germany", "Persia": "United States"})
    take(game, "1 armour", "Persia", "Caucasus")
    assert game.state.owners["Caucasus"] == "Russia"
    assert [e.rule_id for e in game.log.entries[-1].events if e.type == "control_changed"] == [  # type: ignore
        "CL-ECON-liberation"]


@pytest.mark.rule("CL-ECON-liberation")
def test_while_the_owners_capital_is_lost_the_liberator_keeps_the_territory() -> None:
    game = scenario(RULES, nation="United States", phase="combat-move", clear=["Caucasus", "Persia"],
                    units={"Persia": "United States: 1 armour"},
                    owners={"Caucasus": "Germany", "Persia": "United States", "Russia": "Germany"})
    take(game, "1 armour", "Persia", "Caucasus")
    assert game.state.owners["Caucasus"] == "United States" and income(game, "United States") == 36 + 1 + 3


@pytest.mark.rule("CL-ECON-capital-liberation")
def test_a_liberated_capital_returns_with_the_owners_territories_its_allies_hold() -> None:
    game = scenario(RULES, nation="United Kingdom", phase="combat-move", clear=["Russia", "Caucasus"],
                    units={"Caucasus": "United Kingdom: 1 armour"},
                    owners={"Russia": "Germany", "Caucasus": "United Kingdom", "Yakut S.S.R.": "United Kingdom",
                            "Karelia S.S.R.": "Germany"})
    take(game, "1 armour", "Caucasus", "Russia")
    owners = game.state.owners
    assert (owners["Russia"], owners["Caucasus"], owners["Yakut S.S.R."]) == ("Russia", "Russia", "Russia")
    assert owners["Karelia S.S.R."] == "Germany"
    assert income(game, "Russia") == 24 - 3


@pytest.mark.rule("CL-ECON-treasury-not-negative")
def test_a_raid_larger_than_the_treasury_only_empties_it() -> None:
    game = scenario(RULES, nation="Germany", phase="conduct-combat", techs={"Germany": ("rockets",)},
                    banks={"Russia": 3}, dice=[6])
    game.apply({"type": "rocket", "launcher": "Germany", "target": "Karelia S.S.R."})
    assert game.state.banks["Russia"] == 0
