"""Axis & Allies Classic (Milton Bradley 1986, 2nd-edition rules): the Classic board and unit catalogue, the
ruleset `classic-2e`, and Enhanced Realism '98 on it (`realism-98`, subpackage `realism`)."""

from pathlib import Path

from aare.rules.registry import Family, register_family
from aare.rulesets.classic import combat, modules, movement, realism, weapons  # noqa: F401  (register modules)

# No default ruleset: a game or battle with no ruleset named stays on the Revised family's.
FAMILY = register_family(
    Family("classic", "Axis & Allies Classic (2nd edition)", Path(__file__).resolve().parent / "data")
)
