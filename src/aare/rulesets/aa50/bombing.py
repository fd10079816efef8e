"""Industrial complexes (module `aa50_bombing`): strategic bombing and rockets put damage points on the
industrial complex instead of taking IPCs from the treasury, capped at twice the territory's value; a complex
mobilises its territory's value less its damage; the owner repairs in the purchase phase. Increased Factory
Production adds two units at complexes in territories worth 3 or more and halves the price of repairs. Units
left unplaced wait for a later mobilize phase.

The mechanism is the core's (`aare.economy.complex_damage`, switched on through the `damage_rules` hook)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.economy.complex_damage import DamageRules
from aare.rules.effects import Effect
from aare.rules.rule_module import RuleModule, register_module

IFP = "increased_factory_production"
IFP_RULE = "AA50-RESEARCH-increased-factory-production"
IFP_MIN_VALUE = 3


def _damage_rules(rules: DamageRules, **_: Any) -> DamageRules:
    """Raids and rockets damage the complex (AA50-SBR-damage, AA50-RESEARCH-rockets), never the treasury
    (AA50-ECON-no-negative), at most twice the territory's value in all (AA50-SBR-damage-cap); repairs in the
    purchase phase (AA50-PURCHASE-repair-damage)."""
    return replace(
        rules,
        on_complex=True,
        cap_factor=2,
        raid_rule="AA50-SBR-damage",
        rocket_rule="AA50-RESEARCH-rockets",
        cap_rule="AA50-SBR-damage-cap",
        repair_rule="AA50-PURCHASE-repair-damage",
    )


def _keep_unplaced(keep: bool, **_: Any) -> bool:
    """Units bought but not mobilized stay with the power for a later turn (AA50-MOBILIZE-unplaced-kept)."""
    return True


def _has_ifp(context: Any) -> bool:
    state, power = context.get("state"), context.get("power")
    return state is not None and IFP in state.techs.get(power, ())


def _ifp_complex(context: Any) -> bool:
    """The power has Increased Factory Production and the complex's territory is worth 3 or more."""
    territory = context.get("territory")
    if territory is None or not _has_ifp(context):
        return False
    return bool(context["ruleset"].board.spaces[territory].ipc >= IFP_MIN_VALUE)


IFP_EFFECTS = (
    Effect("production", "*", "add", 2, IFP_RULE, "Increased Factory Production", _ifp_complex),
    Effect("repair_points", "*", "set", 2, IFP_RULE, "Increased Factory Production: 1 IPC removes 2", _has_ifp),
)

MODULE = register_module(
    RuleModule(
        id="aa50_bombing",
        title="Industrial complexes: damage, repair, production",
        rule_ids=(
            "AA50-SBR-damage",
            "AA50-SBR-damage-cap",
            "AA50-SBR-reduces-production",
            "AA50-ECON-no-negative",
            "AA50-PURCHASE-repair-damage",
            "AA50-RESEARCH-rockets",
            IFP_RULE,
            "AA50-MOBILIZE-unplaced-kept",
        ),
        hooks={"damage_rules": _damage_rules, "keep_unplaced": _keep_unplaced},
        effects=IFP_EFFECTS,
    )
)
