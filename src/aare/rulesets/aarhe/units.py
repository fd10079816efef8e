"""AARHE unit names (module `aarhe_units`): the variant's abbreviations name the Revised units; ID, the
infrastructure defence, stands in the antiaircraft gun's place (AARHE-BASE-unit-abbreviations)."""

from __future__ import annotations

from typing import Any

from aare.board.units import UnitCatalogue
from aare.rules.rule_module import RuleModule, register_module

R_NAMES = "AARHE-BASE-unit-abbreviations"

# the seed's abbreviation -> the unit it names (optional units come with their rule module)
ABBREVIATIONS = {
    "INF": "infantry", "ART": "artillery", "ARM": "armour", "ID": "aa_gun", "IC": "factory", "FTR": "fighter",
    "BMR": "bomber", "BB": "battleship", "CV": "carrier", "AP": "transport", "SS": "submarine", "DD": "destroyer",
}
EXTRA_NAMES = {"aa_gun": ("id", "ids", "infrastructure defence", "infrastructure defences", "infrastructure defense")}


def _units(catalogue: UnitCatalogue, **_: Any) -> UnitCatalogue:
    """The ID's names join the antiaircraft gun's; the other abbreviations are names the units already have."""
    return catalogue.with_overrides(
        {unit: {"aliases": (*catalogue[unit].aliases, *names)} for unit, names in EXTRA_NAMES.items()}
    )


AARHE_UNITS = register_module(
    RuleModule(
        id="aarhe_units",
        title="AARHE unit names",
        rule_ids=(R_NAMES,),
        hooks={"unit_catalogue": _units},
    )
)
