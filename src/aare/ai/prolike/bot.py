"""The `prolike` bot: each phase planned when it starts by its stage module, the plan played while legal."""

from __future__ import annotations

import random
from typing import Any

from aare.actions import EndPhase, Move, Place, Purchase
from aare.ai.amphibious import Sealift
from aare.ai.greedy import GreedyBot
from aare.ai.prolike import battle, combat_move, noncombat_move, placement, purchase
from aare.ai.prolike.odds import Judge
from aare.ai.prolike.reading import power_of
from aare.engine import Game
from aare.phases.base import phase_handler
from aare.phases.combat_move import CombatMove
from aare.phases.noncombat_move import NonCombatMove
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


class ProlikeBot(GreedyBot):
    """Plays every power by the pipeline in the package docstring. `min_win`: the attack bar (0.65); `hold_at`:
    the hold chance at which a territory counts as held (0.35: the enemy's win chance below its attack bar)."""

    name = "prolike"

    def __init__(self, seed: int = 0, min_win: float = 0.65, hold_at: float = 0.35) -> None:
        super().__init__(seed)
        self.rng = random.Random(seed)
        self.judge = Judge(seed + 1)
        self.min_win = min_win
        self.hold_at = hold_at

    def _make_plan(self, game: Game, state: GameState, ruleset: Ruleset, me: str) -> list[Any]:
        handler = phase_handler(state.phase)
        legal = game.legal_actions()
        if any(isinstance(a, Purchase) for a in legal):
            return purchase.plan(self.judge, self.rng, legal, state, ruleset, me, self.hold_at)
        if any(isinstance(a, Place) for a in legal):
            return placement.plan(self.judge, legal, state, ruleset, me, self.hold_at)
        reach = self._reach((a for a in legal if isinstance(a, Move) and not a.raid), ruleset)
        if isinstance(handler, NonCombatMove):  # a kind of CombatMove: asked first
            sealift = Sealift(game, combat=False)
            return list(noncombat_move.plan(self.judge, reach, state, ruleset, me, self.hold_at, sealift))
        if isinstance(handler, CombatMove):
            sealift = Sealift(game, combat=True)
            return list(combat_move.plan(self.judge, reach, state, ruleset, me, self.min_win, self.hold_at,
                                         sealift))
        return []

    def _finish(self, game: Game, state: GameState) -> Any:
        """End the phase; if it may not (cargo loaded for an assault still aboard), put the cargo ashore."""
        if not game.is_legal(EndPhase()):
            board = game.ruleset.board
            ashore = [a for a in game.legal_actions() if isinstance(a, Move) and len(a.path) == 2
                      and board.spaces[a.path[0]].is_sea and board.spaces[a.path[1]].is_land]
            if ashore:
                return ashore[0]
        return super()._finish(game, state)

    def _decide(self, game: Game, state: GameState, ruleset: Ruleset) -> Any:
        """Press or retreat by the description's formula; casualties (the cheapest offered), submerging and
        the other decisions as `greedy` answers them."""
        if (state.pending or {}).get("kind") == "press_or_retreat":
            return battle.press_or_retreat(self.judge, game, state, ruleset, power_of(game))
        return super()._decide(game, state, ruleset)
