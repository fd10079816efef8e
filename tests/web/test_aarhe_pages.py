"""The AARHE purchase on the game page: units bought at a place (infantry raised at a victory city, a complex at
its territory) get a place to choose in the purchase form, and one form buys them with the other units."""

from __future__ import annotations

import re

import pytest
from fastapi.testclient import TestClient

from tests.web.test_pages import CSRF, act, create
from tests.web.test_pages import client as client  # the fixtures
from tests.web.test_pages import player as player
from tests.web.test_pages import server as server


@pytest.mark.rule("AARHE-PURCH-inf-at-vc")
def test_the_soviet_union_buys_infantry_at_a_city_and_armour_in_one_form(player: TestClient) -> None:
    game_id = create(player, CSRF[0], ruleset="aarhe")
    side = player.get(f"/play/{game_id}/side").text
    places = re.findall(r'<select name="at:infantry"[^>]*>(.*?)</select>', side, re.S)
    assert places and "<option>Archangel</option>" in places[0] and "<option>Russia</option>" in places[0]
    assert 'name="at:armour"' not in side  # bought anywhere, placed at a complex in mobilize
    side = act(player, game_id, "purchase", **{"n:infantry": "2", "at:infantry": "Russia", "n:armour": "1"})
    assert "Bought this turn: <strong>2 infantry, 1 armour</strong>" in side, side
    entries = player.get(f"/games/{game_id}/export").json()["entries"]
    assert [e["action"] for e in entries] == [{"type": "purchase", "units": "1 armour"},
                                              {"type": "purchase", "units": "2 infantry", "at": "Russia"}]
