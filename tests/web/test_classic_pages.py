"""The Classic rulesets on the web pages: the lobby's new-game form and the battle calculator offer classic-2e and
realism-98, and a game created through the form opens on the Classic map (a board without victory cities: the
nations panel shows no victory-city count)."""

from __future__ import annotations

import re

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")
pytest.importorskip("jinja2", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.web.lobby import ruleset_forms
from tests.web.test_pages import CSRF, create
from tests.web.test_pages import client as client  # the fixtures
from tests.web.test_pages import player as player
from tests.web.test_pages import server as server

CLASSIC = ("classic-2e", "realism-98")
SEATS = ["Russia", "Germany", "United Kingdom", "Japan", "United States"]


@pytest.mark.parametrize("ruleset", CLASSIC)
def test_the_new_game_form_offers_the_classic_rulesets_with_five_seats(ruleset: str) -> None:
    form = next(r for r in ruleset_forms() if r["id"] == ruleset)
    assert [n["name"] for n in form["nations"]] == SEATS  # in turn order, Russia first
    assert form["sides"] == ["Axis", "Allies"] or form["sides"] == ["Allies", "Axis"]


@pytest.mark.parametrize("ruleset", CLASSIC)
def test_a_classic_game_opens_on_the_classic_map(player: TestClient, ruleset: str) -> None:
    lobby = player.get("/").text
    assert f'value="{ruleset}"' in lobby
    game_id = create(player, CSRF[0], ruleset)
    page = player.get(f"/play/{game_id}").text
    assert 'data-space="Karelia S.S.R."' in page and 'data-space="East Canada Sea Zone"' in page
    assert 'data-space="West Russia"' not in page  # not the Revised map
    first = "Count income" if ruleset == "realism-98" else "Develop weapons"  # Realism counts income first
    assert 'id="your-move"' in page and first in page
    nations = page[page.index('id="nations"'):page.index('id="seats"')]
    assert re.search(r"Russia</span>.*?<td class=\"num\">24</td><td class=\"num\">24</td>\s*</tr>", nations, re.S)
    assert "Victory cities" not in nations and ">VC<" not in nations  # the Classic board has none


def test_the_calculator_offers_the_classic_rulesets(client: TestClient) -> None:
    page = client.get("/odds").text
    assert all(f"<option >{ruleset}</option>" in page for ruleset in CLASSIC)
    for ruleset in CLASSIC:
        form = client.get("/odds", params={"rules": ruleset}).text
        assert f"<option selected>{ruleset}</option>" in form
        assert 'name="att:armour"' in form and 'name="att:artillery"' not in form  # no artillery in Classic
        result = client.post("/odds", data={"rules": ruleset, "battle": "land", "att:infantry": "3",
                                            "att:armour": "2", "def:infantry": "4"}, headers={"HX-Request": "true"})
        assert 'id="attacker-win"' in result.text, ruleset
