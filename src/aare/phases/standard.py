"""The built-in phase handlers. Each phase's own module registers its handler on import."""

from __future__ import annotations

import importlib

for _name in (
    "setup_bid",
    "develop_weapons",
    "purchase",
    "combat_move",
    "conduct_combat",
    "noncombat_move",
    "mobilize",
    "collect_income",
):
    try:
        importlib.import_module(f"aare.phases.{_name}")
    except ModuleNotFoundError as exc:
        if exc.name != f"aare.phases.{_name}":
            raise
