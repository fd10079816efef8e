"""Record golden games: self-play games whose files later code must load and play out to the same state hashes.

    .venv/bin/python scripts/record_golden.py [--games 20] [--rounds 5] [RULES ...]
    .venv/bin/python scripts/record_golden.py --again      # same games, files written anew (format change)

Writes tests/golden/<rules>.json.gz: for each game its seed, its game file (hash chain included) and the state
hash after each entry. `--again` plays the recorded actions once more and refuses to write unless every state
hash is the one recorded before. Record new games only when a change of behaviour is intended, and say why.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.selfplay import play_game

HERE = Path(__file__).resolve().parent.parent / "tests" / "golden"
FORMAT = "aare-golden"
VERSION = 2


def _hashes(log: GameLog) -> list[str]:
    replayed = GameLog(log.initial)
    return [replayed.append(e.action, e.events).hash()[:16] for e in log.entries]


def _record(seed: int, log: GameLog) -> dict[str, Any]:
    return {"seed": seed, "game": log.to_json(), "hashes": _hashes(log), "winner": log.state.winner}


def read(rules: str) -> dict[str, Any]:
    with gzip.open(HERE / f"{rules}.json.gz", "rt", encoding="utf-8") as fh:
        data: dict[str, Any] = json.load(fh)
    return data


def write(rules: str, games: list[dict[str, Any]]) -> Path:
    path = HERE / f"{rules}.json.gz"
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        json.dump({"format": FORMAT, "version": VERSION, "rules": rules, "games": games}, fh,
                  separators=(",", ":"))
    return path


def record(rules: str, games: int, rounds: int) -> Path:
    out = []
    for seed in range(games):
        result = play_game(rules, seed, rounds, check=False)
        out.append(_record(seed, result.log))
        print(rules, seed, len(result.log.entries), result.log.state.winner, flush=True)
    return write(rules, out)


def again(rules: str) -> Path:
    """The recorded games played again from their actions, written in the current format."""
    out = []
    for old in read(rules)["games"]:
        actions = old["actions"] if "actions" in old else [e["action"] for e in old["game"]["entries"]]
        game = Game(new_game(rules, None, old["seed"]))
        for action in actions:
            game.apply(action)
        fresh = _record(old["seed"], game.log)
        if fresh["hashes"] != old["hashes"]:
            raise SystemExit(f"{rules} seed {old['seed']}: the state hashes differ from the recorded ones")
        out.append(fresh)
        print(rules, old["seed"], len(actions), "same hashes", flush=True)
    return write(rules, out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("rules", nargs="*", default=["lhtr-1.3", "aare-5.0"])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--again", action="store_true", help="write the recorded games anew, same hashes")
    args = parser.parse_args()
    for rules in args.rules:
        print(again(rules) if args.again else record(rules, args.games, args.rounds))


if __name__ == "__main__":
    main()
