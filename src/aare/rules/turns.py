"""The turn as data: the phases of a turn. A ruleset's modules reorder, add or remove phases through the
`phase_table` hook; the `phases` package runs them."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class PhaseSpec:
    """One phase: its name and the ledger rule that defines it."""

    name: str
    rule_id: str
    title: str = ""
