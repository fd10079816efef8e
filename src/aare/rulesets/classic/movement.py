"""Classic movement (module `classic_movement`): land, sea and air movement, transports and neutrals."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="classic_movement", title="Classic movement"))
