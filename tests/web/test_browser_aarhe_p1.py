"""AARHE Phase 1 in the browser: the new-game form offers the proposal's options (not LHTR's bid), and Russia's
player plays his first turn on the web table: infantry bought for Moscow and a tank, income, an attack on West
Russia, placement before non-combat move, research last.

The app is served in-process (`in_process`); the pages are a 1366×768 laptop's at 100 %. The screenshots are kept
as artifacts/screenshots/aarhe-p1-*.png.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import (
    _click_space,
    _end_phase,
    _move_all,
    _page,
    _post,
    _register,
    _shot,
    _shot_on_failure,
    _stepped,
    in_process,
)
from tests.web.test_browser import browser as browser  # the fixture

RULES = "aarhe-p1"
RUS = "Russia"


def _fight_both_sides(page: Page, space: str) -> None:
    """Fight the battle in `space`, choosing both sides' casualties as offered (Enter) and pressing on."""
    battle = page.locator("#battles .battle", has_text=space)
    battle.locator("button", has_text="Fight").click()
    for _ in range(40):
        page.wait_for_selector("#casualty-form, .decision-buttons, #last-battle", timeout=30_000)
        if page.locator("#casualty-form").count():
            page.keyboard.press("Enter")
        elif page.locator(".decision-buttons").count():
            page.locator(".decision-buttons button", has_text="Press").click()
        else:
            break
        page.wait_for_timeout(500)
    expect(page.locator("#last-battle")).to_contain_text(space)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "aarhe-p1-db") as url:
        yield url


@pytest.mark.slow
@pytest.mark.rule("AARHEP1-TURN-sequence", "AARHEP1-INF-assign-at-purchase")
def test_russia_plays_a_phase_1_turn(server: str, browser: Browser) -> None:
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "aarhe-p1"):
        _register(page, server)
        page.select_option("#ruleset-choice", RULES)
        fields = page.locator(f".ruleset-fields[data-ruleset='{RULES}']")
        expect(fields).to_be_visible()
        fields.locator("details.options summary").click()
        expect(fields.locator(f"[name='opt:{RULES}:victory_mode']")).to_have_count(1)
        expect(fields.locator(f"[name='opt:{RULES}:bought_complexes']")).to_have_count(1)
        expect(fields.locator(f"[name='opt:{RULES}:bid_axis']")).to_have_count(0)
        _shot(page, "aarhe-p1-lobby")

        # Germany's seat too, to choose the defending casualties of West Russia
        game = _post(page, server + "/games", {"ruleset": RULES, "seats": {RUS: "me", "Germany": "me"}})
        page.goto(f"{server}/play/{game['id']}")
        expect(page.locator("#your-move")).to_be_visible()
        expect(page.locator("#turn .phase")).to_have_text("Purchase units")
        bank = page.request.get(f"{server}/games/{game['id']}").json()["state"]["banks"][RUS]

        # infantry are bought for a victory city (Moscow, 2 IPCs each), the tank for the complex
        _stepped(page, "infantry", 2)
        page.select_option("#purchase select[name='at:infantry']", RUS)
        _stepped(page, "armour", 1)
        page.click("#buy")
        expect(page.locator("#purchase")).to_contain_text("Bought this turn")
        _shot(page, "aarhe-p1-bought")
        state = page.request.get(f"{server}/games/{game['id']}").json()["state"]
        assert state["banks"][RUS] == bank - 2 * 2 - 5
        _end_phase(page, "Collect income")
        _end_phase(page, "Combat move")
        _move_all(page, RUS, "West Russia")
        expect(page.locator("#map g.tokens[data-space='West Russia']")).to_contain_text("inf")
        _end_phase(page, "Conduct combat")
        _fight_both_sides(page, "West Russia")
        _shot(page, "aarhe-p1-fought")
        _end_phase(page, "Place newly purchased units")
        expect(page.locator("#map g.space.is-place").first).to_be_attached()
        for _ in range(3):  # a click on Moscow places what may go there (the infantry bought for it, the tank)
            _click_space(page, RUS)
            page.wait_for_timeout(500)
            state = page.request.get(f"{server}/games/{game['id']}").json()["state"]
            if not (state["extra"].get("purchased") or {}).get(RUS):
                break
        _shot(page, "aarhe-p1-placed")
        _end_phase(page, "Non-combat move")
        _end_phase(page, "Develop weapons")
        _shot(page, "aarhe-p1-research")
        page.locator("button.end-phase").click()
        expect(page.locator("#turn .turn-head .badge")).not_to_have_text(RUS)

        state = page.request.get(f"{server}/games/{game['id']}").json()["state"]
        moscow = {u["unit"]: u["count"] for u in state["units"][RUS] if u["owner"] == RUS}
        assert moscow.get("armour", 0) >= 1 and not (state["extra"].get("purchased") or {}).get(RUS)
    assert not page.errors  # type: ignore[attr-defined]
