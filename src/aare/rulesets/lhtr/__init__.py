"""Axis & Allies Revised with the Larry Harris Tournament Rules 1.3: the Revised board, its units and the
`lhtr-1.3` ruleset, the base of every Revised-based family."""

from pathlib import Path

from aare.rules.registry import Family, register_family
from aare.rulesets.lhtr import modules  # noqa: F401  (registers the rule modules)

FAMILY = register_family(
    Family("lhtr", "Axis & Allies Revised, LHTR 1.3", Path(__file__).resolve().parent / "data", "lhtr-1.3")
)
