"""Industrial complex damage (module `aa50_bombing`):
strategic bombing and rocket damage on industrial complexes, its cap and repair."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="aa50_bombing", title="Industrial complex damage"))
