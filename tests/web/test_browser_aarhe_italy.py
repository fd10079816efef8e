"""AARHE with the Italy player in the browser: on the Italy map, after the Soviet first round, Italy's player buys,
looks at Italy, Southern Europe and Malta on the map, sends the Libyan army into Anglo Egypt and waits for his
Axis partners at the joint combat.

The app is served in-process (`in_process`); the pages are a 1366×768 laptop's at 100 %. The screenshots of the map
are kept as artifacts/screenshots/aarhe-italy-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, expect

from tests.web.test_browser import (
    _buy,
    _click_space,
    _end_phase,
    _move_all,
    _page,
    _post,
    _register,
    _shot,
    _shot_on_failure,
    in_process,
)
from tests.web.test_browser import browser as browser  # the fixture

RULES = "aarhe"
ITA, GER, JAP, RUS = "Italy", "Germany", "Japan", "Russia"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "aarhe-italy-db") as url:
        yield url


@pytest.mark.slow
@pytest.mark.rule("AARHE-ITALY-map", "AARHE-ITALY-units-transfer")
def test_italy_plays_its_turn_on_the_split_map(server: str, browser: Browser) -> None:
    alice, carol = _page(browser, 1.0), _page(browser, 1.0)
    with _shot_on_failure(alice, "aarhe-italy"):
        for page in (alice, carol):
            _register(page, server)
        game = _post(alice, server + "/games", {"ruleset": RULES, "options": {"italy": True}, "seats": {ITA: "me"}})
        game_id = game["id"]
        _post(carol, f"{server}/games/{game_id}/seats/{RUS}/take")
        version = 0
        while carol.request.get(f"{server}/games/{game_id}").json()["acting"] == [RUS]:
            _post(carol, f"{server}/games/{game_id}/actions", {"action": {"type": "end_phase"}, "version": version})
            version += 1

        alice.goto(f"{server}/play/{game_id}")
        expect(alice.locator("#your-move")).to_be_visible()
        expect(alice.locator("#turn .turn-head .badge")).to_have_text(ITA)
        expect(alice.locator("#team li")).to_have_count(3)  # Germany, Japan and Italy play the Axis team turn
        for space in (ITA, "Southern Europe", "Malta"):
            expect(alice.locator(f"#map g.space[data-space='{space}']")).to_have_count(1)
        _shot(alice, "aarhe-italy-map")

        _buy(alice, "armour", 1)
        expect(alice.locator("#purchase")).to_contain_text("1 armour")
        _end_phase(alice, "Collect income")
        _end_phase(alice, "Combat move")

        # the split territories are drawn and clickable: each opens its own panel
        for space in (ITA, "Southern Europe", "Malta"):
            _click_space(alice, space)
            expect(alice.locator("#side .side-inner")).to_have_attribute("data-selected", space)
        _move_all(alice, "Libya", "Anglo Egypt")
        _shot(alice, "aarhe-italy-moved")
        _end_phase(alice, "Conduct combat")  # Italy reaches the joint combat and waits for its partners
        expect(alice.locator("#waiting")).to_contain_text(GER)
        expect(alice.locator("#waiting")).to_contain_text(JAP)

        view = alice.request.get(f"{server}/games/{game_id}").json()
        libyans = [u for u in view["state"]["units"].get("Anglo Egypt", []) if u["owner"] == ITA]
        assert libyans, view["state"]["units"].get("Anglo Egypt")
        assert not [u for u in view["state"]["units"].get("Libya", []) if u["owner"] == ITA]
