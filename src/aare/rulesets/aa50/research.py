"""Research & development (module `aa50_research`):
research tokens and the two breakthrough charts; the non-combat technologies."""

from __future__ import annotations

from aare.rules.rule_module import RuleModule, register_module

MODULE = register_module(RuleModule(id="aa50_research", title="Research & development"))
