"""National advantages: one module per nation registers its NAs (`base.register`); `deploy` is the
declaration schedule; the rule module `aare_advantages` applies the declared NAs through the core hooks."""

from aare.rulesets.aare.advantages import germany, japan, russia, united_kingdom, united_states  # noqa: F401
from aare.rulesets.aare.advantages.base import (
    Advantage,
    FreeUnits,
    advantage,
    advantages_of,
    all_advantages,
    declared,
    in_force,
)

__all__ = ["Advantage", "FreeUnits", "advantage", "advantages_of", "all_advantages", "declared", "in_force"]
