"""A team turn in the browser: two players of one team, each in their own headless Chromium context, act in the
same phase at their own pace; each sees the other's progress live, and the joint combat phase waits for both.

Runs the server in this process (the test-only team ruleset is registered here), with Debian's Chromium.
Screenshots go to artifacts/screenshots/team-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.teamturns.family import RULES, install
from tests.web.test_browser import _buy, _page, _post, _register, _shot, _shot_on_failure, in_process
from tests.web.test_browser import browser as browser  # the fixture


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    install()
    with in_process(tmp_path_factory, "team-db") as url:
        yield url


def _end_phase(page: Page, phase_now: str) -> None:
    page.locator("button.end-phase").click()
    expect(page.locator("#turn .phase")).to_have_text(phase_now)


@pytest.mark.slow
def test_two_players_of_a_team_play_one_turn_at_once(server: str, browser: Browser) -> None:
    alice, bob = _page(browser, 1.0), _page(browser, 1.0)
    with _shot_on_failure(alice, "team-alice"), _shot_on_failure(bob, "team-bob"):
        _register(alice, server)
        _register(bob, server)
        game = _post(alice, server + "/games", {"ruleset": RULES, "options": {"weapons_development": False},
                                                "seats": {"Germany": "me"}})
        _post(bob, f"{server}/games/{game['id']}/seats/Japan/take")
        for page in (alice, bob):
            page.goto(f"{server}/play/{game['id']}")
            expect(page.locator("#your-move")).to_be_visible()
            expect(page.locator("#live")).to_have_text("live")
            expect(page.locator("#team li")).to_have_count(2)
        expect(alice.locator("#turn .turn-head .badge")).to_have_text("Germany")
        expect(bob.locator("#turn .turn-head .badge")).to_have_text("Japan")

        _buy(alice, "infantry", 1)  # both buy in the same phase, neither waiting for the other
        # the live update of Germany's purchase redraws Japan's side panel: buy once it has arrived (a form filled
        # before keeps its counts: tests/web/test_browser_aarhe_team.py)
        version = alice.locator("#side .side-inner").get_attribute("data-version")
        expect(bob.locator("#side .side-inner")).to_have_attribute("data-version", str(version))
        _buy(bob, "armour", 2)
        _end_phase(alice, "Combat move")
        expect(bob.locator("#team li", has_text="Germany")).to_contain_text("Combat move")  # live, no reload
        expect(bob.locator("#turn .phase")).to_have_text("Purchase units")
        _end_phase(alice, "Conduct combat")  # Germany reaches the joint phase first and waits
        expect(alice.locator("#waiting")).to_be_visible()
        expect(alice.locator("#team li", has_text="Germany")).to_contain_text("waits for the team")
        _shot(alice, "team-waiting")
        _end_phase(bob, "Combat move")
        _end_phase(bob, "Conduct combat")
        for page in (alice, bob):  # the joint phase starts for both
            expect(page.locator("#your-move")).to_be_visible()
            expect(page.locator("#turn .phase")).to_have_text("Conduct combat")
        _shot(bob, "team-combat")
        assert alice.errors == [] and bob.errors == []  # type: ignore[attr-defined]
