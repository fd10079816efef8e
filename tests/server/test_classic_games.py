"""Classic and Realism '98 games on the server: five nation seats (or the two sides), and the server's bots play
their seats through a whole round against a human Russia."""

from __future__ import annotations

import pytest

from aare.game_log import GameLog
from aare.server.seats import seat_names
from tests.server.conftest import Player
from tests.server.test_bots import play_round_one

SEATS = ["Russia", "Germany", "United Kingdom", "Japan", "United States"]


@pytest.mark.parametrize("ruleset", ["classic-2e", "realism-98"])
def test_the_seats_of_a_classic_game(ruleset: str) -> None:
    assert seat_names(ruleset, {}, "nations") == SEATS
    assert sorted(seat_names(ruleset, {}, "sides")) == ["Allies", "Axis"]


@pytest.mark.parametrize("ruleset", ["classic-2e", "realism-98"])
def test_the_bots_play_a_round_of_a_classic_game(player: Player, ruleset: str) -> None:
    seats = dict.fromkeys(SEATS, "random") | {"Russia": "me"}
    answer = player.post("/games", {"ruleset": ruleset, "seats": seats})
    assert answer.status_code == 201, answer.text
    gid = answer.json()["id"]
    view = play_round_one(player, gid)
    assert view["state"]["round"] == 2 and view["to_act"] == "Russia" and view["your_turn"]
    export = player.http.get(f"/games/{gid}/export").json()
    log = GameLog.from_json(export)
    assert log.state.ruleset == ruleset and log.state.hash() == view["state_hash"]
