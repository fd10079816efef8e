"""Classic combat (module `classic_combat`): the combat sequence, submarines, AA guns, bombardment and
strategic bombing."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="classic_combat", title="Classic combat"))
