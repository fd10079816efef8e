"""The LHTR 1.3 core module: the options and phase table every Revised-based ruleset starts from."""

from __future__ import annotations

from typing import Any

from aare.phases.turn_sequence import LHTR_PHASES, PhaseSpec
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module


def _phase_table(phases: list[PhaseSpec], ruleset: Any, **_: Any) -> list[PhaseSpec]:
    """LHTR's seven phases; develop-weapons is dropped when the game is played without research."""
    table = list(phases) or list(LHTR_PHASES)
    if not ruleset.options.get("weapons_development", True):
        table = [p for p in table if p.name != "develop-weapons"]
    return table


def _victory(winner: str | None, ruleset: Any, state: Any, **_: Any) -> str | None:
    """At the end of a round, the alliance holding the chosen number of victory cities wins."""
    if winner is not None:
        return winner
    needed = int(ruleset.options.get("victory_cities", 9))
    held: dict[str, int] = {}
    for territory in ruleset.victory_cities():
        owner = state.owners.get(territory)
        if owner is not None:
            side = ruleset.board.side_of(owner)
            held[side] = held.get(side, 0) + 1
    winners = [side for side, n in held.items() if n >= needed]
    return winners[0] if winners else None


LHTR = register_module(
    RuleModule(
        id="lhtr",
        title="Axis & Allies Revised with Larry Harris Tournament Rules 1.3",
        rule_ids=(
            "LHTR-TURN-power-order",
            "LHTR-TURN-phase-sequence",
            "LHTR-TURN-alliances",
            "LHTR-TURN-research-optional-phase",
            "LHTR-VICTORY-levels",
            "LHTR-VICTORY-check-end-of-round",
        ),
        hooks={"phase_table": _phase_table, "victory": _victory},
        options=(
            OptionSpec(
                key="victory_cities",
                type=int,
                default=9,
                choices=(8, 9, 10, 12),
                help="victory cities an alliance must hold at the end of a round to win "
                "(8 minor, 9 moderate, 10 major, 12 total)",
                rule_id="LHTR-VICTORY-levels",
            ),
            OptionSpec(
                key="weapons_development",
                type=bool,
                default=True,
                help="whether powers may buy research dice (off: the develop-weapons phase is skipped)",
                rule_id="LHTR-TURN-research-optional-phase",
            ),
        ),
    )
)
