"""An Anniversary game in the browser: the lobby offers both set-ups with China seated with the United States;
a player who holds every seat of an aa50-1942 game ends the first four turns through the API, then plays
Italy's turn on the Anniversary map by clicking (a purchase, a move, placement, the end of each phase).

Runs the server in this process with Debian's headless Chromium, at 100 % zoom on a 1366×768 screen.
Screenshots go to artifacts/screenshots/aa50-*.png (aa50-italy.png: the end of Italy's turn).
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from aare.rules.ruleset import load_ruleset
from tests.web.test_browser import (
    _buy,
    _click_space,
    _end_phase,
    _move_all,
    _page,
    _post,
    _register,
    _settled,
    _shot,
    _shot_on_failure,
    in_process,
)
from tests.web.test_browser import browser as browser  # the fixture

RULES = "aa50-1942"
SEATS = ("Japan", "Soviet Union", "Germany", "United Kingdom", "Italy", "United States")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "aa50-db") as url:
        yield url


def _end_turns_until(page: Page, base: str, game_id: str, nation: str) -> int:
    """End every phase through the API until `nation` is to move; the number of actions sent."""
    sent = 0
    while True:
        view = page.request.get(f"{base}/games/{game_id}").json()
        if view["state"]["nation"] == nation:
            return sent
        _post(page, f"{base}/games/{game_id}/actions", {"action": {"type": "end_phase"}, "version": view["version"]})
        sent += 1
        assert sent < 60, "the turns did not pass to " + nation


def _visible_fill(page: Page, space: str) -> str | None:
    """The fill of the space's shape at a point of it that nothing covers (None: the space is not visible)."""
    fill: str | None = page.evaluate(
        """(name) => {
          const shape = document.querySelector(`#map g.space[data-space="${CSS.escape(name)}"]`);
          const r = shape.getBoundingClientRect();
          for (let i = 1; i < 16; i++) for (let j = 1; j < 16; j++) {
            const hit = document.elementFromPoint(r.x + r.width * i / 16, r.y + r.height * j / 16);
            if (hit && hit.closest("g.space") === shape) return shape.querySelector("path.shape").getAttribute("fill");
          }
          return null;
        }""",
        space,
    )
    return fill


@pytest.mark.slow
def test_italy_plays_a_turn_on_the_anniversary_map(server: str, browser: Browser) -> None:
    board = load_ruleset(RULES).board
    colours = {p.name: p.colour for p in board.powers}
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "aa50"):
        _register(page, server)
        offered = page.locator("#ruleset-choice option").evaluate_all("(os) => os.map((o) => o.value)")
        assert {"aa50-1941", "aa50-1942"} <= set(offered)
        page.select_option("#ruleset-choice", RULES)
        fields = page.locator(f".ruleset-fields[data-ruleset='{RULES}']")
        by_nation = fields.locator(".seats[data-seating='nations']")
        expect(by_nation.locator("select[aria-label='China']")).to_have_count(0)  # no seat of its own
        expect(by_nation.locator(".seat-pick", has_text="United States")).to_contain_text("China")
        page.select_option("#seating-choice", "powers")  # unless every power has its own
        expect(fields.locator(".seats[data-seating='powers'] select[aria-label='China']")).to_be_visible()
        page.select_option("#seating-choice", "nations")
        _shot(page, "aa50-lobby")

        game = _post(page, server + "/games", {"ruleset": RULES, "seats": dict.fromkeys(SEATS, "me")})
        assert sorted(game["your_seats"]) == sorted(SEATS)
        assert _end_turns_until(page, server, game["id"], "Italy") == 28  # seven phases of four powers

        page.goto(f"{server}/play/{game['id']}")
        expect(page.locator("#your-move")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
        expect(page.locator("#turn .turn-head .badge")).to_have_text("Italy")
        _settled(page)
        _shot(page, "aa50-italy-turn")  # the map fills its pane around the capital of the power to move
        assert _visible_fill(page, "Italy") == colours["Italy"]
        expect(page.locator("#nations")).not_to_contain_text("capital lost")  # China has none to lose

        _end_phase(page, "Purchase units")
        _buy(page, "infantry", 1)
        _end_phase(page, "Combat move")
        _end_phase(page, "Conduct combat")
        _end_phase(page, "Noncombat move")
        _move_all(page, "Balkans", "Italy", attack=False)
        expect(page.locator("#map g.tokens[data-space='Italy']")).to_contain_text("4 inf")
        _end_phase(page, "Mobilize new units")
        _click_space(page, "Italy")
        expect(page.locator("#placement form#place-form")).to_have_count(0)  # the one unit bought is placed
        expect(page.locator("#map g.tokens[data-space='Italy']")).to_contain_text("5 inf")
        _end_phase(page, "Collect income")
        _settled(page)
        _shot(page, "aa50-italy")  # the end of Italy's turn, the map as it opened around Italy
        page.locator("button[data-zoom='fit']").click()
        _shot(page, "aa50-whole-map")
        assert _visible_fill(page, "Italy") == colours["Italy"]
        assert _visible_fill(page, "Chinghai") == colours["China"]
        assert _visible_fill(page, "Mongolia") is not None  # an impassable neutral, hatched
        page.locator("button.end-phase").click()

        # the United States and China move together, both played from the United States' seat
        expect(page.locator("#team li")).to_have_count(2)
        expect(page.locator("#team")).to_contain_text("China")
        _settled(page)
        expect(page.locator("#map #legend")).to_contain_text("United States")
        _shot(page, "aa50-us-china")
        page.locator("#team a", has_text="Play China").click()  # the same seat acts for China
        expect(page.locator("#team li", has_text="United States")).to_contain_text("Play United States")
        _end_phase(page, "Purchase units")  # the panel stays with China
        expect(page.locator("#team li", has_text="China")).to_contain_text("Purchase units")
        expect(page.locator("#team li", has_text="United States")).to_contain_text("Research")
        _click_space(page, "Chinghai")  # the map follows the team turn: a click selects a Chinese territory
        expect(page.locator("#side")).to_contain_text("Chinghai")
    assert not page.errors  # type: ignore[attr-defined]
