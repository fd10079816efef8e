"""Tournaments: bots play each other on one ruleset, every seed twice with the sides swapped and the same dice.

`run(...)` plays `pairs` seeds; seed `seed + i` gives game `2i` (the first bot on the first side of the board,
the second bot on the other) and game `2i + 1` (sides swapped). Both games roll the same dice stream: the dice
are the game's seeded dice (`new_game(seed=...)`), and each bot gets a seed made from the game's seed and its
side. A game ends when a side wins or at the round cap, and is then scored against its start (`score_game`,
docs/ai.md). Games run on an executor (`concurrent.futures`: inline, local processes or a Dask cluster) and are
collected in game order, so the report does not depend on the executor or the number of workers; only the
timings do.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import Executor, Future, ProcessPoolExecutor, as_completed
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from aare.actions import EndPhase
from aare.ai import Bot, NoLegalAction, bot_names, make_bot
from aare.economy.summary import income
from aare.engine import Acting, Game
from aare.errors import MalformedInput
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.selfplay import play_game
from aare.state.game_state import GameState

Z95 = 1.959963984540054


@dataclass
class MatchResult:
    """One tournament game: who played which side, the outcome for the first bot, the scoring figures."""

    index: int
    seed: int
    sides: dict[str, str]  # side -> bot name
    winner: str | None  # the winning side, by victory or by the round-cap score; None: a draw
    by: str  # "victory", "cities", "material" or "draw"
    margins: dict[str, float]
    rounds_played: int
    actions: int
    dead_ends: int
    refused: int
    turn_seconds: dict[str, list[float]] = field(default_factory=dict)  # bot -> seconds per power-turn
    turn_cpu_seconds: dict[str, list[float]] = field(default_factory=dict)  # bot -> CPU seconds per power-turn

    def points(self, side: str) -> float:
        """What the game is worth to `side`: 1 a win, 0.5 a draw, 0 a loss."""
        if self.winner is None:
            return 0.5
        return 1.0 if self.winner == side else 0.0


class Seats:
    """The bots of a game by side: each decision goes to the bot of the side of the power that decides it.
    Records each bot's thinking time per power-turn and replaces an action `apply` would refuse (counted)."""

    def __init__(self, bots: Mapping[str, Bot], ruleset: Ruleset) -> None:
        self.bots = dict(bots)
        self.board = ruleset.board
        self.refused = 0
        self.seconds: dict[tuple[int, str, str], float] = {}
        self.cpu: dict[tuple[int, str, str], float] = {}
        self.name = "seats"

    def choose(self, game: Game) -> Any:
        power = game.power if isinstance(game, Acting) else next(iter(game.to_act()), game.state.nation)
        bot = self.bots[self.board.side_of(power)]
        start, cpu = time.perf_counter(), time.process_time()
        try:
            action = bot.choose(game)
        finally:
            key = (game.log.state.round, game.log.state.nation, power)
            self.seconds[key] = self.seconds.get(key, 0.0) + time.perf_counter() - start
            self.cpu[key] = self.cpu.get(key, 0.0) + time.process_time() - cpu
        if game.is_legal(action):
            return action
        self.refused += 1
        if game.is_legal(EndPhase()):
            return EndPhase()
        legal = game.legal_actions()
        if not legal:
            raise NoLegalAction(f"no legal action for {power}")
        return legal[0]

    def turn_seconds(self, cpu: bool = False) -> dict[str, list[float]]:
        """Bot name -> its thinking seconds (`cpu`: the process's CPU seconds) per power-turn, in the order the
        turns came."""
        out: dict[str, list[float]] = {}
        for (_, _, power), seconds in (self.cpu if cpu else self.seconds).items():
            out.setdefault(self.bots[self.board.side_of(power)].name, []).append(seconds)
        return out


def sides_of(ruleset: Ruleset) -> list[str]:
    """The board's sides, in the order their first power plays."""
    return list(dict.fromkeys(ruleset.board.side_of(p.name) for p in ruleset.board.powers))


def side_figures(state: GameState, ruleset: Ruleset, side: str) -> tuple[int, int]:
    """(victory cities, unit value + income) of `side`: cities from the `victory_cities` hook; unit value is
    the cost of its units on the board (buildings excepted); income is what its powers would collect now,
    their territories and the ruleset's bonuses (national objectives) included."""
    board, units = ruleset.board, ruleset.units
    powers = [p.name for p in board.powers if board.side_of(p.name) == side]
    cities = sum(1 for t in ruleset.victory_cities() if state.owners.get(t) in powers)
    value = sum(
        stack.count * units[stack.unit].cost
        for stacks in state.units.values()
        for stack in stacks
        if stack.owner in powers and units[stack.unit].domain != "building"
    )
    return cities, value + sum(income(state, ruleset, p) for p in powers)


def score_game(start: GameState, end: GameState, ruleset: Ruleset) -> tuple[str | None, str, dict[str, float]]:
    """(winning side or None for a draw, what decided it, the margins): a side that won wins; else the side
    whose victory cities grew more than the opponent's since the start; else the side whose unit value plus
    income grew more; else a draw."""
    sides = sides_of(ruleset)
    if end.winner is not None:
        return end.winner, "victory", {}
    first, second = sides[0], sides[-1]
    before = {s: side_figures(start, ruleset, s) for s in (first, second)}
    after = {s: side_figures(end, ruleset, s) for s in (first, second)}
    cities = (after[first][0] - before[first][0]) - (after[second][0] - before[second][0])
    material = (after[first][1] - before[first][1]) - (after[second][1] - before[second][1])
    margins = {"cities": float(cities), "material": float(material)}
    if cities:
        return (first if cities > 0 else second), "cities", margins
    if material:
        return (first if material > 0 else second), "material", margins
    return None, "draw", margins


def bot_seed(seed: int, side_index: int) -> int:
    """The seed a bot plays with: from the game's seed and its side, so swapping sides keeps each side's."""
    return seed * 2 + side_index


def play_match(
    index: int,
    rules: str,
    seed: int,
    sides: Mapping[str, str],
    rounds: int,
    options: Mapping[str, Any] | None = None,
    budget: float | None = None,
    work: int | None = None,
) -> MatchResult:
    """Play one tournament game (`sides`: side -> bot name) and score it."""
    ruleset = load_ruleset(rules, options)
    order = sides_of(ruleset)
    bots = {side: make_bot(name, bot_seed(seed, order.index(side)), budget=budget, work=work)
            for side, name in sides.items()}
    seats = Seats(bots, ruleset)
    result = play_game(rules, seed, rounds, seats, options, check=False)
    winner, by, margins = score_game(result.log.initial, result.log.state, ruleset)
    return MatchResult(index, seed, dict(sides), winner, by, margins, result.rounds_played, result.actions,
                       len(result.stuck), seats.refused, seats.turn_seconds(),
                       seats.turn_seconds(cpu=True))


def schedule(rules: str, bots: Sequence[str], pairs: int, seed: int,
             options: Mapping[str, Any] | None = None) -> list[tuple[int, int, dict[str, str]]]:
    """(game index, seed, side -> bot) of every game: each seed twice, sides swapped."""
    if len(bots) != 2:
        raise MalformedInput(f"a tournament pairs two bots, got {len(bots)}")
    known = bot_names()
    for name in bots:
        if name not in known:
            raise MalformedInput(f"unknown bot {name!r} (known: {', '.join(known)})")
    first, second = sides_of(load_ruleset(rules, options))[:2]
    games = []
    for i in range(pairs):
        games.append((2 * i, seed + i, {first: bots[0], second: bots[1]}))
        games.append((2 * i + 1, seed + i, {first: bots[1], second: bots[0]}))
    return games


@contextmanager
def executor_for(workers: int = 1, cluster: str | None = None) -> Iterator[Executor | None]:
    """The executor games run on: None (this process) for one worker, local processes for several, or an
    existing Dask cluster's workers (`cluster`: the scheduler's address; needs the `cluster` extra)."""
    if cluster is not None:
        try:
            from distributed import Client
        except ImportError:
            raise MalformedInput("--cluster needs dask.distributed: pip install 'aare[cluster]'") from None
        connect: Any = Client  # untyped
        with connect(cluster) as client:
            yield client.get_executor()
        return
    if workers <= 1:
        yield None
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        yield pool


Progress = Callable[[int, int, MatchResult], None]


def play_all(games: Sequence[tuple[int, int, dict[str, str]]], rules: str, rounds: int,
             options: Mapping[str, Any] | None, budget: float | None, work: int | None,
             executor: Executor | None, progress: Progress | None) -> list[MatchResult]:
    """Every game's result, in game order, whatever order the executor finishes them in."""
    results: dict[int, MatchResult] = {}

    def done(result: MatchResult) -> None:
        results[result.index] = result
        if progress is not None:
            progress(len(results), len(games), result)

    if executor is None:
        for index, game_seed, sides in games:
            done(play_match(index, rules, game_seed, sides, rounds, options, budget, work))
    else:
        futures: list[Future[MatchResult]] = [
            executor.submit(play_match, index, rules, game_seed, sides, rounds, options, budget, work)
            for index, game_seed, sides in games
        ]
        for future in as_completed(futures):
            done(future.result())
    return [results[i] for i in sorted(results)]


def wilson(points: float, n: int, z: float = Z95) -> list[float]:
    """The Wilson score interval of a score of `points` out of `n` games (draws count half)."""
    if n == 0:
        return [0.0, 1.0]
    p = points / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return [round(max(0.0, centre - half), 4), round(min(1.0, centre + half), 4)]


def percentile(values: Sequence[float], q: float) -> float:
    """The `q` quantile (0..1) of `values` by the nearest rank; 0 when there are none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))]


def ratings(names: Sequence[str], results: Sequence[MatchResult]) -> dict[str, dict[str, float]] | None:
    """Openskill (Plackett-Luce) ratings of every bot from the games in order: {bot: {mu, sigma, ordinal}};
    None when the `openskill` package is not installed (the `ai` extra)."""
    try:
        from openskill.models import PlackettLuce
    except ImportError:
        return None
    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in names}
    for result in results:
        (first, a), (_, b) = sorted(result.sides.items())
        if a == b:
            continue
        ranks = [0.0, 0.0] if result.winner is None else ([0.0, 1.0] if result.winner == first else [1.0, 0.0])
        [[current[a]], [current[b]]] = model.rate([[current[a]], [current[b]]], ranks=ranks)
    return {name: {"mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "ordinal": round(r.ordinal(), 3)}
            for name, r in current.items()}


def report(rules: str, bots: Sequence[str], results: Sequence[MatchResult], rounds: int, seed: int,
           options: Mapping[str, Any] | None = None, budget: float | None = None) -> dict[str, Any]:
    """The tournament's report: per bot its score overall and per side, Wilson 95 % intervals, rating and
    thinking time per power-turn (with a budget: how many turns went over it); the games one by one."""
    sides = sides_of(load_ruleset(rules, options))
    rated = ratings(list(dict.fromkeys(bots)), results)
    out: dict[str, Any] = {}
    for name in dict.fromkeys(bots):
        played = [(r, s) for r in results for s, b in sorted(r.sides.items()) if b == name]
        points = sum(r.points(s) for r, s in played)
        per_side = {}
        for side in sides:
            here = [(r, s) for r, s in played if s == side]
            side_points = sum(r.points(s) for r, s in here)
            per_side[side] = {"games": len(here), "score": round(side_points / len(here), 4) if here else 0.0,
                              "wilson": wilson(side_points, len(here))}
        seconds = [t for r in results for t in r.turn_seconds.get(name, [])]
        cpu = [t for r in results for t in r.turn_cpu_seconds.get(name, [])]
        out[name] = {
            "games": len(played),
            "score": round(points / len(played), 4) if played else 0.0,
            "wilson": wilson(points, len(played)),
            "rating": None if rated is None else rated[name],
            "wins": sum(1 for r, s in played if r.points(s) == 1.0),
            "draws": sum(1 for r, s in played if r.points(s) == 0.5),
            "losses": sum(1 for r, s in played if r.points(s) == 0.0),
            "sides": per_side,
            "turn_seconds": {"p50": round(percentile(seconds, 0.5), 4), "p95": round(percentile(seconds, 0.95), 4),
                             "turns": len(seconds), "cpu_p50": round(percentile(cpu, 0.5), 4),
                             "cpu_p95": round(percentile(cpu, 0.95), 4)},
        }
        if budget is not None:
            out[name]["turn_seconds"]["over_budget"] = sum(1 for t in seconds if t > budget)
    return {
        "rules": rules,
        "seed": seed,
        "rounds": rounds,
        "games": len(results),
        "bots": out,
        "dead_ends": sum(r.dead_ends for r in results),
        "refused": sum(r.refused for r in results),
        "results": [
            {"game": r.index, "seed": r.seed, "sides": r.sides, "winner": r.winner, "by": r.by,
             "margins": r.margins, "rounds_played": r.rounds_played, "actions": r.actions}
            for r in results
        ],
    }


def run(
    rules: str,
    bots: Sequence[str],
    pairs: int = 1,
    rounds: int = 12,
    seed: int = 0,
    options: Mapping[str, Any] | None = None,
    budget: float | None = None,
    work: int | None = None,
    workers: int = 1,
    cluster: str | None = None,
    executor: Executor | None = None,
    progress: Progress | None = None,
) -> dict[str, Any]:
    """Play a tournament of two bots (by name) and report on it (`report`). Games run on `executor` when one is
    given, else as `workers` / `cluster` say (`executor_for`)."""
    games = schedule(rules, bots, pairs, seed, options)
    if executor is not None:
        results = play_all(games, rules, rounds, options, budget, work, executor, progress)
    else:
        with executor_for(workers, cluster) as chosen:
            results = play_all(games, rules, rounds, options, budget, work, chosen, progress)
    return report(rules, bots, results, rounds, seed, options, budget)
