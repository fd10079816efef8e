"""Enhanced Realism '98 map clarifications (module `realism_map`): control counts in real time (canals and
straits open, aircraft land, the moment a territory is captured) and the Turkish Straits name their rule. The
connection changes themselves are data: `data/board_changes/realism-98.toml`, named by the ruleset file."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.movement.rules import MovementRules
from aare.rules.rule_module import RuleModule, register_module


def _movement_rules(rules: MovementRules, **_: Any) -> MovementRules:
    """Ownership at the instant of use (REAL98-MAP-realtime-ownership, REAL98-MAP-land-in-captured)."""
    return replace(rules, control_in_real_time=True)


def _rule_ids(ids: dict[str, str], **_: Any) -> dict[str, str]:
    """The straits closed without Turkey name REAL98-MAP-black-sea."""
    return {**ids, "LHTR-SEAMOVE-turkish-canal": "REAL98-MAP-black-sea"}


MODULE = register_module(
    RuleModule(
        id="realism_map",
        title="Enhanced Realism '98 map clarifications",
        rule_ids=(
            "REAL98-MAP-realtime-ownership",
            "REAL98-MAP-land-in-captured",
            "REAL98-MAP-changes-table",
            "REAL98-MAP-west-canada-sea",
            "REAL98-MAP-south-africa-mozambique",
            "REAL98-MAP-turkey-land-attack",
            "REAL98-MAP-black-sea",
        ),
        hooks={"movement_rules": _movement_rules, "rule_ids": _rule_ids},
    )
)
