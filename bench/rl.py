"""Environment benchmark: steps per second of `aare_lhtr_v0` with random masked actions, against the engine's
own random-bot loop (`Game.apply` of the random bot's choices) measured in the same run. Each rate is given per
second of wall time and per second of processor time (`time.process_time`, less disturbed on a loaded machine).

    python bench/rl.py [--steps N] [--seed S] [--max-cycles C] [--rounds R] [--json]

It also runs the environment with the move lists made afresh at every state (`aare.movement.memo` off), the
same code before that memo. With `--rounds R` the baseline and the environment run one after the other R times
(the machine's speed drifts from minute to minute: each round's pair shares its minute) and each rate is the
median of its rounds, with the lowest and highest; `--json` prints one JSON object instead of text. A warm-up of
`--warm-up` steps of each (other seeds) comes first, untimed. The machine's processor, cores and load average are
printed with the figures (`bench/machine.py`).

Needs the `rl` extra (pip install -e '.[rl]').
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import numpy as np
from machine import facts

from aare.ai import make_bot
from aare.engine import Game
from aare.game_setup import new_game
from aare.movement import memo
from aare.rl import aare_lhtr_v0

RULES = "lhtr-1.3"


def env_steps(steps: int, seed: int, max_cycles: int) -> tuple[int, float, float]:
    """Random masked actions through the environment (observations of the agent to act included)."""
    env = aare_lhtr_v0.raw_env(max_cycles=max_cycles)
    rng = np.random.default_rng(seed)
    done, game = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        env.reset(seed=seed + game)
        game += 1
        for _agent in env.agent_iter():
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            legal = np.flatnonzero(obs["action_mask"])
            env.step(int(legal[rng.integers(len(legal))]))  # (half the cost of rng.choice)
            done += 1
            if done >= steps:
                break
    return done, time.perf_counter() - start, time.process_time() - cpu


def engine_steps(steps: int, seed: int) -> tuple[int, float, float]:
    """The baseline: the random bot choosing and the engine applying, no observations, no full action lists."""
    done, game = 0, 0
    start, cpu = time.perf_counter(), time.process_time()
    while done < steps:
        play = Game(new_game(RULES, None, seed + game))
        bot = make_bot("random", seed + game)
        game += 1
        while play.state.winner is None and done < steps:
            play.apply(bot.choose(play))
            done += 1
    return done, time.perf_counter() - start, time.process_time() - cpu


def _rates(n: int, seconds: float, cpu: float) -> dict[str, float]:
    return {"steps": n, "per_second": n / seconds, "per_processor_second": n / cpu}


def _summary(rounds: list[dict[str, float]]) -> dict[str, float]:
    """The median of each rate over the rounds, with its lowest and highest."""
    out: dict[str, float] = {"steps": sum(r["steps"] for r in rounds)}
    for key in ("per_second", "per_processor_second"):
        values = [r[key] for r in rounds]
        out[key] = round(statistics.median(values), 1)
        out[f"{key}_lowest"], out[f"{key}_highest"] = round(min(values), 1), round(max(values), 1)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500, help="steps (actions) per run")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-cycles", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=1, help="baseline and environment runs, alternated")
    parser.add_argument("--no-memo-run", action="store_true", help="skip the run without the move memo")
    parser.add_argument("--warm-up", type=int, default=200, help="steps of each run made first, not counted")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args()
    if args.warm_up:  # (the board, the rulesets and the caches are made once, before any run is timed)
        engine_steps(args.warm_up, args.seed + 1000)
        env_steps(args.warm_up, args.seed + 1000, args.max_cycles)
    runs: dict[str, list[dict[str, float]]] = {"baseline": [], "no_memo": [], "env": []}
    for _ in range(args.rounds):
        runs["baseline"].append(_rates(*engine_steps(args.steps, args.seed)))
        if not args.no_memo_run:
            keep = memo.memo_for
            memo.memo_for = lambda view, combat: None
            runs["no_memo"].append(_rates(*env_steps(args.steps, args.seed, args.max_cycles)))
            memo.memo_for = keep
        runs["env"].append(_rates(*env_steps(args.steps, args.seed, args.max_cycles)))
    base, env = _summary(runs["baseline"]), _summary(runs["env"])
    machine = facts(flush=False)
    if args.json:
        report = {"env": "aare_lhtr_v0", "steps_per_round": args.steps, "rounds": args.rounds, "warm_up": args.warm_up,
                  "steps_per_second": env["per_second"], "steps_per_processor_second": env["per_processor_second"],
                  "ratio_to_baseline": round(env["per_second"] / base["per_second"], 3),
                  "ratio_to_baseline_processor": round(env["per_processor_second"] / base["per_processor_second"], 3),
                  "environment": env, "baseline": base, "rounds_detail": runs, "machine": machine}
        if runs["no_memo"]:
            report["no_memo"] = _summary(runs["no_memo"])
        print(json.dumps(report, indent=2))
        return
    spread = args.rounds > 1
    print(f"machine: {machine['cpu_model'] or 'unknown processor'}, {machine['cpus']} cores, "
          f"load average {machine['load_average_1min']}")
    print(_line("baseline (engine, random bot)", "actions", base, None, spread))
    if runs["no_memo"]:
        print(_line("aare_lhtr_v0, no move memo", "steps", _summary(runs["no_memo"]), base, spread))
    print(_line("aare_lhtr_v0 (random masked actions)", "steps", env, base, spread))


def _line(name: str, unit: str, rates: dict[str, float], base: dict[str, float] | None, spread: bool) -> str:
    """One line of the text report: a run's rates (medians, with the range over rounds), against the baseline."""
    parts = []
    for key, label in (("per_second", f"{unit}/s"), ("per_processor_second", "per processor-second")):
        text = f"{rates[key]:.0f} {label}"
        if spread:
            text += f" ({rates[key + '_lowest']:.0f}-{rates[key + '_highest']:.0f})"
        if base is not None:
            text += f" ({rates[key] / base[key]:.2f}x the baseline)"
        parts.append(text)
    rounds = " (medians of the rounds)" if spread else ""
    return f"{name}: {rates['steps']:.0f} {unit}{rounds}: " + ", ".join(parts)


if __name__ == "__main__":
    main()
