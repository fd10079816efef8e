"""AA50E national advantages in movement (part of the module `aa50e_advantages`):

- Russian Railway: in non-combat move Soviet infantry, artillery, AA guns and industrial complexes that begin the
  turn on the rail line may move up to 2 territories along it, ending on it (the core's `aare.movement.railway`;
  AA50E-NA-rus-railway, -rus-railway-territories).
- Mobile Industry: Soviet industrial complexes move as AA guns do, 1 territory in non-combat move, their damage
  with them (AA50E-NA-rus-mobile-industry).
- Tokyo Express: a Japanese destroyer or cruiser is also a transport of 1 infantry in combat and non-combat move,
  and fights and bombards as before (the `stack_unit` hook; AA50E-NA-jpn-tokyo-express-*).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aare.board.units import UnitType
from aare.movement.railway import Railway
from aare.movement.situation import Situation
from aare.movement.transport import CARRIES
from aare.state.unit_stacks import Stack

SOVIET, JAPAN = "Soviet Union", "Japan"
R_RAIL, R_RAIL_LINE = "AA50E-NA-rus-railway", "AA50E-NA-rus-railway-territories"
R_MOBILE = "AA50E-NA-rus-mobile-industry"
R_TOKYO, R_TOKYO_FIGHT = "AA50E-NA-jpn-tokyo-express-carry", "AA50E-NA-jpn-tokyo-express-fight"
RAIL_LINE = frozenset({
    "Buryatia S.S.R.", "Stanovoj Chrebet", "Yakut S.S.R.", "Evenki National Okrug", "Novosibirsk", "Kazakh S.S.R.",
    "Russia", "Caucasus", "Ukraine", "Eastern Ukraine", "Belorussia", "Archangel", "Karelia S.S.R.", "Baltic States",
})
RAILWAY = Railway(
    power=SOVIET,
    network=RAIL_LINE,
    units=frozenset({"infantry", "artillery", "aa_gun", "factory"}),
    move_rule=R_RAIL,
    network_rule=R_RAIL,
    friendly_rule=R_RAIL,
    start_rule=R_RAIL,
)
EXPRESS_CAPACITY = 1


def stack_unit(unit: UnitType, view: Situation, stack: Stack, **_: Any) -> UnitType:
    """A Soviet complex moves as an AA gun (1 territory, non-combat move only); a Japanese destroyer or cruiser is
    also a transport of one infantry."""
    if stack.owner == SOVIET and unit.has("factory"):
        gun = view.units["aa_gun"]
        return replace(unit, domain=gun.domain, move=gun.move, tags=unit.tags | {"noncombat_move_only"})
    if stack.owner == JAPAN and unit.domain == "sea" and (unit.has("destroyer") or unit.has("cruiser")) \
            and not unit.has("transport"):
        room = EXPRESS_CAPACITY * view.units["infantry"].transport_size
        return replace(unit, transport_capacity=room, tags=unit.tags | {"transport", f"{CARRIES}infantry"})
    return unit


HOOKS: dict[str, Callable[..., Any]] = {
    "stack_unit": stack_unit, "movement_left": RAILWAY.movement_left, "move_checks": RAILWAY.move_checks,
}
RULE_IDS = (R_RAIL, R_RAIL_LINE, R_MOBILE, R_TOKYO, R_TOKYO_FIGHT)
