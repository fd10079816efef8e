"""The AARe 5.0 rule modules, one file per rule document section; importing this package registers them."""

from aare.rulesets.aare.modules import (  # noqa: F401
    advantages,
    base,
    bid,
    combat,
    convoy,
    d_day,
    hostile_zones,
    tech,
    treaty,
)
