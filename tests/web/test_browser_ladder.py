"""The ladder in the browser: two players register, one creates a ranked match from the lobby's form (two games,
sides swapped), each game is conceded, and the ladder page (linked from the lobby) shows both players with their
places, games and ratings; a player's page shows his history.

Runs the server in this process with Debian's headless Chromium, at 100 % zoom on a 1366×768 screen.
Screenshots go to artifacts/screenshots/ladder-table.png and ladder-player.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from aare.ladder import high_loses, high_wins, low_wins
from aare.rules.ruleset import load_ruleset
from tests.web.test_browser import _page, _register, _shot, _shot_on_failure, in_process
from tests.web.test_browser import browser as browser  # the fixture

RULES = "aa50-1941"  # concession ends a game at once


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "ladder-db") as url:
        yield url


def _username(page: Page) -> str:
    name = page.locator(".topbar .username").inner_text().strip()
    assert name
    return name


def _concede(page: Page, server: str, game_id: str) -> None:
    """The page's player gives up the game for the side he holds (through the API, with the page's session)."""
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    view = page.request.get(f"{server}/games/{game_id}").json()
    [side] = view["your_seats"]
    power = next(p.name for p in load_ruleset(RULES).board.powers if p.side == side)
    answer = page.request.post(f"{server}/games/{game_id}/actions", headers={"X-CSRF-Token": token or ""},
                               data={"action": {"type": "concede", "power": power}, "version": view["version"]})
    assert answer.ok, answer.text()


@pytest.mark.rule("AARE-RANK-upset-low-formula", "AARE-RANK-high-wins-formula")
def test_ladder_page(browser: Browser, server: str) -> None:
    alice, bob = _page(browser, 1.0), _page(browser, 1.0)
    for page in (alice, bob):
        _register(page, server)
    with _shot_on_failure(alice, "ladder"):
        alice_name, bob_name = _username(alice), _username(bob)
        form = alice.locator("#match-form")
        form.locator("select[name=ruleset]").select_option(RULES)
        form.locator("input[name=opponent]").fill(bob_name)
        form.locator("input[name=bid]").fill("6")
        _shot(alice, "ladder-lobby")
        form.locator("#create-match").click()
        alice.wait_for_url("**/play/*")
        alice.goto(server + "/")
        ranked = alice.locator("#my-games li", has=alice.locator(".pill", has_text="ranked"))
        expect(ranked).to_have_count(2)
        games = alice.request.get(server + "/games?mine=true").json()
        first, second = [g for g in games if g["ranked"]]
        assert first["options"]["bid_axis"] == second["options"]["bid_axis"] == 6
        _concede(alice, server, first["id"])
        bob.goto(server + "/")
        _concede(bob, server, second["id"])

        alice.locator(".topbar nav a", has_text="Ladder").click()
        alice.wait_for_url("**/rankings")
        rows = alice.locator("#ladder-table tbody tr")
        expect(rows).to_have_count(2)
        # game 1: the newcomers enter as 1 (bob, the winner) and 2 (alice), and 1 beating 2 stays 1;
        # game 2: alice (2) beats bob (1): both formulas say 1, the winner takes it and bob goes just below
        assert high_wins(1, 2) == 1
        places = {alice_name: low_wins(2, 1), bob_name: high_loses(1, 2)}
        assert places == {alice_name: 1, bob_name: 1}
        places[bob_name] = 2
        for name, rank in places.items():
            row = alice.locator("#ladder-table tbody tr", has=alice.locator("a", has_text=name))
            expect(row.locator("td").nth(0)).to_have_text(str(rank))
            expect(row.locator("td").nth(4)).to_have_text("2")  # games
        _shot(alice, "ladder-table")
        assert not alice.errors  # type: ignore[attr-defined]

        alice.locator("#ladder-table a", has_text=bob_name).click()
        alice.wait_for_url(f"**/rankings/{bob_name}")
        history = alice.locator("#player-history tbody tr")
        expect(history).to_have_count(2)
        expect(history.nth(0).locator("td").nth(0)).to_have_text("lost")
        expect(history.nth(1).locator("td").nth(0)).to_have_text("won")
        expect(alice.locator("#player-entry")).to_contain_text(f"Rank {places[bob_name]}")
        _shot(alice, "ladder-player")
