"""Benchmark of the online table: N concurrent games against `aare serve` (SQLite by default, in its own
process), each played by a client that replays an action script recorded beforehand, so the clients run no
rules engine and the machine's CPU goes to the server.

The scripts are recorded before the run by random bots playing the games through the engine (cached as JSON
lines in a temp folder). For a recorded script to replay on the server, the server must roll the dice the
recording rolled: the bench starts it with a `sitecustomize` (on `PYTHONPATH`, so `--workers` processes get
it too) that draws every turn's seed as 32 zero bytes and rolls dice as if every game had the id "bench". The
dice are still rolled by the server's own code (HMAC per die, as in play); only their values are fixed.
Nothing else of the server is changed. Each answer's state hash is compared with the recorded one: a
mismatch is an error.

Every client keeps `--games / --clients` games, submits each game's next action to `POST /games/{id}/actions`
and waits `think` seconds on average before the next (0: at once, a closed loop). Latency is measured from
sending a submission to having its whole answer; the games' set-up is not measured.

The same run is made twice, each on a fresh server: with group commit off (`AARE_GROUP_COMMIT=0`, the
`baseline`) and on. Prints one JSON object: the measured run's `actions_per_second`,
`server_cpu_ms_per_action` (the server's processes, all of them), `server_time_ms` (`p50`, `p90`, `p99`, from
the `Server-Timing` header), `errors`, the latency the clients saw, the server's spans and the clients' CPU
per action; the baseline's under `baseline`; and under `machine` the processor, its cores and the time of one
4 kB write and flush in the data folder (`bench/machine.py`), to read figures from different machines by.

    .venv/bin/python bench/server.py --games 50 --think 0 --seconds 20      # closed loop: the peak rate
    .venv/bin/python bench/server.py --games 1000 --think 2 --seconds 30    # 1,000 games, 2 s mean think time
    .venv/bin/python bench/server.py --workers 2 --database-url postgresql://… --redis-url redis://…
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import math
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

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash_test import NATIONS, ServerProcess
from machine import facts

BENCH_SEED = bytes(32)
"""The dice seed of every turn in a benchmark run."""
BENCH_GAME = "bench"
"""The game id every benchmark die is rolled for."""
SITECUSTOMIZE = f'''"""Benchmark server: reproducible dice (bench/server.py); nothing else changes."""
import os

if os.environ.get("AARE_BENCH_DICE") == "1":
    from aare import fair_dice

    _die = fair_dice.die
    fair_dice.new_seed = lambda: {BENCH_SEED!r}
    fair_dice.die = lambda seed, game_id, turn, index, sides=6: _die(seed, {BENCH_GAME!r}, turn, index, sides)
'''
SCRIPTS = Path(tempfile.gettempdir()) / "aare-bench-scripts"
CLIENT_NICENESS = [19]  # --nice: how much the clients yield the CPU to the server


# -- recording -----------------------------------------------------------------------------------------------


def record_script(seed: int, steps: int) -> dict[str, Any]:
    """One game played by a random bot through the engine, rolling the dice the benchmark server rolls: its
    actions with the state hash after each."""
    from aare.actions import parse_action
    from aare.ai import NoLegalAction, make_bot
    from aare.engine import Game
    from aare.errors import AareError
    from aare.fair_dice import CommittedDice
    from aare.game_setup import new_game
    from aare.rules.registry import default_ruleset
    from aare.server.live import LiveGame

    log = new_game(default_ruleset())
    live = LiveGame(BENCH_GAME, "nations", log, log.state.hash(), 0, 0, 0, BENCH_SEED)
    bot = make_bot("random", seed)
    out: list[list[Any]] = []
    while len(out) < steps and live.state.winner is None:
        game = Game(live.log, CommittedDice(BENCH_SEED, BENCH_GAME, live.turn, live.dice_used))
        try:
            action = bot.choose(game).to_json()
        except NoLegalAction:
            action = {"type": "end_phase"}
        before = live.state.nation
        try:
            game.apply(parse_action(action))
        except AareError:
            break  # a dead end: the script stops here
        live.appended(before)
        out.append([action, live.state_hash])
    return {"seed": seed, "initial_hash": log.replay(0).hash(), "steps": out}


def _record_one(args: tuple[int, int]) -> str:
    gc.set_threshold(50_000, 20, 10)
    return json.dumps(record_script(*args), separators=(",", ":"))


def scripts_for(count: int, steps: int, processes: int = 2) -> list[dict[str, Any]]:
    """`count` scripts of up to `steps` actions: from a cached file of as many scripts at least as long, or
    recorded now (JSON lines in the cache folder)."""
    SCRIPTS.mkdir(parents=True, exist_ok=True)
    cached = sorted((int(p.stem.rsplit("x", 1)[1]), p) for p in SCRIPTS.glob(f"random-{count}x*.jsonl"))
    path = next((p for length, p in cached if length >= steps), SCRIPTS / f"random-{count}x{steps}.jsonl")
    if not path.exists():
        started = time.perf_counter()
        with multiprocessing.get_context("fork").Pool(processes) as pool:
            lines = pool.map(_record_one, [(seed, steps) for seed in range(count)], chunksize=1)
        partial = path.with_suffix(f".{os.getpid()}.part")
        partial.write_text("\n".join(lines) + "\n", encoding="utf-8")
        partial.replace(path)
        print(f"recorded {count} scripts of up to {steps} actions in {time.perf_counter() - started:.0f} s: {path}",
              file=sys.stderr)
    with path.open(encoding="utf-8") as lines:
        scripts = [json.loads(line) for line in lines if line.strip()]
    for script in scripts:
        del script["steps"][steps:]
    return scripts


# -- replaying -----------------------------------------------------------------------------------------------


class Connection:
    """A minimal HTTP/1.1 keep-alive connection (one per game: the bench client stays light)."""

    def __init__(self, host: str, port: int, token: str) -> None:
        self.host, self.port = host, port
        self.auth = f"Authorization: Bearer {token}\r\n"
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None
        self.received = 0.0

    def request(self, method: str, path: str, payload: bytes) -> bytes:
        return (f"{method} {path} HTTP/1.1\r\nHost: {self.host}\r\n{self.auth}Content-Type: application/json\r\n"
                f"Content-Length: {len(payload)}\r\n\r\n").encode() + payload

    async def send(self, request: bytes) -> tuple[int, bytes, bytes]:
        """Send a prepared request; the status, the raw head and the body."""
        for attempt in (1, 2):
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(self.host, self.port)
            assert self.reader is not None
            self.writer.write(request)
            try:
                head = await self.reader.readuntil(b"\r\n\r\n")
            except (asyncio.IncompleteReadError, ConnectionResetError):
                head = b""
            if head:
                break
            self.close()  # the server closed an idle keep-alive connection: open a new one and send again
            if attempt == 2:
                raise ConnectionError("the server closed the connection")
        start = head.find(b"\r\ncontent-length:") + 17
        length = int(head[start:head.find(b"\r\n", start)])
        body = await self.reader.readexactly(length)
        self.received = time.perf_counter()
        return int(head[9:12]), head, body

    async def call(self, method: str, path: str, body: Any) -> tuple[int, Any]:
        status, _, data = await self.send(self.request(method, path, json.dumps(body).encode()))
        return status, json.loads(data) if data else None

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            self.reader = self.writer = None


@dataclass
class Measures:
    """What one client process saw: per submission its latency and the server's `Server-Timing` value;
    errors; actions; its CPU time in the measured window."""

    latencies: list[float] = field(default_factory=list)
    timings: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    actions: int = 0
    cpu_seconds: float = 0.0

    def merge(self, other: Measures) -> None:
        self.latencies += other.latencies
        self.timings += other.timings
        self.errors += other.errors
        self.actions += other.actions
        self.cpu_seconds += other.cpu_seconds


def server_timing(head: bytes) -> str:
    start = head.find(b"\r\nserver-timing:")
    return "" if start < 0 else head[start + 16:head.find(b"\r\n", start + 2)].decode()


async def replay(conn: Connection, requests: list[tuple[bytes, bytes]], seed: int, think: float, stop_at: float,
                 seen: Measures) -> None:
    """Submit one game's prepared requests in order until `stop_at` (a `time.time()`) or a refusal."""
    rng = random.Random(seed)
    await asyncio.sleep(rng.uniform(0, think))  # the games do not all start at once
    for request, expected in requests:
        if time.time() >= stop_at:
            return
        start = time.perf_counter()
        status, head, body = await conn.send(request)
        seen.latencies.append(conn.received - start)
        seen.timings.append(server_timing(head))
        if status != 200 or expected not in body:
            seen.errors.append(f"{status} {body[:200].decode(errors='replace')}"
                               + ("" if status != 200 else " (not the recorded state hash)"))
            return
        seen.actions += 1
        if think:
            await asyncio.sleep(rng.uniform(0, 2 * think))


async def run_client(url: str, token: str, scripts: list[dict[str, Any]], first: int, seconds: float, think: float,
                     ready: Any, go: Any) -> Measures:
    """One client process: create its games (one per script) and prepare their requests, then replay them for
    `seconds` once every client is ready (the set-up is not measured)."""
    host, port = url.removeprefix("http://").split(":")
    conns = [Connection(host, int(port), token) for _ in scripts]
    games: list[list[tuple[bytes, bytes]]] = []
    limit = asyncio.Semaphore(8)

    async def create(conn: Connection, script: dict[str, Any]) -> list[tuple[bytes, bytes]]:
        async with limit:
            status, game = await conn.call("POST", "/games", {"seats": dict.fromkeys(NATIONS, "me")})
        if status != 201 or game["state_hash"] != script["initial_hash"]:
            raise RuntimeError(f"the game does not start as the recorded script: {status} {str(game)[:200]}")
        path = f"/games/{game['id']}/actions"
        return [(conn.request("POST", path, json.dumps({"action": action, "version": version}).encode()),
                 f'"state_hash":"{state_hash}"'.encode())
                for version, (action, state_hash) in enumerate(script["steps"], start=game["version"])]

    games = list(await asyncio.gather(*(create(c, s) for c, s in zip(conns, scripts, strict=True))))
    gc.collect()
    gc.freeze()
    ready.wait()
    go.wait()
    cpu = time.process_time()
    stop_at = time.time() + seconds
    seen = Measures()
    await asyncio.gather(*(replay(conn, requests, first + i, think, stop_at, seen)
                           for i, (conn, requests) in enumerate(zip(conns, games, strict=True))))
    seen.cpu_seconds = time.process_time() - cpu
    for conn in conns:
        conn.close()
    return seen


def client_process(url: str, token: str, scripts: list[dict[str, Any]], first: int, seconds: float, think: float,
                   ready: Any, go: Any, results: Any) -> None:
    os.nice(CLIENT_NICENESS[0])
    gc.set_threshold(50_000, 20, 10)
    try:
        import uvloop
        runner = uvloop.run
    except ImportError:  # pragma: no cover
        runner = asyncio.run
    try:
        results.put(runner(run_client(url, token, scripts, first, seconds, think, ready, go)))
    except BaseException as exc:
        results.put(exc)
        raise


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process and every process under it (Linux)."""
    total = 0.0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            total += cpu_seconds(int(child))
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return total + (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def api_token(url: str) -> str:
    """Register a benchmark user and make it an API token."""
    name = f"bench-{uuid.uuid4().hex[:8]}"
    with httpx.Client(base_url=url, timeout=30) as http:
        login = http.post("/auth/register", json={"username": name, "password": "benchmark password"}).json()
        made = http.post("/auth/tokens", json={"name": "bench"}, headers={"X-CSRF-Token": login["csrf_token"]})
        return str(made.json()["token"])


def bench(url: str, pid: int, scripts: list[dict[str, Any]], games: int, seconds: float, think: float,
          clients: int) -> dict[str, Any]:
    """Replay `games` games (script k % len(scripts) for game k) from `clients` processes; the report."""
    token = api_token(url)
    context = multiprocessing.get_context("fork")
    ready, go, results = context.Barrier(clients + 1), context.Barrier(clients + 1), context.Queue()
    shares = [list(range(k, games, clients)) for k in range(clients)]
    processes = [context.Process(target=client_process, daemon=True, args=(
        url, token, [scripts[g % len(scripts)] for g in share], share[0] if share else 0, seconds, think, ready, go,
        results)) for share in shares]
    for process in processes:
        process.start()
    ready.wait(timeout=600)  # every game created
    cpu_start = cpu_seconds(pid)
    go.wait()
    parts = [results.get(timeout=seconds + 600) for _ in processes]
    cpu = cpu_seconds(pid) - cpu_start
    for process in processes:
        process.join()
    for part in parts:
        if isinstance(part, BaseException):
            raise part
    seen = Measures()
    for part in parts:
        seen.merge(part)
    from aare.server import timing

    spans = [t for t in (timing.parse(raw) for raw in seen.timings) if "app" in t]
    done = max(1, seen.actions)
    return {
        "actions_per_second": round(seen.actions / seconds, 1),
        "server_cpu_ms_per_action": round(1000 * cpu / done, 3),
        "server_time_ms": percentiles([t["app"] / 1000 for t in spans]),
        "errors": len(seen.errors),
        "actions": seen.actions,
        "latency_ms": percentiles(seen.latencies),
        "server_spans_ms": {"all": mean_spans(spans), "slowest_1pct": mean_spans(slowest(spans)),
                            "p99": span_percentile(spans, 0.99)},
        "client_cpu_ms_per_action": round(1000 * seen.cpu_seconds / done, 3),
        "error_examples": seen.errors[:5],
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


def script_length(games: int, seconds: float, think: float) -> int:
    """Actions per script enough for the run: the most a game can submit at a rate the server could serve."""
    rate = 2500.0 if think <= 0 else min(2500.0, games / think)
    return max(20, math.ceil(1.3 * rate * seconds / games))


def run_once(args: argparse.Namespace, scripts: list[dict[str, Any]], group_commit: bool) -> dict[str, Any]:
    """One run on a fresh server (a new SQLite folder; on PostgreSQL new games in the same database)."""
    folder = Path(tempfile.mkdtemp(prefix="aare-bench-", dir=args.data_dir))
    (folder / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    server = ServerProcess(folder, args.database_url, workers=args.workers)
    server.env.update({"AARE_BENCH_DICE": "1", "AARE_GROUP_COMMIT": "1" if group_commit else "0",
                       "PYTHONPATH": os.pathsep.join(filter(None, [str(folder), server.env.get("PYTHONPATH")]))})
    if args.redis_url:
        server.env["AARE_REDIS_URL"] = args.redis_url
    if args.sqlite_synchronous:
        server.env["AARE_SQLITE_SYNCHRONOUS"] = args.sqlite_synchronous
    server.start()
    try:
        assert server.process is not None
        return bench(server.url, server.process.pid, scripts, args.games, args.seconds, args.think, args.clients)
    finally:
        server.stop()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--think", type=float, default=2.0,
                        help="mean pause between a game's actions (uniform from 0 to twice this; 0: a closed loop)")
    parser.add_argument("--clients", type=int, default=2, help="client processes the games are shared among")
    parser.add_argument("--nice", type=int, default=19,
                        help="niceness of the client processes (default 19: they take only the CPU the server "
                             "leaves idle, as if the players were on other machines; 0: they compete with it)")
    parser.add_argument("--scripts", type=int, default=100, help="distinct recorded games (games reuse them)")
    parser.add_argument("--workers", type=int, default=1, help="the server's worker processes")
    parser.add_argument("--data-dir", type=Path, default=None, help="where the runs' folders go (default: a temp)")
    parser.add_argument("--database-url", default=None, help="PostgreSQL URL (default: SQLite in a new folder)")
    parser.add_argument("--redis-url", default=None, help="Redis URL for live updates (with --workers > 1)")
    parser.add_argument("--sqlite-synchronous", default=None, help="FULL (default) or NORMAL")
    parser.add_argument("--no-baseline", action="store_true", help="skip the run with group commit off")
    args = parser.parse_args(argv)
    if args.data_dir:
        args.data_dir.mkdir(parents=True, exist_ok=True)
    CLIENT_NICENESS[0] = args.nice
    machine = facts(args.data_dir)  # (before the runs: the flush is timed on an idle disk)
    scripts = scripts_for(min(args.scripts, args.games), script_length(args.games, args.seconds, args.think))
    baseline = None if args.no_baseline else run_once(args, scripts, group_commit=False)
    report = run_once(args, scripts, group_commit=True)
    report = {**report, "games": args.games, "seconds": args.seconds, "think_seconds": args.think,
              "client_processes": args.clients, "client_niceness": args.nice, "workers": args.workers,
              "database": "postgresql" if args.database_url else "sqlite",
              "sqlite_synchronous": None if args.database_url else (args.sqlite_synchronous or "FULL"),
              "redis": bool(args.redis_url), "machine": machine}
    if baseline is not None:
        report["baseline"] = {"group_commit": False, **baseline}
    print(json.dumps(report, indent=2))
    return 0 if not report["errors"] and not (baseline or {}).get("errors") else 1


if __name__ == "__main__":
    sys.exit(main())
