"""Login rate limits: failed logins per username and per client address, counted in a sliding window."""

from __future__ import annotations

import contextlib
import threading
import time
import uuid
from pathlib import Path

import httpx
import pytest

from aare.server.api import create_app
from aare.server.login_limits import LoginLimits, TooManyLogins
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import PASSWORD, LiveServer, Player

WRONG = "not the password"


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_refused_after_failures_until_the_window_passes() -> None:
    clock = Clock()
    limits = LoginLimits(per_user=3, per_address=100, window=60, clock=clock)
    for _ in range(3):
        limits.attempt("alice", "1.2.3.4")
        clock.now += 10
    with pytest.raises(TooManyLogins) as refused:
        limits.attempt("alice", "1.2.3.4")
    assert refused.value.status == 429 and refused.value.retry_after == 30
    assert refused.value.headers == {"Retry-After": "30"}
    limits.attempt("bob", "1.2.3.4")  # another username is not held up
    clock.now += 30  # the first failure leaves the window: one more try
    limits.attempt("alice", "1.2.3.4")
    with pytest.raises(TooManyLogins) as again:
        limits.attempt("alice", "1.2.3.4")
    assert again.value.retry_after == 10


def test_a_success_clears_the_username_and_its_own_count() -> None:
    limits = LoginLimits(per_user=3, per_address=4, window=60, clock=Clock())
    limits.attempt("alice", "1.2.3.4")
    limits.attempt("alice", "1.2.3.4")
    limits.succeeded("alice", "1.2.3.4", limits.attempt("alice", "1.2.3.4"))
    limits.attempt("alice", "1.2.3.4")
    limits.attempt("alice", "1.2.3.4")  # 2 user failures since the success; the address has 4
    with pytest.raises(TooManyLogins, match="address"):
        limits.attempt("alice", "1.2.3.4")


def test_the_address_limit_covers_every_username() -> None:
    limits = LoginLimits(per_user=5, per_address=3, window=60, clock=Clock())
    for name in ("a", "b", "c"):
        limits.attempt(name, "1.2.3.4")
    with pytest.raises(TooManyLogins, match="address"):
        limits.attempt("d", "1.2.3.4")
    limits.attempt("d", "5.6.7.8")


def test_zero_means_no_limit_and_memory_is_bounded() -> None:
    off = LoginLimits(per_user=0, per_address=0, clock=Clock())
    for _ in range(100):
        off.attempt("alice", "1.2.3.4")
    assert len(off) == 0
    bounded = LoginLimits(per_user=5, per_address=0, size=10, clock=Clock())
    for i in range(100):
        bounded.attempt(f"user{i}", "1.2.3.4")
    assert len(bounded) == 10


def test_parallel_attempts_cannot_pass_the_limit() -> None:
    limits = LoginLimits(per_user=5, per_address=100)
    admitted: list[str] = []
    start = threading.Barrier(40)

    def attempt() -> None:
        start.wait()
        with contextlib.suppress(TooManyLogins):
            admitted.append(limits.attempt("alice", "1.2.3.4"))

    threads = [threading.Thread(target=attempt) for _ in range(40)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(admitted) == 5


def test_settings_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("AARE_LOGIN_USER_FAILURES", "3")
    monkeypatch.setenv("AARE_LOGIN_ADDRESS_FAILURES", "7")
    monkeypatch.setenv("AARE_LOGIN_WINDOW_SECONDS", "60")
    settings = Settings.from_env(tmp_path)
    assert (settings.login_user_failures, settings.login_address_failures, settings.login_window_seconds) == (
        3, 7, 60.0)
    defaults = Settings(sqlite_url(tmp_path))
    assert (defaults.login_user_failures, defaults.login_address_failures, defaults.login_window_seconds) == (
        5, 20, 900.0)


def _login(http: httpx.Client, username: str, password: str) -> httpx.Response:
    return http.post("/auth/login", json={"username": username, "password": password})


def test_json_login_is_refused_after_failures_even_with_the_right_password(database_url: str) -> None:
    settings = Settings(database_url, bot_mode="off", login_user_failures=3, login_address_failures=100)
    with LiveServer(settings) as live, httpx.Client(base_url=live.url) as http:
        alice, bob = Player.register(live.url), Player.register(live.url)
        assert [_login(http, alice.username, WRONG).status_code for _ in range(3)] == [401] * 3
        for password in (WRONG, PASSWORD):
            refused = _login(http, alice.username, password)
            assert refused.status_code == 429, refused.text
            body = refused.json()
            assert body["error"] == "too_many_logins" and "try again" in body["message"]
            assert 0 < int(refused.headers["retry-after"]) <= 900 and body["retry_after"] > 0
            assert "set-cookie" not in refused.headers
        assert _login(http, bob.username, PASSWORD).status_code == 200  # other usernames log in
        fresh = http.post("/auth/register", json={"username": f"u{uuid.uuid4().hex[:12]}", "password": PASSWORD})
        assert fresh.status_code == 201  # registrations are counted apart from logins
        alice.http.close()
        bob.http.close()


def test_json_login_success_clears_the_failures(tmp_path: Path) -> None:
    settings = Settings(sqlite_url(tmp_path), bot_mode="off", login_user_failures=3)
    with LiveServer(settings) as live, httpx.Client(base_url=live.url) as http:
        alice = Player.register(live.url)
        for _ in range(2):
            assert _login(http, alice.username, WRONG).status_code == 401
        assert _login(http, alice.username, PASSWORD).status_code == 200
        for _ in range(2):
            assert _login(http, alice.username, WRONG).status_code == 401
        assert _login(http, alice.username, PASSWORD).status_code == 200
        alice.http.close()


def test_json_login_is_limited_per_address_and_the_window_passes(tmp_path: Path) -> None:
    settings = Settings(sqlite_url(tmp_path), bot_mode="off", login_user_failures=100, login_address_failures=3,
                        login_window_seconds=6)  # room for four password hashes on a loaded machine
    with LiveServer(settings) as live, httpx.Client(base_url=live.url) as http:
        alice = Player.register(live.url)
        started = time.monotonic()
        for i in range(3):
            assert _login(http, f"nobody{i}", WRONG).status_code == 401
        refused = _login(http, alice.username, PASSWORD)
        assert refused.status_code == 429 and "address" in refused.json()["message"]
        assert 1 <= int(refused.headers["retry-after"]) <= 6
        time.sleep(max(0.0, started + 6.2 - time.monotonic()))
        assert _login(http, alice.username, PASSWORD).status_code == 200
        alice.http.close()


def test_openapi_documents_the_login_limit(tmp_path: Path) -> None:
    spec = create_app(Settings(sqlite_url(tmp_path), bot_mode="off")).openapi()
    answer = spec["paths"]["/auth/login"]["post"]["responses"]["429"]
    assert "Retry-After" in answer["headers"]
    assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
