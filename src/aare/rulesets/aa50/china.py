"""China (module `aa50_china`): China: reinforcements, placement, movement area, control."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="aa50_china", title="China"))
