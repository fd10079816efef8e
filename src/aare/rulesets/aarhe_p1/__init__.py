"""AARHE Phase 1, the working proposal (seed 004, ledger aarhe-p1.yaml): the ruleset `aarhe-p1` plays the `lhtr`
module on the Revised board with the proposal's modules after it: victory cities and the three victory conditions,
infantry raised at victory cities, complexes priced by place, the seven-phase turn."""

from pathlib import Path

import aare.rulesets.aarhe  # noqa: F401  (Phase 1 shares AARHE's helpers and plays on the Revised board of LHTR)
from aare.rules.registry import Family, register_family
from aare.rulesets.aarhe_p1 import (  # noqa: F401  (each registers its module)
    air,
    air_defence,
    bailout,
    levy,
    production,
    research,
    rockets,
    sub_detection,
    turn,
    victory,
)

FAMILY = register_family(
    Family("aarhe_p1", "AARHE Phase 1: Working Proposal", Path(__file__).resolve().parent / "data")
)
