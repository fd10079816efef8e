"""`aare db upgrade`, `aare serve` as a real process, and the OpenAPI document."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import httpx
import sqlalchemy as sa
from click.testing import CliRunner

from aare.cli.main import cli
from aare.server.api import create_app
from aare.server.migrate import head_revision
from aare.server.settings import Settings, sqlite_url

TABLES = {"users", "sessions", "api_tokens", "games", "seats", "log_entries", "dice_turns", "alembic_version"}


def aare_command() -> list[str]:
    script = Path(sys.executable).with_name("aare")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from aare.cli.main import main; main()"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def test_db_upgrade_creates_the_schema_on_sqlite_in_wal_mode(tmp_path: Path) -> None:
    result = CliRunner().invoke(cli, ["db", "upgrade", "--data-dir", str(tmp_path)])
    assert result.exit_code == 0, result.output
    assert f"at revision {head_revision()}" in result.output
    engine = sa.create_engine(f"sqlite:///{tmp_path / 'aare.db'}")
    assert set(sa.inspect(engine).get_table_names()) >= TABLES
    with engine.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA journal_mode").scalar() == "wal"
    engine.dispose()
    again = CliRunner().invoke(cli, ["db", "upgrade", "--data-dir", str(tmp_path)])
    assert again.exit_code == 0


def test_db_upgrade_on_postgresql(postgres_url: str) -> None:
    result = CliRunner().invoke(cli, ["db", "upgrade", "--database-url", postgres_url])
    assert result.exit_code == 0, result.output
    assert "aare:***@" in result.output or "***" in result.output  # the password is not printed
    from aare.server.db import make_engine

    engine = make_engine(postgres_url)
    assert set(sa.inspect(engine).get_table_names()) >= TABLES
    engine.dispose()


def test_aare_serve_starts_with_nothing_but_a_data_dir(tmp_path: Path) -> None:
    port = free_port()
    env = {k: v for k, v in os.environ.items() if not k.startswith("AARE_")}
    process = subprocess.Popen(
        [*aare_command(), "serve", "--port", str(port), "--data-dir", str(tmp_path / "data"), "--log-level", "warning"],
        env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert process.poll() is None, process.stdout.read() if process.stdout else ""
            assert time.monotonic() < deadline, "aare serve did not answer"
            time.sleep(0.1)
        register = httpx.post(f"http://127.0.0.1:{port}/auth/register",
                              json={"username": "first", "password": "a good password"})
        assert register.status_code == 201
        assert (tmp_path / "data" / "aare.db").exists()
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=15)


def test_openapi_documents_every_endpoint(tmp_path: Path) -> None:
    app = create_app(Settings(sqlite_url(tmp_path)), migrate=True)
    spec = app.openapi()
    operations = [(path, method, op) for path, item in spec["paths"].items() for method, op in item.items()]
    assert len(operations) >= 18
    for path, method, op in operations:
        assert op.get("summary"), f"{method.upper()} {path} has no summary"
    door = spec["paths"]["/games/{game_id}/actions"]["post"]
    assert {"200", "400", "403", "409", "422"} <= set(door["responses"])
    assert door["requestBody"]["content"]["application/json"]["schema"]["$ref"].endswith("/ActionRequest")
    assert "text/event-stream" in spec["paths"]["/games/{game_id}/events"]["get"]["responses"]["200"]["content"]
    assert {"GameView", "ActionOut", "EntryOut", "ErrorOut", "LoginOut"} <= set(spec["components"]["schemas"])
    assert door["responses"]["200"]["content"]["application/json"]["schema"]["$ref"].endswith("/ActionOut")


def test_collections_set_their_survivors_aside_and_a_sweep_frees_everything() -> None:
    """`aare serve`'s garbage collection: what survives any collection is frozen, so no later one scans it
    again; a sweep collects everything, unfrozen, and frees the garbage cycles frozen meanwhile."""
    import gc
    import weakref

    from aare.server.collector import Freezer

    class Cycle:
        def __init__(self) -> None:
            self.me = self

    freezer = Freezer()
    try:
        gc.unfreeze()
        gc.collect()
        cycle = Cycle()
        alive = weakref.ref(cycle)
        freezer("start", {"generation": 0})
        assert gc.get_freeze_count() == 0
        freezer("stop", {"generation": 0})
        assert gc.get_freeze_count() > 0 and gc.is_tracked(cycle)
        del cycle  # garbage now, but frozen: no collection frees it
        gc.collect()
        assert alive() is not None
        gc.callbacks.append(freezer)
        try:
            freezer.sweep()
        finally:
            gc.callbacks.remove(freezer)
        assert gc.get_freeze_count() > 0  # frozen again after the sweep
        assert alive() is None  # the sweep freed the cycle
    finally:
        gc.unfreeze()
