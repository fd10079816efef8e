"""Enhanced Realism '98 (module `realism`): income at the start of the turn, industrial complexes, the map
changes, neutrals, victory and weapons development."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="realism", title="Enhanced Realism '98"))
