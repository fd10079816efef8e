"""Accounts: register, log in and out, wrong passwords, cookie flags, CSRF on cookie posts, API tokens."""

from __future__ import annotations

import time
import uuid
from pathlib import Path

import httpx
from sqlalchemy import Engine, func, select, update

from aare.server import db
from aare.server.accounts import digest
from aare.server.schema import sessions
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import PASSWORD, LiveServer, Player, bearer


def test_register_login_logout(server: LiveServer) -> None:
    alice = Player.register(server.url)
    assert alice.http.get("/auth/me").json()["user"]["username"] == alice.username
    answer = alice.post("/auth/logout")
    assert answer.status_code == 204
    assert alice.http.get("/auth/me").status_code == 401
    with httpx.Client(base_url=server.url) as http:
        login = http.post("/auth/login", json={"username": alice.username, "password": PASSWORD})
        assert login.status_code == 200
        assert login.json()["user"]["username"] == alice.username
        assert http.get("/auth/me").json()["csrf_token"] == login.json()["csrf_token"]


def test_session_cookie_flags(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as http:
        answer = http.post("/auth/register", json={"username": f"flags-{uuid.uuid4().hex[:8]}", "password": PASSWORD})
        cookie = answer.headers["set-cookie"].lower()
    assert "httponly" in cookie
    assert "samesite=lax" in cookie
    assert "secure" not in cookie  # plain http: Secure only behind https (cookie_secure=auto)


def test_wrong_password_and_unknown_user(server: LiveServer, player: Player) -> None:
    with httpx.Client(base_url=server.url) as http:
        wrong = http.post("/auth/login", json={"username": player.username, "password": "not the password"})
        nobody = http.post("/auth/login", json={"username": "nobody-at-all", "password": PASSWORD})
        assert wrong.status_code == nobody.status_code == 401
        assert "set-cookie" not in wrong.headers
        assert http.get("/auth/me").status_code == 401


def test_duplicate_username_and_weak_password(server: LiveServer, player: Player) -> None:
    with httpx.Client(base_url=server.url) as http:
        assert http.post("/auth/register", json={"username": player.username, "password": PASSWORD}).status_code == 409
        assert http.post("/auth/register", json={"username": "shortpw", "password": "short"}).status_code == 400
        assert http.post("/auth/register", json={"username": "bad name!", "password": PASSWORD}).status_code == 400


def test_cookie_posts_need_the_csrf_token(player: Player) -> None:
    no_token = player.http.post("/games", json={})
    wrong_token = player.http.post("/games", json={}, headers={"X-CSRF-Token": "forged"})
    assert no_token.status_code == wrong_token.status_code == 403
    assert no_token.json()["error"] == "csrf_failed"
    assert player.post("/games", {}).status_code == 201


def test_form_post_with_csrf_field(player: Player) -> None:
    forged = player.http.post("/auth/logout", data={"csrf_token": "forged"})
    assert forged.status_code == 403
    assert player.http.get("/auth/me").status_code == 200
    done = player.http.post("/auth/logout", data={"csrf_token": player.csrf})
    assert done.status_code == 204
    assert player.http.get("/auth/me").status_code == 401


def test_api_tokens_need_no_csrf_and_can_be_revoked(server: LiveServer, player: Player) -> None:
    token = player.token("my bot")
    with bearer(server.url, token) as bot:
        assert bot.get("/auth/me").json()["user"]["username"] == player.username
        assert bot.post("/games", json={}).status_code == 201  # no CSRF token needed
        listed = player.http.get("/auth/tokens").json()
        assert [t["name"] for t in listed] == ["my bot"]
        assert "token" not in listed[0]
        revoke = player.http.delete(f"/auth/tokens/{listed[0]['id']}", headers={"X-CSRF-Token": player.csrf})
        assert revoke.status_code == 204
        assert bot.get("/auth/me").status_code == 401
    with bearer(server.url, "aare_not-a-token") as forged:
        assert forged.get("/auth/me").status_code == 401


def test_cookie_is_secure_behind_an_https_proxy(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as http:
        answer = http.post("/auth/register", headers={"X-Forwarded-Proto": "https"},
                           json={"username": f"tls-{uuid.uuid4().hex[:8]}", "password": PASSWORD})
    assert answer.status_code == 201
    assert "secure" in answer.headers["set-cookie"].lower()


def test_cookie_secure_always(tmp_path: Path) -> None:
    with LiveServer(Settings(sqlite_url(tmp_path), cookie_secure="always", bot_mode="off")) as live, \
            httpx.Client(base_url=live.url) as http:
        answer = http.post("/auth/register", json={"username": "always-secure", "password": PASSWORD})
    assert "secure" in answer.headers["set-cookie"].lower()


def _expire_session(engine: Engine, token: str) -> None:
    with db.write(engine) as conn:
        conn.execute(update(sessions).where(sessions.c.token_hash == digest(token)).values(
            expires_at=time.time() - 60))


def _session_rows(engine: Engine, token: str) -> int:
    with db.read(engine) as conn:
        return int(conn.execute(select(func.count()).select_from(sessions).where(
            sessions.c.token_hash == digest(token))).scalar_one())


def test_expired_sessions_are_deleted_at_the_next_login(server: LiveServer) -> None:
    ctx = server.app.state.aare
    alice = Player.register(server.url)
    old = alice.http.cookies["aare_session"]
    _expire_session(ctx.engine, old)
    ctx.logins.clear()
    assert alice.http.get("/auth/me").status_code == 401
    assert _session_rows(ctx.engine, old) == 1
    with httpx.Client(base_url=server.url) as http:
        assert http.post("/auth/login", json={"username": alice.username, "password": PASSWORD}).status_code == 200
        assert _session_rows(ctx.engine, http.cookies["aare_session"]) == 1
    assert _session_rows(ctx.engine, old) == 0
    assert alice.http.get("/auth/me").status_code == 401
    alice.http.close()


def test_expired_sessions_are_deleted_when_the_server_starts(database_url: str) -> None:
    settings = Settings(database_url, bot_mode="off")
    with LiveServer(settings) as first:
        alice, bob = Player.register(first.url), Player.register(first.url)
        expired, live = alice.http.cookies["aare_session"], bob.http.cookies["aare_session"]
        _expire_session(first.app.state.aare.engine, expired)
        assert _session_rows(first.app.state.aare.engine, expired) == 1
        alice.http.close()
        bob.http.close()
    with LiveServer(settings) as second:
        assert _session_rows(second.app.state.aare.engine, expired) == 0
        assert _session_rows(second.app.state.aare.engine, live) == 1
