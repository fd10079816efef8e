"""A short run of bench/crash_test.py: SIGKILL `aare serve` mid-play, restart, lose no acknowledged action."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.bench import bench_module


@pytest.mark.slow
@pytest.mark.parametrize("backend", ["sqlite", "postgres"])
def test_no_acknowledged_action_is_lost_when_the_server_is_killed(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    url = request.getfixturevalue("postgres_url") if backend == "postgres" else None
    report = bench_module("crash_test").run(kills=4, seed=7, min_life=0.3, max_life=1.0, data_dir=tmp_path,
                                     database_url=url, games=3)  # three at once: their actions share commits
    assert report["ok"], report["problems"]
    assert report["kills"] == 4
    assert report["acknowledged"] > 0
    assert report["lost_or_changed"] == 0
    assert report["checked_after_restart"] >= report["acknowledged"]


SLOW_SERVER = """
import sys, time
from http.server import BaseHTTPRequestHandler, HTTPServer
time.sleep(float(sys.argv[2]))  # a slow start: nothing listens yet
class Ready(BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200 if self.path == "/healthz" else 404)
        self.end_headers()
    def log_message(self, *args):
        pass
HTTPServer(("127.0.0.1", int(sys.argv[1])), Ready).serve_forever()
"""


def test_the_crash_test_waits_for_the_server_to_answer(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server is ready when `/healthz` answers, however long it takes to start (within a generous deadline);
    a server that never answers is an error once the deadline has passed."""
    module = bench_module("crash_test")
    assert module.START_DEADLINE >= 120
    script = tmp_path / "slow.py"
    script.write_text(SLOW_SERVER, encoding="utf-8")
    server = module.ServerProcess(tmp_path, None)
    delay = "1.5"
    monkeypatch.setattr(module, "aare_command", lambda: [sys.executable, str(script), str(server.port), delay,
                                                         "--"])
    try:
        server.start()  # waits through the slow start
        assert server.process.poll() is None
        server.kill()
        delay = "60"
        with pytest.raises(RuntimeError, match="did not answer /healthz within 1 s"):
            server.start(deadline=1.0)
    finally:
        server.stop()
