"""Enhanced Realism '98 armour (module `realism_armour`): no blitz in the combat move and the second
armour move."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="realism_armour", title="Enhanced Realism '98 armour"))
