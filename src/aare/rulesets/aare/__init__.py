"""AARe 5.0 (Axis & Allies Revised Enhanced) on the LHTR core: national advantages, weapons development,
D-Day, the Russia-Japan treaty, the straight bid, convoy raids, hostile start zones and sub detection."""

from pathlib import Path

import aare.rulesets.lhtr  # noqa: F401  (AARe plays on the Revised board of LHTR)
from aare.rules.registry import Family, register_family
from aare.rulesets.aare import modules, straight_bid  # noqa: F401  (registers the rule modules and phases)

FAMILY = register_family(Family("aare", "AARe 5.0 (Revised Enhanced)", Path(__file__).resolve().parent / "data"))
