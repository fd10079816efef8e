"""Anniversary movement (module `aa50_movement`): movement rules of the Anniversary board."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="aa50_movement", title="Anniversary movement"))
