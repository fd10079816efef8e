"""Server test fixtures: database backends, a real uvicorn server on 127.0.0.1, and HTTP players.

SQLite always runs. PostgreSQL and Redis run when `AARE_TEST_POSTGRES_URL` / `AARE_TEST_REDIS_URL` are set;
when they are not, those tests skip locally and fail under CI (so CI cannot skip them silently).
"""

from __future__ import annotations

import os
import secrets
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

import httpx
import uvicorn
from sqlalchemy import create_engine, text

from aare.server.api import create_app
from aare.server.api.http_protocol import HTTP_PROTOCOL
from aare.server.db import normalise_url
from aare.server.settings import Settings, sqlite_url

NATIONS = ("Russia", "Germany", "United Kingdom", "Japan", "United States")
PASSWORD = "correct horse battery"


def required_env(name: str) -> str:
    """An environment variable a test needs: skip without it, but fail under CI."""
    value = os.environ.get(name)
    if value:
        return value
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {name} is not: CI must run these tests (see .ci/run)")
    pytest.skip(f"{name} is not set")


@pytest.fixture(scope="session")
def postgres_url() -> Iterator[str]:
    """A fresh schema in the test PostgreSQL database, dropped at the end of the session."""
    base = normalise_url(required_env("AARE_TEST_POSTGRES_URL"))
    schema = f"aare_test_{secrets.token_hex(4)}"
    admin = create_engine(base)
    with admin.begin() as conn:
        conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    separator = "&" if "?" in base else "?"
    yield f"{base}{separator}options={quote(f'-csearch_path={schema}')}"
    with admin.begin() as conn:
        conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
    admin.dispose()


@pytest.fixture(scope="session")
def redis_url() -> str:
    return required_env("AARE_TEST_REDIS_URL")


@pytest.fixture(scope="session", params=["sqlite", "postgres"])
def database_url(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> str:
    """Each backend in turn: SQLite in a temporary folder, then PostgreSQL."""
    if request.param == "sqlite":
        return sqlite_url(tmp_path_factory.mktemp("sqlite"))
    url: str = request.getfixturevalue("postgres_url")
    return url


class LiveServer:
    """The app served by uvicorn in a thread, on a free port of 127.0.0.1."""

    def __init__(self, settings: Settings) -> None:
        self.app = create_app(settings, migrate=True)
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(self.app, log_level="warning", timeout_graceful_shutdown=1, lifespan="on",
                                http=HTTP_PROTOCOL)  # as `aare serve` runs it
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    @property
    def service(self) -> Any:
        return self.app.state.aare.service

    @property
    def bots(self) -> Any:
        return self.app.state.aare.bots

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=15)
        self.sock.close()


@pytest.fixture(scope="session")
def server(database_url: str) -> Iterator[LiveServer]:
    """One server per backend, with bots acting inline (deterministic); registrations are not limited (the
    tests register many users from 127.0.0.1)."""
    with LiveServer(Settings(database_url, bot_mode="inline", register_address_limit=0)) as live:
        yield live


@dataclass
class Player:
    """An HTTP client logged in as a fresh user (session cookie + CSRF token)."""

    http: httpx.Client
    username: str
    csrf: str

    @classmethod
    def register(cls, base_url: str, name: str | None = None) -> Player:
        username = name or f"u{uuid.uuid4().hex[:12]}"
        http = httpx.Client(base_url=base_url, timeout=60)
        answer = http.post("/auth/register", json={"username": username, "password": PASSWORD})
        assert answer.status_code == 201, answer.text
        return cls(http, username, answer.json()["csrf_token"])

    def post(self, path: str, body: Any = None, **kwargs: Any) -> httpx.Response:
        headers = {"X-CSRF-Token": self.csrf, **kwargs.pop("headers", {})}
        return self.http.post(path, json=body, headers=headers, **kwargs)

    def new_game(self, seats: dict[str, str] | None = None, seating: str = "nations") -> dict[str, Any]:
        spec = seats if seats is not None else dict.fromkeys(NATIONS, "me")
        answer = self.post("/games", {"seats": spec, "seating": seating})
        assert answer.status_code == 201, answer.text
        game: dict[str, Any] = answer.json()
        return game

    def view(self, game_id: str) -> dict[str, Any]:
        answer = self.http.get(f"/games/{game_id}")
        assert answer.status_code == 200, answer.text
        view: dict[str, Any] = answer.json()
        return view

    def act(self, game_id: str, action: dict[str, Any], version: int | None = None) -> httpx.Response:
        if version is None:
            version = self.view(game_id)["version"]
        return self.post(f"/games/{game_id}/actions", {"action": action, "version": version})

    def token(self, name: str = "bot") -> str:
        answer = self.post("/auth/tokens", {"name": name})
        assert answer.status_code == 201, answer.text
        token: str = answer.json()["token"]
        return token


@pytest.fixture
def player(server: LiveServer) -> Iterator[Player]:
    p = Player.register(server.url)
    yield p
    p.http.close()


@pytest.fixture
def other_player(server: LiveServer) -> Iterator[Player]:
    p = Player.register(server.url)
    yield p
    p.http.close()


def bearer(base_url: str, token: str) -> httpx.Client:
    return httpx.Client(base_url=base_url, headers={"Authorization": f"Bearer {token}"}, timeout=60)


REPO = Path(__file__).resolve().parents[2]
