"""Rulesets as compositions: base data, an ordered list of rule modules, typed options."""

from aare.rules.ruleset import Ruleset, available_rulesets, load_ruleset

__all__ = ["Ruleset", "available_rulesets", "load_ruleset"]
