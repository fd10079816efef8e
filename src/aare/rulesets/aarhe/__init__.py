"""Axis & Allies Revised: Historical Edition (AARHE) on LHTR 1.3: the ruleset `aarhe` plays the `lhtr` module on
the Revised board with the variant's modules after it: team turns and the eight-phase turn, the game modes, the
economy (costs by place, income losses, economic attacks, lend-lease) and the build schedule."""

from pathlib import Path

import aare.rulesets.lhtr  # noqa: F401  (AARHE plays on the Revised board of LHTR)
from aare.rules.registry import Family, register_family
from aare.rulesets.aarhe import (  # noqa: F401  (each registers its module)
    air,
    air_support,
    air_transport,
    amphibious,
    atomic,
    blockade,
    build,
    combat,
    diplomacy,
    economy,
    heavy_artillery,
    income,
    italy,
    lend_lease,
    national_attacks,
    national_builds,
    national_victory,
    naval,
    naval_fighter,
    naval_retreats,
    optional_units,
    production,
    research,
    rockets,
    sea_transport,
    spheres,
    straits,
    sub_passage,
    technologies,
    terrain,
    turn,
    unit_values,
    units,
    victory,
)

FAMILY = register_family(
    Family("aarhe", "Axis & Allies Revised: Historical Edition", Path(__file__).resolve().parent / "data")
)
