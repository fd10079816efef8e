"""Self-play: bots play whole games against themselves, every step checked against the invariants and
every log checked to replay bit for bit. `selfplay(...)` returns the report `aare selfplay` prints."""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

from aare.actions import EndPhase
from aare.ai import Bot, NoLegalAction, make_bot
from aare.engine import Game
from aare.game_log import GameLog, LogEntry
from aare.game_setup import new_game
from aare.invariants import check_log, check_step
from aare.rules.options import OptionSpec, OptionValue
from aare.rules.registry import default_ruleset
from aare.rules.ruleset import load_spec

Progress = Callable[[int, "GameResult"], None]


@dataclass
class GameResult:
    """One game: its seed, how far it went, who won, the invariant violations and dead ends found, its log."""

    seed: int
    rounds_played: int
    winner: str | None
    actions: int
    seconds: float
    log: GameLog
    violations: list[str] = field(default_factory=list)
    stuck: list[str] = field(default_factory=list)
    replayed: bool = True


def play_game(
    rules: str | None = None,
    seed: int = 0,
    rounds: int = 10,
    bot: Bot | None = None,
    options: Mapping[str, Any] | None = None,
    check: bool = True,
    max_actions: int = 100_000,
    max_stuck: int = 50,
) -> GameResult:
    """Play one game with `bot` (a seeded random bot by default) for every power until a side wins or
    `rounds` rounds are complete. When no action at all is legal (a dead end) the phase's actions are taken back
    and the phase ended, recorded in `stuck`; the game stops if that fails or happens over `max_stuck` times."""
    start = time.perf_counter()
    rules = rules or default_ruleset()
    game = Game(new_game(rules, options, seed))
    bot = bot if bot is not None else make_bot("random", seed)
    ruleset = game.ruleset
    violations: list[str] = []
    stuck: list[str] = []
    actions = 0
    turns = random.Random(seed)  # which member of a team turn acts next
    while game.state.winner is None and game.state.round <= rounds and actions < max_actions:
        before = game.state
        power = turns.choice(game.to_act()) if game.state.members else None
        player = game if power is None else game.acting_as(power)
        try:
            action = bot.choose(player)
        except NoLegalAction as exc:
            if power is not None and _others_can_act(game, power):
                continue  # `power` waits, e.g. for a teammate's battle in the same space: another member acts
            stuck.append(str(exc))
            if len(stuck) > max_stuck or not _back_out(player):
                break
            before, action = game.state, EndPhase()
        events = player.apply(action)
        actions += 1
        if check:
            found = check_step(before, events, game.state, ruleset)
            violations += [f"action {actions} ({before.nation} {before.phase}): {v}" for v in found]
    replay_problems = check_log(game.log) if check else []
    violations += replay_problems
    state = game.state
    played = state.round if state.winner is not None else state.round - 1
    seconds = time.perf_counter() - start
    return GameResult(seed, max(played, 0), state.winner, actions, seconds, game.log, violations, stuck,
                      check and not replay_problems)


def _others_can_act(game: Game, power: str) -> bool:
    """Whether another power to act in this team turn has a legal action."""
    return any(game.acting_as(p).legal_actions() for p in game.to_act() if p != power)


def _back_out(game: Game) -> bool:
    """Take back the actions of a phase that cannot go on, as far as undo would (never past a die roll or
    the end of a phase), replaying once; True if the phase may then end (it is left undone)."""
    log = game.log
    kept = len(log.entries)
    while kept and _undoable(log.entries[kept - 1]):
        kept -= 1
    if kept < len(log.entries):
        del log.entries[kept:]
        log.state = log.replay()
    return game.is_legal(EndPhase())


def _undoable(entry: LogEntry) -> bool:
    action = entry.action or {}
    return action.get("type") != "end_phase" and not any(e.type == "dice_rolled" for e in entry.events)


def random_options(rules: str, seed: int) -> dict[str, OptionValue]:
    """Options drawn at random from `seed`: each yes/no option and each option with a list of choices of the
    ruleset takes any of its values with equal chance (the others keep their defaults)."""
    draw = random.Random(f"options {seed}")
    return {o.key: draw.choice(_values(o)) for o in load_spec(rules).option_specs if _values(o)}


def _values(spec: OptionSpec) -> tuple[OptionValue, ...]:
    return (False, True) if spec.type is bool else spec.choices


def selfplay(
    rules: str | None = None,
    games: int = 1,
    seed: int = 0,
    rounds: int = 10,
    bot: str = "random",
    options: Mapping[str, Any] | None = None,
    progress: Progress | None = None,
    randomise: bool = False,
) -> dict[str, Any]:
    """Play `games` games (seeds `seed`, `seed + 1`, ...) and report on them. With `randomise` each game draws
    its options from its seed (`random_options`; `options` given still hold), listed in the report by seed."""
    rules = rules or default_ruleset()
    results: list[GameResult] = []
    drawn: dict[str, dict[str, Any]] = {}
    for i in range(games):
        chosen: Mapping[str, Any] | None = options
        if randomise:
            chosen = drawn[str(seed + i)] = {**random_options(rules, seed + i), **(options or {})}
        result = play_game(rules, seed + i, rounds, make_bot(bot, seed + i), chosen)
        results.append(result)
        if progress is not None:
            progress(i, result)
    winners: dict[str, int] = {}
    for r in results:
        key = r.winner or "none"
        winners[key] = winners.get(key, 0) + 1
    violations = [v for r in results for v in r.violations]
    seconds = sum(r.seconds for r in results)
    return {
        "rules": rules,
        "bot": bot,
        "games": games,
        "finished": sum(1 for r in results if r.winner is not None),
        "rounds_played": sum(r.rounds_played for r in results),
        "winners": dict(sorted(winners.items())),
        "invariant_violations": len(violations),
        "violation_examples": violations[:10],
        "dead_ends": sum(len(r.stuck) for r in results),
        "dead_end_examples": sorted({f"seed {r.seed}: {s}" for r in results for s in r.stuck})[:10],
        "actions": sum(r.actions for r in results),
        "seconds_per_game": round(seconds / games, 4) if games else 0.0,
        "replayed": sum(1 for r in results if r.replayed),
        **({"options_by_seed": drawn} if randomise else {}),
    }


def play_for(game: Game, bot: Bot, powers: Collection[str] | None = None, until_round: int | None = None,
             max_actions: int = 100_000) -> int:
    """Let `bot` play every decision that falls to `powers` (default: every power), battle decisions included,
    until round `until_round` begins or, without it, until the turn in play when called ends; it stops early
    when the game ends or waits for a power not in `powers`. Returns the number of actions applied."""
    start = (game.state.round, game.state.nation)
    actions = 0
    while game.state.winner is None and actions < max_actions:
        state = game.state
        if until_round is not None and state.round >= until_round:
            break
        if until_round is None and (state.round, state.nation) != start:
            break
        ours = [p for p in game.to_act() if powers is None or p in powers]
        if not ours:
            break
        player = game.acting_as(ours[0]) if state.members else game
        player.apply(bot.choose(player))
        actions += 1
    return actions
