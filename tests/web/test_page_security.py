"""The pages' security: headers on every page, no inline script anywhere (the Content-Security-Policy allows
only the site's own script files), and a CSRF failure on a form answered with a page saying what to do."""

from __future__ import annotations

import re
import uuid
from collections.abc import Iterator

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")
pytest.importorskip("jinja2", reason="the server extra is not installed")

from fastapi.testclient import TestClient

from aare.server.api import create_app
from aare.server.settings import Settings, sqlite_url
from aare.web.templating import STATIC, TEMPLATES

PASSWORD = "correct horse battery"
INLINE_HANDLER = re.compile(r"\son[a-z]+\s*=", re.IGNORECASE)
SCRIPT_TAG = re.compile(r"<script\b([^>]*)>", re.IGNORECASE)


@pytest.fixture(scope="module")
def client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    app = create_app(Settings(sqlite_url(tmp_path_factory.mktemp("security")), bot_mode="inline",
                              register_address_limit=0), migrate=True)
    with TestClient(app) as c:
        yield c


@pytest.fixture(scope="module")
def pages(client: TestClient) -> dict[str, str]:
    """A page of each kind, as a logged-in user sees it (the lobby, a game, the calculator, a missing game)."""
    answer = client.post("/register", data={"username": f"u{uuid.uuid4().hex[:10]}", "password": PASSWORD},
                         follow_redirects=False)
    assert answer.status_code == 303
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', client.get("/").text)
    assert csrf
    made = client.post("/new", data={"csrf_token": csrf.group(1)}, follow_redirects=False)
    assert made.status_code == 303, made.text
    return {"lobby": "/", "game": made.headers["location"], "odds": "/odds", "missing": "/play/nothing-here",
            "static": "/static/table.js"}


KINDS = ["lobby", "game", "odds", "missing", "static"]


@pytest.mark.parametrize("kind", KINDS)
def test_content_security_policy_allows_no_inline_script(client: TestClient, pages: dict[str, str],
                                                         kind: str) -> None:
    policy = client.get(pages[kind]).headers["content-security-policy"]
    directives = dict(d.strip().split(" ", 1) for d in policy.split(";"))
    assert directives["script-src"] == "'self'"
    assert directives["default-src"] == "'self'" and directives["object-src"] == "'none'"
    assert directives["style-src"] == "'self' 'unsafe-inline'"


@pytest.mark.parametrize("kind", KINDS)
def test_frame_ancestors_none(client: TestClient, pages: dict[str, str], kind: str) -> None:
    answer = client.get(pages[kind])
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"


@pytest.mark.parametrize("kind", KINDS)
def test_nosniff(client: TestClient, pages: dict[str, str], kind: str) -> None:
    assert client.get(pages[kind]).headers["x-content-type-options"] == "nosniff"


@pytest.mark.parametrize("kind", KINDS)
def test_referrer_policy(client: TestClient, pages: dict[str, str], kind: str) -> None:
    assert client.get(pages[kind]).headers["referrer-policy"] == "same-origin"


def test_no_inline_script_in_templates_or_pages(client: TestClient, pages: dict[str, str]) -> None:
    sources = {path.name: path.read_text() for path in TEMPLATES.glob("*.html")}
    sources.update({kind: client.get(pages[kind]).text for kind in ("lobby", "game", "odds", "missing")})
    for name, text in sources.items():
        for attrs in SCRIPT_TAG.findall(text):
            assert "src=" in attrs, f"{name}: an inline <script>"
        assert not INLINE_HANDLER.search(text), f"{name}: an inline event handler"
        assert "javascript:" not in text.lower(), f"{name}: a javascript: URL"
        assert "hx-on" not in text and "js:" not in text, f"{name}: htmx would evaluate script"
    script = (STATIC / "table.js").read_text()
    assert "eval(" not in script and "new Function" not in script


def test_a_csrf_failure_on_a_form_answers_a_page(client: TestClient, pages: dict[str, str]) -> None:
    game = pages["game"]
    answer = client.post("/new", data={"csrf_token": "wrong"}, headers={"referer": f"http://testserver{game}"})
    assert answer.status_code == 403
    assert answer.headers["content-type"].startswith("text/html")
    assert "Reload the page and try again" in answer.text
    assert f'href="{game}"' in answer.text
    missing = client.post(f"{game}/undo", data={"version": "0"})
    assert missing.status_code == 403 and "Reload the page" in missing.text
    foreign = client.post("/logout", data={"csrf_token": "stale"}, headers={"referer": "https://elsewhere.example/x"})
    assert foreign.status_code == 403 and 'href="/"' in foreign.text


def test_a_csrf_failure_of_an_htmx_post_answers_a_card(client: TestClient, pages: dict[str, str]) -> None:
    game = pages["game"]
    answer = client.post(f"{game}/undo", data={"version": "0"},
                         headers={"HX-Request": "true", "X-CSRF-Token": "stale", "referer": f"http://testserver{game}"})
    assert answer.status_code == 403 and answer.headers["x-aare-refused"] == "csrf"
    assert answer.text.lstrip().startswith('<section class="card" id="csrf-failed">')
    assert "Reload the page and try again" in answer.text and f'href="{game}"' in answer.text
    assert "X-Aare-Refused" in (STATIC / "table.js").read_text()  # which swaps it in despite the 403


def test_a_csrf_failure_on_the_api_stays_json(client: TestClient, pages: dict[str, str]) -> None:
    answer = client.post("/games", json={"seats": {}}, headers={"X-CSRF-Token": "wrong"})
    assert answer.status_code == 403
    body = answer.json()
    assert body["error"] == "csrf_failed" and "CSRF" in body["message"]
