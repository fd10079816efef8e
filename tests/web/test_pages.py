"""The browser table's pages rendered on the server (FastAPI TestClient, SQLite, bots acting inline)."""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")
pytest.importorskip("jinja2", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.board.powers import MIN_CONTRAST, contrast
from aare.game_setup import new_game
from aare.rules.ruleset import available_rulesets, load_ruleset
from aare.server.api import create_app
from aare.server.settings import Settings, sqlite_url
from aare.web.compose import compose
from aare.web.map_style import slug
from aare.web.table_view import research_panel

PASSWORD = "correct horse battery"
OTHERS = ("Germany", "United Kingdom", "Japan", "United States")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    """One application (and one lifespan) for the module."""
    app = create_app(Settings(sqlite_url(tmp_path_factory.mktemp("pages")), bot_mode="inline",
                              register_address_limit=0), migrate=True)
    with TestClient(app) as c:
        yield c


@pytest.fixture
def client(server: TestClient) -> TestClient:
    """The test client, logged out."""
    server.cookies.clear()
    return server


def register(client: TestClient) -> str:
    """Register a fresh user through the lobby form; returns the session's CSRF token."""
    name = f"u{uuid.uuid4().hex[:10]}"
    answer = client.post("/register", data={"username": name, "password": PASSWORD}, follow_redirects=False)
    assert answer.status_code == 303 and answer.headers["location"] == "/"
    return csrf_of(client.get("/").text)


def csrf_of(page: str) -> str:
    found = re.search(r'name="csrf_token" value="([^"]+)"', page)
    assert found, "no CSRF token on the page"
    return found.group(1)


def create(client: TestClient, csrf: str, ruleset: str = "lhtr-1.3", seats: dict[str, str] | None = None,
           options: dict[str, str] | None = None) -> str:
    form = {"csrf_token": csrf, "ruleset": ruleset, "seating": "nations", f"seat:{ruleset}:nations:Russia": "me"}
    for nation, holder in (seats or dict.fromkeys(OTHERS, "random")).items():
        form[f"seat:{ruleset}:nations:{nation}"] = holder
    for key, value in (options or {}).items():
        form[f"opt:{ruleset}:{key}"] = value
    answer = client.post("/new", data=form, follow_redirects=False)
    assert answer.status_code == 303, answer.text
    return str(answer.headers["location"]).rsplit("/", 1)[-1]


def version_of(html: str) -> int:
    found = re.search(r'class="side-inner" data-version="(\d+)"', html)
    assert found
    return int(found.group(1))


def act(client: TestClient, game_id: str, action: dict[str, Any] | str, **fields: str) -> str:
    """Post an action through the page form (as htmx does) and return the new side panel."""
    side = client.get(f"/play/{game_id}/side").text
    data = {"action": action if isinstance(action, str) else json.dumps(action), "version": str(version_of(side)),
            **fields}
    answer = client.post(f"/play/{game_id}/act", data=data, headers={"HX-Request": "true", "X-CSRF-Token": CSRF[0]})
    assert answer.status_code == 200, answer.text
    return answer.text


CSRF: list[str] = [""]


@pytest.fixture
def player(client: TestClient) -> TestClient:
    CSRF[0] = register(client)
    return client


def test_anonymous_lobby_offers_register_and_login(client: TestClient) -> None:
    page = client.get("/")
    assert page.status_code == 200
    assert 'id="register-form"' in page.text and 'id="login-form"' in page.text
    assert client.get("/static/table.css").status_code == 200
    assert "htmx" in client.get("/static/htmx.min.js").text[:200]


def test_accounts_through_the_forms(client: TestClient) -> None:
    name = f"u{uuid.uuid4().hex[:10]}"
    short = client.post("/register", data={"username": name, "password": "short"})
    assert short.status_code == 400 and "password" in short.text
    assert client.post("/register", data={"username": name, "password": PASSWORD}, follow_redirects=False
                       ).status_code == 303
    client.post("/logout", data={"csrf_token": csrf_of(client.get("/").text)})
    assert 'id="login-form"' in client.get("/").text
    taken = client.post("/register", data={"username": name, "password": PASSWORD})
    assert taken.status_code == 409
    wrong = client.post("/login", data={"username": name, "password": "not the password"})
    assert wrong.status_code == 401 and "Wrong username or password" in wrong.text
    assert client.post("/login", data={"username": name, "password": PASSWORD}, follow_redirects=False
                       ).status_code == 303
    assert name in client.get("/").text


def test_form_login_is_limited_after_failed_logins(tmp_path: Path) -> None:
    settings = Settings(sqlite_url(tmp_path), bot_mode="off", login_user_failures=2)
    with TestClient(create_app(settings, migrate=True)) as c:
        name = f"u{uuid.uuid4().hex[:10]}"
        assert c.post("/register", data={"username": name, "password": PASSWORD}, follow_redirects=False
                      ).status_code == 303
        c.cookies.clear()
        for _ in range(2):
            assert c.post("/login", data={"username": name, "password": "not the password"}).status_code == 401
        refused = c.post("/login", data={"username": name, "password": PASSWORD}, follow_redirects=False)
        assert refused.status_code == 429
        assert "Too many failed logins. Try again in 15 minutes." in refused.text
        assert 'id="login-form"' in refused.text and int(refused.headers["retry-after"]) > 850
        other = f"u{uuid.uuid4().hex[:10]}"
        assert c.post("/register", data={"username": other, "password": PASSWORD}, follow_redirects=False
                      ).status_code == 303


def test_form_posts_need_the_csrf_token(player: TestClient) -> None:
    answer = player.post("/new", data={"ruleset": "lhtr-1.3"})
    assert answer.status_code == 403


def test_new_game_page_shows_map_turn_and_nations(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    page = player.get(f"/play/{game_id}").text
    assert '<g id="space-russia"' in page and 'data-space="West Russia"' in page
    assert 'id="your-move"' in page and "Develop weapons" in page
    nations = page[page.index('id="nations"'):page.index('id="seats"')]
    assert re.search(r"Russia</span>.*?<td class=\"num\">24</td><td class=\"num\">24</td>", nations, re.S)
    assert 'id="research"' in page and "/games/" in page
    lobby = player.get("/").text
    assert 'class="game-row your-move"' in lobby and f"/play/{game_id}" in lobby


def test_lobby_lists_open_seats_to_other_players(client: TestClient) -> None:
    CSRF[0] = register(client)
    game_id = create(client, CSRF[0], seats={"Germany": "open", "United Kingdom": "random", "Japan": "random",
                                             "United States": "random"})
    client.post("/logout", data={"csrf_token": CSRF[0]})
    csrf = register(client)
    lobby = client.get("/").text
    assert f"/play/{game_id}/seats/Germany/take" in lobby
    client.post(f"/play/{game_id}/seats/Germany/take", data={"csrf_token": csrf})
    page = client.get(f"/play/{game_id}").text
    assert re.search(r"Germany</span>\s*you", page)


def test_a_turn_through_the_page_forms(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    side = act(player, game_id, {"type": "end_phase"})
    assert 'id="purchase"' in side and 'data-bank="24"' in side
    side = act(player, game_id, "purchase", **{"n:infantry": "3", "n:armour": "0"})
    assert "Bought this turn: <strong>3 infantry</strong>" in side
    assert 'id="undo"' in side
    side = act(player, game_id, {"type": "end_phase"})
    assert "Combat move" in side
    side = player.get(f"/play/{game_id}/side", params={"space": "Russia"}).text
    assert 'id="move-units"' in side and "West Russia" in json.loads(
        re.search(r"data-targets='([^']*)'", side).group(1))  # type: ignore[union-attr]
    route = player.get(f"/play/{game_id}/route", params={"from": "Russia", "to": "West Russia",
                                                         "units": "3 infantry, 1 artillery, 2 armour"}).text
    action = json.loads(re.search(r'name="action" value="([^"]+)"', route).group(1).replace("&#34;", '"'))  # type: ignore[union-attr]
    assert action == {"type": "move", "units": "3 infantry, 1 artillery, 2 armour", "path": ["Russia", "West Russia"]}
    odds = player.get(f"/play/{game_id}/odds", params={"action": json.dumps(action)}).text
    assert "% win" in odds and "<svg" in odds
    act(player, game_id, action)
    side = act(player, game_id, {"type": "end_phase"})
    assert 'id="battles"' in side and "West Russia" in side and ">Fight<" in side
    assert "% win" in player.get(f"/play/{game_id}/odds", params={"space": "West Russia"}).text
    side = act(player, game_id, {"type": "fight", "space": "West Russia"})
    for _ in range(30):  # answer our decisions; the bot answers Germany's before each answer returns
        if 'id="casualty-form"' in side:
            side = act(player, game_id, "choose_casualties", units=_first_casualties(side))
        elif 'class="choices wrap decision-buttons"' in side:
            side = act(player, game_id, {"type": "press"})
        else:
            break
    assert 'id="last-battle"' in side and 'class="die' in side
    log = player.get(f"/play/{game_id}").text
    assert "fight West Russia" in log


def _first_casualties(side: str) -> str:
    found = re.search(r'type="radio" name="action" value="([^"]+)"', side)
    assert found
    return str(json.loads(found.group(1).replace("&#34;", '"'))["units"])


def test_illegal_actions_and_stale_versions_are_explained(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    side = act(player, game_id, {"type": "purchase", "units": "1 infantry"})
    flash = re.search(r'class="flash error" role="alert">([^<]+)<', side)
    assert flash and "LHTR-" in flash.group(1), side[:500]
    assert "Develop weapons" in side
    answer = player.post(f"/play/{game_id}/act", data={"action": '{"type": "end_phase"}', "version": "99"},
                         headers={"HX-Request": "true", "X-CSRF-Token": CSRF[0]})
    assert "The game moved on" in answer.text
    bad = player.post(f"/play/{game_id}/act", data={"action": "purchase", "version": "0"},
                      headers={"HX-Request": "true", "X-CSRF-Token": CSRF[0]})
    assert "could not be read" in bad.text


def test_undo_takes_back_a_purchase(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    act(player, game_id, {"type": "end_phase"})
    side = act(player, game_id, "purchase", **{"n:infantry": "2"})
    answer = player.post(f"/play/{game_id}/undo", data={"version": str(version_of(side))},
                         headers={"HX-Request": "true", "X-CSRF-Token": CSRF[0]})
    assert "Bought this turn" not in answer.text and 'data-bank="24"' in answer.text


def test_spectators_see_the_game_but_no_controls(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    player.cookies.clear()
    page = player.get(f"/play/{game_id}")
    assert page.status_code == 200 and 'id="waiting"' in page.text
    assert "/act" not in page.text.split('id="turn"')[1].split("</section>")[0]
    assert player.get("/play/nope").status_code == 404


def test_map_fragment_is_compressed_svg(player: TestClient) -> None:
    game_id = create(player, CSRF[0])
    answer = player.get(f"/play/{game_id}/map")
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.startswith("<svg") and answer.headers["x-aare-hash"]


def test_aare_game_offers_national_advantages(player: TestClient) -> None:
    game_id = create(player, CSRF[0], "aare-5.0", options={"straight_bid": "false"})
    side = player.get(f"/play/{game_id}/side").text
    assert 'id="advantages"' in side and "Siberian Conscripts" in side and "Russian Winter" in side
    side = act(player, game_id, {"type": "declare_advantage", "advantage": "siberian_conscripts"})
    assert 'id="advantages"' not in side and "siberian conscripts" in side


def test_odds_page_calculates_with_charts(client: TestClient) -> None:
    page = client.get("/odds")
    assert page.status_code == 200 and 'name="att:infantry"' in page.text and 'name="def:fighter"' in page.text
    result = client.post("/odds", data={"rules": "lhtr-1.3", "battle": "land", "att:infantry": "3",
                                        "att:armour": "2", "def:infantry": "3", "retreat": "after", "retreat_n": "2",
                                        "ool_attacker": "infantry, armour"}, headers={"HX-Request": "true"})
    assert 'id="attacker-win"' in result.text and result.text.count('class="survivors"') == 2
    assert "<html" not in result.text
    empty = client.post("/odds", data={"att:infantry": "2"})
    assert "Choose units for both sides" in empty.text and "<html" in empty.text
    fleet = client.post("/odds", data={"battle": "sea", "att:destroyer": "10", "def:destroyer": "10"},
                        headers={"HX-Request": "true"})
    assert 'id="attacker-win"' in fleet.text  # exact up to 25 v 25
    armada = client.post("/odds", data={"battle": "sea", "att:destroyer": "26", "def:destroyer": "26"},
                         headers={"HX-Request": "true"})
    assert "choose Monte Carlo" in armada.text


@pytest.mark.rule("AA50-UNITS-cruiser")
def test_the_calculator_page_lists_the_anniversary_rulesets_and_their_cruisers(client: TestClient) -> None:
    page = client.get("/odds").text
    assert "<option >aa50-1941</option>" in page and "<option >aa50-1942</option>" in page
    aa50 = client.get("/odds", params={"rules": "aa50-1942"}).text
    assert 'name="att:cruiser"' in aa50 and "<option selected>aa50-1942</option>" in aa50
    assert 'name="def_tech:radar"' in aa50
    result = client.post("/odds", data={"rules": "aa50-1942", "battle": "sea", "att:cruiser": "2",
                                        "def:destroyer": "1", "def:transport": "1"}, headers={"HX-Request": "true"})
    assert 'id="attacker-win"' in result.text
    assert 'name="att:cruiser"' not in client.get("/odds", params={"rules": "nonsense"}).text


@pytest.mark.rule("LHTR-AIRMOVE-defending-carrier-lost")
def test_odds_page_fighters_that_must_land_on_their_carriers(client: TestClient) -> None:
    """With the carrier lost first, defending fighters left without it are lost: more IPC lost, same odds."""
    form = {"rules": "lhtr-1.3", "battle": "sea", "att:destroyer": "2", "att:battleship": "1", "def:carrier": "1",
            "def:fighter": "2", "ool_defender": "carrier"}
    plain = client.post("/odds", data=form, headers={"HX-Request": "true"}).text
    landed = client.post("/odds", data={**form, "land_on_carriers": "defender"}, headers={"HX-Request": "true"}).text
    assert 'name="land_on_carriers"' in client.get("/odds").text

    def lost(page: str) -> str:
        return re.findall(r"IPC lost[^0-9]*([0-9.]+)[^0-9]+([0-9.]+)", page)[0][1]

    assert float(lost(landed)) > float(lost(plain))


@pytest.mark.rule("LHTR-TRANSPORT-amphibious-assault")
def test_odds_page_calculates_an_amphibious_assault(client: TestClient) -> None:
    page = client.get("/odds")
    assert all(f'name="{name}"' in page.text for name in ("fleet", "sea_defender", "loads"))
    form = {"rules": "lhtr-1.3", "battle": "amphibious", "att:infantry": "1", "def:infantry": "1",
            "fleet": "1 transport, 1 destroyer", "sea_defender": "1 submarine", "loads": "1 infantry"}
    result = client.post("/odds", data=form, headers={"HX-Request": "true"})
    assert 'id="sea-win"' in result.text and "87.5 %" in result.text and "12.5 %" in result.text
    assert "at sea: 1 transport, 1 destroyer" in result.text
    full = client.post("/odds", data={**form, "loads": "1 armour, 1 artillery", "att:armour": "1",
                                      "att:artillery": "1"})
    assert "LHTR-TRANSPORT-capacity" in full.text and 'value="1 armour, 1 artillery"' in full.text
    big = client.post("/odds", data={**form, "fleet": "1 transport, 50 destroyers"}, headers={"HX-Request": "true"})
    assert "a smaller fleet, please" in big.text
@pytest.mark.rule("LHTR-AA-sbr-fire")
@pytest.mark.rule("LHTR-SBR-turn-cap")
@pytest.mark.rule("AARE-TECH-hb-two-dice")
def test_odds_page_raid_and_rocket_show_the_damage(client: TestClient) -> None:
    page = client.get("/odds")
    assert '<option >raid</option>' in page.text and 'name="territory_value"' in page.text
    raid = client.post("/odds", data={"rules": "lhtr-1.3", "battle": "raid", "att:bomber": "1", "territory_value": "4",
                                      "retreat": "below", "retreat_n": "50"}, headers={"HX-Request": "true"})
    # AA gun as usual (yes): 5/6 of (1, 2, 3, then 4 capped for 4-6) = 5/6 * 3 = 2.50
    assert 'id="expected-damage">2.50<' in raid.text and 'class="damage"' in raid.text
    no_aa = client.post("/odds", data={"rules": "lhtr-1.3", "battle": "raid", "att:bomber": "1", "defender_aa": "no"},
                        headers={"HX-Request": "true"})
    assert 'id="expected-damage">3.50<' in no_aa.text
    rocket = client.post("/odds", data={"rules": "aare-5.0", "battle": "rocket", "def:fighter": "1"},
                         headers={"HX-Request": "true"})
    assert "jet_fighters" in rocket.text and 'class="flash error"' in rocket.text
    bare = client.post("/odds", data={"rules": "lhtr-1.3", "battle": "rocket"}, headers={"HX-Request": "true"})
    assert 'id="expected-damage">3.50<' in bare.text and "1 rocket" in bare.text
    heavy = client.post("/odds", data={"rules": "aare-5.0", "battle": "raid", "att:bomber": "1", "defender_aa": "no",
                                       "att_tech:heavy_bombers": "on"}, headers={"HX-Request": "true"})
    assert 'id="expected-damage">7.00<' in heavy.text  # the sum of two dice


@pytest.mark.parametrize("ruleset", available_rulesets())
def test_nation_badges_are_readable(ruleset: str) -> None:
    """Each nation's text colour on its ink meets WCAG AA (4.5:1), on every board."""
    for power in load_ruleset(ruleset).board.powers:
        assert contrast(power.ink, power.text) >= MIN_CONTRAST >= 4.5, power.name
    assert contrast("#000000", "#ffffff") == pytest.approx(21) and contrast("#777777", "#777777") == 1


def test_phase_titles_come_from_the_ruleset_or_the_phase_handler() -> None:
    from aare.rules.turns import PhaseSpec
    from aare.web.templating import phase_title

    lhtr = load_ruleset("lhtr-1.3")
    assert [phase_title(p.name, lhtr) for p in lhtr.phase_table()] == [p.title for p in lhtr.phase_table()]
    assert phase_title("purchase") == "Purchase units" and phase_title("setup-bid") == "Bid placement"
    assert phase_title("straight-bid", load_ruleset("aare-5.0")) == "Bid for the Axis"  # the family's own phase
    assert phase_title("made-up-phase") == "Made up phase"
    assert PhaseSpec("purchase", "X").title == ""


def test_nation_colours_come_from_the_board(player: TestClient) -> None:
    """The game page defines every power's colours from its board; badges and panels refer to them."""
    board = load_ruleset("lhtr-1.3").board
    game_id = create(player, CSRF[0])
    page = player.get(f"/play/{game_id}").text
    for power in board.powers:
        key = slug(power.name)
        assert f"--power-{key}-fill: {power.colour};" in page and f"--power-{key}-ink: {power.ink};" in page
        assert f"--power-{key}-text: {power.text};" in page
    first = board.powers[0]
    assert f'class="badge" style="--ink: var(--power-{slug(first.name)}-ink, #555555);' in page
    lobby = player.get("/").text
    assert f'class="badge" style="--ink: {first.ink}; --fill: {first.colour}; --ink-text: {first.text}"' in lobby


def test_compose_offers_each_legal_path_and_explains_refusals() -> None:
    log = new_game("lhtr-1.3", seed=1)
    from aare.engine import Game

    game = Game(log)
    while log.state.phase != "combat-move":
        game.apply({"type": "end_phase"})
    candidates = [a.to_json() for a in game.legal_actions("Russia")]
    one = compose(log, "Russia", "West Russia", "2 armour", candidates)
    assert [a["path"] for a in one.options] == [["Russia", "West Russia"]]
    far = compose(log, "Russia", "Ukraine S.S.R.", "1 armour", candidates)
    assert far.options and all(a["path"][-1] == "Ukraine S.S.R." for a in far.options)
    nowhere = compose(log, "Russia", "Japan", "1 infantry", candidates)
    assert not nowhere.options and nowhere.reason
    assert compose(log, "Russia", "West Russia", "", candidates).reason == "choose the units to move first"


def test_research_panel_reads_the_offers() -> None:
    offers = [{"type": "research", "dice": 4, "tech": "rockets"}, {"type": "research", "dice": 6, "tech": "rockets"}]
    panel = research_panel(offers)
    assert panel is not None and panel["dice"] == 4 and panel["techs"] == ["rockets"]
    assert research_panel([]) is None


def test_templates_and_static_files_ship_with_the_package() -> None:
    web = Path(__file__).resolve().parents[2] / "src" / "aare" / "web"
    for name in ("base.html", "lobby.html", "game.html", "_side.html", "odds.html"):
        assert (web / "templates" / name).is_file()
    for name in ("table.css", "table.js", "htmx.min.js", "favicon.svg"):
        assert (web / "static" / name).is_file()
