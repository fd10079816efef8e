"""The random bot: seeded, picks among legal actions, but shaped so games go on: it ends a free phase
with some probability, buys mostly land units up to what its complexes can place, and places all it can.
"""

from __future__ import annotations

import random
from typing import Any

from aare.actions import EndPhase, Place, Purchase, Repair
from aare.ai.bot import legal_or_stuck, sample_legal
from aare.board.notation import parse_units
from aare.economy.pool import pool
from aare.economy.production import coastal, producers
from aare.engine import Game
from aare.phases.base import TurnContext, phase_extensions

# Relative purchase weights by unit id (sea units only when a complex borders the sea).
WEIGHTS = {"infantry": 8.0, "artillery": 3.0, "armour": 3.0, "fighter": 1.5, "bomber": 0.7, "aa_gun": 0.2,
           "factory": 0.05, "transport": 0.8, "submarine": 0.6, "destroyer": 0.6, "carrier": 0.3, "battleship": 0.2}


class RandomBot:
    name = "random"

    def __init__(self, seed: int = 0, end_probability: float = 0.3, research_probability: float = 0.05,
                 max_phase_actions: int = 40) -> None:
        self.rng = random.Random(seed)
        self.end_probability = end_probability
        self.research_probability = research_probability
        self.max_phase_actions = max_phase_actions
        self._phase: tuple[int, str, str] | None = None
        self._count = 0

    def choose(self, game: Game) -> Any:
        state = game.state
        if state.pending is not None:
            return self.rng.choice(legal_or_stuck(game))
        cursor = (state.round, state.nation, state.phase)
        self._count = self._count + 1 if cursor == self._phase else 0
        self._phase = cursor
        ctx = TurnContext(state, game.ruleset)
        added = [a for e in phase_extensions(ctx) for a in e.candidates(ctx) if game.is_legal(a)]
        if added and (self._count == 0 or self.rng.random() < 0.5):
            return self.rng.choice(added)
        if state.phase == "purchase":
            return self._purchase(game)
        if state.phase in ("mobilize", "setup-bid"):
            return self._place(game)
        if state.phase == "develop-weapons":
            if self._count == 0 and self.rng.random() < self.research_probability:
                research = [a for a in game.legal_actions() if a.type == "research"]
                if research:
                    return self.rng.choice(research)
            return EndPhase()
        end = EndPhase()
        tired = self._count >= self.max_phase_actions or self.rng.random() < self.end_probability
        if tired and game.is_legal(end):
            return end
        action = sample_legal(game, self.rng)
        if action is not None:
            return action
        return legal_or_stuck(game)[0]

    def _purchase(self, game: Game) -> Any:
        state, ruleset, power = game.state, game.ruleset, game.state.nation
        producing = producers(state, ruleset, power)
        room = sum(producing.values()) - sum(pool(state, power).values())
        legal = game.legal_actions()
        repairs = [a for a in legal if isinstance(a, Repair)]
        if repairs and self.rng.random() < 0.3:  # damaged complexes produce less: now and then repair some
            return self.rng.choice(repairs)
        if room <= 0 or self.rng.random() < 0.05:
            return EndPhase()
        sea = coastal(ruleset, producing)
        buys = [a for a in legal if isinstance(a, Purchase)]
        options = []
        for action in buys:
            unit = next(iter(parse_units(action.units, ruleset.units)))
            weight = WEIGHTS.get(unit, 0.5)
            if ruleset.units[unit].domain == "sea" and not sea:
                weight = 0.0
            if weight > 0:
                options.append((action, unit, weight))
        if not options:
            return EndPhase()
        action, unit, _ = self.rng.choices(options, weights=[w for _, _, w in options])[0]
        bulk = Purchase(units=f"{self.rng.randint(1, max(1, min(room, 4)))} {unit}")
        return bulk if game.is_legal(bulk) else action

    def _place(self, game: Game) -> Any:
        places = [a for a in game.legal_actions() if isinstance(a, Place)]
        if not places:
            return EndPhase()
        action = self.rng.choice(places)
        unit = next(iter(parse_units(action.units, game.ruleset.units)))
        waiting = pool(game.state, game.state.nation).get(unit, 1)
        bulk = Place(units=f"{self.rng.randint(1, max(1, waiting))} {unit}", space=action.space)
        return bulk if game.is_legal(bulk) else action
