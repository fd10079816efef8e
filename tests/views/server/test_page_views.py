"""The game page and its fragments render the state as the logged-in user's seats see it (the side panel, its
log, the map's view hash), while the AARe straight bid is sealed; legal actions stay the user's own."""

from __future__ import annotations

import html
from collections.abc import Iterator

import httpx
import pytest

pytest.importorskip("jinja2", reason="the server extra is not installed")

from tests.server.conftest import LiveServer, Player
from tests.views.helpers import FIRST_BID, SEAL
from tests.views.server.test_server_views import BID, real_hash, seated_game


@pytest.fixture
def anonymous(server: LiveServer) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=server.url, timeout=60) as client:
        yield client


@pytest.mark.rule(SEAL)
def test_game_page_renders_the_users_view(
        server: LiveServer, player: Player, other_player: Player, anonymous: httpx.Client) -> None:
    game_id = seated_game(player, other_player)
    assert player.act(game_id, BID, 0).status_code == 200
    own = html.unescape(player.http.get(f"/play/{game_id}").text)
    assert f"bid {FIRST_BID}" in own and f"'Allies': {FIRST_BID}" in own
    assert "end-phase" in own  # the acting seat's legal actions, computed on the whole game
    for client in (other_player.http, anonymous):
        answer = client.get(f"/play/{game_id}")
        assert answer.status_code == 200
        page = html.unescape(answer.text)
        assert "bid hidden" in page and f"bid {FIRST_BID}" not in page and "end-phase" not in page
        assert "'Allies': 'hidden'" in page and f"'Allies': {FIRST_BID}" not in page
        assert real_hash(server, game_id) not in page
        side = html.unescape(client.get(f"/play/{game_id}/side").text)
        assert "bid hidden" in side and f"bid {FIRST_BID}" not in side
        shown = client.get(f"/play/{game_id}/map").headers["X-Aare-Hash"]
        assert shown != real_hash(server, game_id) and f'data-hash="{shown}"' in side
