"""The long run of the action fuzzer (tests/fuzz/driver.py): episodes of at most 200 random, mutated, malformed
and stale actions against the engine's door (`Game.apply`) and the server's (`POST /games/{id}/actions`, an
in-process server on SQLite per worker), one worker process per core.

    .venv/bin/python bench/fuzz.py                       # 200 000 actions, 10 % of them against the server
    .venv/bin/python bench/fuzz.py --actions 20000 --server-share 0.5 --processes 1

Prints the actions per second and the totals as JSON (`crashes`: 5xx answers and exceptions outside
`AareError`; state changes on refusal, replay mismatches, invariant violations, the first problems found);
exits 1 if anything was found.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import random
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.fuzz.driver import (  # noqa: E402
    ENGINE_RULESETS,
    MAX_ACTIONS,
    SERVER_RULESETS,
    Plan,
    Tally,
    engine_episode,
    register,
    server_episode,
)
from tests.fuzz.strategies import LEGAL_SHARES  # noqa: E402


def plan(rng: random.Random, rulesets: tuple[str, ...]) -> Plan:
    return Plan(rng.choice(rulesets), rng.randrange(2**31), MAX_ACTIONS, rng.choice(LEGAL_SHARES))


def worker(args: tuple[int, int, int, int]) -> dict[str, Any]:
    """One process: engine episodes until `engine_actions` are done, server episodes until `server_actions`."""
    index, seed, engine_actions, server_actions = args
    rng = random.Random(seed * 1_000_003 + index)
    engine, server = Tally(), Tally()
    started = time.perf_counter()
    while engine.actions < engine_actions:
        engine.add(engine_episode(plan(rng, ENGINE_RULESETS)))
    if server_actions:
        from tests.server.conftest import LiveServer

        from aare.server.settings import Settings, sqlite_url

        with tempfile.TemporaryDirectory() as folder, \
                LiveServer(Settings(sqlite_url(Path(folder)), bot_mode="inline")) as live:
            owner = register(live.url, f"fuzz{uuid.uuid4().hex[:10]}")
            stranger = register(live.url, f"fuzz{uuid.uuid4().hex[:10]}")
            while server.actions < server_actions:
                server.add(server_episode(plan(rng, SERVER_RULESETS), owner, stranger))
            owner.close()
            stranger.close()
    elapsed = time.perf_counter() - started
    print(f"worker {index}: {engine.actions} engine actions, {server.actions} server actions in {elapsed:.0f} s",
          file=sys.stderr, flush=True)
    return {"engine": engine.to_json() | {"problems": engine.problems},
            "server": server.to_json() | {"problems": server.problems}, "seconds": elapsed,
            "engine_seconds": engine.seconds, "server_seconds": server.seconds}


def merge(parts: list[dict[str, Any]]) -> dict[str, Any]:
    keys = ("actions", "accepted", "refused", "episodes", "crashes", "state_changed_on_refusal",
            "replay_mismatches", "invariant_violations", "dead_ends")
    out: dict[str, Any] = {}
    for door in ("engine", "server"):
        total: dict[str, Any] = {k: sum(p[door][k] for p in parts) for k in keys}
        statuses: dict[str, int] = {}
        for p in parts:
            for status, n in p[door]["statuses"].items():
                statuses[status] = statuses.get(status, 0) + n
        total["statuses"] = dict(sorted(statuses.items()))
        seconds = sum(p[f"{door}_seconds"] for p in parts)
        total["actions_per_second_per_process"] = round(total["actions"] / seconds, 1) if seconds else 0.0
        total["problems"] = [q for p in parts for q in p[door]["problems"]][:20]
        out[door] = total
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--actions", type=int, default=200_000, help="actions in all (engine and server)")
    parser.add_argument("--server-share", type=float, default=0.1, help="the share of actions sent to the server")
    parser.add_argument("--processes", type=int, default=os.cpu_count() or 1, help="worker processes")
    parser.add_argument("--seed", type=int, default=1, help="the seed of the episode plans")
    args = parser.parse_args()
    server_total = int(args.actions * args.server_share)
    engine_total = args.actions - server_total
    n = args.processes
    jobs = [(i, args.seed, -(-engine_total // n), -(-server_total // n)) for i in range(n)]
    started = time.perf_counter()
    with multiprocessing.get_context("spawn").Pool(n) as pool:
        parts = pool.map(worker, jobs)
    wall = time.perf_counter() - started
    report = merge(parts)
    actions = report["engine"]["actions"] + report["server"]["actions"]
    found = sum(report[d][k] for d in ("engine", "server")
                for k in ("crashes", "state_changed_on_refusal", "replay_mismatches", "invariant_violations"))
    summary = {"processes": n, "seconds": round(wall, 1), "actions": actions,
               "actions_per_second": round(actions / wall, 1), "problems_found": found, **report}
    print(json.dumps(summary, indent=2))
    sys.exit(1 if found else 0)


if __name__ == "__main__":
    main()
