"""Enhanced Realism '98 carriers and carrier-based fighters (part of module `realism_air`).

A fighter aboard its own nation's carrier rides along when the carrier moves (`MovementRules.own_fighters_ride`),
so a carrier may move 1 or 2 sea zones and then launch its fighters, which fly at most 1 to their target. A fighter
that launches records the sea zone of its carrier (`DECK`); the carriers there stay for the rest of the turn as far
as the launched fighters need their room, and the fighters come back to them if at all possible. Carriers take
only fighters of their own nation; a land-based fighter that fought does not land on one. Fighters join or leave
a carrier only in non-combat move, and only if they did not fight."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.movement import flags
from aare.movement.landing import hover_spots
from aare.movement.move_checks import Check, Leg, Violation, combat_purpose
from aare.movement.pathing import remaining, sea_reach
from aare.movement.rules import MovementRules
from aare.movement.situation import Situation
from aare.state.unit_stacks import Stack

DECK = "turn:r98-deck"  # =<sea zone>: the zone of the carrier a fighter launched from to attack

RULE_IDS = (
    "REAL98-CARRIER-own-nation", "REAL98-CARRIER-move-then-launch", "REAL98-CARRIER-stop-after-launch",
    "REAL98-CARRIER-return-to-origin", "REAL98-CARRIER-assign-noncombat-only",
    "REAL98-CARRIER-no-landing-after-land-combat", "REAL98-CARRIER-place-new-on-new",
    "REAL98-CARRIER-place-new-on-existing", "REAL98-CARRIER-place-existing-on-new",
)


def fought(stack: Stack) -> bool:
    """Whether an aircraft moved to attack in this turn's combat move."""
    return flags.has(stack, flags.COMBAT)


def launched_from(view: Situation, sea: str) -> int:
    """Carrier places the mover's fighters that launched from `sea` this turn need there."""
    return sum(
        view.unit(s).carrier_size * s.count
        for stacks in view.state.units.values() for s in stacks
        if s.owner == view.power and flags.value(s, DECK) == sea
    )


def own_carrier_room(view: Situation, sea: str) -> int:
    """Free fighter places on the mover's own carriers in `sea` (its own fighters there aboard)."""
    room = 0
    for stack in view.stacks(sea):
        if stack.owner == view.power:
            unit = view.unit(stack)
            room += (unit.carrier_capacity - unit.carrier_size) * stack.count
    return room


def own_carriers_can_reach(view: Situation, sea: str, need: int) -> bool:
    """Whether the mover's own carriers in `sea`, or able to come there in this non-combat move, hold `need` more
    fighter places."""
    room = own_carrier_room(view, sea)
    for space in view.graph.sea:
        if space == sea or room >= need or launched_from(view, space):
            continue
        coming = 0
        for stack in view.stacks(space):
            unit = view.unit(stack)
            if stack.owner != view.power or not unit.carrier_capacity or flags.has(stack, flags.COMBAT):
                continue
            left = remaining(view, stack, space)
            if left and sea in sea_reach(view, space, left, end_hostile=False):
                coming += unit.carrier_capacity * stack.count
        # the fighters aboard ride along; carriers with more fighters than room there bring none (and take none:
        # the sum may not depend on the order the zones are asked in)
        room += max(0, min(coming, own_carrier_room(view, space)))
    return room >= need


# --- move checks --------------------------------------------------------------------------------------------


def stop_after_launch(leg: Leg) -> Violation | None:
    """REAL98-CARRIER-stop-after-launch: a carrier whose fighters launched to attack ends its move there (as far
    as the launched fighters need its room to come back)."""
    if leg.domain != "sea" or not leg.unit.carrier_capacity or leg.stack.owner != leg.view.power:
        return None
    need = launched_from(leg.view, leg.start)
    if not need:
        return None
    staying = sum(leg.view.unit(s).carrier_capacity * s.count for s in leg.view.own(leg.start)) \
        - leg.unit.carrier_capacity * leg.stack.count
    if staying >= need:
        return None
    reason = f"fighters launched from the carriers in {leg.start} to attack: a carrier ends its move after launching"
    return Violation(reason, "REAL98-CARRIER-stop-after-launch")


def launch_targets(view: Situation, sea: str) -> list[str]:
    """Spaces next to `sea` (or `sea` itself) a fighter launched there could attack."""
    spaces = (sea, *view.graph.air[sea])
    return [s for s in spaces if view.hostile(s) or (view.enemy_land(s) and s in view.enemy_fighting)]


def launch_purpose(leg: Leg) -> Violation | None:
    """REAL98-CARRIER-move-then-launch: in combat move a carrier may move 1 or 2 sea zones to launch the fighters
    riding aboard (then at most 1 from it to their target): the move needs no battle of its own."""
    found = combat_purpose(leg)
    if found is None or leg.domain != "sea" or not leg.unit.carrier_capacity:
        return found
    view = leg.view
    riders = any(view.unit(s).carrier_size and not fought(s) for s in view.own(leg.start) if s.owner == view.power)
    if riders and launch_targets(view, leg.end):
        return None
    return found


def own_nation(leg: Leg) -> Violation | None:
    """REAL98-CARRIER-own-nation: a fighter ends a non-combat move at sea only on its own nation's carriers."""
    if leg.combat or leg.domain != "air" or not leg.view.is_sea(leg.end) or not leg.unit.carrier_size:
        return None
    need = leg.unit.carrier_size * leg.stack.count
    if own_carriers_can_reach(leg.view, leg.end, need):
        return None
    spots, bought = hover_spots(leg.view)
    if bought and leg.end in spots:
        reason = "fighters wait for a new carrier in the territory of its complex and board it when it is placed"
        return Violation(reason, "REAL98-CARRIER-place-existing-on-new")
    reason = f"carriers carry only fighters of their own nation: {leg.view.power} has no carrier room in {leg.end}"
    return Violation(reason, "REAL98-CARRIER-own-nation")


def no_landing_after_land_combat(leg: Leg) -> Violation | None:
    """REAL98-CARRIER-no-landing-after-land-combat: a land-based fighter that fought does not land on a carrier
    (REAL98-CARRIER-assign-noncombat-only: it did not fight to be assigned to one)."""
    if leg.combat or leg.domain != "air" or not leg.view.is_sea(leg.end):
        return None
    if not fought(leg.stack) or flags.value(leg.stack, DECK) is not None:
        return None
    reason = f"{leg.where} fought this turn from a land base: it may not land on a carrier"
    return Violation(reason, "REAL98-CARRIER-no-landing-after-land-combat")


def return_to_origin(leg: Leg) -> Violation | None:
    """REAL98-CARRIER-return-to-origin: a carrier-based fighter that fought returns to the carrier it launched
    from if at all possible (REAL98-CARRIER-assign-noncombat-only: it is not detached this turn)."""
    if leg.combat or leg.domain != "air":
        return None
    deck = flags.value(leg.stack, DECK)
    if deck is None or leg.end == deck or not fought(leg.stack):
        return None
    view = leg.view
    left = remaining(view, leg.stack, leg.start)
    near = view.graph.distances_from(frozenset({leg.start})).get(deck, left + 1) <= left
    if not near or own_carrier_room(view, deck) < leg.unit.carrier_size * leg.stack.count:
        return None
    reason = f"{leg.where} launched from the carrier in {deck}: it must return to it, which it can"
    return Violation(reason, "REAL98-CARRIER-return-to-origin")


LANDING_CHECKS: tuple[Check, ...] = (no_landing_after_land_combat, return_to_origin, own_nation)


def replace_purpose(checks: list[Check]) -> list[Check]:
    """The check list with the core's combat purpose widened to carriers launching their fighters."""
    return [launch_purpose if c is combat_purpose else c for c in checks]


# --- hooks --------------------------------------------------------------------------------------------------


def _movement_rules(rules: MovementRules, **_: Any) -> MovementRules:
    return replace(rules, own_fighters_ride=True)


def _combat_move_supported(zones: set[str], view: Situation, **_: Any) -> set[str]:
    """Sea zones the mover's fighters launched from: carriers that moved there to launch them have a purpose."""
    decks = {
        d for stacks in view.state.units.values() for s in stacks
        if s.owner == view.power and (d := flags.value(s, DECK)) is not None
    }
    return zones | decks


HOOKS: dict[str, Any] = {
    "movement_rules": _movement_rules,
    "combat_move_supported": _combat_move_supported,
}
