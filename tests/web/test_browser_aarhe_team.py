"""An AARHE team turn in the browser: after the Soviet first round, two players of the Axis team, each in their
own headless Chromium context, buy and make their combat moves in the same team turn at their own pace; each sees
the other's progress live, a third player watching from the Allied side is told both are acting, and the joint
combat starts for both once both have ended their combat move.

Runs the server in this process with Debian's Chromium, at 100 % zoom on a 1366×768 screen.
Screenshots go to artifacts/screenshots/aarhe-team-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

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
    _stepped,
    in_process,
)
from tests.web.test_browser import browser as browser  # the fixture

RULES = "aarhe"
GER, JAP, RUS, UK = "Germany", "Japan", "Russia", "United Kingdom"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "aarhe-team-db") as url:
        yield url


def _caught_up(page: Page, other: Page) -> None:
    """Wait until `page` shows the version `other` shows (a live update has redrawn its side panel)."""
    version = other.locator("#side .side-inner").get_attribute("data-version")
    expect(page.locator("#side .side-inner")).to_have_attribute("data-version", str(version))


def _no_air_missions(page: Page, server: str, game_id: str) -> None:
    """The player of `page` takes the seat of each power asked for its air missions and declares none."""
    while True:
        view = page.request.get(f"{server}/games/{game_id}").json()
        asked = [m["pending"]["power"] for m in view["state"].get("members", {}).values()
                 if (m.get("pending") or {}).get("kind") == "air_missions"]
        if not asked:
            return
        if asked[0] != RUS:
            _post(page, f"{server}/games/{game_id}/seats/{asked[0]}/take")
        _post(page, f"{server}/games/{game_id}/actions", {"action": {"type": "air_missions", "power": asked[0]},
                                                          "version": view["version"]})


@pytest.mark.slow
@pytest.mark.rule("AARHE-ORDER-round-one-soviet", "AARHE-ORDER-team-turns", "AARHE-ORDER-team-concurrency")
def test_germany_and_japan_play_one_aarhe_team_turn_in_two_browsers(server: str, browser: Browser) -> None:
    alice, bob, carol = _page(browser, 1.0), _page(browser, 1.0), _page(browser, 1.0)
    with _shot_on_failure(alice, "aarhe-team-alice"), _shot_on_failure(bob, "aarhe-team-bob"), \
            _shot_on_failure(carol, "aarhe-team-carol"):
        for page in (alice, bob, carol):
            _register(page, server)
        game = _post(alice, server + "/games", {"ruleset": RULES, "seats": {GER: "me"}})
        game_id = game["id"]
        _post(bob, f"{server}/games/{game_id}/seats/{JAP}/take")
        _post(carol, f"{server}/games/{game_id}/seats/{RUS}/take")
        carol.goto(f"{server}/play/{game_id}")  # round 1: the Soviet Union alone
        expect(carol.locator("#your-move")).to_be_visible()
        expect(carol.locator("#turn .turn-head .badge")).to_have_text(RUS)
        expect(carol.locator("#team")).to_have_count(0)
        version = 0
        while carol.request.get(f"{server}/games/{game_id}").json()["acting"] == [RUS]:
            _post(carol, f"{server}/games/{game_id}/actions", {"action": {"type": "end_phase"}, "version": version})
            version += 1

        for page in (alice, bob):
            page.goto(f"{server}/play/{game_id}")
            expect(page.locator("#your-move")).to_be_visible()
            expect(page.locator("#live")).to_have_text("live")
            expect(page.locator("#team li")).to_have_count(2)
        expect(alice.locator("#turn .turn-head .badge")).to_have_text(GER)
        expect(bob.locator("#turn .turn-head .badge")).to_have_text(JAP)
        waiting = carol.locator("#waiting")  # the Soviet player, live: both Axis powers are acting
        expect(carol.locator("#turn .turn-head .badge")).to_have_text([GER, JAP])
        expect(waiting).to_contain_text(GER)
        expect(waiting).to_contain_text(JAP)
        _shot(carol, "aarhe-team-allies-wait")

        # both buy in the same phase, neither waiting for the other; Japan's player has begun to fill in his
        # purchase when Germany's arrives and redraws his panel: what he chose stays
        fighters = _stepped(bob, "fighter", 1)
        _stepped(alice, "infantry", 1)  # infantry is raised at a victory city: Germany chooses Berlin's
        alice.select_option("#purchase select[name='at:infantry']", GER)
        _buy(alice, "armour", 1)
        _caught_up(bob, alice)
        expect(fighters).to_have_value("1")
        expect(bob.locator("#purchase .js-cost")).to_have_text("10")
        bob.click("#buy")
        expect(bob.locator("#purchase")).to_contain_text("Bought this turn")
        _caught_up(alice, bob)
        expect(alice.locator("#purchase")).to_contain_text("1 infantry, 1 armour")
        _shot(bob, "aarhe-team-japan-bought")
        _end_phase(alice, "Collect income")
        expect(bob.locator("#team li", has_text=GER)).to_contain_text("Collect income")  # live, no reload
        expect(bob.locator("#turn .phase")).to_have_text("Purchase units and developments")
        _end_phase(bob, "Collect income")
        _end_phase(alice, "Combat move")
        _end_phase(bob, "Combat move")

        # each makes its combat move on the map; Japan's player has chosen his units in Manchuria when Germany's
        # move arrives: his choice stays, and he sends them on
        _click_space(bob, "Manchuria")
        expect(bob.locator("#move-units")).to_be_visible()
        bob.click("#select-all")
        chosen = bob.locator("#move-units .js-move-count").evaluate_all("(xs) => xs.map((x) => x.value)")
        _move_all(alice, "Libya", "Anglo Egypt")
        _caught_up(bob, alice)
        expect(bob.locator("#side .side-inner")).to_have_attribute("data-selected", "Manchuria")
        assert bob.locator("#move-units .js-move-count").evaluate_all("(xs) => xs.map((x) => x.value)") == chosen
        _click_space(bob, "Buryatia S.S.R.")
        go = bob.locator("#route .js-route-go").first
        expect(go).to_be_visible()
        go.click()
        expect(bob.locator("#route")).to_be_empty()
        _caught_up(alice, bob)
        _shot(alice, "aarhe-team-germany-moved")
        _end_phase(alice, "Conduct combat")  # Germany reaches the joint combat first and waits for Japan
        expect(alice.locator("#waiting")).to_contain_text(JAP)
        expect(alice.locator("#team li", has_text=GER)).to_contain_text("waits for the team")
        expect(bob.locator("#team li", has_text=GER)).to_contain_text("waits for the team")
        expect(bob.locator("#your-move")).to_be_visible()
        _shot(alice, "aarhe-team-germany-waits")
        _end_phase(bob, "Conduct combat")
        _no_air_missions(carol, server, game_id)  # the Allies asked first fly no mission (AARHE-DAS-declare)
        for page in (alice, bob):  # the joint combat starts for both
            expect(page.locator("#your-move")).to_be_visible()
            expect(page.locator("#turn .phase")).to_have_text("Conduct combat")
            _settled(page)
        expect(alice.locator("#battles .battle", has_text="Anglo Egypt")).to_be_visible()
        expect(bob.locator("#battles .battle", has_text="Buryatia S.S.R.")).to_be_visible()
        _shot(alice, "aarhe-team-combat-germany")
        _shot(bob, "aarhe-team-combat-japan")
        view = alice.request.get(f"{server}/games/{game_id}").json()
        assert {p: m["status"] for p, m in view["state"]["members"].items()} == {GER: "acting", JAP: "acting"}
        assert view["state"]["extra"]["purchased"] == {GER: {"armour": 1, "infantry": 1}, JAP: {"fighter": 1}}
        for page in (alice, bob, carol):
            assert page.errors == []  # type: ignore[attr-defined]
