"""Anniversary movement (module `aa50_movement`): the core's (Revised/LHTR) movement with the Anniversary
differences: enemy transports and submarines alone do not block ships (they stop nothing, and ships may end a
non-combat move among them), submarines may end a non-combat move among enemy ships, the land units that came
overland may retreat from an amphibious assault, fighters of a sunk carrier may land on an adjacent carrier, and
an illegal move names the Anniversary ledger's rule."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat.rules import CombatRules
from aare.movement.rules import MovementRules
from aare.rules.rule_module import RuleModule, register_module

# The core's rule ids and the Anniversary ledger's ids for the same rules (the messages fit both).
AA50_RULE_IDS = {
    "LHTR-LANDMOVE-neutrals-impassable": "AA50-NEUTRAL-impassable",
    "LHTR-LANDMOVE-movement-allowance": "AA50-LANDMOVE-basic",
    "LHTR-LANDMOVE-stop-in-enemy-territory": "AA50-COMBATMOVE-hostile-territory-stops",
    "LHTR-LANDMOVE-blitz": "AA50-LANDMOVE-blitz",
    "LHTR-LANDMOVE-blitz-blocked-by-infrastructure": "AA50-LANDMOVE-blitz",
    "LHTR-LANDMOVE-noncombat-friendly-only": "AA50-PHASES-ncm-unmoved-only",
    "LHTR-TURN-ncm-unmoved-only": "AA50-LANDMOVE-no-land-units-from-captured-move",
    "LHTR-SEAMOVE-one-phase-only": "AA50-PHASES-ncm-unmoved-only",
    "LHTR-TURN-combat-move-attack-only": "AA50-PHASES-combat-move-attacks-only",
    "LHTR-COMBAT-capture": "AA50-LANDMOVE-capture-order",
    "LHTR-SEAMOVE-allowance": "AA50-SEAMOVE-basic",
    "LHTR-SEAMOVE-hostile-sea-zone-stops": "AA50-COMBATMOVE-sea-zone-combat",
    "LHTR-SEAMOVE-sub-passage": "AA50-SEAMOVE-subs-pass-through",
    "LHTR-SEAMOVE-noncombat-no-hostile": "AA50-SEAMOVE-ncm-not-into-enemy",
    "LHTR-SEAMOVE-suez-canal": "AA50-SEAMOVE-suez",
    "LHTR-SEAMOVE-panama-canal": "AA50-SEAMOVE-panama",
    "LHTR-AIRMOVE-range": "AA50-AIRMOVE-range",
    "LHTR-AIRMOVE-no-kamikaze": "AA50-AIRMOVE-no-crash-planning",
    "LHTR-AIRMOVE-land-friendly-since-start": "AA50-AIRMOVE-landing-friendly",
    "LHTR-AIRMOVE-carrier-landing": "AA50-AIRMOVE-carrier-landing",
    "LHTR-TRANSPORT-capacity": "AA50-TRANSPORT-capacity",
    "LHTR-TRANSPORT-load-from-adjacent": "AA50-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-unload-ends-activity": "AA50-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-unload-one-territory": "AA50-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-combat-transport-no-ncm-unload": "AA50-PHASES-ncm-unmoved-only",
    "LHTR-TRANSPORT-allied-transports": "AA50-TRANSPORT-allied-transport",
    "LHTR-TRANSPORT-offloaded-units-stop": "AA50-TRANSPORT-land-units-loaded-cant-attack-and-move",
    "LHTR-TRANSPORT-amphibious-assault": "AA50-TRANSPORT-amphibious-assault",
    "LHTR-TRANSPORT-no-load-in-hostile": "AA50-TRANSPORT-unload-from-hostile-sea",
}


def _movement_rules(rules: MovementRules, **_: Any) -> MovementRules:
    """Enemy transports and submarines alone neither stop nor bar ships (AA50-SEAMOVE-subs-transports-no-block,
    AA50-COMBATMOVE-sea-zone-combat, AA50-SEAMOVE-basic); submarines may end non-combat move among enemy ships
    (AA50-SEAMOVE-ncm-not-into-enemy)."""
    return replace(
        rules,
        passable_enemy_ships=rules.passable_enemy_ships | {"transport", "submarine"},
        subs_end_noncombat_among_enemies=True,
    )


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Land units that came overland may retreat from an amphibious assault (with the aircraft); those landed from
    the sea stay and fight on (AA50-TRANSPORT-amphibious-no-retreat). Fighters of a sunk defending carrier land
    one space away, in a friendly territory or else on a friendly carrier with room
    (AA50-AIRMOVE-defending-carrier-fighters)."""
    return replace(rules, partial_amphibious_retreat=True, defending_fighters_to_adjacent_carriers=True)


def _rule_ids(names: dict[str, str], **_: Any) -> dict[str, str]:
    return {**names, **AA50_RULE_IDS}


MODULE = register_module(
    RuleModule(
        id="aa50_movement",
        title="Anniversary movement",
        rule_ids=(
            "AA50-SEAMOVE-subs-transports-no-block",
            "AA50-COMBATMOVE-sea-zone-combat",
            "AA50-SEAMOVE-basic",
            "AA50-SEAMOVE-ncm-not-into-enemy",
            "AA50-TRANSPORT-unload-from-hostile-sea",
            "AA50-TRANSPORT-amphibious-no-retreat",
            "AA50-AIRMOVE-defending-carrier-fighters",
        ),
        hooks={
            "movement_rules": _movement_rules,
            "combat_rules": _combat_rules,
            "rule_ids": _rule_ids,
        },
    )
)
