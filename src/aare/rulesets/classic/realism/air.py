"""Enhanced Realism '98 aircraft (module `realism_air`): flight range limits, the one-sea-zone rule and
carriers."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="realism_air", title="Enhanced Realism '98 aircraft"))
