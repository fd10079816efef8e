"""Classic weapons development (module `classic_weapons`): research dice and the six developments."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="classic_weapons", title="Classic weapons development"))
