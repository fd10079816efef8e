"""A Realism '98 game in the browser, on the Classic map: the lobby offers both Classic rulesets; a player who
holds every seat plays Russia's first turn by clicking (a purchase, a move, placement, the end of each phase).

Runs the server in this process with Debian's headless Chromium, at 100 % zoom on a 1366×768 screen.
Screenshots go to the test's temporary folder (realism98-russia.png: the end of Russia's turn around Moscow;
realism98-whole-map.png: the whole map).
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from aare.rules.ruleset import load_ruleset
from tests.web.test_browser import (
    _buy,
    _click_space,
    _move_all,
    _page,
    _post,
    _register,
    _settled,
    _shot_on_failure,
    in_process,
)
from tests.web.test_browser import browser as browser  # the fixture
from tests.web.test_browser_aa50 import _visible_fill

RULES = "realism-98"
SEATS = ("Russia", "Germany", "United Kingdom", "Japan", "United States")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with in_process(tmp_path_factory, "classic-db") as url:
        yield url


def _titles() -> dict[str, str]:
    """The ruleset's phase titles by phase id, as the turn panel shows them."""
    return {p.name: p.title for p in load_ruleset(RULES).phase_table()}


def _end_phase(page: Page, phase: str) -> None:
    """End phases until the panel shows `phase` (an id of the ruleset's phase table): the phases between, such
    as the Realism armour move, are passed over."""
    titles = _titles()
    position = {title: i for i, title in enumerate(titles.values())}
    shown = page.locator("#turn .phase")
    for _ in range(len(titles)):
        before = shown.inner_text()
        page.locator("button.end-phase").click()
        expect(shown).not_to_have_text(before)
        now = shown.inner_text()
        if now == titles[phase]:
            return
        assert position[now] < position[titles[phase]], now  # not past it
    raise AssertionError(f"the turn did not reach {phase}")


def _label_height(page: Page, space: str) -> float:
    """The height in CSS pixels of the first line of the space's name as the map draws it."""
    height: float = page.evaluate(
        """(name) => {
          const tokens = document.querySelector(`#map g.tokens[data-space="${CSS.escape(name)}"]`);
          return tokens.querySelector("text").getBoundingClientRect().height;
        }""",
        space,
    )
    return height


@pytest.mark.slow
def test_russia_plays_a_realism_turn_on_the_classic_map(server: str, browser: Browser, tmp_path: Path) -> None:
    board = load_ruleset(RULES).board
    colours = {p.name: p.colour for p in board.powers}
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "realism98"):
        _register(page, server)
        offered = page.locator("#ruleset-choice option").evaluate_all("(os) => os.map((o) => o.value)")
        assert {"classic-2e", "realism-98"} <= set(offered)
        page.select_option("#ruleset-choice", RULES)
        fields = page.locator(f".ruleset-fields[data-ruleset='{RULES}']")
        seats = fields.locator(".seats[data-seating='nations']")
        for nation in SEATS:
            expect(seats.locator(f"select[aria-label='{nation}']")).to_have_count(1)

        game = _post(page, server + "/games", {"ruleset": RULES, "seats": dict.fromkeys(SEATS, "me")})
        assert sorted(game["your_seats"]) == sorted(SEATS)
        page.goto(f"{server}/play/{game['id']}")
        expect(page.locator("#your-move")).to_be_visible()
        expect(page.locator("#live")).to_have_text("live")
        expect(page.locator("#turn .turn-head .badge")).to_have_text("Russia")
        # Realism counts income as the turn begins (REAL98-INCOME-start-of-turn): the turn opens on it
        expect(page.locator("#turn .phase")).to_have_text(_titles()["collect-income"])
        expect(page.locator("#nations")).not_to_contain_text("Victory cities")  # the board has none
        _settled(page)
        page.screenshot(path=str(tmp_path / "realism98-start.png"))
        # the map opens around Moscow, in the board's colours, its names readable at 100 % zoom
        assert _visible_fill(page, "Russia") == colours["Russia"]
        assert _visible_fill(page, "Ukraine S.S.R.") == colours["Germany"]
        for space in ("Russia", "Karelia S.S.R.", "Caucasus", "Ukraine S.S.R.", "East Europe"):
            assert _label_height(page, space) >= 11, space

        _end_phase(page, "purchase")
        _buy(page, "infantry", 2)
        _end_phase(page, "combat-move")
        _end_phase(page, "conduct-combat")
        _end_phase(page, "non-combat-move")
        _move_all(page, "Caucasus", "Russia", attack=False)
        expect(page.locator("#map g.tokens[data-space='Russia']")).to_contain_text("9 inf")
        expect(page.locator("#map g.tokens[data-space='Caucasus']")).not_to_contain_text("inf")
        _end_phase(page, "mobilize")
        _click_space(page, "Russia")
        expect(page.locator("#placement form#place-form")).to_have_count(0)  # both infantry are placed
        expect(page.locator("#map g.tokens[data-space='Russia']")).to_contain_text("11 inf")
        _end_phase(page, "collect-income")  # the end of Russia's turn: Germany counts its income
        _settled(page)
        page.screenshot(path=str(tmp_path / "realism98-russia.png"))
        page.locator("button[data-zoom='fit']").click()
        page.screenshot(path=str(tmp_path / "realism98-whole-map.png"))
        assert _visible_fill(page, "East US") == colours["United States"]  # the American capital
        assert _visible_fill(page, "Japan") == colours["Japan"]
        assert _visible_fill(page, "Sweden") is not None  # a neutral, not hatched: it may be entered

        page.locator("button.end-phase").click()  # Germany to move
        expect(page.locator("#turn .turn-head .badge")).to_have_text("Germany")
        _settled(page)
        page.screenshot(path=str(tmp_path / "realism98-germany.png"))
    assert not page.errors  # type: ignore[attr-defined]
