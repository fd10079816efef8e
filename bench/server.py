"""Benchmark of the online table: N concurrent games, each played by a random bot over HTTP against
`aare serve` (SQLite by default) in its own process. Every game's bot keeps a replica of its game, chooses
a legal action, submits it to `POST /games/{id}/actions`, and waits `think` seconds on average before the next.
Prints actions per second and the latency of the submissions (p50, p90, p99, max) as the bots saw it and as
the server measured it (its `Server-Timing` header), and the machine's load average.

    .venv/bin/python bench/server.py --games 200 --seconds 30 --think 1.0
    .venv/bin/python bench/server.py --games 50 --think 0      # closed loop: the server's peak rate
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from aare.ai import NoLegalAction, make_bot
from aare.engine import Game
from aare.events import event_from_json
from aare.game_log import GameLog

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash_test import NATIONS, ServerProcess


class Connection:
    """A minimal HTTP/1.1 keep-alive connection for JSON calls (one per game: the bench client stays light)."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        self.host, self.port = host, port
        self.headers = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
        assert self.reader is not None
        payload = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{self.headers}"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n")
        self.writer.write(head.encode() + payload)
        status_line = await self.reader.readline()
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode().partition(":")
            headers[key.strip().lower()] = value.strip()
        data = await self.reader.readexactly(int(headers.get("content-length", "0")))
        return status, headers, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()


async def play(conn: Connection, game_id: str, seed: int, think: float, stop_at: float,
               latencies: list[float], server_times: list[float], errors: list[str]) -> int:
    """One game's bot: act until `stop_at`; returns how many actions it got in."""
    _, _, export = await conn.call("GET", f"/games/{game_id}/export")
    log = GameLog.from_json(export)
    game, bot, rng = Game(log), make_bot("random", seed), random.Random(seed)
    await asyncio.sleep(rng.uniform(0, think))  # the games do not all start at once
    done = 0
    while time.monotonic() < stop_at and log.state.winner is None:
        try:
            action = bot.choose(game).to_json()
        except NoLegalAction:
            action = {"type": "end_phase"}
        start = time.perf_counter()
        status, headers, message = await conn.call("POST", f"/games/{game_id}/actions",
                                                   {"action": action, "version": log.state.version})
        latencies.append(time.perf_counter() - start)
        timing = headers.get("server-timing", "")
        if timing.startswith("app;dur="):
            server_times.append(float(timing[8:]) / 1000)
        if status != 200:
            errors.append(f"{status} {json.dumps(message)[:200]}")
            if len(errors) > 50 or status != 422:
                return done
            continue
        log.append(message["action"], [event_from_json(e) for e in message["events"]])
        done += 1
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))
    return done


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def bench(url: str, pid: int, games: int, seconds: float, think: float) -> dict[str, Any]:
    host, port = url.removeprefix("http://").split(":")
    setup = Connection(host, int(port), {})
    _, headers, login = await setup.call("POST", "/auth/register", {"username": f"bench-{uuid.uuid4().hex[:8]}",
                                                                    "password": "benchmark password"})
    cookie = headers["set-cookie"].split(";")[0]
    authed = Connection(host, int(port), {"Cookie": cookie, "X-CSRF-Token": login["csrf_token"]})
    _, _, token = await authed.call("POST", "/auth/tokens", {"name": "bench"})
    setup.close()
    authed.close()
    conns = [Connection(host, int(port), {"Authorization": f"Bearer {token['token']}"}) for _ in range(games)]
    ids = []
    for conn in conns:
        _, _, game = await conn.call("POST", "/games", {"seats": dict.fromkeys(NATIONS, "me")})
        ids.append(game["id"])
    latencies: list[float] = []
    server_times: list[float] = []
    errors: list[str] = []
    start, cpu_start = time.monotonic(), cpu_seconds(pid)
    counts = await asyncio.gather(*(play(conn, gid, i, think, start + seconds, latencies, server_times, errors)
                                    for i, (conn, gid) in enumerate(zip(conns, ids, strict=True))))
    elapsed, cpu = time.monotonic() - start, cpu_seconds(pid) - cpu_start
    for conn in conns:
        conn.close()
    client, server = percentiles(latencies), percentiles(server_times)
    return {
        "games": games, "seconds": round(elapsed, 1), "think_seconds": think, "actions": sum(counts),
        "actions_per_second": round(sum(counts) / elapsed, 1),
        "latency_ms": client, "server_time_ms": server,
        "server_cpu_ms_per_action": round(1000 * cpu / max(1, sum(counts)), 2),
        "errors": len(errors), "error_examples": errors[:5], "load_average_1min": round(os.getloadavg()[0], 2),
    }


def percentiles(values: list[float]) -> dict[str, float]:
    """p50, p90, p99, max and mean of `values` (seconds), in milliseconds."""
    if not values:
        return {}
    ordered = sorted(values)

    def pct(p: float) -> float:
        return round(1000 * ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)

    return {"p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": round(1000 * ordered[-1], 2),
            "mean": round(1000 * statistics.fmean(ordered), 2)}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=1.0, help="mean pause of a bot between its actions")
    parser.add_argument("--data-dir", type=Path, default=None)
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: SQLite in --data-dir)")
    parser.add_argument("--sqlite-synchronous", default=None, help="FULL (default) or NORMAL")
    args = parser.parse_args(argv)
    folder = Path(args.data_dir or tempfile.mkdtemp(prefix="aare-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    server = ServerProcess(folder, args.database_url)
    if args.sqlite_synchronous:
        server.env["AARE_SQLITE_SYNCHRONOUS"] = args.sqlite_synchronous
    server.start()
    gc.set_threshold(50_000, 20, 10)  # the bots' 200 game replicas make a large heap: collect it rarely
    try:
        assert server.process is not None
        report = asyncio.run(bench(server.url, server.process.pid, args.games, args.seconds, args.think))
    finally:
        server.stop()
    report["database"] = "postgresql" if args.database_url else "sqlite"
    report["sqlite_synchronous"] = args.sqlite_synchronous or "FULL"
    print(json.dumps(report, indent=2))
    return 0 if not report["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
