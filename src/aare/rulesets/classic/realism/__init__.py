"""Enhanced Realism Rules (1998), Section I, on the Classic rules: the ruleset `realism-98`."""

from aare.rulesets.classic.realism import (  # noqa: F401  (each registers its module)
    air,
    armour,
    development,
    economy,
    map,
    neutrals,
    retreat,
    standing,
    victory,
)
