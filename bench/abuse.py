"""Benchmark of the server under abuse, against `aare serve` started as a subprocess on 127.0.0.1 (SQLite):

(a) a registration flood: `--registrations` (100) concurrent `POST /auth/register` (the per-address
    registration limit is switched off for this run, so every request reaches the password hashing), while
    `/healthz` is fetched every 20 ms. Prints the `/healthz` latency (p50, p99, max) idle and during the flood,
    the answers to the registrations (201 or 503 from the hashing pool's queue limit) and the server process's
    resident memory (RSS) before and at its peak. Targets: p99 ≤ 200 ms, peak ≤ 600 MB.
(b) a 200 MB body (`--body-mb`) to `POST /auth/register`, once with `Content-Length` and once chunked: the
    time from the first byte sent to the 413 status line, whether the client can send the whole body and then
    use the same connection again (the answer is delivered, not reset), and the server's RSS growth. Target:
    the 413 within 50 ms, the memory not growing.

    .venv/bin/python bench/abuse.py
    .venv/bin/python bench/abuse.py --registrations 200 --json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import socket
import statistics
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
from crash_test import ServerProcess

HEALTH_INTERVAL = 0.02  # seconds between /healthz probes
RSS_INTERVAL = 0.005  # seconds between memory samples
MAX_SAMPLES = 200_000  # bounds every sampling loop
CHUNK = 1 << 20


def rss_mb(pid: int) -> float:
    """Resident memory of a process in MB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


class Sampler:
    """Samples the server's RSS in a thread until stopped; `peak` is the largest seen."""

    def __init__(self, pid: int) -> None:
        self.pid = pid
        self.peak = rss_mb(pid)
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        for _ in range(MAX_SAMPLES):
            if self._stop.wait(RSS_INTERVAL):
                return
            self.peak = max(self.peak, rss_mb(self.pid))

    def __enter__(self) -> Sampler:
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stop.set()
        self._thread.join()


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def latency_figures(values: list[float]) -> dict[str, float]:
    return {"n": len(values), "p50_ms": round(statistics.median(values) * 1000, 1),
            "p99_ms": round(percentile(values, 0.99) * 1000, 1), "max_ms": round(max(values) * 1000, 1)}


def probe_health(url: str, stop: Any, out: Any) -> None:
    """Fetch /healthz every HEALTH_INTERVAL until `stop` is set, on one keep-alive connection; put the list
    of latencies on `out`. Runs in a process of its own, so the flood's client does not delay it."""
    latencies: list[float] = []
    with httpx.Client(base_url=url, timeout=60) as http:
        for _ in range(MAX_SAMPLES):
            if stop.is_set():
                break
            start = time.perf_counter()
            answer = http.get("/healthz")
            latencies.append(time.perf_counter() - start)
            assert answer.status_code == 200
            time.sleep(HEALTH_INTERVAL)
    out.put(latencies)


class HealthProbe:
    """`probe_health` in a child process for the duration of a `with` block; `latencies` afterwards."""

    def __init__(self, url: str) -> None:
        context = multiprocessing.get_context("fork")
        self.stop, self.out = context.Event(), context.Queue()
        self.process = context.Process(target=probe_health, args=(url, self.stop, self.out))
        self.latencies: list[float] = []

    def __enter__(self) -> HealthProbe:
        self.process.start()
        time.sleep(0.3)
        return self

    def __exit__(self, *exc: object) -> None:
        time.sleep(0.2)
        self.stop.set()
        self.latencies = self.out.get(timeout=60)
        self.process.join()


async def flood(url: str, count: int) -> tuple[dict[int, int], float, list[float]]:
    """`count` concurrent registrations: (statuses, seconds, registration latencies)."""
    limits = httpx.Limits(max_connections=count + 10)
    async with httpx.AsyncClient(base_url=url, timeout=120, limits=limits) as http:
        async def one() -> tuple[int, float]:
            start = time.perf_counter()
            answer = await http.post("/auth/register", json={"username": f"f{uuid.uuid4().hex[:12]}",
                                                             "password": "flood password 1"})
            return answer.status_code, time.perf_counter() - start

        start = time.perf_counter()
        done = await asyncio.gather(*(one() for _ in range(count)))
        took = time.perf_counter() - start
    statuses: dict[int, int] = {}
    for status, _ in done:
        statuses[status] = statuses.get(status, 0) + 1
    return statuses, took, [t for _, t in done]


def big_body(host: str, port: int, size: int, chunked: bool) -> dict[str, Any]:
    """Send a `size`-byte body to POST /auth/register; time to the status line, whether all of it could be
    sent and the connection then served another request."""
    framing = "Transfer-Encoding: chunked" if chunked else f"Content-Length: {size}"
    head = (f"POST /auth/register HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\n"
            f"{framing}\r\n\r\n").encode()
    block = b"0" * CHUNK
    piece = f"{CHUNK:x}\r\n".encode() + block + b"\r\n" if chunked else block
    sent_all: list[bool] = []
    with socket.create_connection((host, port), timeout=30) as sock:
        def send_body() -> None:
            try:
                for _ in range(size // CHUNK):
                    sock.sendall(piece)
                if chunked:
                    sock.sendall(b"0\r\n\r\n")
                sent_all.append(True)
            except OSError:
                sent_all.append(False)

        start = time.perf_counter()
        sock.sendall(head)
        sender = threading.Thread(target=send_body)
        sender.start()
        reply = b""
        while b"\r\n\r\n" not in reply and len(reply) < 65536:
            data = sock.recv(65536)
            if not data:
                break
            if not reply:
                first = time.perf_counter() - start
            reply += data
        status = reply.split(b"\r\n", 1)[0].decode()
        head_end = reply.index(b"\r\n\r\n") + 4
        length = next(int(line.split(b":")[1]) for line in reply[:head_end].split(b"\r\n")
                      if line.lower().startswith(b"content-length:"))
        while len(reply) < head_end + length:
            reply += sock.recv(65536)
        sender.join()
        whole = time.perf_counter() - start
        again = False
        if sent_all and sent_all[0]:
            sock.sendall(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            again = sock.recv(65536).startswith(b"HTTP/1.1 200")
    return {"status": status, "to_413_ms": round(first * 1000, 2), "body_sent": bool(sent_all and sent_all[0]),
            "all_sent_s": round(whole, 2), "connection_reused": again}


def run(registrations: int, body_mb: int, unbounded: bool = False) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="aare-abuse-"))
    server = ServerProcess(folder, None)
    server.env["AARE_REGISTER_ADDRESS_LIMIT"] = "0"  # every registration reaches the hashing
    if unbounded:  # for comparison: as many hashes at once as request threads, none refused
        server.env.update(AARE_HASH_THREADS="40", AARE_HASH_QUEUE="1000")
    server.start()
    assert server.process is not None
    pid = server.process.pid
    out: dict[str, Any] = {"cores": os.cpu_count(), "unbounded": unbounded}
    try:
        out["rss_start_mb"] = round(rss_mb(pid), 1)
        with HealthProbe(server.url) as idle:
            time.sleep(2.0)
        out["healthz_idle"] = latency_figures(idle.latencies)
        with Sampler(pid) as memory, HealthProbe(server.url) as probe:
            statuses, took, reg = asyncio.run(flood(server.url, registrations))
        health = probe.latencies
        out["flood"] = {"registrations": registrations, "answers": statuses, "seconds": round(took, 2),
                        "registration_p50_ms": round(statistics.median(reg) * 1000, 1),
                        "healthz": latency_figures(health), "rss_before_mb": out["rss_start_mb"],
                        "rss_peak_mb": round(memory.peak, 1)}
        host, port = "127.0.0.1", server.port
        for name, chunked in (("content_length", False), ("chunked", True)):
            before = rss_mb(pid)
            with Sampler(pid) as memory:
                result = big_body(host, port, body_mb * CHUNK, chunked)
            result.update(rss_before_mb=round(before, 1), rss_peak_mb=round(memory.peak, 1),
                          rss_growth_mb=round(memory.peak - before, 1))
            out[f"body_{body_mb}mb_{name}"] = result
    finally:
        server.stop()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--registrations", type=int, default=100)
    parser.add_argument("--body-mb", type=int, default=200)
    parser.add_argument("--unbounded", action="store_true",
                        help="compare: 40 hashing threads and no queue limit (as before the pool)")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    result = run(args.registrations, args.body_mb, args.unbounded)
    if args.json:
        print(json.dumps(result, indent=2))
        return
    flood_ = result["flood"]
    print(f"healthz idle: {result['healthz_idle']}")
    print(f"{flood_['registrations']} concurrent registrations: answers {flood_['answers']} in "
          f"{flood_['seconds']} s (p50 {flood_['registration_p50_ms']} ms)")
    print(f"  healthz during the flood: {flood_['healthz']}  (target p99 <= 200 ms)")
    print(f"  server RSS {flood_['rss_before_mb']} MB before, peak {flood_['rss_peak_mb']} MB  (target <= 600 MB)")
    for key, value in result.items():
        if key.startswith("body_"):
            print(f"{key}: {value}  (target 413 <= 50 ms, no growth)")


if __name__ == "__main__":
    main()
