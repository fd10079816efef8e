"""The table's "export as post": the post of a game as it stands, for a user from whom nothing is hidden."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.posts.attachment import find
from aare.posts.post import check_post
from tests.web.test_pages import CSRF, create, register
from tests.web.test_pages import client as client  # the fixtures
from tests.web.test_pages import player as player
from tests.web.test_pages import server as server


def test_the_post_of_a_table_game_is_a_checked_post(player: TestClient) -> None:
    game_id = create(player, register(player))
    assert f"/play/{game_id}/post?format=markdown" in player.get(f"/play/{game_id}").text
    answer = player.get(f"/play/{game_id}/post", params={"format": "bbcode"})
    assert answer.status_code == 200
    assert answer.headers["content-disposition"] == f'attachment; filename="aare-{game_id[:8]}-post.txt"'
    report = check_post(answer.text)
    assert report.ok and report.fmt == "bbcode" and report.chain.dice == "table", report.problems


def test_no_post_for_a_user_from_whom_parts_are_hidden(player: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    import aare.web.table

    game_id = create(player, register(player))
    monkeypatch.setattr(aare.web.table, "hidden_from", lambda state, viewer: ("a sealed bid",))
    answer = player.get(f"/play/{game_id}/post")
    assert answer.status_code == 403 and "hidden from you" in answer.text


def test_a_pasted_post_becomes_a_table_game_and_a_changed_character_is_refused(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    text = player.get(f"/play/{game_id}/post", params={"format": "markdown"}).text
    original = player.get(f"/games/{game_id}/export").json()
    lobby = player.get("/")
    assert 'id="import-post-form"' in lobby.text
    mine = len(player.get("/games", params={"mine": "true"}).json())
    start, _end = find(text.splitlines())
    lines = text.splitlines()
    body = lines[start + 1]
    lines[start + 1] = ("B" if body[0] != "B" else "C") + body[1:]  # one character of the attachment
    refused = player.post("/import-post", data={"csrf_token": CSRF[0], "post": "\n".join(lines)},
                          follow_redirects=False)
    assert refused.status_code == 400 and "Could not import the post" in refused.text
    assert len(player.get("/games", params={"mine": "true"}).json()) == mine  # nothing stored
    answer = player.post("/import-post", data={"csrf_token": CSRF[0], "post": text}, follow_redirects=False)
    assert answer.status_code == 303
    new_id = str(answer.headers["location"]).rsplit("/", 1)[-1]
    imported = player.get(f"/games/{new_id}/export").json()
    assert imported["state_hash"] == original["state_hash"] and len(imported["entries"]) == len(original["entries"])


def test_the_api_imports_a_post_or_a_game_file_not_both(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    text = player.get(f"/play/{game_id}/post").text
    headers = {"X-CSRF-Token": CSRF[0]}
    made = player.post("/games/import", json={"post": text, "seating": "sides"}, headers=headers)
    assert made.status_code == 201, made.text
    assert made.json()["version"] == player.get(f"/games/{game_id}").json()["version"]
    both = player.post("/games/import", json={"post": text, "game": {}}, headers=headers)
    assert both.status_code == 400 and "one of them" in both.text
