"""Russian Railway (seed NATIONAL ADVANTAGES / RUSSIA 2, AARE-NA-RUS-rail-*).

In non-combat move Russian infantry, artillery and AA guns that began the turn in a railway territory may
move up to 2 territories, only within the railway territories (Buryatia, Yakut, Novosibirsk, Russia,
Caucasus, West Russia, Karelia) and only into or through Allied-owned ones. A rail move is one move, made
by a unit that has not moved this turn (docs/rulings.md); a move of 1 is an ordinary move.
"""

from __future__ import annotations

from typing import Any

from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation, within_allowance
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.rulesets.aare.advantages.russia_common import RUSSIA, holds
from aare.state.unit_stacks import Stack

ID = "russian_railway"
NETWORK = frozenset({"Buryatia S.S.R.", "Yakut S.S.R.", "Novosibirsk", "Russia", "Caucasus", "West Russia",
                     "Karelia S.S.R."})
RAIL_UNITS = frozenset({"infantry", "artillery", "aa_gun"})
RAIL_MOVE = 2
PHASE = "non-combat-move"
R_MOVE = "AARE-NA-RUS-rail-move-2"
R_NETWORK = "AARE-NA-RUS-rail-network-only"
R_ALLIED = "AARE-NA-RUS-rail-allied-owned"
R_START = "AARE-NA-RUS-rail-start-on-network"
RULE_IDS = (R_MOVE, R_NETWORK, R_ALLIED, R_START)


def _rail_unit(view: Situation, stack: Stack) -> bool:
    """A Russian infantry, artillery or AA gun in Russia's non-combat move, with the Railway declared."""
    return (stack.owner == RUSSIA == view.power and stack.unit in RAIL_UNITS and view.state.phase == PHASE
            and holds(view.state, ID))


def _normal(view: Situation, stack: Stack) -> int:
    return max(0, allowance(view, view.unit(stack), stack.owner) - stack.moved)


def movement_left(value: int, view: Situation, stack: Stack, space: str | None = None, **_: Any) -> int:
    """A unit that may ride the railway from where it stands has 2 moves (AARE-NA-RUS-rail-move-2)."""
    if space is None or space not in NETWORK or stack.moved or flags.has(stack, flags.COMBAT):
        return value
    return max(value, RAIL_MOVE) if _rail_unit(view, stack) else value


def rail_route(leg: Leg) -> Violation | None:
    """A move longer than a rail unit's own allowance is a rail move: from where it began the turn on the network
    (AARE-NA-RUS-rail-start-on-network), within the network (AARE-NA-RUS-rail-network-only), through Allied-owned
    territories only (AARE-NA-RUS-rail-allied-owned), 2 territories at most (AARE-NA-RUS-rail-move-2)."""
    view, stack = leg.view, leg.stack
    if leg.combat or leg.domain != "land" or not _rail_unit(view, stack) or leg.cost <= _normal(view, stack):
        return None
    if leg.start not in NETWORK or stack.moved or flags.has(stack, flags.COMBAT):
        reason = f"{leg.where}: only units that begin the turn in a railway territory, unmoved, ride the railway"
        return Violation(reason, R_START)
    off = next((s for s in leg.path if s not in NETWORK), None)
    if off is not None:
        return Violation(f"{off} is not a railway territory ({', '.join(sorted(NETWORK))})", R_NETWORK)
    foreign = next((s for s in leg.path[1:] if not view.friendly_land(s)), None)
    if foreign is not None:
        return Violation(f"the railway runs through Allied-owned territories only, not {foreign}", R_ALLIED)
    if leg.cost > RAIL_MOVE:
        return Violation(f"a rail move covers {RAIL_MOVE} territories at most, this one {leg.cost}", R_MOVE)
    return None


def move_checks(checks: list[Check], **_: Any) -> list[Check]:
    """The railway check, before the movement allowance (so that a refused rail move names its rule)."""
    out = list(checks)
    names = [getattr(c, "__name__", "") for c in out]  # another rule may have wrapped it
    at = names.index(within_allowance.__name__) if within_allowance.__name__ in names else len(out)
    out.insert(at, rail_route)
    return out
