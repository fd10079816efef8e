"""Transports: capacity, loading (`load_events`) and unloading (`unload_events`). Each transport's cargo is
its ``cargo=`` flag, so identical loaded transports share one stack."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field

from aare.events import Event, UnitsLoaded, UnitsUnloaded
from aare.movement import flags
from aare.movement.move_checks import Violation, assault_moves_left, can_reach_assault
from aare.movement.pathing import remaining
from aare.movement.situation import Situation
from aare.state.unit_stacks import Stack


@dataclass
class Boat:
    """One transport: the status it starts from and the statuses it passes through."""

    start: Stack
    now: Stack
    steps: list[tuple[Stack, Stack]] = field(default_factory=list)  # (units moved on or off, status after)

    @property
    def cargo(self) -> flags.Cargo:
        return flags.cargo(self.now)


CARRIES = "carries:"  # unit tag: the carrier takes only land units with this tag (e.g. ``carries:infantry``)
COMBAT_CARGO = "combat_cargo:"  # unit tag: units it may take on or put off in combat move (``combat_cargo:1``)


def fits(view: Situation, transport: Stack, load: flags.Cargo, combat: bool = False) -> bool:
    """Whether one transport of `transport` can carry `load` (LHTR-TRANSPORT-capacity); a ship that carries only
    some units (a ``carries:<tag>`` tag) or only a few in combat move (``combat_cargo:<n>``, counting the units it
    took on or put off this turn) follows those limits too (e.g. AARE-NA-JPN-te-capacity)."""
    unit = view.unit(transport)
    if sum(view.unit(u).transport_size for _, u in load) > unit.transport_capacity:
        return False
    allowed = {t[len(CARRIES):] for t in unit.tags if t.startswith(CARRIES)}
    if allowed and any(allowed.isdisjoint(view.unit(u).tags) for _, u in load):
        return False
    limit = combat_cargo(view, transport) if combat else None
    return limit is None or len(flags.cargo_list(transport, flags.BOARDED)) + 1 <= limit


def combat_cargo(view: Situation, transport: Stack) -> int | None:
    """Units `transport` may take on or put off in combat move (None: no limit)."""
    found = [int(t[len(COMBAT_CARGO):]) for t in view.unit(transport).tags if t.startswith(COMBAT_CARGO)]
    return min(found) if found else None


def _boats(stacks: list[Stack]) -> list[Boat]:
    return [Boat(s.with_count(1), s.with_count(1)) for s in stacks for _ in range(s.count)]


def _events(boats: list[Boat], make: type[UnitsLoaded] | type[UnitsUnloaded], here: str, there: str) -> list[Event]:
    """Identical boat histories merge: one event per step for each group of transports."""
    groups: Counter[tuple[Stack, tuple[tuple[Stack, Stack], ...]]] = Counter()
    for boat in boats:
        if boat.steps:
            groups[boat.start, tuple(boat.steps)] += 1
    out: list[Event] = []
    for (start, steps), k in sorted(groups.items()):
        before = start
        for units, after in steps:
            group = units.with_count(units.count * k)
            if make is UnitsLoaded:
                out.append(UnitsLoaded(there, group, here, before.with_count(k), after.with_count(k)))
            else:
                out.append(UnitsUnloaded(here, before.with_count(k), after.with_count(k), there, group))
            before = after
    return out


# --- loading ----------------------------------------------------------------------------------------------


def load_violation(view: Situation, combat: bool, transport: Stack) -> Violation | None:
    """Whether the mover's land units may board `transport` now."""
    if flags.value(transport, flags.UNLOADED):
        reason = "that transport unloaded this turn and can do nothing else"
        return Violation(reason, "LHTR-TRANSPORT-unload-ends-activity")
    own = view.commands(transport)
    if not own and not view.rules.allied_transports:
        reason = f"a transport carries only its own power's units: that one is {transport.owner}'s"
        return Violation(reason, "LHTR-TRANSPORT-allied-transports")
    if combat and not own:
        reason = "units loaded in combat move must go ashore this turn, which an ally's transport does not allow"
        return Violation(reason, "LHTR-TRANSPORT-cm-load-must-assault")
    if not combat and own and flags.has(transport, flags.COMBAT):
        reason = "that transport moved or fought in combat move and cannot load now"
        return Violation(reason, "LHTR-TRANSPORT-combat-transport-no-ncm-unload")
    return None


def _assault_reach(view: Situation, transport: Stack, sea: str) -> Violation | None:
    if can_reach_assault(view, sea, assault_moves_left(view, transport, sea)):
        return None
    reason = "units loaded in combat move must make an amphibious assault: this transport can reach no enemy coast"
    return Violation(reason, "LHTR-TRANSPORT-cm-load-must-assault")


def may_board(view: Situation, combat: bool, transport: Stack, sea: str) -> bool:
    """Whether the mover's land units may board `transport` in `sea` now: no `load_violation`, and in combat move a
    transport able to reach an assault (what `load_events` asks of each transport, so what the listing asks too)."""
    return load_violation(view, combat, transport) is None and not (combat and _assault_reach(view, transport, sea))


def _score(view: Situation, boat: Boat, size: int) -> tuple[int, int, int]:
    """Own transports first; then one the unit fills, then one the same load has begun to fill (the units of
    one `Load` board together), then an empty one, then any; then most movement left."""
    used = sum(view.unit(u).transport_size for _, u in boat.cargo)
    room = view.unit(boat.now).transport_capacity
    fill = 0 if used + size == room else 1 if boat.steps else 2 if not used else 3
    return (0 if view.commands(boat.now) else 1, fill, -remaining(view, boat.now))


def load_events(view: Situation, combat: bool, territory: str, sea: str, want: Mapping[str, int]) -> list[Event]:
    """Events that put `want` ({unit: count}) of the mover's units in `territory` aboard transports in `sea`."""
    if not view.is_land(territory) or sea not in view.graph.coast[territory]:
        raise Violation(f"{territory} is not a territory next to {sea}", "LHTR-TRANSPORT-load-from-adjacent").error()
    if view.blocks(sea):
        raise Violation(f"{sea} holds enemy ships: no loading there", "LHTR-TRANSPORT-no-load-in-hostile").error()
    riders: list[Stack] = []
    for unit_id, count in want.items():
        unit = view.unit(unit_id)
        if unit.domain != "land":
            raise Violation(f"{unit.display_plural} cannot board a transport", "LHTR-TRANSPORT-capacity").error()
        if combat and unit.has("noncombat_move_only"):
            reason = f"{unit.display_plural} load only in non-combat move"
            raise Violation(reason, "LHTR-TRANSPORT-aa-gun-cargo").error()
        ready = [s for s in view.own(territory) if s.unit == unit_id and s.moved == 0 and not flags.turn_flags(s)]
        ready.sort(key=lambda s: s.owner != view.power)  # own units first
        have = sum(s.count for s in ready)
        if have < count:
            reason = f"{view.power} has {have} {unit.display_plural} in {territory} that have not moved; {count} asked"
            raise Violation(reason, "LHTR-TRANSPORT-load-from-adjacent").error()
        for stack in ready:
            take = min(stack.count, count)
            riders += [stack.with_count(1)] * take
            count -= take
    transports = [s for s in view.stacks(sea) if view.friend(s.owner) and view.unit(s).has("transport")]
    ready_boats = [s for s in transports if may_board(view, combat, s, sea)]
    if not ready_boats:
        problems = [v for v in (load_violation(view, combat, s) for s in transports) if v]
        if combat:
            free = [s for s in transports if load_violation(view, combat, s) is None]
            problems += [v for v in (_assault_reach(view, s, sea) for s in free) if v]
        raise (problems or [Violation(f"no friendly transport in {sea}", "LHTR-TRANSPORT-capacity")])[0].error()
    boats = _boats(ready_boats)
    size = {s.unit: view.unit(s).transport_size for s in riders}
    for rider in sorted(riders, key=lambda s: -size[s.unit]):
        entry = (rider.owner, rider.unit)
        open_boats = [b for b in boats if fits(view, b.now, (*b.cargo, entry), combat)]
        if not open_boats:
            room = view.unit(ready_boats[0]).transport_capacity
            reason = (
                f"no room for the {view.unit(rider).display} (it takes {size[rider.unit]} of a transport's "
                f"{room} places) aboard the transports in {sea}"
            )
            raise Violation(reason, "LHTR-TRANSPORT-capacity").error()
        boat = min(open_boats, key=lambda b: _score(view, b, size[rider.unit]))
        after = flags.with_cargo(boat.now, (*boat.cargo, entry))
        after = flags.with_cargo_list(after, flags.BOARDED, (*flags.cargo_list(boat.now, flags.BOARDED), entry))
        boat.steps.append((rider, after))
        boat.now = after
    return _events(boats, UnitsLoaded, sea, territory)


# --- unloading --------------------------------------------------------------------------------------------


def unload_violation(
    view: Situation, combat: bool, transport: Stack, territory: str, sea: str = ""
) -> Violation | None:
    """Whether `transport` in `sea` may put the mover's units ashore in `territory` now."""
    done = flags.value(transport, flags.UNLOADED)
    if done is not None and done != territory:
        reason = f"that transport already unloaded into {done} this turn: one territory per turn"
        return Violation(reason, "LHTR-TRANSPORT-unload-one-territory")
    if combat or not flags.has(transport, flags.COMBAT):
        return None
    if done is not None:
        reason = "that transport unloaded in combat move and can do nothing else"
        return Violation(reason, "LHTR-TRANSPORT-unload-ends-activity")
    fought_there = flags.value(transport, flags.FROM) not in (None, sea)  # moved into a sea battle, did not retreat
    if view.commands(transport) and not (view.rules.unload_after_sea_battle and fought_there):
        reason = "that transport moved or fought in combat move: its cargo can go ashore only as part of the combat"
        return Violation(reason, "LHTR-TRANSPORT-combat-transport-no-ncm-unload")
    return None


def unloadable(view: Situation, transport: Stack) -> flags.Cargo:
    """The mover's units aboard one transport of `transport` that may go ashore now: not those that boarded
    an ally's transport this turn (LHTR-TRANSPORT-allied-transports). On a transport the mover commands, the
    cargo of the allies moving with it (`Situation.moves_for`) goes ashore too."""
    if view.commands(transport):
        return tuple(e for e in flags.cargo(transport) if view.moves_for(e[0]))
    mine = tuple(e for e in flags.cargo(transport) if e[0] == view.power)
    boarded = tuple(e for e in flags.cargo_list(transport, flags.BOARDED) if e[0] == view.power)
    return flags.minus(mine, boarded)


def unload_events(view: Situation, combat: bool, sea: str, territory: str, want: Mapping[str, int]) -> list[Event]:
    """Events that put `want` of the mover's units aboard transports in `sea` ashore in `territory`."""
    if territory in view.graph.neutral:
        raise Violation(f"{territory} is neutral and impassable", "LHTR-LANDMOVE-neutrals-impassable").error()
    if not view.is_land(territory) or territory not in view.graph.coast[sea]:
        rule = "LHTR-TRANSPORT-amphibious-assault" if combat else "LHTR-TRANSPORT-ncm-unload-captured"
        raise Violation(f"{territory} is not a territory next to {sea}", rule).error()
    if view.blocks(sea):
        attacking = any(flags.has(s, flags.COMBAT) and not flags.has(s, flags.WITHDREW) for s in view.own(sea))
        if not (combat and attacking):
            reason = f"{sea} holds enemy ships: no unloading there" + (" unless you attack them" if combat else "")
            raise Violation(reason, "LHTR-TRANSPORT-no-load-in-hostile").error()
    if combat and territory in view.refused():
        raise Violation(*view.refused()[territory]).error()
    if combat and not view.enemy_land(territory):
        reason = f"{territory} is friendly: unloading there waits for non-combat move"
        raise Violation(reason, "LHTR-TRANSPORT-no-friendly-unload-in-cm").error()
    if not combat and not view.friendly_land(territory):
        reason = f"{territory} is enemy territory: non-combat unloading goes to friendly territory only"
        raise Violation(reason, "LHTR-LANDMOVE-noncombat-friendly-only").error()
    for unit_id in want:
        if combat and view.unit(unit_id).has("noncombat_move_only"):
            raise Violation("AA guns unload only in non-combat move", "LHTR-TRANSPORT-aa-gun-cargo").error()
    transports = [s for s in view.stacks(sea) if view.friend(s.owner) and view.unit(s).has("transport")]
    carrying = [s for s in transports if unloadable(view, s) or any(o == view.power for o, _ in flags.cargo(s))]
    problems = [v for v in (unload_violation(view, combat, s, territory, sea) for s in carrying) if v]
    ready = [s for s in carrying if unload_violation(view, combat, s, territory, sea) is None]
    boats = _boats(ready)
    need = Counter(want)

    def order(boat: Boat) -> tuple[bool, bool, bool]:
        """Transports already committed to this territory first, then those carrying the mover's own units
        wanted (an ally's moving along may be barred from going ashore there), then those that empty completely."""
        cargo = unloadable(view, boat.now)
        spare = Counter(u for _, u in cargo) - need
        own = any(o == view.power and need[u] > 0 for o, u in cargo)
        return (flags.value(boat.now, flags.UNLOADED) != territory, not own, bool(spare))

    boats.sort(key=order)
    flag_set = [flags.COMBAT, f"{flags.AMPHIBIOUS}={sea}"] if combat else [f"{flags.LANDED}={sea}"]
    for boat in boats:
        limit = combat_cargo(view, boat.now) if combat else None
        for entry in sorted(unloadable(view, boat.now), key=lambda e: e[0] != view.power):  # own units first
            if need[entry[1]] <= 0:
                continue
            if limit is not None and len(flags.cargo_list(boat.now, flags.DROPPED)) + 1 > limit:
                break
            need[entry[1]] -= 1
            left = flags.minus(boat.cargo, (entry,))
            after = flags.with_cargo(boat.now, left)
            after = flags.with_cargo_list(after, flags.DROPPED, (*flags.cargo_list(boat.now, flags.DROPPED), entry))
            after = flags.with_flags(after, [f"{flags.UNLOADED}={territory}", *([flags.COMBAT] if combat else [])])
            marks = [*flag_set, *([view.co_movers[entry[0]]] if entry[0] in view.co_movers else [])]
            boat.steps.append((Stack(entry[0], entry[1], 1, flags=tuple(sorted(marks))), after))
            boat.now = after
    short = +need
    if short:
        if problems:
            raise problems[0].error()
        allied = [s for s in carrying if not view.commands(s) and flags.cargo_list(s, flags.BOARDED)]
        if allied:
            reason = "units that boarded an ally's transport this turn go ashore on a later turn"
            raise Violation(reason, "LHTR-TRANSPORT-allied-transports").error()
        what = ", ".join(f"{n} {view.unit(u).display_plural}" for u, n in short.items())
        rule = "LHTR-TRANSPORT-amphibious-assault" if combat else "LHTR-TRANSPORT-ncm-unload-captured"
        raise Violation(f"no transport in {sea} carries {what} of {view.power} that can unload", rule).error()
    return _events(boats, UnitsUnloaded, sea, territory)
