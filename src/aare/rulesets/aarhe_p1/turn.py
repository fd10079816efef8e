"""AARHE Phase 1 turn sequence (module `aarhep1_turn`): purchase, collect income, combat move, conduct combat,
mobilize, non-combat move, develop weapons (AARHEP1-TURN-*). Income is collected before combat, so territories
taken this turn pay from the next turn; units are placed before non-combat move; leaving develop weapons ends the
turn."""

from __future__ import annotations

from typing import Any

from aare.economy.income import end_of_turn_events
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec
from aare.rulesets.aarhe.hooks import by_phase

R_SEQUENCE = "AARHEP1-TURN-sequence"
R_INCOME = "AARHEP1-TURN-income-before-combat"
R_PLACE = "AARHEP1-TURN-place-before-noncombat"

PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("purchase", R_SEQUENCE, "Purchase units"),
    PhaseSpec("collect-income", R_INCOME, "Collect income"),
    PhaseSpec("combat-move", R_SEQUENCE, "Combat move"),
    PhaseSpec("conduct-combat", R_SEQUENCE, "Conduct combat"),
    PhaseSpec("mobilize", R_PLACE, "Place newly purchased units"),
    PhaseSpec("non-combat-move", R_PLACE, "Non-combat move"),
    PhaseSpec("develop-weapons", R_SEQUENCE, "Develop weapons"),
)


def _phase_table(phases: list[PhaseSpec], **_: Any) -> list[PhaseSpec]:
    return list(PHASES)


class TurnEnd(PhaseExtension):
    """Develop weapons, the last phase: leaving it ends the turn (marks cleared, battleships repaired)."""

    name = "develop-weapons"

    def on_exit(self, ctx: TurnContext) -> None:
        ctx.emit(*end_of_turn_events(ctx.state, ctx.ruleset))


AARHEP1_TURN = register_module(
    RuleModule(
        id="aarhep1_turn",
        title="AARHE Phase 1 turn: purchase, income, combat, placement, non-combat move, research",
        rule_ids=(R_SEQUENCE, R_INCOME, R_PLACE),
        hooks={"phase_table": _phase_table, "phase_actions": by_phase(TurnEnd())},
    )
)
