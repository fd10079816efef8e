"""The browser table end to end: Playwright drives Debian's headless Chromium against a real `aare serve`.

Each scenario registers, creates a game against the bots (a bot chosen per seat), plays Russia's first turn
by clicking (buy, a combat move composed on the map, the battle with its casualty choices, placement) and watches
the bots' turns arrive live. Without /usr/bin/chromium (or the playwright package) the tests skip, except under CI,
where they fail. Screenshots go to artifacts/screenshots/.
"""

from __future__ import annotations

import contextlib
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO = Path(__file__).resolve().parents[2]
SHOTS = REPO / "artifacts" / "screenshots"
CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]
PASSWORD = "correct horse battery"
WAIT = 30_000  # ms: one page step
BOTS_WAIT = 240_000  # ms: four bot turns
BOTS = {"Germany": "planner", "United Kingdom": "greedy", "Japan": "prolike", "United States": "random"}
os.environ.setdefault("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")


def _missing(what: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {what}: the browser tests must run in CI (see .ci/run)")
    pytest.skip(what, allow_module_level=True)


if not CHROMIUM.exists():
    _missing(f"{CHROMIUM} is missing (apt-get install chromium)")
try:
    from playwright.sync_api import Browser, Locator, Page, expect, sync_playwright
except ImportError:
    _missing("the playwright package is missing (the dev extra)")
pytest.importorskip("fastapi", reason="the server extra is not installed")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """`aare serve` on a free port with a temporary data folder; bots act in the background."""
    data = tmp_path_factory.mktemp("aare-data")
    port = _free_port()
    env = {**os.environ, "AARE_BOT_MODE": "background", "AARE_COOKIE_SECURE": "never",
           "AARE_SQLITE_SYNCHRONOUS": "NORMAL", "AARE_BOT_SECONDS": "2"}
    env.pop("AARE_DATABASE_URL", None)
    log = (data / "server.log").open("w")
    command = [sys.executable, "-c", "from aare.cli.main import main; main()", "serve", "--port", str(port),
               "--data-dir", str(data), "--log-level", "warning"]
    proc = subprocess.Popen(command, env=env, stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                proc.kill()
                pytest.fail(f"aare serve did not start: {(data / 'server.log').read_text()[-2000:]}")
            time.sleep(0.2)
    yield url
    proc.terminate()
    try:
        proc.wait(timeout=15)
    except subprocess.TimeoutExpired:
        proc.kill()
    log.close()


@contextlib.contextmanager
def in_process(tmp_path_factory: pytest.TempPathFactory, name: str) -> Iterator[str]:
    """The app served in this process (bots acting inline) on a temporary SQLite database: its URL."""
    from aare.server.settings import Settings, sqlite_url
    from tests.server.conftest import LiveServer

    settings = Settings(sqlite_url(Path(tmp_path_factory.mktemp(name))), cookie_secure="never", bot_mode="inline")
    with LiveServer(settings) as live:
        yield live.url


def _csrf(page: Page) -> str:
    token = page.locator("input[name=csrf_token]").first.get_attribute("value")
    assert token
    return token


def _post(page: Page, url: str, body: dict[str, Any] | None = None) -> Any:
    """An API call with the page's session (and its CSRF token): the answer's JSON."""
    answer = page.request.post(url, data=body or {}, headers={"X-CSRF-Token": _csrf(page)})
    assert answer.ok, answer.text()
    return answer.json() if answer.status != 204 else None


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Debian's headless Chromium (module-scoped: one per browser test module)."""
    with sync_playwright() as p:
        found = p.chromium.launch(executable_path=str(CHROMIUM), args=CHROMIUM_ARGS)
        yield found
        found.close()


def _page(browser: Browser, zoom: float) -> Page:
    """A page as a 1366×768 laptop shows it at `zoom` (125 %: 1093×614 CSS pixels at device scale 1.25)."""
    context = browser.new_context(viewport={"width": round(1366 / zoom), "height": round(768 / zoom)},
                                  device_scale_factor=zoom)
    page = context.new_page()
    page.set_default_timeout(WAIT)
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("console", lambda message: errors.append(message.text)  # what the Content-Security-Policy refused
            if "Content Security Policy" in message.text else None)
    page.errors = errors  # type: ignore[attr-defined]
    return page


def _shot(page: Page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def _register(page: Page, base: str) -> None:
    page.goto(base + "/")
    page.fill("#register-form input[name=username]", f"p{uuid.uuid4().hex[:10]}")
    page.fill("#register-form input[name=password]", PASSWORD)
    page.click("#register-form button")
    expect(page.locator("#new-game")).to_be_visible()


def _settled(page: Page) -> None:
    """Wait until the map shows the state the side panel shows. (Polled with `evaluate`: `wait_for_function`
    compiles its predicate in the page, which the pages' Content-Security-Policy forbids.)"""
    deadline = time.monotonic() + WAIT / 1000
    while not page.evaluate("() => document.querySelector('#map').dataset.hash === "
                            "document.querySelector('#side .side-inner').dataset.hash"):
        assert time.monotonic() < deadline, "the map did not catch up with the side panel"
        time.sleep(0.05)


def _click_space(page: Page, name: str) -> None:
    """A real mouse click on a point of the space's shape that nothing else covers."""
    _settled(page)
    point = page.evaluate(
        """(name) => {
          const sel = (cls) => document.querySelector(`#map g.${cls}[data-space="${CSS.escape(name)}"]`);
          const shape = sel("space");
          const probes = [];
          const tokens = sel("tokens");
          if (tokens) { const t = tokens.getBoundingClientRect(); probes.push([t.x + t.width / 2, t.y + 4]); }
          const r = shape.getBoundingClientRect();
          for (let i = 1; i < 12; i++) {
            for (let j = 1; j < 12; j++) probes.push([r.x + r.width * i / 12, r.y + r.height * j / 12]);
          }
          for (const [x, y] of probes) {
            const hit = document.elementFromPoint(x, y);
            if (hit && hit.closest("g.space") === shape) return [x, y];
          }
          return null;
        }""",
        name,
    )
    assert point is not None, f"{name} is not visible on the map"
    page.mouse.click(point[0], point[1])


def _end_phase(page: Page, next_phase: str) -> None:
    page.locator("button.end-phase").click()
    expect(page.locator("#turn .phase")).to_have_text(next_phase)


def _stepped(page: Page, unit: str, count: int) -> Locator:
    """Step the purchase form's count of `unit` up to `count` (nothing bought yet): the count's field."""
    row = page.locator("#purchase tr", has=page.locator(f"input[name='n:{unit}']"))
    for _ in range(count):
        row.locator("[data-step='1']").click()
    expect(row.locator("input")).to_have_value(str(count))
    return row.locator("input")


def _buy(page: Page, unit: str, count: int) -> None:
    _stepped(page, unit, count)
    page.click("#buy")
    expect(page.locator("#purchase")).to_contain_text("Bought this turn")


def _move_all(page: Page, origin: str, target: str, attack: bool = True) -> None:
    """Select every movable unit in `origin`, click `target`, check the odds (an attack) and confirm the move."""
    _click_space(page, origin)
    expect(page.locator("#move-units")).to_be_visible()
    page.click("#select-all")
    _click_space(page, target)
    go = page.locator("#route .js-route-go").first
    expect(go).to_be_visible()
    if attack:
        expect(page.locator("#route .board-odds .odds-figure.att")).to_contain_text("%")
    go.click()
    expect(page.locator("#route")).to_be_empty()


def _fight(page: Page, space: str, shots: dict[str, bool]) -> dict[str, int]:
    """Fight the battle in `space`: confirm each casualty choice with Enter, press on every time."""
    battle = page.locator("#battles .battle", has_text=space)
    expect(battle.locator(".odds-figure.att")).to_contain_text("%")
    battle.locator("button", has_text="Fight").click()
    done = {"casualties": 0, "presses": 0}
    for _ in range(40):
        page.wait_for_selector("#casualty-form, .decision-buttons, #last-battle", timeout=WAIT)
        if page.locator("#casualty-form").count():
            if not shots.get("battle"):
                _shot(page, "battle")
                shots["battle"] = True
            expect(page.locator("#casualty-form input[type=radio]:checked")).to_be_focused()
            page.keyboard.press("Enter")
            done["casualties"] += 1
            expect(page.locator("#casualty-form")).to_have_count(0)
        elif page.locator(".decision-buttons").count():
            page.locator(".decision-buttons button", has_text="Press").click()
            done["presses"] += 1
        else:
            break
        page.wait_for_timeout(200)
    expect(page.locator("#last-battle")).to_contain_text(space)
    if not shots.get("battle"):
        _shot(page, "battle")
    return done


def _create(page: Page, ruleset: str, options: dict[str, bool] | None = None, bots: dict[str, str] | None = None,
            shot: str = "") -> None:
    """Create a game from the lobby's form: `options` set, `bots` (seat → bot) chosen per nation seat (the
    others keep the form's default, the planner); `shot`: a screenshot of the form before creating."""
    page.select_option("#ruleset-choice", ruleset)
    fields = page.locator(f".ruleset-fields[data-ruleset='{ruleset}']")
    expect(fields).to_be_visible()
    for key, on in (options or {}).items():
        fields.locator("details.options summary").click()
        box = fields.locator(f"input[type=checkbox][name='opt:{ruleset}:{key}']")
        box.set_checked(on)
    for seat, bot in (bots or {}).items():
        choice = fields.locator(f"select[name='seat:{ruleset}:nations:{seat}']")
        choice.select_option(bot)
        expect(choice).to_have_value(bot)
    if shot:
        _shot(page, shot)
    page.click("#create-game")
    expect(page.locator("#your-move")).to_be_visible()
    expect(page.locator("#live")).to_have_text("live")


def _russia_turn(page: Page, shots: dict[str, bool]) -> dict[str, int]:
    """Russia's first turn by clicking, from develop weapons to the end of the turn."""
    _end_phase(page, "Purchase units")
    _buy(page, "infantry", 3)
    _end_phase(page, "Combat move")
    _move_all(page, "Russia", "West Russia")
    expect(page.locator("#map g.tokens[data-space='West Russia']")).to_contain_text("inf")
    _end_phase(page, "Conduct combat")
    fought = _fight(page, "West Russia", shots)
    _end_phase(page, "Non-combat move")
    _end_phase(page, "Mobilize new units")
    expect(page.locator("#map g.space.is-place").first).to_be_attached()
    _click_space(page, "Russia")
    expect(page.locator("#placement form#place-form")).to_have_count(0)
    for _ in range(10):  # free units of a national advantage (AARe)
        free = page.locator("#placement button.free-place")
        if not free.count():
            break
        before = free.count()
        free.first.click()
        expect(free).not_to_have_count(before)
    _end_phase(page, "Collect income")
    page.evaluate("window.__samePage = true")
    page.locator("button.end-phase").click()
    return fought


def _bots_reply_live(page: Page) -> int:
    """The bots' turns arrive over server-sent events (no reload): play passes on, their log entries show, and
    the turn comes back to us in round 2. When a bot attacks us, we choose our casualties as the defender.
    Returns the number of decisions we answered meanwhile."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    expect(page.locator("#waiting")).to_be_visible()
    answered = 0
    deadline = time.monotonic() + BOTS_WAIT / 1000
    while time.monotonic() < deadline:
        if page.locator("#your-move").count() and page.locator("#turn .round", has_text="Round 2").count():
            break
        # a live update may replace the panel between finding a button and clicking it: look again then
        with contextlib.suppress(PlaywrightTimeoutError):
            if page.locator("#casualty-form").count():
                page.locator("#confirm-casualties").click(timeout=3000)
                answered += 1
            elif page.locator("#decision .decision-buttons button").count():
                page.locator("#decision .decision-buttons button").first.click(timeout=3000)
                answered += 1
        page.wait_for_timeout(300)
    expect(page.locator("#turn .round")).to_have_text("Round 2")
    expect(page.locator("#your-move")).to_be_visible()
    expect(page.locator("#log .log-nation", has_text="United States").first).to_be_attached()
    assert page.evaluate("window.__samePage") is True
    return answered


@contextlib.contextmanager
def _shot_on_failure(page: Page, name: str) -> Iterator[None]:
    """Keep a screenshot of the page when the scenario fails (artifacts/screenshots/failed-NAME.png)."""
    try:
        yield
    except BaseException:
        with contextlib.suppress(Exception):
            _shot(page, f"failed-{name}")
        raise


def _fits(page: Page) -> None:
    """Nothing spills sideways: the page needs no horizontal scrolling at this zoom."""
    assert page.evaluate("document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1")


@pytest.mark.slow
def test_lhtr_game_against_the_bot(server: str, browser: Browser) -> None:
    page = _page(browser, 1.25)
    with _shot_on_failure(page, "lhtr"):
        _register(page, server)
        for seat in ("Germany", "United Kingdom", "Japan", "United States"):  # the strongest bot by default
            expect(page.locator(f"select[name='seat:lhtr-1.3:nations:{seat}']")).to_have_value("planner")
        _create(page, "lhtr-1.3", bots=BOTS, shot="lobby-bots")
        expect(page.locator("#seats")).to_contain_text("greedy bot")
        expect(page.locator("#seats")).to_contain_text("prolike bot")
        _fits(page)
        _shot(page, "map-start")
        shots: dict[str, bool] = {}
        _russia_turn(page, shots)
        _bots_reply_live(page)
        page.goto(server + "/")
        expect(page.locator("#my-games .game-row.your-move")).to_have_count(1)
        expect(page.locator("#my-games .game-bots")).to_contain_text("Germany planner")
        _shot(page, "lobby")
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.slow
def test_aare_game_with_a_national_advantage(server: str, browser: Browser) -> None:
    page = _page(browser, 1.5)
    with _shot_on_failure(page, "aare"):
        _register(page, server)
        _create(page, "aare-5.0", {"straight_bid": False})
        _fits(page)
        advantages = page.locator("#advantages")
        expect(advantages).to_contain_text("Russian Winter")
        advantages.locator("li", has_text="Siberian Conscripts").locator("button").click()
        expect(page.locator("#advantages")).to_have_count(0)
        expect(page.locator("#nations")).to_contain_text("siberian conscripts")
        _russia_turn(page, {"battle": True})
        _bots_reply_live(page)
    assert not page.errors  # type: ignore[attr-defined]


def test_a_stale_csrf_token_shows_the_reload_card(server: str, browser: Browser) -> None:
    """With the Content-Security-Policy on, a post refused for a stale CSRF token shows where its answer
    would have gone that the form expired and the page must be reloaded."""
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "csrf"):
        _register(page, server)
        _create(page, "lhtr-1.3")
        page.evaluate("() => document.body.setAttribute('hx-headers', JSON.stringify({'X-CSRF-Token': 'stale'}))")
        page.locator("button.end-phase").click()
        expect(page.locator("#side #csrf-failed")).to_contain_text("Reload the page and try again")
        page.locator("#csrf-failed a.btn").click()
        expect(page.locator("#your-move")).to_be_visible()
    assert not page.errors  # type: ignore[attr-defined]


@pytest.mark.rule("LHTR-SBR-turn-cap")
def test_the_calculator_solves_a_raid(server: str, browser: Browser) -> None:
    """The calculator page: a raid of one bomber on a territory worth 4 against its AA gun (as usual)."""
    page = _page(browser, 1.0)
    with _shot_on_failure(page, "odds-raid"):
        page.goto(server + "/odds")
        page.select_option("select[name=battle]", "raid")
        for field in ("att:infantry", "att:artillery", "att:armour", "def:infantry"):
            page.fill(f"input[name='{field}']", "0")
        page.fill("input[name='att:bomber']", "1")
        page.fill("input[name=territory_value]", "4")
        page.click("#calculate")
        expect(page.locator("#expected-damage")).to_have_text("2.50")  # 5/6 × (1 + 2 + 3 + 4 × 3) / 6
        expect(page.locator("#odds-result svg.damage rect")).to_have_count(5)
    assert not page.errors  # type: ignore[attr-defined]
