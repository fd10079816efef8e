"""Axis & Allies Anniversary Edition - Enhanced (AA50E) on the Anniversary rulesets: the rulesets `aa50e-1941` and
`aa50e-1942` play the `aa50-1941` / `aa50-1942` modules with the variant's modules after them."""

from pathlib import Path

import aare.rulesets.aa50  # noqa: F401  (AA50E plays on the Anniversary board and modules)
from aare.rules.registry import Family, register_family
from aare.rulesets.aa50e import (  # noqa: F401  (each registers its module)
    advantages,
    combat,
    convoy,
    d_day,
    hostile_zones,
    modules,
    optional_units,
    research,
    sub_detection,
    tech_combat,
    treaty,
)

FAMILY = register_family(
    Family("aa50e", "Axis & Allies Anniversary Edition - Enhanced", Path(__file__).resolve().parent / "data")
)
