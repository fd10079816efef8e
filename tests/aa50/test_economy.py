"""The Anniversary economy on the core's mechanisms: income at the end of a power's own turn, capture and
liberation of capitals and territories, purchases from the treasury, no sharing between allies, Italy's own
economy, and turns kept without a capital."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import pytest

from aare.economy.capture import capture_territory_events
from aare.errors import IllegalAction, MalformedInput
from aare.events import BankChanged, ControlChanged, Event
from aare.scenario import scenario
from aare.state.game_state import GameState

GER, SOV, JPN, UK, ITA, US, CHN = (
    "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States", "China")
NO_OBJECTIVES = {"national_objectives": False}


def applied(state: GameState, events: Iterable[Event]) -> GameState:
    for event in events:
        state = event.apply(state)
    return state


def collected(rules: str, power: str, **position: Any) -> list[tuple[int, str]]:
    """The treasury changes of `power`'s collect income in the position (entered from its mobilize phase)."""
    game = scenario(rules, nation=power, phase="mobilize", **position)
    events = game.apply({"type": "end_phase"})
    return [(e.delta, e.reason) for e in events if isinstance(e, BankChanged)]


@pytest.mark.rule("AA50-ECON-income", "AA50-PHASES-income-end-of-turn")
def test_income_is_the_value_of_the_territories_held_at_collect_income() -> None:
    assert collected("aa50-1941", GER, options=NO_OBJECTIVES) == [(31, "income")]
    assert collected("aa50-1941", GER, owners={"Ukraine": GER}, options=NO_OBJECTIVES) == [(33, "income")]
    # Japan takes Borneo during its turn: its collect income counts it
    assert collected("aa50-1941", JPN, owners={"Borneo": JPN}, options=NO_OBJECTIVES) == [(21, "income")]


@pytest.mark.rule("AA50-PHASES-income-end-of-turn")
def test_income_comes_only_in_the_last_phase_of_the_power_s_own_turn() -> None:
    game = scenario("aa50-1941", nation=JPN, phase="develop-weapons")
    seen = []
    while game.state.nation == JPN:
        events = game.apply({"type": "end_phase"})
        seen += [(game.state.phase if game.state.nation == JPN else "next turn", e.power, e.delta)
                 for e in events if isinstance(e, BankChanged)]
    assert seen == [("collect-income", JPN, 17), ("collect-income", JPN, 5)]
    assert game.state.banks[JPN] == 17 + 22 and game.state.banks[SOV] == 30


@pytest.mark.rule("AA50-ECON-capital-captured", "AA50-ECON-no-negative", "AA50-ITALY-capital")
def test_the_captor_of_a_capital_takes_the_treasury() -> None:
    game = scenario("aa50-1941", banks={SOV: 12})
    state, ruleset = game.state, game.ruleset
    after = applied(state, capture_territory_events(state, ruleset, "Russia", GER))
    assert (after.owners["Russia"], after.banks[SOV], after.banks[GER]) == (GER, 0, 31 + 12)
    # a power with an empty treasury gives nothing, and no treasury goes below zero
    empty = scenario("aa50-1941", banks={ITA: 0}).state
    events = capture_territory_events(empty, ruleset, "Italy", UK)
    assert not [e for e in events if isinstance(e, BankChanged)]
    assert applied(empty, events).banks[ITA] == 0
    with pytest.raises(MalformedInput, match="would have -1 IPC"):
        BankChanged(ITA, -1, "test").apply(empty)
    # Italy's capital: the UK takes Italy's 8 IPCs
    italian = scenario("aa50-1942", banks={ITA: 8}).state
    after = applied(italian, capture_territory_events(italian, ruleset, "Italy", UK))
    assert (after.banks[ITA], after.banks[UK]) == (0, 31 + 8)


@pytest.mark.rule("AA50-ECON-capital-captured", "AA50-ITALY-capital")
@pytest.mark.parametrize(("rules", "power", "capital", "enemy"), [
    ("aa50-1941", SOV, "Russia", GER), ("aa50-1942", ITA, "Italy", UK), ("aa50-1941", US, "Eastern United States", JPN),
])
def test_no_income_no_purchase_and_no_research_while_the_capital_is_held(
    rules: str, power: str, capital: str, enemy: str
) -> None:
    assert collected(rules, power, owners={capital: enemy}) == []
    game = scenario(rules, nation=power, phase="purchase", owners={capital: enemy}, banks={power: 20})
    with pytest.raises(IllegalAction, match=f"cannot buy units while {capital} is held by the enemy"):
        game.apply({"type": "purchase", "units": "1 infantry"})
    # the captor took the treasury: nothing is left to research with
    taken = scenario(rules, nation=power, phase="develop-weapons")
    state = applied(taken.state, capture_territory_events(taken.state, taken.ruleset, capital, enemy))
    assert state.banks[power] == 0
    game = scenario(rules, nation=power, phase="develop-weapons", owners={capital: enemy}, banks={power: 0})
    with pytest.raises(IllegalAction, match="IPC"):
        game.apply({"type": "research", "dice": 1})


@pytest.mark.rule("AA50-TURN-capital-lost-still-plays")
def test_a_power_without_its_capital_still_takes_its_turn_and_attacks() -> None:
    game = scenario("aa50-1941", nation=GER, phase="collect-income", owners={"Russia": GER})
    game.apply({"type": "end_phase"})
    assert (game.state.nation, game.state.phase) == (SOV, "develop-weapons")
    while game.state.phase != "combat-move":
        game.apply({"type": "end_phase"})
    moves = [a for a in game.legal_actions() if a.type == "move" and a.path[-1] == "Russia"]
    assert moves, "Soviet units may attack their lost capital"
    game.apply(moves[0])


@pytest.mark.rule("AA50-ECON-liberation")
def test_liberated_territories_return_to_their_owner_while_its_capital_stands() -> None:
    game = scenario("aa50-1942")
    state, ruleset = game.state, game.ruleset
    events = capture_territory_events(state, ruleset, "Philippine Islands", UK)
    assert [(e.space, e.owner) for e in events if isinstance(e, ControlChanged)] == [("Philippine Islands", US)]
    events = capture_territory_events(state, ruleset, "Kwangtung", US)
    assert [(e.space, e.owner) for e in events if isinstance(e, ControlChanged)] == [("Kwangtung", UK)]
    # with the owner's capital lost, the liberator keeps it
    lost = scenario("aa50-1942", owners={"Eastern United States": JPN}).state
    events = capture_territory_events(lost, ruleset, "Philippine Islands", UK)
    assert [(e.space, e.owner) for e in events if isinstance(e, ControlChanged)] == [("Philippine Islands", UK)]


@pytest.mark.rule("AA50-ECON-capital-liberated")
def test_a_liberated_capital_brings_its_power_back() -> None:
    game = scenario("aa50-1941", owners={"United Kingdom": GER, "Egypt": US, "India": SOV}, banks={UK: 0})
    state, ruleset = game.state, game.ruleset
    after = applied(state, capture_territory_events(state, ruleset, "United Kingdom", US))
    assert {t: after.owners[t] for t in ("United Kingdom", "Egypt", "India")} == {
        "United Kingdom": UK, "Egypt": UK, "India": UK}
    assert after.banks[UK] == 0  # the IPCs taken are not returned
    assert collected("aa50-1941", UK, options=NO_OBJECTIVES) == [(43, "income")]
    assert collected("aa50-1941", UK, owners={"United Kingdom": GER}) == []


@pytest.mark.rule("AA50-PURCHASE-spend-treasury")
def test_italy_spends_its_treasury_and_keeps_the_rest() -> None:
    game = scenario("aa50-1941", nation=ITA, phase="purchase")
    with pytest.raises(IllegalAction, match="cost 11 IPCs; Italy has 10"):
        game.apply({"type": "purchase", "units": "1 infantry, 2 artillery"})
    assert game.state.banks[ITA] == 10
    game.apply({"type": "purchase", "units": "1 infantry, 1 artillery"})
    assert game.state.banks[ITA] == 3
    assert game.state.extra["purchased"][ITA] == {"artillery": 1, "infantry": 1}
    game.apply({"type": "end_phase"})
    assert game.state.banks[ITA] == 3


@pytest.mark.rule("AA50-PURCHASE-no-unit-limit")
def test_a_purchase_is_not_limited_by_the_complexes() -> None:
    game = scenario("aa50-1941", nation=ITA, phase="purchase", banks={ITA: 24})
    game.apply({"type": "purchase", "units": "8 infantry"})  # Italy's complex places 6 a turn
    assert game.state.extra["purchased"][ITA] == {"infantry": 8} and game.state.banks[ITA] == 0


@pytest.mark.rule("AA50-TURN-no-shared-economy", "AA50-ITALY-separate-power")
def test_allies_share_no_ipcs_and_no_complexes() -> None:
    game = scenario("aa50-1941", nation=UK, phase="purchase")
    with pytest.raises(IllegalAction, match="lend is not an action of the purchase phase"):
        game.apply({"type": "lend", "lender": US, "amount": 5})
    assert game.state.banks[US] == 40
    italy = scenario("aa50-1941", nation=ITA, phase="mobilize", extra={"purchased": {ITA: {"infantry": 1}}})
    with pytest.raises(IllegalAction, match="Italy does not control Germany"):
        italy.apply({"type": "place", "units": "1 infantry", "space": "Germany"})
    italy.apply({"type": "place", "units": "1 infantry", "space": "Italy"})


@pytest.mark.rule("AA50-ITALY-separate-power", "AA50-TURN-powers-and-alliances")
def test_italy_attacks_the_uk_on_its_first_turn_without_the_german_units_beside_it() -> None:
    game = scenario("aa50-1941", nation=ITA, phase="combat-move")
    moves = [a for a in game.legal_actions() if a.type == "move" and a.path[-1] == "Egypt"]
    assert moves and all("armour" not in a.units and "artillery" not in a.units for a in moves)
    with pytest.raises(IllegalAction):
        game.apply({"type": "move", "units": "1 armour", "path": ["Libya", "Egypt"]})
    game.apply({"type": "move", "units": "2 infantry", "path": ["Libya", "Egypt"]})
    assert {s.owner for s in game.state.stacks("Egypt")} >= {ITA, UK}


@pytest.mark.rule("AA50-TURN-powers-and-alliances")
def test_a_us_fighter_lands_in_a_soviet_territory() -> None:
    game = scenario("aa50-1941", nation=US, phase="non-combat-move", clear=["Alaska"],
                    units={"Alaska": "United States: 1 fighter"})
    game.apply({"type": "move", "units": "1 fighter", "path": ["Alaska", "SZ 64", "SZ 63", "Soviet Far East"]})
    assert [(s.owner, s.unit) for s in game.state.stacks("Soviet Far East") if s.owner == US] == [(US, "fighter")]


@pytest.mark.rule("AA50-ITALY-starting-territories", "AA50-ITALY-separate-power")
@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
def test_italy_collects_its_own_ten(rules: str) -> None:
    state = scenario(rules).state
    assert {t for t, o in state.owners.items() if o == ITA} == {"Italy", "Balkans", "Libya"}
    assert collected(rules, ITA, options=NO_OBJECTIVES) == [(10, "income")]
    assert state.banks[ITA] == 10
