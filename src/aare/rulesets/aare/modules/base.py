"""AARe 5.0 base game: 15 victory cities with separate thresholds per side, and the new prices and
attributes of units (seed "BASE GAME" 1 and 7). Everything else comes from the LHTR module below it."""

from __future__ import annotations

from typing import Any

from aare.board.units import UnitCatalogue
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module

# territory -> city added by AARe (AARE-VC-fifteen-cities)
EXTRA_CITIES = {"Caucasus": "Stalingrad", "Australia": "Sydney", "Hawaiian Islands": "Honolulu"}

# unit -> (changed statistics, rule id) (AARE-COST-*)
UNIT_CHANGES: dict[str, tuple[dict[str, int], str]] = {
    "factory": ({"cost": 12}, "AARE-COST-ic-12"),
    "destroyer": ({"cost": 10}, "AARE-COST-destroyer-10"),
    "bomber": ({"cost": 14}, "AARE-COST-bomber-14"),
    "carrier": ({"cost": 14, "attack": 1, "defense": 2}, "AARE-COST-carrier-14"),
    "battleship": ({"cost": 20}, "AARE-COST-battleship-20"),
}


def _units(catalogue: UnitCatalogue, **_: Any) -> UnitCatalogue:
    """AARe prices; the carrier becomes a 1/2 unit (AARE-COST-carrier-attack1-defend2)."""
    return catalogue.with_overrides({unit: {**stats, "rule": rule} for unit, (stats, rule) in UNIT_CHANGES.items()})


def _cities(cities: dict[str, str], **_: Any) -> dict[str, str]:
    """Stalingrad, Sydney and Honolulu join the twelve Revised cities (AARE-VC-fifteen-cities)."""
    return {**cities, **EXTRA_CITIES}


def _thresholds(needed: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Allies need 11, Axis 10 of the 15 cities at the end of a round (AARE-VC-allied-win-11, -axis-win-10)."""
    return {
        **needed,
        "Allies": int(ruleset.options.get("victory_cities_allies", 11)),
        "Axis": int(ruleset.options.get("victory_cities_axis", 10)),
    }


AARE_BASE = register_module(
    RuleModule(
        id="aare_base",
        title="AARe 5.0 base game: victory cities, prices and attributes",
        rule_ids=(
            "AARE-VC-fifteen-cities",
            "AARE-VC-starting-split",
            "AARE-VC-check-end-of-round",
            "AARE-VC-allied-win-11",
            "AARE-VC-axis-win-10",
            "AARE-COST-ic-12",
            "AARE-COST-destroyer-10",
            "AARE-COST-bomber-14",
            "AARE-COST-carrier-14",
            "AARE-COST-carrier-attack1-defend2",
            "AARE-COST-battleship-20",
            "AARE-COST-unlisted-unchanged",
            "AARE-LHTR-baseline",
        ),
        hooks={"unit_catalogue": _units, "victory_cities": _cities, "victory_thresholds": _thresholds},
        requires=("lhtr",),
        replaces_options=("victory_cities",),
        options=(
            OptionSpec(
                key="victory_cities_allies",
                type=int,
                default=11,
                minimum=1,
                help="victory cities (of 15) the Allies must hold at the end of a round to win",
                rule_id="AARE-VC-allied-win-11",
            ),
            OptionSpec(
                key="victory_cities_axis",
                type=int,
                default=10,
                minimum=1,
                help="victory cities (of 15) the Axis must hold at the end of a round to win",
                rule_id="AARE-VC-axis-win-10",
            ),
        ),
    )
)
