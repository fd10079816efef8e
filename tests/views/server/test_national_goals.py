"""AARHE's secret national goals on the online table: the API (`GET /games/{id}`), the export before the end, the
event stream and the game page with its side panel show the Soviet Union's choice to the seat that holds it and
to no other seat nor a reader without a login (AARHE-NATVICTORY-selection)."""

from __future__ import annotations

import html
import json
from collections.abc import Iterator

import httpx
import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

from aare.player_view import HIDDEN
from tests.server.conftest import LiveServer, Player
from tests.server.test_live_updates import EventReader
from tests.views.national_goals import OPTIONS, RULES, SECRET, SOVIET_CHOICE, SOVIET_WORDS, leaks

CHOOSE = {"type": "choose", "option": SOVIET_CHOICE}
OWN_LINE = "Russia's national goals: Eastern Europe Buffer (not met), Protect Heavy Industry (met)"


@pytest.fixture
def anonymous(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


def seated_game(soviet: Player, german: Player) -> str:
    """An AARHE game with national victory: `soviet` holds the Soviet Union, `german` Germany."""
    answer = soviet.post("/games", {"ruleset": RULES, "options": OPTIONS, "seats": {"Russia": "me"}})
    assert answer.status_code == 201, answer.text
    game_id: str = answer.json()["id"]
    assert german.post(f"/games/{game_id}/seats/Germany/take").status_code == 204
    return game_id


def chosen(soviet: Player, game_id: str) -> None:
    answer = soviet.act(game_id, CHOOSE, 0)
    assert answer.status_code == 200, answer.text


@pytest.mark.rule(SECRET)
def test_api_shows_the_choice_to_its_seat_only(
        server: LiveServer, player: Player, other_player: Player, anonymous: httpx.Client) -> None:
    game_id = seated_game(player, other_player)
    chosen(player, game_id)
    own = player.view(game_id)
    assert own["state"]["extra"]["national_goals"] == {"Russia": SOVIET_CHOICE.split(", ")}
    assert any(r["text"].startswith(OWN_LINE) for r in own["summary"]["victory"]["standing"])
    reader = anonymous.get(f"/games/{game_id}")
    assert reader.status_code == 200
    for view in (other_player.view(game_id), reader.json()):
        assert view["state"]["extra"]["national_goals"] == {"Russia": HIDDEN}
        assert "Russia's national goals: hidden" in [r["text"] for r in view["summary"]["victory"]["standing"]]
        assert leaks(json.dumps(view)) == []
        assert view["state_hash"] != own["state_hash"]


@pytest.mark.rule(SECRET)
def test_export_before_the_end_holds_the_choice_for_its_seat_only(
        server: LiveServer, player: Player, other_player: Player, anonymous: httpx.Client) -> None:
    game_id = seated_game(player, other_player)
    chosen(player, game_id)
    own = player.http.get(f"/games/{game_id}/export").json()
    assert own["entries"][0]["action"] == CHOOSE  # (a view still: other powers' convoys are hidden from it)
    assert own["state"]["extra"]["national_goals"] == {"Russia": SOVIET_CHOICE.split(", ")}
    for export in (other_player.http.get(f"/games/{game_id}/export").json(),
                   anonymous.get(f"/games/{game_id}/export").json()):
        assert leaks(json.dumps(export)) == []
        assert export["entries"][0]["action"] == {"type": "choose", "option": HIDDEN}
        assert export["state_hash"] is None and "view_of" in export


@pytest.mark.rule(SECRET)
def test_event_stream_sends_the_choice_to_its_seat_only(
        server: LiveServer, player: Player, other_player: Player) -> None:
    game_id = seated_game(player, other_player)
    url = f"{server.url}/games/{game_id}/events"
    other = {"Authorization": f"Bearer {other_player.token()}"}
    own = {"Authorization": f"Bearer {player.token()}"}
    with EventReader(url, 1, headers=other) as theirs, EventReader(url, 1) as anyone, \
            EventReader(url, 1, headers=own) as mine:
        chosen(player, game_id)
    for reader in (theirs, anyone):
        assert reader.error is None and len(reader.events) == 1
        [(_, _, sealed)] = reader.events
        assert sealed["action"] == {"type": "choose", "option": HIDDEN} and leaks(json.dumps(sealed)) == []
    [(_, _, seen)] = mine.events
    assert seen["action"] == CHOOSE and leaks(json.dumps(seen)) == list(SOVIET_WORDS[:3])
    with EventReader(url, 1, headers=other, params={"after": 0}) as caught_up:
        pass  # the stored entries are sent first, redacted the same way
    assert leaks(json.dumps(caught_up.events[0][2])) == []


@pytest.mark.rule(SECRET)
def test_game_page_and_side_panel_show_the_choice_to_its_seat_only(
        server: LiveServer, player: Player, other_player: Player, anonymous: httpx.Client) -> None:
    game_id = seated_game(player, other_player)
    offered = html.unescape(player.http.get(f"/play/{game_id}/side").text)
    assert "eastern-europe-buffer, race-to-berlin, heavy-industry" in offered  # the seat's choices, as buttons
    chosen(player, game_id)
    for path in (f"/play/{game_id}", f"/play/{game_id}/side"):
        own = html.unescape(player.http.get(path).text)
        assert OWN_LINE in " ".join(own.split()), path
        for client in (other_player.http, anonymous):
            answer = client.get(path)
            assert answer.status_code == 200
            page = html.unescape(answer.text)
            assert leaks(page) == [], path
            assert "Russia's national goals: hidden" in page
