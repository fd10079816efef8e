"""The online table reads through the player view: `GET /games/{id}`, the export, the event stream and the
answers to actions and undo, for a seat of the other side, the bidding side and a reader without a login, while
the AARe straight bid is sealed."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

from aare.events import DiceRolled
from aare.game_log import GameLog
from aare.player_view import HIDDEN
from aare.server.verify import verify_export
from aare.server.views import HIDDEN_KEY, entry_message, message_view
from tests.server.conftest import LiveServer, Player
from tests.server.test_live_updates import EventReader
from tests.views.helpers import FIRST_BID, RULES, SEAL, bid_values, first_bid

END = {"type": "end_phase"}
BID = {"type": "bid", "amount": FIRST_BID}


@pytest.fixture
def anonymous(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def seated_game(allies: Player, axis: Player, seating: str = "nations") -> str:
    """An AARe game: `allies` holds the seat that bids for the Allies, `axis` takes the one bidding for the Axis
    (nation seats: Russia and Germany; side seats: Allies and Axis); the other seats stay open."""
    first, second = ("Russia", "Germany") if seating == "nations" else ("Allies", "Axis")
    answer = allies.post("/games", {"ruleset": RULES, "seating": seating, "seats": {first: "me"}})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    assert axis.post(f"/games/{game_id}/seats/{second}/take").status_code == 204
    return game_id


def bids_of(view: dict[str, Any]) -> Any:
    return view["state"]["extra"]["straight_bid"]["bids"]


def real_hash(live_server: LiveServer, game_id: str) -> str:
    live, _, _ = live_server.service.load(game_id)
    state_hash: str = live.state_hash
    return state_hash


@pytest.mark.rule(SEAL)
@pytest.mark.parametrize("seating", ["nations", "sides"])
def test_get_game_hides_the_bid_from_the_other_side_and_anonymous_readers(
        server: LiveServer, player: Player, other_player: Player, anonymous: httpx.Client, seating: str) -> None:
    game_id = seated_game(player, other_player, seating)
    answer = player.act(game_id, BID, 0)
    assert answer.status_code == 200, answer.text
    own = player.view(game_id)
    assert bids_of(own) == {"Allies": FIRST_BID} and own["state_hash"] == real_hash(server, game_id)
    other = other_player.view(game_id)
    reader = anonymous.get(f"/games/{game_id}")
    assert reader.status_code == 200
    for view in (other, reader.json()):
        assert bids_of(view) == {"Allies": HIDDEN}
        assert view["summary"]["straight_bid"]["bids"] == {"Allies": HIDDEN}
        assert FIRST_BID not in list(bid_values(view))
        assert view["state_hash"] != real_hash(server, game_id)
        assert (view["to_act"], view["state"]["phase"]) == ("Russia", "straight-bid")


@pytest.mark.rule(SEAL)
def test_export_before_the_end_is_the_callers_view(
        server: LiveServer, player: Player, other_player: Player, anonymous: httpx.Client) -> None:
    game_id = seated_game(player, other_player)
    assert player.act(game_id, BID, 0).status_code == 200
    own = player.http.get(f"/games/{game_id}/export").json()
    assert "view_of" not in own and GameLog.from_json(own).state.hash() == real_hash(server, game_id)
    assert verify_export(own).ok
    for export in (other_player.http.get(f"/games/{game_id}/export").json(),
                   anonymous.get(f"/games/{game_id}/export").json()):
        assert FIRST_BID not in list(bid_values({k: v for k, v in export.items() if k != "server"}))
        assert export["entries"][0]["action"] == {"type": "bid", "amount": HIDDEN}
        assert export["state_hash"] is None and "server" in export
        report = verify_export(export)
        assert not report.ok and "player's view" in report.problems[0]
    assert other_player.http.get(f"/games/{game_id}/export").json()["view_of"] == ["Germany"]
    refused = other_player.post("/games/import", {"game": other_player.http.get(f"/games/{game_id}/export").json()})
    assert refused.status_code == 400 and "player's view" in refused.text


@pytest.mark.rule(SEAL)
def test_event_stream_is_redacted_per_reader(server: LiveServer, player: Player, other_player: Player) -> None:
    game_id = seated_game(player, other_player)
    url = f"{server.url}/games/{game_id}/events"
    other = {"Authorization": f"Bearer {other_player.token()}"}
    own = {"Authorization": f"Bearer {player.token()}"}
    with EventReader(url, 1, headers=other) as theirs, EventReader(url, 1) as anyone, \
            EventReader(url, 1, headers=own) as mine:
        assert player.act(game_id, BID, 0).status_code == 200
    for reader in (theirs, anyone, mine):
        assert reader.error is None and len(reader.events) == 1
    [(_, _, sealed)] = theirs.events
    assert anyone.events[0][2] == sealed
    assert sealed["action"] == {"type": "bid", "amount": HIDDEN}
    assert FIRST_BID not in list(bid_values(sealed))
    assert HIDDEN_KEY not in sealed
    assert sealed["state_hash"] != real_hash(server, game_id)
    assert sealed["state_hash"] in (None, other_player.view(game_id)["state_hash"])
    [(_, _, seen)] = mine.events
    assert seen["action"] == BID and seen["state_hash"] == real_hash(server, game_id) and HIDDEN_KEY not in seen
    with EventReader(url, 1, headers=other, params={"after": 0}) as caught_up:
        pass  # the stored entries are sent first, redacted the same way
    assert caught_up.events[0][2]["action"] == {"type": "bid", "amount": HIDDEN}
    assert FIRST_BID not in list(bid_values(caught_up.events[0][2]))
    assert caught_up.events[0][2]["state_hash"] == other_player.view(game_id)["state_hash"]


@pytest.mark.rule(SEAL)
def test_answers_to_actions_and_undo_are_the_actors_view(
        server: LiveServer, player: Player, other_player: Player) -> None:
    game_id = seated_game(player, other_player)
    answer = player.act(game_id, BID, 0).json()
    assert answer["action"] == BID and answer["state_hash"] == player.view(game_id)["state_hash"]
    assert HIDDEN_KEY not in answer
    assert player.act(game_id, END, 1).status_code == 200
    revealed = other_player.act(game_id, {"type": "bid", "amount": 5}, 2).json()
    assert revealed["events"][0]["value"]["bids"] == {"Allies": FIRST_BID, "Axis": 5}
    undone = other_player.post(f"/games/{game_id}/undo", {"version": 3})
    assert undone.status_code == 200, undone.text
    assert undone.json()["state_hash"] == other_player.view(game_id)["state_hash"] != real_hash(server, game_id)
    assert bids_of(other_player.view(game_id)) == {"Allies": HIDDEN}


@pytest.mark.rule(SEAL)
def test_a_published_message_is_redacted_for_each_reader() -> None:
    """What the stream and the answers do with a message published once for everyone."""
    game = first_bid()
    entry, state = game.log.entries[0], game.state
    message = entry_message("g", 0, entry, state, state.hash(), "user:1", "Russia")
    assert message["events"][0]["value"]["bids"] == {"Allies": FIRST_BID} and message[HIDDEN_KEY]
    for viewer in ((), {"Germany"}, {"Germany", "Japan"}):
        seen = message_view(message, viewer, state)
        assert HIDDEN_KEY not in seen and FIRST_BID not in list(bid_values(seen))
        assert seen["state_hash"] not in (None, state.hash())
        assert message_view(message, viewer, None)["state_hash"] is None  # the game is not known here
    assert message_view(message, {"Russia"}, state) == {k: v for k, v in message.items() if k != HIDDEN_KEY}
    game.apply(END)  # the game moved on: the message's hash is no longer the reader's to know
    later = message_view(message, {"Germany"}, game.state)
    assert later["state_hash"] is None and FIRST_BID not in list(bid_values(later))
    assert not any(isinstance(e, DiceRolled) for e in entry.events)
