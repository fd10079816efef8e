"""AARe straight bid: both players bid for the Axis, the lower bid plays it and spends it on units placed
before the game, on first-turn cash, or both (AARE-BID-*)."""

from __future__ import annotations

from typing import Any

import pytest

from aare.action_text import format_action, parse_action_text
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import IllegalAction, MalformedInput
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.state.unit_stacks import count_units
from tests.aare.common import GER, JPN, RULES, RUS


def bidding(dice: list[int] | None = None, **options: Any) -> Game:
    return Game(new_game(RULES, options, seed=5), ScriptedDice(dice) if dice is not None else None)


def bid(game: Game, amount: int) -> None:
    game.apply({"type": "bid", "amount": amount})
    game.apply({"type": "end_phase"})


def settled(allies_seat: int, axis_seat: int, dice: list[int] | None = None) -> Game:
    game = bidding(dice)
    bid(game, allies_seat)
    bid(game, axis_seat)
    return game


def axis_bidding(amount: int, **kwargs: Any) -> Game:
    """The setup-bid phase of Germany with `amount` to spend."""
    record = {"bids": {"Allies": amount + 1, "Axis": amount}, "axis": "Axis", "amount": amount, "swap": False}
    return scenario(RULES, nation=GER, phase="setup-bid", round=0,
                    extra={"bid": {"Axis": amount}, "straight_bid": record}, **kwargs)


def rule_of(game: Game, action: dict[str, Any]) -> str:
    before = game.state.hash()
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    assert game.state.hash() == before
    return err.value.rule_id


@pytest.mark.rule("AARE-BID-submit-bids")
def test_each_seat_bids_before_the_game() -> None:
    game = bidding()
    assert (game.state.round, game.state.nation, game.state.phase) == (0, RUS, "straight-bid")
    assert rule_of(game, {"type": "end_phase"}) == "AARE-BID-submit-bids"  # bid first
    game.apply({"type": "bid", "amount": 6})
    assert rule_of(game, {"type": "bid", "amount": 4}) == "AARE-BID-submit-bids"  # one bid per seat
    game.apply({"type": "end_phase"})
    assert (game.state.nation, game.state.phase) == (GER, "straight-bid")
    bid(game, 9)
    assert game.state.extra["straight_bid"]["bids"] == {"Allies": 6, "Axis": 9}
    with pytest.raises(MalformedInput):
        game.apply({"type": "bid", "amount": -1})
    plain = bidding(straight_bid=False)
    assert (plain.state.round, plain.state.nation) == (1, RUS) and "straight_bid" not in plain.state.extra


@pytest.mark.rule("AARE-BID-lower-bid-plays-axis")
def test_the_lower_bid_plays_the_axis_with_its_own_bid() -> None:
    game = settled(6, 9)  # the player seated with the Allies bid lower: he plays the Axis
    record = game.state.extra["straight_bid"]
    assert (record["axis"], record["amount"], record["swap"]) == ("Allies", 6, True)
    assert game.state.extra["bid"] == {"Axis": 6}
    assert (game.state.round, game.state.nation, game.state.phase) == (0, GER, "setup-bid")
    kept = settled(9, 4)
    record = kept.state.extra["straight_bid"]
    assert (record["axis"], record["amount"], record["swap"]) == ("Axis", 4, False)
    free = settled(3, 0)  # a bid of 0: nothing to spend, round 1 begins
    assert (free.state.round, free.state.nation, free.state.phase) == (1, RUS, "develop-weapons")
    assert free.state.banks == new_game(RULES, seed=5).state.banks


@pytest.mark.rule("AARE-BID-tie-coin-flip")
def test_a_tie_is_settled_by_a_die_in_the_log() -> None:
    low = settled(7, 7, dice=[2])
    assert low.state.extra["straight_bid"]["axis"] == "Allies"
    rolled = [e for entry in low.log.entries for e in entry.events if e.type == "dice_rolled"]
    assert [(e.values, "coin flip" in e.purpose) for e in rolled] == [((2,), True)]
    high = settled(7, 7, dice=[5])
    assert high.state.extra["straight_bid"]["axis"] == "Axis" and high.state.extra["bid"] == {"Axis": 7}
    untied = settled(6, 7, dice=[])
    assert not [e for entry in untied.log.entries for e in entry.events if e.type == "dice_rolled"]


@pytest.mark.rule("AARE-BID-spend-as-units")
def test_bid_units_are_on_the_board_before_russia_moves() -> None:
    game = settled(8, 9)
    before = count_units(game.state.stacks("Germany"), GER)
    game.apply({"type": "place", "units": "1 infantry, 1 armour", "space": "Germany"})  # 3 + 5 at AARe prices
    assert game.state.extra["bid"] == {"Axis": 0}
    after = count_units(game.state.stacks("Germany"), GER)
    assert after["infantry"] == before["infantry"] + 1 and after["armour"] == before["armour"] + 1
    game.apply({"type": "end_phase"})
    game.apply({"type": "end_phase"})
    assert (game.state.round, game.state.nation) == (1, RUS)
    assert game.state.banks[GER] == 40 and game.state.banks[JPN] == 30
    pricey = settled(9, 12)
    assert rule_of(pricey, {"type": "place", "units": "1 destroyer", "space": "SZ 5"}) == "LHTR-SETUP-bid-placement"
    assert load_ruleset(RULES).unit_cost("destroyer").value == 10  # so 9 does not buy one


@pytest.mark.rule("AARE-BID-spend-as-cash")
def test_the_rest_of_the_bid_is_first_turn_cash_for_either_axis_power() -> None:
    game = settled(6, 8)
    game.apply({"type": "place", "units": "1 infantry", "space": "Libya"})
    assert rule_of(game, {"type": "bid_cash", "amount": 4}) == "AARE-BID-spend-as-cash"  # 3 left
    game.apply({"type": "bid_cash", "amount": 1})
    assert game.state.banks[GER] == 41 and game.state.extra["bid"] == {"Axis": 2}
    game.apply({"type": "end_phase"})
    assert game.state.nation == JPN
    game.apply({"type": "end_phase"})  # what the Axis left unspent goes to Japan
    assert game.state.banks[JPN] == 32 and game.state.extra["bid"] == {"Axis": 0}
    assert (game.state.round, game.state.nation) == (1, RUS)


@pytest.mark.rule("AARE-BID-placement-restriction")
def test_bid_units_go_where_the_nation_controls_and_has_a_unit() -> None:
    game = axis_bidding(12, clear=["Algeria"])
    game.apply({"type": "place", "units": "1 infantry", "space": "Libya"})  # German, German units there
    assert rule_of(game, {"type": "place", "units": "1 infantry", "space": "Algeria"}) == "LHTR-SETUP-bid-placement"
    assert rule_of(game, {"type": "place", "units": "1 infantry", "space": "Manchuria"}) == "LHTR-SETUP-bid-placement"
    assert rule_of(game, {"type": "place", "units": "1 submarine", "space": "SZ 6"}) == "LHTR-SETUP-bid-placement"
    game.apply({"type": "place", "units": "1 submarine", "space": "SZ 5"})  # German ships there
    assert game.state.extra["bid"] == {"Axis": 1}  # 12 - 3 - 8
    assert load_ruleset(RULES).options["bid_needs_own_unit"] is True


def test_bid_text_notation() -> None:
    ruleset = load_ruleset(RULES)
    for text, action in (("bid 6", {"type": "bid", "amount": 6}),
                         ("bid cash 3", {"type": "bid_cash", "amount": 3})):
        assert parse_action_text(text, ruleset) == action
        assert format_action(action) == text
    options = {o.key for o in load_ruleset(RULES).spec.option_specs}
    assert {"straight_bid", "bid_needs_own_unit"} <= options and "bid_axis" not in options
