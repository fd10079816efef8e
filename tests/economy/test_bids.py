"""Bids: who plays the Axis, placing bid units before round 1, then the USSR opens the game."""

from __future__ import annotations

import pytest

from aare.economy.bids import side_for_lowest_bid
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_setup import new_game
from tests.economy.helpers import act


def bid_game(**options: object) -> Game:
    return Game(new_game("lhtr-1.3", dict(options), seed=7))


@pytest.mark.rule("LHTR-SETUP-bid-for-sides")
def test_the_lower_bid_takes_the_side() -> None:
    assert side_for_lowest_bid({"A": 8, "B": 6}) == ("B", 6)
    assert side_for_lowest_bid({"A": 5, "B": 5}) == ("A", 5)
    with pytest.raises(IllegalAction):
        side_for_lowest_bid({})


@pytest.mark.rule("LHTR-SETUP-bid-placement")
def test_bid_units_are_placed_where_the_power_is_before_round_one() -> None:
    game = bid_game(bid_axis=9)
    assert (game.state.round, game.state.nation, game.state.phase) == (0, "Germany", "setup-bid")
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "place", "units": "1 destroyer", "space": "SZ 7"})
    assert err.value.rule_id == "LHTR-SETUP-bid-placement"
    with pytest.raises(IllegalAction):
        game.apply({"type": "place", "units": "3 infantry", "space": "Karelia S.S.R."})
    with pytest.raises(IllegalAction, match="bid has 9"):
        game.apply({"type": "place", "units": "2 armour", "space": "Libya"})
    before = sum(s.count for s in game.state.stacks("Libya") if s.unit == "infantry")
    act(game, {"type": "place", "units": "2 infantry", "space": "Libya"})
    assert sum(s.count for s in game.state.stacks("Libya") if s.unit == "infantry") == before + 2
    act(game, {"type": "end_phase"})
    assert (game.state.nation, game.state.phase) == ("Japan", "setup-bid")
    act(game, {"type": "end_phase"})
    assert game.state.banks["Japan"] == 30 + 3  # what the Axis left unspent
    assert game.state.banks["Germany"] == 40


@pytest.mark.rule("LHTR-SETUP-bid-placement")
def test_bid_ships_join_own_ships_away_from_enemies() -> None:
    game = bid_game(bid_allies=12)
    assert game.state.nation == "Russia"
    act(game, {"type": "end_phase"})
    assert game.state.nation == "United Kingdom"
    act(game, {"type": "place", "units": "1 destroyer", "space": "SZ 2"})  # UK battleship and transport there
    assert game.state.extra["bid"] == {"Allies": 0}
    open_rule = bid_game(bid_allies=3)
    act(open_rule, {"type": "end_phase"})
    act(open_rule, {"type": "place", "units": "1 infantry", "space": "Kenya"})  # UK-owned, no UK unit there
    club = bid_game(bid_allies=3, bid_needs_own_unit=True)
    act(club, {"type": "end_phase"})
    with pytest.raises(IllegalAction):
        club.apply({"type": "place", "units": "1 infantry", "space": "Kenya"})
    act(club, {"type": "place", "units": "1 infantry", "space": "India"})


@pytest.mark.rule("LHTR-SETUP-first-round")
def test_after_the_bids_the_ussr_opens_round_one() -> None:
    game = bid_game(bid_axis=6, bid_allies=4)
    order = []
    while game.state.phase == "setup-bid":
        order.append(game.state.nation)
        act(game, {"type": "end_phase"})
    assert order == ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
    assert (game.state.round, game.state.nation, game.state.phase) == (1, "Russia", "develop-weapons")
    assert game.state.banks["Japan"] == 36 and game.state.banks["United States"] == 46
    plain = bid_game()
    assert (plain.state.round, plain.state.nation, plain.state.phase) == (1, "Russia", "develop-weapons")
