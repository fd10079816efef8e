"""Classic movement (module `classic_movement`): the core's movement with the Classic differences: an enemy AA gun
or industrial complex alone does not stop a blitz (the armour takes them with the territory), transports carry
only their own power's units, the neutrals may be entered for a fee (`neutrals.py`), and an illegal move names
the Classic ledger's rule. Canals (held since the start of the turn), aircraft landing (territories held since
the start of the turn, own or allied carriers), transport capacity (the unit data's transport places) and the
rest are the core's behaviour."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.combat.rules import CombatRules
from aare.movement.landing import can_land, hover_spots
from aare.movement.move_checks import Check, Leg, Violation, air_landing, neutrals
from aare.movement.pathing import remaining
from aare.movement.rules import MovementRules
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.classic.neutrals import closed_to_aircraft, fee_events, neutral_passage, unaffordable

# The core's rule ids and the Classic ledger's ids for the same rules (the messages fit both).
CLASSIC_RULE_IDS = {
    "LHTR-TURN-phase-sequence": "CL-TURN-phase-sequence",
    "LHTR-LANDMOVE-neutrals-impassable": "CL-NEUTRAL-no-overflight",
    "LHTR-LANDMOVE-movement-allowance": "CL-LANDMOVE-adjacent-steps",
    "LHTR-LANDMOVE-stop-in-enemy-territory": "CL-LANDMOVE-stop-in-enemy",
    "LHTR-LANDMOVE-blitz": "CL-LANDMOVE-blitz",
    "LHTR-LANDMOVE-blitz-blocked-by-infrastructure": "CL-LANDMOVE-blitz-blockers",
    "LHTR-LANDMOVE-noncombat-friendly-only": "CL-LANDMOVE-noncombat-friendly-only",
    "LHTR-LANDMOVE-aa-noncombat-only": "CL-LANDMOVE-aa-noncombat-only",
    "LHTR-LANDMOVE-complex-immobile": "CL-LANDMOVE-aa-noncombat-only",
    "LHTR-TURN-ncm-unmoved-only": "CL-TURN-combat-move-then-noncombat",
    "LHTR-SEAMOVE-one-phase-only": "CL-TURN-combat-move-then-noncombat",
    "LHTR-TURN-combat-move-attack-only": "CL-TURN-combat-move-purpose",
    "LHTR-COMBAT-one-battle-per-unit": "CL-COMBATMOVE-ending-in-enemy-space",
    "LHTR-COMBAT-capture": "CL-AIRMOVE-aircraft-cannot-capture",
    "LHTR-SEAMOVE-allowance": "CL-SEAMOVE-adjacent-zones",
    "LHTR-SEAMOVE-hostile-sea-zone-stops": "CL-SEAMOVE-enemy-zone-stops",
    "LHTR-SEAMOVE-noncombat-no-hostile": "CL-SEAMOVE-enemy-zone-stops",
    "LHTR-SEAMOVE-sub-passage": "CL-SEAMOVE-enemy-zone-stops",
    "LHTR-SEAMOVE-suez-canal": "CL-SEAMOVE-suez",
    "LHTR-SEAMOVE-panama-canal": "CL-SEAMOVE-panama",
    "LHTR-AIRMOVE-range": "CL-AIRMOVE-range-per-turn",
    "LHTR-AIRMOVE-no-kamikaze": "CL-COMBATMOVE-air-landing-plan",
    "LHTR-AIRMOVE-land-friendly-since-start": "CL-AIRMOVE-land-friendly",
    "LHTR-AIRMOVE-carrier-landing": "CL-AIRMOVE-carrier-landing",
    "LHTR-TRANSPORT-capacity": "CL-TRANSPORT-capacity",
    "LHTR-TRANSPORT-load-from-adjacent": "CL-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-unload-ends-activity": "CL-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-unload-one-territory": "CL-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-ncm-unload-captured": "CL-TRANSPORT-load-unload",
    "LHTR-TRANSPORT-combat-transport-no-ncm-unload": "CL-TRANSPORT-after-sea-battle",
    "LHTR-TRANSPORT-allied-transports": "CL-TRANSPORT-own-cargo",
    "LHTR-TRANSPORT-offloaded-units-stop": "CL-TRANSPORT-no-blitz-after-landing",
    "LHTR-TRANSPORT-amphibious-assault": "CL-TRANSPORT-amphibious-assault",
    "LHTR-TRANSPORT-no-load-in-hostile": "CL-TRANSPORT-amphibious-assault",
    "LHTR-TRANSPORT-cm-load-must-assault": "CL-TURN-combat-move-purpose",
    "LHTR-TRANSPORT-no-friendly-unload-in-cm": "CL-TURN-combat-move-purpose",
    "LHTR-TRANSPORT-aa-gun-cargo": "CL-LANDMOVE-aa-noncombat-only",
}


def _movement_rules(rules: MovementRules, ruleset: Any, **_: Any) -> MovementRules:
    """Every enemy sea unit stops ships (the core default, CL-SEAMOVE-enemy-zone-stops); an AA gun or complex alone
    does not stop a blitz (CL-LANDMOVE-blitz-blockers); transports carry their own power's units only, unless the
    option `allied_transports` is set (CL-TRANSPORT-own-cargo); the carrier owner's fighters aboard ride a moving
    carrier at no cost, unless they take off first (CL-AIRMOVE-carrier-fighters-move-with-carrier); a transport that
    fought a sea battle does not unload in non-combat move, unless the option `unload_after_sea_battle` is set
    (CL-TRANSPORT-after-sea-battle)."""
    options = ruleset.options
    return replace(rules, blitz_through_infrastructure=True, own_fighters_ride=True,
                   allied_transports=bool(options.get("allied_transports", False)),
                   unload_after_sea_battle=bool(options.get("unload_after_sea_battle", False)))


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Defending fighters of a sunk carrier land only on an island in the zone or a carrier with room there
    (CL-AIRMOVE-defend-on-carrier)."""
    return replace(rules, defending_fighters_islands_only=True)


NO_HOVER = "CL-MOBILIZE-new-fighters-not-on-carriers"


def no_hover(leg: Leg) -> Violation | None:
    """CL-MOBILIZE-new-fighters-not-on-carriers: fighters already on the board never go onto carriers bought this
    turn, so no move of a fighter may count on one to land (the core's hover at sea next to a complex)."""
    if leg.domain != "air" or not leg.unit.carrier_size:
        return None
    view = leg.view
    spots, bought = hover_spots(view)
    if not bought or not spots:
        return None
    left = remaining(view, leg.stack) - leg.cost if leg.combat else 0
    landing = (view, leg.unit, leg.end, left, leg.stack.count, leg.combat, leg.start)
    if not can_land(*landing):
        return None  # no landing at all: the core's landing check says so
    view.cache["hover"] = (frozenset(), 0)  # the same question with no carrier bought
    try:
        if can_land(*landing):
            return None
    finally:
        view.cache["hover"] = (spots, bought)
    return Violation(f"{leg.where} could land only on a carrier bought this turn: fighters already on the board "
                     f"do not go onto new carriers", NO_HOVER)


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    """The neutrals' check right after the core's (impassable) neutrals check; no waiting for a new carrier,
    before the core's landing check."""
    at = checks.index(neutrals) + 1 if neutrals in checks else 0
    out = [*checks[:at], neutral_passage, *checks[at:]]
    landing = out.index(air_landing) if air_landing in out else len(out)
    return [*out[:landing], no_hover, *out[landing:]]


def _rule_ids(names: dict[str, str], **_: Any) -> dict[str, str]:
    return {**names, **CLASSIC_RULE_IDS}


MODULE = register_module(
    RuleModule(
        id="classic_movement",
        title="Classic movement",
        rule_ids=(
            "CL-LANDMOVE-blitz-blockers",
            "CL-TRANSPORT-own-cargo",
            "CL-TRANSPORT-after-sea-battle",
            "CL-AIRMOVE-defend-on-carrier",
            "CL-AIRMOVE-carrier-fighters-move-with-carrier",
            "CL-NEUTRAL-entry-fee",
            "CL-NEUTRAL-no-overflight",
            "CL-NEUTRAL-air-cannot-take",
            NO_HOVER,
        ),
        hooks={
            "movement_rules": _movement_rules,
            "combat_rules": _combat_rules,
            "move_checks": _move_checks,
            "move_events": fee_events,
            "entry_refusals": unaffordable,
            "air_closed": closed_to_aircraft,
            "rule_ids": _rule_ids,
        },
        options=(
            OptionSpec(
                key="neutral_entry_fee",
                type=int,
                default=3,
                minimum=0,
                help="IPCs a power pays to enter a neutral territory with land units",
                rule_id="CL-NEUTRAL-entry-fee",
            ),
            OptionSpec(
                key="neutral_overflight",
                type=bool,
                default=False,
                help="whether aircraft may fly over neutral territories",
                rule_id="CL-NEUTRAL-no-overflight",
            ),
            OptionSpec(
                key="allied_transports",
                type=bool,
                default=False,
                help="whether land units may board an ally's transports (the printed rules: own power's only)",
                rule_id="CL-TRANSPORT-own-cargo",
            ),
            OptionSpec(
                key="unload_after_sea_battle",
                type=bool,
                default=False,
                help="whether a transport that fought a sea battle (and did not retreat) may unload in non-combat "
                "movement",
                rule_id="CL-TRANSPORT-after-sea-battle",
            ),
        ),
    )
)
