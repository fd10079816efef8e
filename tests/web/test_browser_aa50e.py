"""An Anniversary Enhanced game in the browser: the lobby offers both set-ups with their options; a player who
holds every seat of an aa50e-1941 game ends the first turns through the API, then declares D-Day at the start of
the United Kingdom's turn with the table's button.

Runs the server in this process with Debian's headless Chromium, at 100 % zoom on a 1366×768 screen.
Screenshots go to artifacts/screenshots/aa50e-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from aare.rules.ruleset import load_ruleset, load_spec
from tests.web.test_browser import _page, _post, _register, _settled, _shot, _shot_on_failure, in_process
from tests.web.test_browser import browser as browser  # the fixture
from tests.web.test_browser_aa50 import _end_turns_until

RULES = "aa50e-1941"
UK = "United Kingdom"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "aa50e-db") as url:
        yield url


@pytest.mark.slow
@pytest.mark.rule("AA50E-DDAY-declare-once")
def test_the_united_kingdom_declares_d_day_on_the_page(server: str, browser: Browser) -> None:
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "aa50e"):
        _register(page, server)
        offered = page.locator("#ruleset-choice option").evaluate_all("(os) => os.map((o) => o.value)")
        assert {"aa50e-1941", "aa50e-1942"} <= set(offered)
        for rules in ("aa50e-1941", "aa50e-1942"):
            page.select_option("#ruleset-choice", rules)
            fields = page.locator(f".ruleset-fields[data-ruleset='{rules}']")
            fields.locator("details.options summary").click()
            for key in ("national_advantages", "optional_units", "jet_defence_5", "improved_factories_min_value"):
                expect(fields.locator(f"[name$='{key}']").first).to_be_attached()
            assert fields.locator("details.options [name]").count() >= len(load_spec(rules).option_specs)
        _shot(page, "aa50e-lobby")

        nations = [p.name for p in load_ruleset(RULES).board.powers if p.played_by is None]
        game = _post(page, server + "/games", {"ruleset": RULES, "seats": dict.fromkeys(nations, "me")})
        _end_turns_until(page, server, game["id"], UK)
        page.goto(f"{server}/play/{game['id']}")
        expect(page.locator("#your-move")).to_be_visible()
        expect(page.locator("#turn .turn-head .badge")).to_have_text(UK)
        _settled(page)
        expect(page.locator("#nations .game-records")).to_contain_text("D-Day: available")
        button = page.locator("#declarations button", has_text="Declare D-Day")
        expect(button).to_be_visible()
        _shot(page, "aa50e-uk-turn")
        button.click()
        expect(page.locator("#nations .game-records")).to_contain_text("D-Day: declared in round 1")
        expect(button).to_have_count(0)  # once a game
        _settled(page)
        view = page.request.get(f"{server}/games/{game['id']}").json()
        assert view["state"]["extra"]["d_day"]["status"] == "declared"
        page.locator("#nations").scroll_into_view_if_needed()
        _shot(page, "aa50e-d-day-declared")
    assert not page.errors  # type: ignore[attr-defined]

