"""The pass bot: ends every phase at once; a pending decision gets the first legal answer."""

from __future__ import annotations

from typing import Any

from aare.actions import EndPhase
from aare.ai.bot import legal_or_stuck
from aare.engine import Game


class PassBot:
    name = "pass"

    def choose(self, game: Game) -> Any:
        if game.state.pending is None and game.is_legal(EndPhase()):
            return EndPhase()
        return legal_or_stuck(game)[0]
