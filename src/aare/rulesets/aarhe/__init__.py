"""Axis & Allies Revised: Historical Edition (AARHE) on LHTR 1.3: the ruleset `aarhe` plays the `lhtr` module on
the Revised board with the variant's modules after it (team turns, the eight-phase turn, the game modes)."""

from pathlib import Path

import aare.rulesets.lhtr  # noqa: F401  (AARHE plays on the Revised board of LHTR)
from aare.rules.registry import Family, register_family
from aare.rulesets.aarhe import build, economy, income, production, turn, units, victory  # noqa: F401  (each registers its module)

FAMILY = register_family(
    Family("aarhe", "Axis & Allies Revised: Historical Edition", Path(__file__).resolve().parent / "data")
)
