"""Enhanced Realism '98 weapons development (module `realism_weapons`): chosen before the game, either none at all
or one free roll each turn while the power holds its capital, no dice bought; the seed's other sections
(Advanced Weapons Development among them) are not available."""

from __future__ import annotations

from typing import Any

from aare.actions import Research
from aare.errors import IllegalAction, UnknownName
from aare.events import ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec

MODE_RULE = "REAL98-TECH-mode"
SCOPE_RULE = "REAL98-META-scope"
MODE = "weapons_development_mode"
NONE, FREE_ROLL = "none", "free-roll"
ADVANCED = "advanced_weapons_development"
ROLLED = "free_roll"  # extra: [round, power] of the last free roll


def _phase_table(phases: list[PhaseSpec], ruleset: Any, **_: Any) -> list[PhaseSpec]:
    """Mode "none": no develop-weapons phase (REAL98-TECH-mode)."""
    if ruleset.options.get(MODE) == NONE:
        return [p for p in phases if p.name != "develop-weapons"]
    return phases


def _initial_state(state: Any, ruleset: Any, **_: Any) -> Any:
    """Advanced Weapons Development (and every section past I) is not in the rules supplied (REAL98-META-scope,
    REAL98-TECH-advanced-with-basic)."""
    if ruleset.options.get(ADVANCED):
        raise UnknownName("Advanced Weapons Development is not available: the Enhanced Realism rules supplied hold "
                          "Section I (Basic Rule Changes) only")
    return state


class FreeRoll(PhaseExtension):
    """Develop weapons, mode "free-roll": one die a turn, free, only while the capital is held (REAL98-TECH-mode)."""

    name = "develop-weapons"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research):
            return
        state, power = ctx.state, ctx.power
        if action.dice != 1:
            raise IllegalAction("one free weapons development roll a turn; no dice can be bought", MODE_RULE)
        if state.extra.get(ROLLED) == [state.round, power]:
            raise IllegalAction(f"{power} has made its free weapons development roll this turn", MODE_RULE)
        if not ctx.ruleset.board.holds_capital(power, state.owners):
            raise IllegalAction(f"{power} does not hold its capital: no weapons development roll", MODE_RULE)

    def after(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, Research):
            ctx.emit(ExtraSet(ROLLED, [ctx.state.round, ctx.power], MODE_RULE))


FREE = FreeRoll()


def _phase_actions(extensions: list[PhaseExtension], phase: str, ruleset: Any, **_: Any) -> list[PhaseExtension]:
    if phase == "develop-weapons" and ruleset.options.get(MODE) == FREE_ROLL:
        return [*extensions, FREE]
    return extensions


MODULE = register_module(
    RuleModule(
        id="realism_weapons",
        title="Enhanced Realism '98 weapons development",
        rule_ids=(MODE_RULE, SCOPE_RULE),
        hooks={"phase_table": _phase_table, "initial_state": _initial_state, "phase_actions": _phase_actions},
        effects=(Effect("research_cost", "*", "set", 0, MODE_RULE, "the one roll a turn is free",
                        requires=lambda c: c["ruleset"].options.get(MODE) == FREE_ROLL),),
        options=(
            OptionSpec(MODE, str, FREE_ROLL, "weapons development: none, or one free roll a turn while the "
                       "capital is held (no dice bought)", MODE_RULE, choices=(NONE, FREE_ROLL)),
            OptionSpec(ADVANCED, bool, False, "Advanced Weapons Development (not available: the rules supplied "
                       "hold Section I only)", SCOPE_RULE),
        ),
        replaces_options=("weapons_development",),
    )
)
