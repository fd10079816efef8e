"""Phases of a turn as data. A ruleset's modules reorder, add or remove phases through the `phase_table` hook."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PhaseSpec:
    """One phase: its name and the ledger rule that defines it."""

    name: str
    rule_id: str
    title: str = ""


LHTR_PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("develop-weapons", "LHTR-TURN-phase-sequence", "Develop weapons"),
    PhaseSpec("purchase", "LHTR-TURN-phase-sequence", "Purchase units"),
    PhaseSpec("combat-move", "LHTR-TURN-phase-sequence", "Combat move"),
    PhaseSpec("conduct-combat", "LHTR-TURN-phase-sequence", "Conduct combat"),
    PhaseSpec("non-combat-move", "LHTR-TURN-phase-sequence", "Non-combat move"),
    PhaseSpec("mobilize", "LHTR-TURN-phase-sequence", "Mobilize new units"),
    PhaseSpec("collect-income", "LHTR-TURN-phase-sequence", "Collect income"),
)
