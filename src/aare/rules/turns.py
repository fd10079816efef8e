"""The turn as data: the phases of a turn and the order of turns in a round.

A ruleset's modules reorder, add or remove phases through the `phase_table` hook and group powers into team
turns through the `turn_order` hook; the `phases` package and the engine run them. A turn belongs to one power
or to a team: in a team turn every member acts in each phase at its own pace, and a `joint` phase (one that
needs all of them, such as combat) starts only when every member has ended the phase before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

# Records of `state.extra` that each member of a team turn keeps for itself: its turn record and the battles of
# its conduct-combat phase. Rule modules add theirs through the `member_records` hook.
MEMBER_RECORDS = frozenset({"turn", "combat"})


@dataclass(frozen=True)
class PhaseSpec:
    """One phase: its name and the ledger rule that defines it; `joint`: in a team turn, the phase starts
    when every member has reached it."""

    name: str
    rule_id: str
    title: str = ""
    joint: bool = False


@dataclass(frozen=True)
class Turn:
    """The powers that act in one turn: one power, or a team acting together."""

    powers: tuple[str, ...]

    @property
    def is_team(self) -> bool:
        return len(self.powers) > 1


@dataclass(frozen=True)
class TurnOrder:
    """The turns of a round, in order."""

    turns: tuple[Turn, ...]

    @staticmethod
    def one_power_each(powers: Iterable[str]) -> TurnOrder:
        return TurnOrder(tuple(Turn((p,)) for p in powers))

    def index_of(self, power: str) -> int:
        """The turn `power` acts in."""
        for i, turn in enumerate(self.turns):
            if power in turn.powers:
                return i
        raise KeyError(power)

    def powers(self) -> tuple[str, ...]:
        return tuple(p for turn in self.turns for p in turn.powers)
