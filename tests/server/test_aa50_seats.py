"""Seats of the Anniversary games: seven powers, six seats. China has no seat of its own: whoever holds the
United States' seat plays it, in the United States' team turn; one player may hold several seats."""

from __future__ import annotations

from typing import Any

import pytest

from aare.game_setup import new_game
from aare.server.seats import seat_names, seat_of, seat_powers
from tests.server.conftest import Player

SEATS = ["Japan", "Soviet Union", "Germany", "United Kingdom", "Italy", "United States"]


@pytest.mark.parametrize("ruleset", ["aa50-1941", "aa50-1942"])
def test_china_sits_with_the_united_states(ruleset: str) -> None:
    names = seat_names(ruleset, {}, "nations")
    assert "China" not in names and sorted(names) == sorted(SEATS)
    assert seat_names(ruleset, {}, "sides") == ["Axis", "Allies"]
    state = new_game(ruleset, {}, seed=1).state
    assert seat_of(state, "nations", "China") == "United States"
    assert seat_of(state, "sides", "China") == "Allies"
    assert seat_powers(state, ["United States"]) == {"United States", "China"}
    assert seat_powers(state, ["Germany", "Italy"]) == {"Germany", "Italy"}


def _end_phases_until(player: Player, game_id: str, nation: str) -> dict[str, Any]:
    """End phases (as `player`, who holds every seat on the way) until `nation` is to move."""
    for _ in range(60):
        view = player.view(game_id)
        if view["state"]["nation"] == nation:
            return view
        answer = player.act(game_id, {"type": "end_phase"}, view["version"])
        assert answer.status_code == 200, answer.text
    raise AssertionError(f"the turns did not pass to {nation}")


def test_one_player_holds_several_seats_and_china_moves_with_the_united_states(
    player: Player, other_player: Player
) -> None:
    alice, bob = player, other_player
    mine = {seat: "me" for seat in SEATS if seat != "United States"}
    answer = alice.post("/games", {"ruleset": "aa50-1942", "seats": mine})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert sorted(s["seat"] for s in game["seats"]) == sorted(SEATS)
    assert sorted(game["your_seats"]) == sorted(mine)
    assert bob.post(f"/games/{game['id']}/seats/United States/take").status_code == 204

    view = _end_phases_until(alice, game["id"], "United States")  # Japan, USSR, Germany, UK and Italy moved
    assert set(view["acting"]) == {"United States", "China"}
    assert view["acting_seats"] == ["United States"] and not view["your_turn"]
    us = bob.view(game["id"])
    assert us["your_turn"] and us["your_seats"] == ["United States"]

    refused = alice.act(game["id"], {"type": "end_phase", "power": "China"}, us["version"])
    assert refused.status_code == 403 and refused.json()["seat"] == "United States"
    done = bob.act(game["id"], {"type": "end_phase", "power": "China"}, us["version"])
    assert done.status_code == 200, done.text
    assert done.json()["action"]["power"] == "China"
    legal = bob.http.get(f"/games/{game['id']}/legal", params={"power": "China"}).json()
    assert legal["actions"] and all(a["power"] == "China" for a in legal["actions"])


def test_every_power_may_have_a_seat_of_its_own(player: Player, other_player: Player) -> None:
    """Seated by power, China has its own seat: its holder acts for China in the United States' team turn, the
    United States' holder for the United States only."""
    alice, bob = player, other_player
    assert seat_names("aa50-1942", {}, "powers") == [*SEATS, "China"]
    state = new_game("aa50-1942", {}, seed=1).state
    assert seat_of(state, "powers", "China") == "China"
    assert seat_powers(state, ["China"]) == {"China"}
    mine = {seat: "me" for seat in SEATS}  # every seat but China's
    answer = alice.post("/games", {"ruleset": "aa50-1942", "seating": "powers", "seats": mine})
    assert answer.status_code == 201, answer.text
    game = answer.json()
    assert [s["seat"] for s in game["seats"] if s["open"]] == ["China"]
    assert bob.post(f"/games/{game['id']}/seats/China/take").status_code == 204

    view = _end_phases_until(alice, game["id"], "United States")
    assert view["acting_seats"] == ["United States", "China"] and view["your_turn"]
    refused = alice.act(game["id"], {"type": "end_phase", "power": "China"}, view["version"])
    assert refused.status_code == 403 and refused.json()["seat"] == "China"
    assert bob.act(game["id"], {"type": "end_phase", "power": "China"}, view["version"]).status_code == 200
    answer = alice.act(game["id"], {"type": "end_phase", "power": "United States"}, view["version"] + 1)
    assert answer.status_code == 200, answer.text
