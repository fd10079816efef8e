"""Benchmark of the online table: N concurrent games against `aare serve` (SQLite by default, in its own
process), each played by a random bot over HTTP. The games are shared among a few client processes (`--clients`)
run at the lowest priority (`--nice`), so the load generator does not take the server's CPU, as remote players
would not. Every bot keeps a replica of its game, chooses a legal action, submits it to
`POST /games/{id}/actions`, and waits `think` seconds on average before the next. Latency is measured from
sending a submission to having its whole answer; the games' set-up is not measured.

Prints actions per second; the latency of the submissions (p50, p90, p99, max) as the bots saw it and as the
server measured it (its `Server-Timing` header), with the server's spans (queue for an action thread, load,
rules, store) on average, for the slowest 1 % and at their own p99; the server's and the clients' CPU time per
action; and the machine's load average.

    .venv/bin/python bench/server.py                       # 200 games, 30 s, 2 s mean think time
    .venv/bin/python bench/server.py --think 1.0 --nice 0  # twice the rate, clients competing for the CPU
    .venv/bin/python bench/server.py --games 50 --think 0  # closed loop: the server's peak rate
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import multiprocessing
import os
import random
import statistics
import sys
import tempfile
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

from aare.ai import NoLegalAction, make_bot
from aare.engine import Game
from aare.events import event_from_json
from aare.game_log import GameLog
from aare.server import timing

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash_test import NATIONS, ServerProcess

CLIENT_NICENESS = [19]  # --nice: how much the clients yield the CPU to the server


class Connection:
    """A minimal HTTP/1.1 keep-alive connection for JSON calls (one per game: the bench client stays light)."""

    def __init__(self, host: str, port: int, headers: dict[str, str]) -> None:
        self.host, self.port = host, port
        self.headers = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
        self.reader: asyncio.StreamReader | None = None
        self.received = 0.0
        self.writer: asyncio.StreamWriter | None = None

    async def call(self, method: str, path: str, body: Any = None) -> tuple[int, dict[str, str], Any]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{self.headers}"
                f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n").encode()
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None
            self.writer.write(head + payload)
            status_line = await self.reader.readline()
            if status_line:
                break
            self.close()  # the server closed an idle keep-alive connection: open a new one and send again
            if attempt == 2:
                raise ConnectionError(f"{method} {path}: the server closed the connection")
        status = int(status_line.split()[1])
        headers: dict[str, str] = {}
        while (line := await self.reader.readline()) not in (b"\r\n", b""):
            key, _, value = line.decode().partition(":")
            headers[key.strip().lower()] = value.strip()
        data = await self.reader.readexactly(int(headers.get("content-length", "0")))
        self.received = time.perf_counter()  # the answer is in: what follows is the client's own work
        return status, headers, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


@dataclass
class Measures:
    """What one client process saw: per submission its latency, the server's timing spans and how long the
    bot took to choose; errors; actions per game."""

    latencies: list[float] = field(default_factory=list)
    server_times: list[dict[str, float]] = field(default_factory=list)
    choose_times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    cpu_seconds: float = 0.0

    def merge(self, other: Measures) -> None:
        self.latencies += other.latencies
        self.server_times += other.server_times
        self.choose_times += other.choose_times
        self.errors += other.errors
        self.actions += other.actions
        self.cpu_seconds += other.cpu_seconds


async def play(conn: Connection, game_id: str, log: GameLog, seed: int, think: float, stop_at: float,
               seen: Measures) -> None:
    """One game's bot, on its replica `log` of the game: act until `stop_at` (a `time.time()`)."""
    game, bot, rng = Game(log), make_bot("random", seed), random.Random(seed)
    await asyncio.sleep(rng.uniform(0, think))  # the games do not all start at once
    while time.time() < stop_at and log.state.winner is None:
        chose = time.perf_counter()
        try:
            action = bot.choose(game).to_json()
        except NoLegalAction:
            action = {"type": "end_phase"}
        seen.choose_times.append(time.perf_counter() - chose)
        start = time.perf_counter()
        status, headers, message = await conn.call("POST", f"/games/{game_id}/actions",
                                                   {"action": action, "version": log.state.version})
        seen.latencies.append(conn.received - start)
        spans = timing.parse(headers.get("server-timing", ""))
        if "app" in spans:
            seen.server_times.append(spans)
        if status != 200:
            seen.errors.append(f"{status} {json.dumps(message)[:200]}")
            if len(seen.errors) > 50 or status != 422:
                return
            continue
        log.append(message["action"], [event_from_json(e) for e in message["events"]])
        seen.actions += 1
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))


async def run_client(url: str, token: str, games: int, first_seed: int, start_at: float, seconds: float,
                     think: float) -> Measures:
    """One client process: create `games` games and fetch them, then play them all from `start_at` for
    `seconds` (the set-up is not measured)."""
    host, port = url.removeprefix("http://").split(":")
    conns = [Connection(host, int(port), {"Authorization": f"Bearer {token}"}) for _ in range(games)]
    ids, logs = [], []
    for conn in conns:
        _, _, game = await conn.call("POST", "/games", {"seats": dict.fromkeys(NATIONS, "me")})
        _, _, export = await conn.call("GET", f"/games/{game['id']}/export")
        ids.append(game["id"])
        logs.append(GameLog.from_json(export))
    if time.time() > start_at:
        raise RuntimeError("the set-up took longer than the time allowed for it: start later")
    await asyncio.sleep(start_at - time.time())
    seen = Measures()
    await asyncio.gather(*(play(conn, gid, log, first_seed + i, think, start_at + seconds, seen)
                           for i, (conn, gid, log) in enumerate(zip(conns, ids, logs, strict=True))))
    for conn in conns:
        conn.close()
    return seen


def client_process(args: tuple[str, str, int, int, float, float, float]) -> Measures:
    os.nice(CLIENT_NICENESS[0])
    gc.set_threshold(50_000, 20, 10)  # the bots' game replicas make a large heap: collect it rarely
    seen = asyncio.run(run_client(*args))
    seen.cpu_seconds = time.process_time()
    return seen


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time a process has used (Linux)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def api_token(url: str) -> str:
    """Register a benchmark user and make it an API token."""
    name = f"bench-{uuid.uuid4().hex[:8]}"
    with httpx.Client(base_url=url) as http:
        login = http.post("/auth/register", json={"username": name, "password": "benchmark password"}).json()
        made = http.post("/auth/tokens", json={"name": "bench"}, headers={"X-CSRF-Token": login["csrf_token"]})
        return str(made.json()["token"])


def bench(url: str, pid: int, games: int, seconds: float, think: float, clients: int) -> dict[str, Any]:
    token = api_token(url)
    shares = [games // clients + (1 if k < games % clients else 0) for k in range(clients)]
    setup_time = 0.15 * games / clients + 3.0  # each client creates and fetches its games first
    start_at = time.time() + setup_time
    seeds = [sum(shares[:k]) for k in range(clients)]
    with multiprocessing.get_context("fork").Pool(clients) as pool:
        pending = pool.map_async(client_process, [(url, token, share, seed, start_at, seconds, think)
                                                  for share, seed in zip(shares, seeds, strict=True) if share])
        time.sleep(max(0.0, start_at - time.time()))
        cpu_start = cpu_seconds(pid)
        parts = pending.get()
        cpu = cpu_seconds(pid) - cpu_start
    seen = Measures()
    for part in parts:
        seen.merge(part)
    server = percentiles([t["app"] / 1000 for t in seen.server_times])
    return {
        "games": games, "client_processes": clients, "seconds": seconds, "think_seconds": think,
        "actions": seen.actions, "actions_per_second": round(seen.actions / seconds, 1),
        "latency_ms": percentiles(seen.latencies), "server_time_ms": server,
        "server_spans_ms": {"all": mean_spans(seen.server_times),
                            "slowest_1pct": mean_spans(slowest(seen.server_times)),
                            "p99": span_percentile(seen.server_times, 0.99)},
        "server_cpu_ms_per_action": round(1000 * cpu / max(1, seen.actions), 2),
        "bot_choice_ms": percentiles(seen.choose_times),
        "client_cpu_ms_per_action": round(1000 * seen.cpu_seconds / max(1, seen.actions), 2),
        "errors": len(seen.errors), "error_examples": seen.errors[:5],
        "load_average_1min": round(os.getloadavg()[0], 2),
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


def slowest(spans: list[dict[str, float]], share: float = 0.01) -> list[dict[str, float]]:
    """The slowest `share` of the requests by their whole server time."""
    ordered = sorted(spans, key=lambda t: t["app"], reverse=True)
    return ordered[:max(1, int(len(ordered) * share))] if ordered else []


def span_percentile(spans: list[dict[str, float]], p: float) -> dict[str, float]:
    """The `p` percentile of each span (ms) on its own."""
    names = sorted({k for t in spans for k in t})
    out = {}
    for name in names:
        ordered = sorted(t.get(name, 0.0) for t in spans)
        out[name] = round(ordered[min(len(ordered) - 1, int(p * len(ordered)))], 2)
    return out


def mean_spans(spans: list[dict[str, float]]) -> dict[str, float]:
    """The mean of each span (ms) over `spans`; `other` is the server time no span accounts for."""
    if not spans:
        return {}
    names = sorted({k for t in spans for k in t} - {"app"})
    out = {name: round(statistics.fmean(t.get(name, 0.0) for t in spans), 2) for name in names}
    out["other"] = round(statistics.fmean(t["app"] - sum(t.get(n, 0.0) for n in names) for t in spans), 2)
    out["app"] = round(statistics.fmean(t["app"] for t in spans), 2)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean pause of a bot between its actions (uniform from 0 to twice this)")
    parser.add_argument("--clients", type=int, default=4,
                        help="client processes the games are shared among (one process per game is closest to "
                             "real players; a single process makes its own bursts while a bot thinks)")
    parser.add_argument("--nice", type=int, default=19,
                        help="niceness of the client processes (default 19: they take only the CPU the server "
                             "leaves idle, as if the players were on other machines; 0: they compete with it)")
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
    CLIENT_NICENESS[0] = args.nice
    try:
        assert server.process is not None
        report = bench(server.url, server.process.pid, args.games, args.seconds, args.think, args.clients)
    finally:
        server.stop()
    report["database"] = "postgresql" if args.database_url else "sqlite"
    report["client_niceness"] = args.nice
    report["sqlite_synchronous"] = args.sqlite_synchronous or "FULL"
    print(json.dumps(report, indent=2))
    return 0 if not report["errors"] else 1


if __name__ == "__main__":
    sys.exit(main())
