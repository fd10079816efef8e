"""Built-in rule modules, one file per rule document section; importing this package registers them."""

from aare.rules.modules import (  # noqa: F401
    aare_advantages,
    aare_base,
    aare_bid,
    aare_combat,
    aare_convoy,
    aare_d_day,
    aare_hostile_zones,
    aare_tech,
    aare_treaty,
    lhtr,
)
