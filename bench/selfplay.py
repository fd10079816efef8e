"""Self-play benchmark: seconds per full random-legal game, the profile's hot spots, and a baseline.

    python bench/selfplay.py [--games N] [--rounds R] [--seed S] [--top K]

Plays N games of R rounds (default 3 x 10) with the random bot, every step checked against the invariants,
then one pass-bot game of the same length (every phase ended at once: the engine's fixed cost per turn)
as the baseline, and prints seconds per game, the ratio random / baseline, and the top K functions of a
cProfile run of one random game (by own time and by cumulative time).
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import time

from aare.ai import PassBot
from aare.selfplay import play_game


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--rounds", type=int, default=10)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--top", type=int, default=15)
    args = parser.parse_args()

    times, cpu, actions, violations, dead_ends = [], [], 0, 0, 0
    for i in range(args.games):
        start, start_cpu = time.perf_counter(), time.process_time()
        result = play_game(seed=args.seed + i, rounds=args.rounds)
        times.append(time.perf_counter() - start)
        cpu.append(time.process_time() - start_cpu)
        actions += result.actions
        violations += len(result.violations)
        dead_ends += len(result.stuck)
        print(f"game {i + 1}: {result.rounds_played} rounds, {result.actions} actions, {times[-1]:.2f} s "
              f"({cpu[-1]:.2f} s CPU)")
    start = time.perf_counter()
    play_game(seed=args.seed, rounds=args.rounds, bot=PassBot())
    baseline = time.perf_counter() - start
    per_game = sum(times) / len(times)
    per_game_cpu = sum(cpu) / len(cpu)
    print(f"\nrandom bot: {per_game:.3f} s per {args.rounds}-round game ({actions / args.games:.0f} actions, "
          f"{1000 * sum(times) / max(actions, 1):.2f} ms per action); invariant violations {violations}; "
          f"dead ends {dead_ends}")
    print(f"CPU time: {per_game_cpu:.3f} s per game (less sensitive to other load on the machine)")
    print(f"baseline (pass bot, same rounds): {baseline:.3f} s; ratio {per_game / baseline:.1f}x")
    target = 2.0 * args.rounds / 10
    print(f"target: <= 2 s per 10-round game: wall {'met' if per_game <= target else 'NOT met'}, "
          f"CPU {'met' if per_game_cpu <= target else 'NOT met'}")

    profile = cProfile.Profile()
    profile.enable()
    play_game(seed=args.seed, rounds=args.rounds)
    profile.disable()
    for key in ("tottime", "cumulative"):
        out = io.StringIO()
        pstats.Stats(profile, stream=out).sort_stats(key).print_stats(args.top)
        lines = out.getvalue().splitlines()
        start_at = next(i for i, line in enumerate(lines) if line.lstrip().startswith("ncalls"))
        print(f"\nhot spots by {key}:")
        print("\n".join(lines[start_at : start_at + args.top + 1]))


if __name__ == "__main__":
    main()
