"""The table's "export as post": the post of a game as it stands, for a user from whom nothing is hidden."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.posts.post import check_post
from tests.web.test_pages import client as client  # the fixtures
from tests.web.test_pages import create, register
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
