"""AARHE economic attacks (module `aarhe_economy`): strategic bombing raids and rockets lower the attacked
territory's next income instead of taking IPCs from the treasury, never below nothing; at a capital the damage
beyond its income comes out of the owner's treasury at once (AARHE-ECON-*).

The core's complex damage carries it (`aare.economy.complex_damage`): the points stand on the complex, at most
the territory's value, and come off its owner's next income, then clear."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.economy.complex_damage import DamageRules
from aare.rules.rule_module import RuleModule, register_module

R_NEXT = "AARHE-ECON-next-income"
R_FLOOR = "AARHE-ECON-floor-zero"
R_CAPITAL = "AARHE-ECON-capital-excess"


def _damage_rules(rules: DamageRules, **_: Any) -> DamageRules:
    """Damage points on the complex (AARHE-ECON-next-income), at most the territory's value
    (AARHE-ECON-floor-zero), taken off the next income and cleared; the excess at a capital from the treasury
    (AARHE-ECON-capital-excess)."""
    return replace(rules, on_complex=True, cap_factor=1, income_loss=True, loss_rule=R_NEXT, raid_rule=R_NEXT,
                   rocket_rule=R_NEXT, repair_rule=R_NEXT, capital_excess_rule=R_CAPITAL)


AARHE_ECONOMY = register_module(
    RuleModule(
        id="aarhe_economy",
        title="AARHE economic attacks: damage off the next income",
        rule_ids=(R_NEXT, R_FLOOR, R_CAPITAL),
        hooks={"damage_rules": _damage_rules},
    )
)
