"""The bot protocol: given a game, choose one action that `Game.apply` accepts."""

from __future__ import annotations

import random
from typing import Any, Protocol

from aare.actions import EndPhase
from aare.engine import Game
from aare.errors import AareError, IllegalAction
from aare.game_log import GameLog
from aare.phases.base import TurnContext, phase_candidates


class NoLegalAction(AareError):
    """The game offers no legal action at all: play is stuck (an engine fault, reported by self-play)."""


def sample_legal(game: Game, rng: random.Random, spaces: int = 6) -> Any | None:
    """A random legal action other than `end_phase`, or None if there is none. Cheaper than listing every
    legal action: the phase's candidates are tried in random order, first those touching a few random
    spaces where the moving power has units, then all of them."""
    state = game.state
    if state.pending is not None:
        legal = [a for a in game.legal_actions() if a.type != "end_phase"]
        return rng.choice(legal) if legal else None
    ctx = TurnContext(state, game.ruleset)
    own = sorted(s for s, stacks in state.units.items() if any(st.owner == state.nation for st in stacks))
    rng.shuffle(own)
    for space in [*own[:spaces], None]:
        candidates = phase_candidates(ctx, space)
        rng.shuffle(candidates)
        found = next((a for a in candidates if game.is_legal(a)), None)
        if found is not None:
            return found
    return None


def legal_or_stuck(game: Game) -> list[Any]:
    """`game.legal_actions()`, or NoLegalAction saying why not even `end_phase` is allowed."""
    legal = game.legal_actions()
    if legal:
        return legal
    state = game.state
    where = f"round {state.round}, {state.nation}, {state.phase}"
    try:
        Game(GameLog(game.log.state)).apply(EndPhase(), getattr(game, "power", None))
    except IllegalAction as exc:
        raise NoLegalAction(f"no legal action ({where}): end_phase refused: {exc}") from None
    raise NoLegalAction(f"no legal action ({where})")


class Bot(Protocol):
    """A player for every power: answers whatever the game waits for (a phase action or a pending decision)."""

    name: str

    def choose(self, game: Game) -> Any:
        """An action legal in `game` now."""
        ...
