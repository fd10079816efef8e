"""Crash test of the online table: run `aare serve` as a process, play a game against it with a random bot,
SIGKILL the server at random moments, restart it, and check that every acknowledged action is in the log at
the place it was acknowledged, with the state hash it was acknowledged with, and that the log replays.

    .venv/bin/python bench/crash_test.py --kills 20
    .venv/bin/python bench/crash_test.py --kills 20 --games 8     # 8 games at once: their actions share commits
    .venv/bin/python bench/crash_test.py --kills 5 --database-url postgresql://user:pw@127.0.0.1/db

Prints a JSON report; exits 1 if any acknowledged action was lost or changed.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from dataclasses import replace
from pathlib import Path
from typing import Any

import httpx

from aare.ai import NoLegalAction, make_bot
from aare.engine import Game
from aare.events import apply_events, event_from_json
from aare.game_log import GameLog
from aare.server.verify import verify_export

NATIONS = ("Russia", "Germany", "United Kingdom", "Japan", "United States")


def aare_command() -> list[str]:
    script = Path(sys.executable).with_name("aare")
    return [str(script)] if script.exists() else [sys.executable, "-c", "from aare.cli.main import main; main()"]


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


START_DEADLINE = 300.0
"""Seconds a (re)started server may take to answer `/healthz`: generous, as a loaded machine starts it slowly."""

PLACE_SETTINGS = ("AARE_DATABASE_URL", "AARE_DATA_DIR", "AARE_REDIS_URL", "AARE_BOT_MODE")


class ServerProcess:
    """`aare serve` on 127.0.0.1 (with `workers` worker processes), started and killed at will."""

    def __init__(self, data_dir: Path, database_url: str | None, workers: int = 1) -> None:
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.data_dir = data_dir
        self.env = {k: v for k, v in os.environ.items() if k not in PLACE_SETTINGS}  # tuning settings pass
        if database_url:
            self.env["AARE_DATABASE_URL"] = database_url
        self.process: subprocess.Popen[bytes] | None = None
        self.log = open(data_dir / "server.log", "ab")  # noqa: SIM115 (kept open across restarts)

    def start(self, deadline: float = START_DEADLINE) -> None:
        """Start `aare serve` and wait until it is ready: `/healthz` is polled until it answers (a slow start on a
        busy machine is waited for, up to `deadline` seconds); an exit or the deadline is an error."""
        command = [*aare_command(), "serve", "--port", str(self.port), "--data-dir", str(self.data_dir),
                   "--bots", "off", "--log-level", "warning", "--workers", str(self.workers)]
        started = time.monotonic()
        self.process = subprocess.Popen(command, env=self.env, stdout=self.log, stderr=self.log)
        pause = 0.02
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"aare serve exited with {self.process.returncode}; see {self.log.name}")
            try:
                if httpx.get(f"{self.url}/healthz", timeout=5).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            if time.monotonic() - started > deadline:
                self.kill()
                raise RuntimeError(f"aare serve did not answer /healthz within {deadline:.0f} s; see {self.log.name}")
            time.sleep(pause)
            pause = min(pause * 1.5, 0.5)

    def kill(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            self.process.wait(timeout=15)
        self.log.close()


def hashes_after_each_entry(log: GameLog) -> list[str]:
    state, out = log.initial, []
    for entry in log.entries:
        state = replace(apply_events(state, entry.events), version=state.version + 1)
        out.append(state.hash())
    return out


def run(kills: int = 20, seed: int = 0, min_life: float = 0.2, max_life: float = 1.5,
        data_dir: Path | None = None, database_url: str | None = None, games: int = 1) -> dict[str, Any]:
    """Play `games` games at once (one thread each, so their actions share group commits), kill, restart,
    `kills` times; return the counts."""
    rng = random.Random(seed)
    folder = Path(data_dir or tempfile.mkdtemp(prefix="aare-crash-"))
    folder.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(folder, database_url)
    acked: list[dict[int, tuple[Any, str]]] = [{} for _ in range(games)]
    counts = {"kills": 0, "games": games, "submitted": 0, "acknowledged": 0, "undos_acknowledged": 0,
              "in_flight_at_kill": 0, "in_flight_committed": 0, "checked_after_restart": 0, "lost_or_changed": 0}
    problems: list[str] = []
    server.start()
    clients: list[httpx.Client] = []
    try:
        http = httpx.Client(base_url=server.url, timeout=10)
        name = f"crash-{uuid.uuid4().hex[:8]}"
        csrf = http.post("/auth/register", json={"username": name, "password": "crash test password"}).json()
        token = http.post("/auth/tokens", json={"name": "crash"}, headers={"X-CSRF-Token": csrf["csrf_token"]}).json()
        http.close()
        auth = {"Authorization": f"Bearer {token['token']}"}
        clients = [httpx.Client(base_url=server.url, timeout=10, headers=auth) for _ in range(games)]
        game_ids = [c.post("/games", json={"seats": dict.fromkeys(NATIONS, "me")}).json()["id"] for c in clients]
        bots = [make_bot("random", seed + g) for g in range(games)]
        in_flight: list[tuple[int, Any] | None] = [None] * games
        lock = threading.Lock()
        for life in range(kills + 1):
            logs = []
            for g, (http, game_id) in enumerate(zip(clients, game_ids, strict=True)):
                export = http.get(f"/games/{game_id}/export").json()
                log = GameLog.from_json(export)  # replays, and checks the state hash
                logs.append(log)
                hashes = hashes_after_each_entry(log)
                for seq, (action, state_hash) in sorted(acked[g].items()):
                    counts["checked_after_restart"] += 1
                    if seq >= len(log.entries) or log.entries[seq].action != action or hashes[seq] != state_hash:
                        counts["lost_or_changed"] += 1
                        problems.append(f"life {life}: acknowledged entry {seq} of game {g} is missing or changed")
                flying = in_flight[g]
                if flying is not None and flying[0] < len(log.entries):
                    counts["in_flight_committed"] += 1
            if life == kills:
                break
            killer = threading.Timer(rng.uniform(min_life, max_life), server.kill)
            killer.start()
            def player(g: int, log: GameLog) -> None:
                in_flight[g] = play_until_killed(clients[g], game_ids[g], log, bots[g], acked[g], counts, lock)

            players = [threading.Thread(target=player, args=(g, log)) for g, log in enumerate(logs)]
            for thread in players:
                thread.start()
            for thread in players:
                thread.join()
            killer.join()
            counts["kills"] += 1
            server.start()
        versions = []
        for http, game_id in zip(clients, game_ids, strict=True):
            view = http.get(f"/games/{game_id}").json()
            final = http.get(f"/games/{game_id}/export").json()
            report = verify_export(final)
            if not report.ok:
                problems += report.problems
            if GameLog.from_json(final).state.hash() != view["state_hash"]:
                problems.append(f"the exported log of {game_id} does not replay to the game's stored state hash")
            versions.append(view["version"])
            counts["dice_checked"] = counts.get("dice_checked", 0) + report.dice_checked
    finally:
        for http in clients:
            http.close()
        server.stop()
    return {**counts, "final_versions": versions, "final_version": sum(versions), "ok": not problems,
            "problems": problems[:20], "data_dir": str(folder)}


def play_until_killed(http: httpx.Client, game_id: str, log: GameLog, bot: Any, acked: dict[int, tuple[Any, str]],
                      counts: dict[str, int], lock: threading.Lock) -> tuple[int, Any] | None:
    """Submit random legal actions until the server dies; returns the unanswered (seq, action), if any."""
    game = Game(log)

    def count(name: str) -> None:
        with lock:
            counts[name] += 1

    while True:
        version = log.state.version
        try:
            action = bot.choose(game).to_json()
        except NoLegalAction:
            action = None
        try:
            count("submitted")
            if action is None:  # a dead end: take the phase back, then end it
                answer = http.post(f"/games/{game_id}/undo", json={"version": version})
                if answer.status_code == 200:
                    count("undos_acknowledged")
                    for seq in [s for s in acked if s >= version - 1]:
                        del acked[seq]
                    del log.entries[version - 1:]
                    log.state = log.replay()
                    continue
                action = {"type": "end_phase"}
                count("submitted")
            answer = http.post(f"/games/{game_id}/actions", json={"action": action, "version": version})
        except httpx.TransportError:
            count("in_flight_at_kill")
            return version, action
        if answer.status_code != 200:
            raise RuntimeError(f"the server refused {action}: {answer.status_code} {answer.text}")
        message = answer.json()
        log.append(message["action"], [event_from_json(e) for e in message["events"]])
        acked[message["seq"]] = (message["action"], message["state_hash"])
        count("acknowledged")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--kills", type=int, default=20)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--min-life", type=float, default=0.2, help="seconds of play before a kill, at least")
    parser.add_argument("--max-life", type=float, default=1.5, help="seconds of play before a kill, at most")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: SQLite in --data-dir)")
    parser.add_argument("--games", type=int, default=1,
                        help="games played at once (one thread each: their actions share group commits)")
    args = parser.parse_args(argv)
    report = run(args.kills, args.seed, args.min_life, args.max_life, args.data_dir, args.database_url, args.games)
    print(json.dumps(report, indent=2))
    return 0 if report["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
