"""Enhanced Realism '98: how victory stands (module `realism_standing`). The game ends only when a side surrenders
(REAL98-VICTORY-surrender): the summary says so in place of the Classic capitals and economic level."""

from __future__ import annotations

from typing import Any

from aare.rules.rule_module import RuleModule, register_module

SURRENDER = "REAL98-VICTORY-surrender"


def _victory_standing(found: list[dict[str, Any]], **_: Any) -> list[dict[str, Any]]:
    """Neither capitals nor income levels win: victory comes by surrender only (REAL98-VICTORY-surrender)."""
    return [{"kind": "surrender", "rule_id": SURRENDER, "text": "victory: by surrender only"}]


MODULE = register_module(
    RuleModule(
        id="realism_standing",
        title="Enhanced Realism '98 victory standing",
        rule_ids=(SURRENDER,),
        hooks={"victory_standing": _victory_standing},
    )
)
