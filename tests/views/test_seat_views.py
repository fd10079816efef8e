"""Whose view a server seat gets: a nation seat its power (and the powers its player plays), a side seat every
power of the side, no seat a spectator's."""

from __future__ import annotations

from pathlib import Path

import pytest

from aare.game_setup import new_game
from aare.player_view import player_view
from aare.server.seats import Seat, held_by, seat_powers
from tests.board.test_played_by import played_by_family
from tests.views.helpers import ALLIES, AXIS, FIRST_BID, SEAL, bid_values, first_bid


@pytest.mark.rule(SEAL)
def test_a_side_seat_sees_what_each_power_of_the_side_sees() -> None:
    state = first_bid().state
    assert seat_powers(state, ["Allies"]) == frozenset(ALLIES)
    assert seat_powers(state, ["Axis"]) == frozenset(AXIS)
    assert seat_powers(state, ["Germany", "United Kingdom"]) == {"Germany", "United Kingdom"}
    assert seat_powers(state, []) == frozenset()
    assert FIRST_BID not in list(bid_values(player_view(state, seat_powers(state, ["Axis"]))))
    assert player_view(state, seat_powers(state, ["Allies"])) == state.to_json()


def test_held_by_lists_the_users_seats() -> None:
    seats = {"Russia": Seat("Russia", 1, "a"), "Germany": Seat("Germany", 2, "b"), "Japan": Seat("Japan", 1, "a")}
    assert held_by(seats, 1) == ["Russia", "Japan"]
    assert held_by(seats, None) == [] and held_by(seats, 3) == []


def test_a_nation_seat_sees_the_powers_its_player_plays(tmp_path: Path) -> None:
    with played_by_family(tmp_path, "pbv") as rules:
        state = new_game(rules, {}, seed=1).state
        assert seat_powers(state, ["United Kingdom"]) == {"United Kingdom", "United States"}
        assert seat_powers(state, ["Allies"]) == {"Russia", "United Kingdom", "United States"}
