"""A test-only ruleset family with team turns: the Axis powers act together, then the Allied powers; conduct
combat is joint (it starts when every member has ended its combat move), and so is non-combat move (no member
moves while another's battle is still being fought)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from aare.rules.registry import Family, register_family
from aare.rules.rule_module import RuleModule, register_module, registered_modules
from aare.rules.turns import PhaseSpec, Turn, TurnOrder

RULES = "team-test"


def _turn_order(order: TurnOrder, ruleset: Any, **_: Any) -> TurnOrder:
    sides: dict[str, list[str]] = {}
    for power in ruleset.board.powers:
        sides.setdefault(power.side, []).append(power.name)
    return TurnOrder(tuple(Turn(tuple(sides[s])) for s in ("Axis", "Allies")))


def _phase_table(phases: list[PhaseSpec], **_: Any) -> list[PhaseSpec]:
    return [replace(p, joint=True) if p.name in ("conduct-combat", "non-combat-move") else p for p in phases]


def install() -> None:
    """Register the module and the family (once per process)."""
    if "team_test" not in registered_modules():
        register_module(RuleModule("team_test", "Team turns (test)",
                                   hooks={"turn_order": _turn_order, "phase_table": _phase_table}))
    register_family(Family("team-test", "Team turns (test)", Path(__file__).resolve().parent / "data"))
