"""Exact battle odds for the planner, cached per power-turn and counted against its budget."""

from __future__ import annotations

from aare.ai.planner.budget import Budget
from aare.board.notation import format_units
from aare.errors import AareError
from aare.odds import odds
from aare.odds.report import BattleOdds
from aare.rules.ruleset import Ruleset

Units = dict[str, int]


class Oracle:
    """`aare.odds.odds` (exact) for one ruleset, each new battle one unit of work; None when it cannot judge."""

    def __init__(self, ruleset: Ruleset, budget: Budget) -> None:
        self.ruleset = ruleset
        self.budget = budget
        self._cache: dict[tuple[str, tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]], BattleOdds | None]
        self._cache = {}

    def battle(self, attackers: Units, defenders: Units, kind: str = "land") -> BattleOdds | None:
        key = (kind, tuple(sorted((u, n) for u, n in attackers.items() if n)),
               tuple(sorted((u, n) for u, n in defenders.items() if n)))
        if key in self._cache:
            return self._cache[key]
        self.budget.spend()
        units = self.ruleset.units
        try:
            found: BattleOdds | None = odds(format_units(dict(key[1]), units), format_units(dict(key[2]), units),
                                            self.ruleset, battle=kind, estimate=True)
        except (AareError, ValueError, KeyError):
            found = None
        self._cache[key] = found
        return found

    def capture(self, attackers: Units, defenders: Units) -> float:
        """The chance `attackers` take a land territory from `defenders` (a land unit left)."""
        if not any(n for n in attackers.values()):
            return 0.0
        if not any(n for n in defenders.values()):
            return 1.0 if any(self.ruleset.units[u].domain == "land" and n for u, n in attackers.items()) else 0.0
        found = self.battle(attackers, defenders)
        return 0.0 if found is None else float(found.capture)

    def clear(self) -> None:
        self._cache.clear()
