"""Limits at the door: request-body sizes (413), the password-hashing pool (503), registrations per address
(429), login and registration counts shared through Redis, security headers and the `{error, message}` shape of
every error answer."""

from __future__ import annotations

import socket
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import httpx
import pytest

from aare.server.hashing import HashPool, ServerBusy
from aare.server.login_limits import MemoryCounts, RegistrationLimits, TooManyRegistrations
from aare.server.settings import Settings, sqlite_url
from tests.server.conftest import PASSWORD, LiveServer, Player

WRONG = "not the password"
BODY_LIMIT = 1000


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server with small limits: 1000-byte bodies, 5000-byte imports, one hashing thread and no queue."""
    settings = Settings(sqlite_url(tmp_path_factory.mktemp("limits")), bot_mode="off", max_body_bytes=BODY_LIMIT,
                        max_import_bytes=5000, hash_threads=1, hash_queue=0, register_address_limit=0)
    with LiveServer(settings) as live:
        yield live


def _is_error(answer: httpx.Response, status: int, code: str) -> dict[str, Any]:
    assert answer.status_code == status, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    body: dict[str, Any] = answer.json()
    assert body["error"] == code and isinstance(body["message"], str) and body["message"], body
    assert "detail" not in body
    return body


# ---- request bodies --------------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/auth/register", "/games/x/actions"])  # the action door has its own reading
def test_a_body_over_the_limit_with_content_length_is_413(small: LiveServer, path: str) -> None:
    with httpx.Client(base_url=small.url) as http:
        answer = http.post(path, content=b"x" * (BODY_LIMIT + 1),
                           headers={"content-type": "application/json"})
        body = _is_error(answer, 413, "body_too_large")
        assert body["limit"] == BODY_LIMIT
        assert http.get("/healthz").status_code == 200  # the connection is still good


@pytest.mark.parametrize("path", ["/auth/register", "/games/x/actions"])
def test_a_chunked_body_over_the_limit_is_413(small: LiveServer, path: str) -> None:
    def chunks() -> Iterator[bytes]:
        for _ in range(50):
            yield b"x" * 100

    with httpx.Client(base_url=small.url) as http:
        answer = http.post(path, content=chunks(), headers={"content-type": "application/json"})
        assert "content-length" not in answer.request.headers
        _is_error(answer, 413, "body_too_large")
        assert http.get("/healthz").status_code == 200


def test_a_body_within_the_limit_passes_and_imports_have_their_own(small: LiveServer) -> None:
    with httpx.Client(base_url=small.url) as http:
        name = f"u{uuid.uuid4().hex[:10]}"
        assert http.post("/auth/register", json={"username": name, "password": PASSWORD}).status_code == 201
        chunked = http.post("/auth/login", content=iter([b'{"username": "', name.encode(), b'", "password": "',
                                                           PASSWORD.encode(), b'"}']),
                            headers={"content-type": "application/json"})
        assert chunked.status_code == 200, chunked.text
        csrf = {"X-CSRF-Token": chunked.json()["csrf_token"]}
        padded = {"game": {"pad": "x" * 2000}}  # over the general limit, within the import limit: parsed
        assert http.post("/games/import", json=padded, headers=csrf).status_code == 400
        _is_error(http.post("/games/import", json={"game": {"pad": "x" * 6000}}, headers=csrf), 413,
                  "body_too_large")


def test_the_413_is_sent_before_the_body_is_read(small: LiveServer) -> None:
    """A client announcing a huge body gets its 413 without sending it; one that sends it all gets the 413 too
    (the rest is read and dropped, not reset)."""
    host, port = urlsplit(small.url).hostname, urlsplit(small.url).port
    assert host is not None and port is not None
    size = 200_000_000
    head = (f"POST /auth/register HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {size}\r\n\r\n").encode()
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(head)
        assert sock.recv(65536).startswith(b"HTTP/1.1 413 ")
    sent = 5_000_000
    with socket.create_connection((host, port), timeout=10) as sock:
        sock.sendall(head.replace(str(size).encode(), str(sent).encode()) + b"x" * sent)
        assert sock.recv(65536).startswith(b"HTTP/1.1 413 ")


def test_openapi_stays_public(small: LiveServer) -> None:
    with httpx.Client(base_url=small.url) as http:
        answer = http.get("/openapi.json")
    assert answer.status_code == 200 and "/auth/register" in answer.json()["paths"]


# ---- the hashing pool ------------------------------------------------------------------------------------------


def test_the_pool_refuses_beyond_its_queue() -> None:
    pool = HashPool(threads=1, queue=1)
    release = threading.Event()
    results: list[str] = []

    def held() -> str:
        release.wait(10)
        return "done"

    workers = [threading.Thread(target=lambda: results.append(pool.call(held))) for _ in range(2)]
    for w in workers:
        w.start()
    deadline = time.monotonic() + 5
    while pool.inside < 2 and time.monotonic() < deadline:
        time.sleep(0.01)
    with pytest.raises(ServerBusy) as busy:
        pool.call(lambda: "never")
    assert busy.value.status == 503 and busy.value.headers == {"Retry-After": "1"}
    release.set()
    for w in workers:
        w.join()
    assert results == ["done", "done"] and pool.call(lambda: "again") == "again"
    pool.close()


def _hold_the_pool(live: LiveServer) -> threading.Event:
    """Occupy every hashing thread of `live` (threads=1, queue=0) until the event is set."""
    release = threading.Event()
    pool: HashPool = live.app.state.aare.hashing
    threading.Thread(target=pool.call, args=(release.wait, 10), daemon=True).start()
    deadline = time.monotonic() + 5
    while pool.inside < 1 and time.monotonic() < deadline:
        time.sleep(0.01)
    return release


def test_register_and_login_answer_503_when_the_hashing_queue_is_full(small: LiveServer) -> None:
    alice = Player.register(small.url)
    release = _hold_the_pool(small)
    try:
        with httpx.Client(base_url=small.url) as http:
            busy = http.post("/auth/register", json={"username": f"u{uuid.uuid4().hex[:10]}", "password": PASSWORD})
            body = _is_error(busy, 503, "server_busy")
            assert busy.headers["retry-after"] == "1" and body["retry_after"] == 1
            for _ in range(6):  # more than the 5 failed logins allowed, but none counted as failed
                login = http.post("/auth/login", json={"username": alice.username, "password": PASSWORD})
                _is_error(login, 503, "server_busy")
            assert http.get("/healthz").status_code == 200
    finally:
        release.set()
    pool: HashPool = small.app.state.aare.hashing
    deadline = time.monotonic() + 10
    while pool.inside and time.monotonic() < deadline:  # the held thread leaves the pool (slow on a loaded machine)
        time.sleep(0.01)
    with httpx.Client(base_url=small.url) as http:
        assert http.post("/auth/login", json={"username": alice.username, "password": PASSWORD}).status_code == 200
    alice.http.close()


# ---- registrations per address ---------------------------------------------------------------------------------


def test_registration_limit_counts_per_address() -> None:
    limits = RegistrationLimits(per_address=2, window=60, counts=MemoryCounts())
    limits.attempt("1.2.3.4")
    limits.attempt("1.2.3.4")
    with pytest.raises(TooManyRegistrations) as refused:
        limits.attempt("1.2.3.4")
    assert refused.value.status == 429 and 0 < refused.value.retry_after <= 60
    limits.attempt("5.6.7.8")
    limits.give_back("5.6.7.8", limits.attempt("5.6.7.8"))  # e.g. the server was busy: not counted
    limits.attempt("5.6.7.8")
    off = RegistrationLimits(per_address=0)
    for _ in range(50):
        off.attempt("1.2.3.4")


def test_registrations_from_one_address_are_limited(tmp_path: Path) -> None:
    settings = Settings(sqlite_url(tmp_path), bot_mode="off", register_address_limit=2)
    with LiveServer(settings) as live, httpx.Client(base_url=live.url) as http:
        names = [f"u{uuid.uuid4().hex[:10]}" for _ in range(3)]
        answers = [http.post("/auth/register", json={"username": n, "password": PASSWORD}) for n in names]
        assert [a.status_code for a in answers[:2]] == [201, 201]
        body = _is_error(answers[2], 429, "too_many_registrations")
        assert 0 < int(answers[2].headers["retry-after"]) <= 3600 and body["retry_after"] > 0
        page = http.post("/register", data={"username": f"u{uuid.uuid4().hex[:10]}", "password": PASSWORD})
        assert page.status_code == 429 and "Too many accounts" in page.text and "retry-after" in page.headers


def test_settings_from_the_environment(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for key, value in (("AARE_REGISTER_ADDRESS_LIMIT", "3"), ("AARE_REGISTER_WINDOW_SECONDS", "60"),
                       ("AARE_MAX_BODY_BYTES", "2000"), ("AARE_MAX_IMPORT_BYTES", "9000"),
                       ("AARE_HASH_THREADS", "3"), ("AARE_HASH_QUEUE", "4")):
        monkeypatch.setenv(key, value)
    s = Settings.from_env(tmp_path)
    assert (s.register_address_limit, s.register_window_seconds, s.max_body_bytes, s.max_import_bytes,
            s.hash_threads, s.hash_queue) == (3, 60.0, 2000, 9000, 3, 4)
    d = Settings(sqlite_url(tmp_path))
    assert (d.register_address_limit, d.register_window_seconds, d.max_body_bytes, d.max_import_bytes,
            d.hash_threads, d.hash_queue) == (10, 3600.0, 1_000_000, 32_000_000, 0, 16)
    with pytest.raises(ValueError):
        Settings(sqlite_url(tmp_path), max_body_bytes=0)


# ---- counts shared through Redis -------------------------------------------------------------------------------


def test_redis_counts_are_shared_by_two_servers(database_url: str, redis_url: str) -> None:
    settings = Settings(database_url, redis_url=redis_url, bot_mode="off", login_user_failures=3,
                        login_address_failures=1000, register_address_limit=0)
    with LiveServer(settings) as one, LiveServer(settings) as two, httpx.Client(base_url=one.url) as a, \
            httpx.Client(base_url=two.url) as b:
        alice = Player.register(one.url)
        for http in (a, b, a):
            answer = http.post("/auth/login", json={"username": alice.username, "password": WRONG})
            assert answer.status_code == 401
        for http in (a, b):
            refused = http.post("/auth/login", json={"username": alice.username, "password": PASSWORD})
            _is_error(refused, 429, "too_many_logins")
        alice.http.close()


def test_redis_counts_share_registrations_and_successes(database_url: str, redis_url: str) -> None:
    settings = Settings(database_url, redis_url=redis_url, bot_mode="off", login_user_failures=2,
                        login_address_failures=1000, register_address_limit=0)
    with LiveServer(settings) as one, LiveServer(settings) as two, httpx.Client(base_url=one.url) as a, \
            httpx.Client(base_url=two.url) as b:
        bob = Player.register(two.url)
        assert a.post("/auth/login", json={"username": bob.username, "password": WRONG}).status_code == 401
        assert b.post("/auth/login", json={"username": bob.username, "password": PASSWORD}).status_code == 200
        # the success on the second server cleared the failure counted on the first
        assert a.post("/auth/login", json={"username": bob.username, "password": WRONG}).status_code == 401
        assert a.post("/auth/login", json={"username": bob.username, "password": PASSWORD}).status_code == 200
        bob.http.close()
    limited = Settings(database_url, redis_url=redis_url, bot_mode="off", register_address_limit=2,
                       register_window_seconds=5)
    ctx_names = [f"u{uuid.uuid4().hex[:10]}" for _ in range(3)]
    with LiveServer(limited) as one, LiveServer(limited) as two:
        one.app.state.aare.registrations.counts.forget("register:address:127.0.0.1")
        with httpx.Client(base_url=one.url) as a, httpx.Client(base_url=two.url) as b:
            assert a.post("/auth/register", json={"username": ctx_names[0], "password": PASSWORD}).status_code == 201
            assert b.post("/auth/register", json={"username": ctx_names[1], "password": PASSWORD}).status_code == 201
            third = a.post("/auth/register", json={"username": ctx_names[2], "password": PASSWORD})
            _is_error(third, 429, "too_many_registrations")
        one.app.state.aare.registrations.counts.forget("register:address:127.0.0.1")


# ---- headers and error shapes ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", ["/healthz", "/nowhere", "/openapi.json"])
def test_content_security_policy_on_every_answer(small: LiveServer, path: str) -> None:
    with httpx.Client(base_url=small.url) as http:
        policy = http.get(path).headers["content-security-policy"]
    assert "script-src 'self';" in policy and "unsafe-eval" not in policy
    assert "default-src 'self'" in policy and "object-src 'none'" in policy


@pytest.mark.parametrize("path", ["/healthz", "/nowhere", "/docs"])
def test_frame_ancestors_none(small: LiveServer, path: str) -> None:
    with httpx.Client(base_url=small.url) as http:
        answer = http.get(path)
    assert "frame-ancestors 'none'" in answer.headers["content-security-policy"]
    assert answer.headers["x-frame-options"] == "DENY"


def test_nosniff(small: LiveServer) -> None:
    with httpx.Client(base_url=small.url) as http:
        assert http.get("/healthz").headers["x-content-type-options"] == "nosniff"
        assert http.post("/auth/register", content=b"x" * 5000).headers["x-content-type-options"] == "nosniff"


def test_referrer_policy(small: LiveServer) -> None:
    with httpx.Client(base_url=small.url) as http:
        assert http.get("/healthz").headers["referrer-policy"] == "same-origin"


def test_unknown_route_is_404_in_our_shape(small: LiveServer) -> None:
    with httpx.Client(base_url=small.url) as http:
        body = _is_error(http.get("/no/such/thing"), 404, "not_found")
    assert "/no/such/thing" in str(body["message"])


def test_wrong_method_is_405_in_our_shape(small: LiveServer) -> None:
    with httpx.Client(base_url=small.url) as http:
        answer = http.delete("/healthz")
    _is_error(answer, 405, "method_not_allowed")
    assert "allow" in answer.headers


def test_deeply_nested_json_is_400_in_our_shape(server: LiveServer) -> None:
    with httpx.Client(base_url=server.url) as http:
        too_deep = b"[" * 100_000 + b"]" * 100_000  # within the byte limit, past the parser's depth
        deep = http.post("/auth/register", content=too_deep, headers={"content-type": "application/json"})
        assert "nested too deeply" in str(_is_error(deep, 400, "malformed_json")["message"])
        action = b'{"version": 0, "action": ' + b"[" * 100_000 + b"]" * 100_000 + b"}"
        _is_error(http.post("/games/x/actions", content=action, headers={"content-type": "application/json"}), 400,
                  "malformed_json")
        nested = b'{"username": ' + b"[" * 495 + b"]" * 495 + b', "password": "x"}'
        deeper = http.post("/auth/login", content=nested, headers={"content-type": "application/json"})
        _is_error(deeper, 400, "malformed_request")
        broken = http.post("/auth/login", content=b'{"username": ', headers={"content-type": "application/json"})
        _is_error(broken, 400, "malformed_json")


def test_login_limit_429_is_in_our_shape(tmp_path: Path) -> None:
    settings = Settings(sqlite_url(tmp_path), bot_mode="off", login_user_failures=1)
    with LiveServer(settings) as live, httpx.Client(base_url=live.url) as http:
        http.post("/auth/login", json={"username": "someone", "password": WRONG})
        refused = http.post("/auth/login", json={"username": "someone", "password": WRONG})
        _is_error(refused, 429, "too_many_logins")


def test_an_unexpected_failure_is_500_in_our_shape(tmp_path: Path) -> None:
    from fastapi.testclient import TestClient

    from aare.server.api import create_app

    app = create_app(Settings(sqlite_url(tmp_path), bot_mode="off"), migrate=True)

    @app.get("/boom")
    def boom() -> None:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        answer = client.get("/boom")
    assert answer.status_code == 500
    assert answer.json()["error"] == "internal_error" and "a bug" not in answer.text


def test_an_unexpected_failure_at_the_action_door_is_500_in_our_shape(tmp_path: Path) -> None:
    """A well-formed submission is served by `ActionDoor`, in front of the framework: an unexpected error there
    is still answered by the application's handler, as the server-error middleware answers it elsewhere."""
    from fastapi.testclient import TestClient

    from aare.server.api import create_app
    from aare.server.api.action_door import ActionDoor

    app = create_app(Settings(sqlite_url(tmp_path), bot_mode="off"), migrate=True)

    async def broken(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError("a bug")

    with TestClient(app, raise_server_exceptions=False) as client:
        app.state.aare.service.submit_async = broken
        answer = client.post("/games/x/actions", json={"action": {"type": "end_phase"}, "version": 0})
        assert isinstance(app._front, ActionDoor)  # type: ignore[attr-defined]
    assert answer.status_code == 500
    assert answer.json()["error"] == "internal_error" and "a bug" not in answer.text


def test_with_telemetry_on_actions_go_through_the_framework(tmp_path: Path) -> None:
    """While OpenTelemetry is configured, the door in front is not used: every request goes through FastAPI (and
    its native telemetry), the action door's answers included."""
    from fastapi.testclient import TestClient

    from aare.server.api import create_app

    app = create_app(Settings(sqlite_url(tmp_path), bot_mode="off"), migrate=True)
    app._native_telemetry.enabled = lambda: True  # type: ignore[attr-defined]
    with TestClient(app) as client:
        answer = client.post("/games/x/actions", json={"action": {"type": "end_phase"}, "version": 0})
    assert answer.status_code == 401 and answer.json()["error"] == "unauthorized"
    assert app._front is None  # type: ignore[attr-defined]
