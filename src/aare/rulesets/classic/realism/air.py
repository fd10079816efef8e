"""Enhanced Realism '98 aircraft (module `realism_air`): flight range limits by mission, the one-sea-zone rule
(an option) and carriers (`realism/carriers.py`).

An aircraft that moves in combat move records its mission in per-turn flags (the ``moved_flags`` hook): its
range limit (3 for a bomber raiding a complex, 1 for a fighter launched from a carrier, else 2), the spaces it
flew and where it fought. The non-combat move reads them: the way back is at most the limit
(REAL98-AIR-return-range); an aircraft without them did not attack and has its full range. In combat move no
extra landing check is needed: an aircraft can always fly back the way it came (a carrier fighter to its carrier,
which stays), and the core's check that it can land somewhere stays in force."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation, air_landing, path_shape
from aare.movement.situation import Situation
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.classic.movement import no_hover
from aare.rulesets.classic.realism import carrier_placement, carriers
from aare.state.unit_stacks import Stack

LIMIT = "turn:r98-range"  # =<n>: the combat range limit of the aircraft's mission (1, 2 or 3)
FLOWN = "turn:r98-flown"  # =<n>: the spaces it flew in combat move
TARGET = "turn:r98-target"  # =<space>: where it went to fight
SEA = "turn:r98-sea"  # =<sea zone>: a sea zone it entered on the way back from its battle

RAID_RANGE, CARRIER_RANGE, OTHER_RANGE = 3, 1, 2
ONE_SEA_OPTION = "one_sea_zone"
ONE_SEA = OptionSpec(
    key=ONE_SEA_OPTION,
    type=bool,
    default=True,
    help="the one sea zone rule: aircraft flying to or back from a battle enter at most one sea zone each way",
    rule_id="REAL98-ONESEA-outbound",
)


@dataclass(frozen=True)
class Mission:
    """What an aircraft that moved in combat move did: its range `limit`, the spaces `flown` and the `target`."""

    limit: int
    flown: int
    target: str


def mission(stack: Stack) -> Mission | None:
    """The combat mission `stack` flew this turn, or None if it did not attack."""
    limit, flown, target = flags.value(stack, LIMIT), flags.value(stack, FLOWN), flags.value(stack, TARGET)
    if limit is None or flown is None or target is None:
        return None
    return Mission(int(limit), int(flown), target)


def combat_limit(view: Situation, stack: Stack, path: tuple[str, ...], raid: bool) -> tuple[int, str, str]:
    """The range limit of a combat flight along `path`, the rule and the mission's name."""
    if raid:
        return RAID_RANGE, "REAL98-AIR-sbr-range", "bomber raiding an industrial complex"
    if view.is_sea(path[0]) and view.unit(stack).carrier_size:
        return CARRIER_RANGE, "REAL98-AIR-carrier-fighter-range", "fighter launched from a carrier"
    return OTHER_RANGE, "REAL98-AIR-combat-range", "aircraft on a combat mission"


def return_left(stack: Stack, found: Mission) -> int:
    """The spaces an aircraft that fought may still fly back: its limit less what it flew since combat."""
    return max(0, found.limit - (stack.moved - found.flown))


def one_sea_rule(view: Situation) -> bool:
    return bool(view.ruleset.options.get(ONE_SEA_OPTION, True))


# --- move checks --------------------------------------------------------------------------------------------


def combat_range(leg: Leg) -> Violation | None:
    """REAL98-AIR-range-table: in combat move an aircraft flies at most its mission's limit to its target."""
    if not leg.combat or leg.domain != "air":
        return None
    limit, rule, name = combat_limit(leg.view, leg.stack, leg.path, leg.raid)
    if leg.cost <= limit:
        return None
    return Violation(f"{leg.where}: a {name} flies at most {limit} to its target; {leg.end} is {leg.cost} away", rule)


def return_range(leg: Leg) -> Violation | None:
    """REAL98-AIR-return-range: an aircraft that fought flies back at most its combat range limit."""
    if leg.combat or leg.domain != "air":
        return None
    found = mission(leg.stack)
    if found is None:
        return None
    left = return_left(leg.stack, found)
    if leg.cost <= left:
        return None
    reason = f"{leg.where} fought this turn: its way back is at most {found.limit} ({left} left), not {leg.cost}"
    return Violation(reason, "REAL98-AIR-return-range")


def one_sea_outbound(leg: Leg) -> Violation | None:
    """REAL98-ONESEA-outbound (option): on the way to a battle an aircraft enters at most one sea zone."""
    if not leg.combat or leg.domain != "air" or not one_sea_rule(leg.view):
        return None
    seas = [s for s in leg.path[1:] if leg.view.is_sea(s)]
    if len(seas) <= 1:
        return None
    return Violation(f"aircraft flying to a battle enter one sea zone at most; this path enters {', '.join(seas)}",
                     "REAL98-ONESEA-outbound")


def one_sea_return(leg: Leg) -> Violation | None:
    """REAL98-ONESEA-return (option): on the way back from a battle an aircraft enters at most one sea zone; the
    sea zone of the battle itself is not entered again."""
    if leg.combat or leg.domain != "air" or not one_sea_rule(leg.view):
        return None
    found = mission(leg.stack)
    if found is None:
        return None
    entered = list(flags.values(leg.stack, SEA))
    entered += [s for s in leg.path[1:] if leg.view.is_sea(s) and s != found.target and s not in entered]
    if len(entered) <= 1:
        return None
    return Violation(f"aircraft returning from a battle enter one sea zone at most; this flight enters "
                     f"{', '.join(entered)}", "REAL98-ONESEA-return")


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    """The Realism air checks; the Classic ban on waiting for a new carrier gives way to the Realism carrier
    rules (REAL98-CARRIER-place-existing-on-new)."""
    out = carriers.replace_purpose([c for c in checks if c is not no_hover])
    out.insert(0, carriers.stop_after_launch)
    shape = out.index(path_shape) + 1 if path_shape in out else len(out)
    out[shape:shape] = [combat_range, return_range, one_sea_outbound, one_sea_return]
    landing = out.index(air_landing) + 1 if air_landing in out else len(out)
    out[landing:landing] = list(carriers.LANDING_CHECKS)
    return out


def _movement_left(left: int, view: Situation, stack: Stack, **_: Any) -> int:
    """After combat, an aircraft that fought has its return range left at most."""
    found = mission(stack)
    if found is None or view.state.phase == "combat-move":
        return left
    return min(left, return_left(stack, found))


def _moved_flags(found: list[str], view: Situation, stack: Stack, path: tuple[str, ...], combat: bool, raid: bool,
                 riding: bool = False, **_: Any) -> list[str]:
    """Record an aircraft's mission when it flies to battle, and the sea zones it enters on its way back. Fighters
    riding their carrier into a sea battle fight from its deck: a carrier fighter's mission with nothing flown."""
    if view.unit(stack).domain != "air":
        return found
    if riding:
        if not combat or not view.hostile(path[-1]):
            return found
        end = path[-1]
        return [*found, flags.COMBAT, f"{LIMIT}={CARRIER_RANGE}", f"{FLOWN}={stack.moved}", f"{TARGET}={end}",
                f"{carriers.DECK}={end}"]
    if combat:
        limit = combat_limit(view, stack, path, raid)[0]
        out = [f"{LIMIT}={limit}", f"{FLOWN}={len(path) - 1}", f"{TARGET}={path[-1]}"]
        if view.is_sea(path[0]):
            out.append(f"{carriers.DECK}={path[0]}")
        return [*found, *out]
    done = mission(stack)
    if done is None:
        return found
    return [*found, *(f"{SEA}={s}" for s in path[1:] if view.is_sea(s) and s != done.target)]


def _rule_ids(ids: dict[str, str], **_: Any) -> dict[str, str]:
    """Fighters placed on carriers: the core's rules under their Realism ids."""
    return {**ids, "LHTR-MOBILIZE-fighters-on-new-carrier": "REAL98-CARRIER-place-new-on-new",
            "LHTR-MOBILIZE-fighters-on-existing-carrier": "REAL98-CARRIER-place-new-on-existing"}


MODULE = register_module(
    RuleModule(
        id="realism_air",
        title="Enhanced Realism '98 aircraft",
        rule_ids=(
            "REAL98-AIR-range-table", "REAL98-AIR-sbr-range", "REAL98-AIR-carrier-fighter-range",
            "REAL98-AIR-combat-range", "REAL98-AIR-return-range", "REAL98-AIR-full-range-if-idle",
            "REAL98-ONESEA-outbound", "REAL98-ONESEA-return", *carriers.RULE_IDS,
        ),
        hooks={
            "move_checks": _move_checks,
            "movement_left": _movement_left,
            "moved_flags": _moved_flags,
            "phase_actions": carrier_placement.phase_actions,
            "rule_ids": _rule_ids,
            **carriers.HOOKS,
        },
        options=(ONE_SEA,),
    )
)
