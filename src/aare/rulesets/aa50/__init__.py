"""Axis & Allies Anniversary Edition (2008): the Anniversary board with its 1941 and 1942 set-ups, its unit
catalogue (cruisers included) and the rulesets `aa50-1941` and `aa50-1942`."""

from pathlib import Path

from aare.rules.registry import Family, register_family
from aare.rulesets.aa50 import (  # noqa: F401  (each registers its rule module)
    bombing,
    china,
    combat,
    modules,
    movement,
    objectives,
    research,
)

# No default ruleset: a game or battle with no ruleset named stays on the Revised family's.
FAMILY = register_family(Family("aa50", "Axis & Allies Anniversary Edition", Path(__file__).resolve().parent / "data"))
