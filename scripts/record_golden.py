"""Record golden game logs: self-play games whose actions and state hashes later code must reproduce.

Usage: .venv/bin/python scripts/record_golden.py [--games 20] [--rounds 5] [RULES ...]
Writes tests/golden/<rules>.json.gz: for each game its seed, its actions and the state hash after each one.
Record again only when a change of behaviour is intended, and say why in the commit.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path

from aare.game_log import GameLog
from aare.selfplay import play_game

HERE = Path(__file__).resolve().parent.parent / "tests" / "golden"


def record(rules: str, games: int, rounds: int) -> Path:
    out = []
    for seed in range(games):
        result = play_game(rules, seed, rounds, check=False)
        log = result.log
        replayed = GameLog(log.initial)
        hashes = [replayed.append(e.action, e.events).hash()[:16] for e in log.entries]
        out.append({
            "seed": seed,
            "rounds": rounds,
            "initial_hash": log.initial.hash(),
            "actions": [e.action for e in log.entries],
            "hashes": hashes,
            "final_hash": log.state.hash(),
            "winner": log.state.winner,
        })
        print(rules, seed, len(log.entries), log.state.winner, flush=True)
    path = HERE / f"{rules}.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump({"format": "aare-golden", "rules": rules, "games": out}, fh, separators=(",", ":"))
    return path


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rules", nargs="*", default=["lhtr-1.3", "aare-5.0"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    for rules in args.rules:
        print(record(rules, args.games, args.rounds))


if __name__ == "__main__":
    main()
