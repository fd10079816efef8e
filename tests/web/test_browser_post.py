"""Exporting a game of the table as a turn post: the game page's link downloads `aare post`'s text, which
`aare import` reads back to the table's game.

Runs the server in this process with Debian's headless Chromium. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from aare.posts.post import check_post
from aare.rules.ruleset import load_ruleset
from tests.web.test_browser import _page, _post, _register, _shot_on_failure, in_process
from tests.web.test_browser import browser as browser  # the fixture
from tests.web.test_browser_aa50 import _end_turns_until

RULES = "lhtr-1.3"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "post-db") as url:
        yield url


@pytest.mark.slow
def test_the_game_page_exports_the_game_as_a_post(server: str, browser: Browser, tmp_path: Path) -> None:
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "post-export"):
        _register(page, server)
        nations = [p.name for p in load_ruleset(RULES).board.powers if p.played_by is None]
        game = _post(page, server + "/games", {"ruleset": RULES, "seats": dict.fromkeys(nations, "me")})
        _end_turns_until(page, server, game["id"], "Germany")
        page.goto(f"{server}/play/{game['id']}")
        link = page.locator("#export-post")
        expect(link).to_be_visible()
        with page.expect_download() as download:
            link.click()
        saved = tmp_path / download.value.suggested_filename
        download.value.save_as(saved)
        text = saved.read_text(encoding="utf-8")
        report = check_post(text)
        assert report.ok and report.log is not None, report.problems
        exported = page.request.get(f"{server}/games/{game['id']}/export").json()
        assert report.log.state.hash() == exported["state_hash"]
        assert len(report.log.entries) == len(exported["entries"])
        assert "round 1, Germany" in text and report.chain.dice == "table"
    assert not page.errors  # type: ignore[attr-defined]
