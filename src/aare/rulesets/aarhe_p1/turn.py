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


def _phase_table(phases: list[PhaseSpec], ruleset: Any, **_: Any) -> list[PhaseSpec]:
    """The seven phases; develop weapons is dropped when the game is played without research (LHTR's option
    `weapons_development`)."""
    if not ruleset.options.get("weapons_development", True):
        return [p for p in PHASES if p.name != "develop-weapons"]
    return list(PHASES)


class TurnEnd(PhaseExtension):
    """The last phase of the turn (develop weapons, or non-combat move without research): leaving it ends the turn
    (marks cleared, battleships repaired)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def on_exit(self, ctx: TurnContext) -> None:
        if ctx.ruleset.phase_table()[-1].name == self.name:
            ctx.emit(*end_of_turn_events(ctx.state, ctx.ruleset))


AARHEP1_TURN = register_module(
    RuleModule(
        id="aarhep1_turn",
        title="AARHE Phase 1 turn: purchase, income, combat, placement, non-combat move, research",
        rule_ids=(R_SEQUENCE, R_INCOME, R_PLACE),
        hooks={"phase_table": _phase_table,
               "phase_actions": by_phase(TurnEnd("non-combat-move"), TurnEnd("develop-weapons"))},
        # the proposal's set-up has no bid of IPCs (its sides bid turns in Minor Victory): LHTR's is not offered
        replaces_options=("bid_axis", "bid_allies", "bid_needs_own_unit"),
    )
)
