"""Enhanced Realism '98 retreats (module `realism_retreat`): attacker and defender retreats to several
destinations, breaking off contact."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="realism_retreat", title="Enhanced Realism '98 retreats"))
