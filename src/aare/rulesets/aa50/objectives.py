"""National objectives (module `aa50_objectives`):
national objectives of every power but China, paid at collect income."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="aa50_objectives", title="National objectives"))
