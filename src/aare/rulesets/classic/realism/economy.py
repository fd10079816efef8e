"""Enhanced Realism '98 economy (module `realism`): income counted at the start of the turn, unspent IPCs lost,
bombing losses recorded on the complex and taken off the next income, the industrial complexes (none bought,
each places at most its territory's value), income without the capital and spending only with a complex.

The bombing losses use the core's complex damage (`aare.economy.complex_damage`, the `damage_rules` hook) as
income losses; the extra complexes are board data (`data/board_changes/realism-98.toml`)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.economy.complex_damage import DamageRules
from aare.economy.summary import base_income
from aare.events import BankChanged
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec
from aare.rulesets.classic.optional import NoNewComplexes

START_RULE = "REAL98-INCOME-start-of-turn"
SAVINGS_RULE = "REAL98-INCOME-no-savings"
DEDUCTION_RULE = "REAL98-INCOME-bombing-deduction"
NO_NEW_RULE = "REAL98-IC-no-new"
LIMIT_RULE = "REAL98-IC-placement-limit"
NEUTRAL_VALUE_RULE = "REAL98-NEUTRAL-value"
NEUTRAL_VALUE = 1
INCOME_PHASE = "collect-income"


def _phase_table(phases: list[PhaseSpec], **_: Any) -> list[PhaseSpec]:
    """Income is counted at the beginning of the turn (REAL98-INCOME-start-of-turn): collect income comes
    first."""
    counted = [p for p in phases if p.name == INCOME_PHASE]
    rest = [p for p in phases if p.name != INCOME_PHASE]
    return [PhaseSpec(INCOME_PHASE, START_RULE, "Count income")] * bool(counted) + rest


def _initial_state(state: Any, ruleset: Any, **_: Any) -> Any:
    """No treasury is carried into the game: the first power's bank is its count at the start of its first turn
    (the game begins inside that phase), every other power counts when its turn begins."""
    banks = {power: 0 for power in state.banks}
    banks[state.nation] = count(ruleset, state, state.nation)
    return replace(state, banks=banks)


def neutral(ruleset: Any, territory: str) -> bool:
    """A Classic neutral: a land territory with no original owner."""
    space = ruleset.board.spaces[territory]
    return space.is_land and space.owner is None


def count(ruleset: Any, state: Any, power: str) -> int:
    """The territories' value: the board's, each neutral held worth 1 (REAL98-NEUTRAL-value)."""
    held = sum(NEUTRAL_VALUE for t, owner in state.owners.items() if owner == power and neutral(ruleset, t))
    return base_income(state, ruleset, power) + held


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """A power collects whatever territory it controls, its capital held or not (REAL98-VICTORY-capital-loss,
    REAL98-VICTORY-income-conditions); held neutrals are worth 1 (REAL98-NEUTRAL-value). The bombing losses
    come off in the core (`DamageRules.income_loss`)."""
    return count(ruleset, state, power)


def _damage_rules(rules: DamageRules, **_: Any) -> DamageRules:
    """Bombing losses are recorded against the complex (REAL98-INCOME-bombing-deduction), at most its territory's
    value (REAL98-IC-bombing-cap), taken off the owner's next income and cleared, and cleared when the complex
    is captured (REAL98-IC-capture-clears-bombing)."""
    return replace(rules, on_complex=True, cap_factor=1, income_loss=True, loss_rule=DEDUCTION_RULE,
                   cleared_on_capture=True, repair_rule=DEDUCTION_RULE)


def has_complex(ruleset: Any, state: Any, power: str) -> bool:
    """Whether `power` has at least one industrial complex on the board."""
    units = ruleset.units
    return any(units[s.unit].has("factory") and s.owner == power for stacks in state.units.values() for s in stacks)


def _purchase_refusal(refusal: tuple[str, str] | None, ruleset: Any, state: Any, power: str,
                      **_: Any) -> tuple[str, str] | None:
    """The capital's loss does not stop spending (REAL98-VICTORY-capital-loss); having no industrial complex
    does (REAL98-VICTORY-income-conditions)."""
    if not has_complex(ruleset, state, power):
        return f"{power} has no industrial complex: its income cannot be spent", "REAL98-VICTORY-income-conditions"
    return None


class UnspentLost(PhaseExtension):
    """End of mobilize, the end of the turn: IPCs not spent are lost (REAL98-INCOME-no-savings)."""

    name = "mobilize"

    def on_exit(self, ctx: TurnContext) -> None:
        left = ctx.state.banks.get(ctx.power, 0)
        if left > 0:
            ctx.emit(BankChanged(ctx.power, -left, "rule: unspent IPCs lost", SAVINGS_RULE))


NO_NEW_COMPLEXES = NoNewComplexes(NO_NEW_RULE, "no new industrial complexes may be built")  # REAL98-IC-no-new
UNSPENT_LOST = UnspentLost()


def _rule_ids(ids: dict[str, str], **_: Any) -> dict[str, str]:
    """A complex's placement limit names REAL98-IC-placement-limit."""
    return {**ids, "LHTR-MOBILIZE-capacity-ipc-value": LIMIT_RULE}


def _phase_actions(extensions: list[PhaseExtension], phase: str, **_: Any) -> list[PhaseExtension]:
    if phase == "purchase":
        return [*extensions, NO_NEW_COMPLEXES]
    if phase == "mobilize":
        return [*extensions, UNSPENT_LOST]
    return extensions


MODULE = register_module(
    RuleModule(
        id="realism",
        title="Enhanced Realism '98 economy",
        rule_ids=(
            START_RULE,
            SAVINGS_RULE,
            "REAL98-INCOME-no-capture",
            DEDUCTION_RULE,
            NO_NEW_RULE,
            LIMIT_RULE,
            "REAL98-IC-bombing-cap",
            "REAL98-IC-capture-clears-bombing",
            "REAL98-VICTORY-capital-loss",
            "REAL98-VICTORY-income-conditions",
            NEUTRAL_VALUE_RULE,
        ),
        hooks={
            "phase_table": _phase_table,
            "initial_state": _initial_state,
            "income": _income,
            "damage_rules": _damage_rules,
            "purchase_refusal": _purchase_refusal,
            "phase_actions": _phase_actions,
            "rule_ids": _rule_ids,
        },
        # Every complex places at most its territory's value (REAL98-IC-placement-limit): the base's unlimited
        # starting complexes are replaced; none is bought (REAL98-IC-no-new), so the printed optional rule and the
        # building rule are meaningless; a lost capital's income stays with its power (REAL98-VICTORY-capital-loss).
        replaces_options=("starting_complexes_unlimited", "no_new_complexes", "complex_needs_ipc",
                          "income_to_capital_holder"),
    )
)
