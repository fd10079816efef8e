"""Environment benchmark: steps per second of `aare_lhtr_v0` with random masked actions, against the engine's
own random-bot loop (`Game.apply` of the random bot's choices) measured in the same run. Each rate is given per
second of wall time and per second of processor time (`time.process_time`, less disturbed on a loaded machine).

    python bench/rl.py [--steps N] [--seed S] [--max-cycles C]

It also runs the environment with the move lists made afresh at every state (`aare.movement.memo` off), the
same code before that memo.

Needs the `rl` extra (pip install -e '.[rl]').
"""

from __future__ import annotations

import argparse
import time

import numpy as np

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-cycles", type=int, default=20)
    args = parser.parse_args()
    n, seconds, cpu = engine_steps(args.steps, args.seed)
    base, base_cpu = n / seconds, n / cpu
    print(f"baseline (engine, random bot): {n} actions in {seconds:.2f} s: {base:.0f} actions/s, "
          f"{base_cpu:.0f} per processor-second")
    keep = memo.memo_for
    memo.memo_for = lambda view, combat: None
    n, seconds, cpu = env_steps(args.steps, args.seed, args.max_cycles)
    memo.memo_for = keep
    print(f"aare_lhtr_v0, no move memo: {n} steps in {seconds:.2f} s: {n / seconds:.0f} steps/s "
          f"({n / seconds / base:.2f}x the baseline), {n / cpu:.0f} per processor-second ({n / cpu / base_cpu:.2f}x)")
    n, seconds, cpu = env_steps(args.steps, args.seed, args.max_cycles)
    rate, rate_cpu = n / seconds, n / cpu
    print(f"aare_lhtr_v0 (random masked actions): {n} steps in {seconds:.2f} s: {rate:.0f} steps/s "
          f"({rate / base:.2f}x the baseline), {rate_cpu:.0f} per processor-second ({rate_cpu / base_cpu:.2f}x)")

if __name__ == "__main__":
    main()
