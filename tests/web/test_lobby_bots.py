"""The new-game form offers every registered bot for every seat (the planner by default for the seats the
creator does not take); the lobby and the table say which bot holds a seat; an unknown bot is refused."""

from __future__ import annotations

import html
import re
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")
pytest.importorskip("jinja2", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.ai import bot_names
from aare.server.api import create_app
from aare.server.settings import Settings, sqlite_url
from aare.web.lobby import default_bot
from tests.web.test_pages import create, register


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """The app with its bots off: the seats are what is looked at, not the play."""
    app = create_app(Settings(sqlite_url(tmp_path_factory.mktemp("lobby-bots")), bot_mode="off",
                              register_address_limit=0), migrate=True)
    with TestClient(app) as c:
        yield c


def _select(page: str, name: str) -> str:
    found = re.search(rf'<select name="{re.escape(name)}"[^>]*>(.*?)</select>', page, re.S)
    assert found, f"no select {name}"
    return found.group(1)


def test_the_form_offers_every_registered_bot_with_the_planner_by_default(client: TestClient) -> None:
    client.cookies.clear()
    register(client)
    page = client.get("/").text
    assert default_bot() == "planner"
    for seating, seat in (("nations", "Germany"), ("powers", "Japan"), ("sides", "Axis")):
        options = _select(page, f"seat:lhtr-1.3:{seating}:{seat}")
        values = re.findall(r'<option value="([^"]+)"', options)
        assert values == ["me", "open", *bot_names()]
        assert re.findall(r'<option value="([^"]+)"\s+selected', options) == ["planner"]
    first = _select(page, "seat:lhtr-1.3:nations:Russia")
    assert re.findall(r'<option value="([^"]+)"\s+selected', first) == ["me"]


def test_the_lobby_and_the_table_show_which_bot_holds_each_seat(client: TestClient) -> None:
    client.cookies.clear()
    csrf = register(client)
    game_id = create(client, csrf, seats={"Germany": "greedy", "United Kingdom": "planner", "Japan": "prolike",
                                          "United States": "open"})
    lobby = html.unescape(client.get("/").text)
    row = lobby[lobby.index(f"/play/{game_id}"):]
    row = row[:row.index("</li>")]
    shown = re.sub(r"\s+", " ", re.sub(r"<[^>]+>", "", row))
    assert "bots: Germany greedy, United Kingdom planner, Japan prolike" in shown  # in turn order
    assert "United States" not in shown  # an open seat is no bot's
    table = re.sub(r"\s+", " ", client.get(f"/play/{game_id}").text)
    seats = table[table.index('id="seats"'):]
    for bot in ("greedy", "planner", "prolike"):
        assert f"{bot} bot" in seats


def test_an_unknown_bot_is_refused_by_the_form(client: TestClient) -> None:
    client.cookies.clear()
    csrf = register(client)
    form = {"csrf_token": csrf, "ruleset": "lhtr-1.3", "seating": "nations", "seat:lhtr-1.3:nations:Russia": "me",
            "seat:lhtr-1.3:nations:Germany": "deep-blue"}
    answer = client.post("/new", data=form, follow_redirects=False)
    assert answer.status_code == 400
    text = html.unescape(answer.text)
    assert "Could not create the game" in text and "deep-blue" in text and "planner" in text
    assert 'id="my-games"' not in text  # nothing was created
