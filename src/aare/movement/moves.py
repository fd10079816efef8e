"""Turn a `Move` or `Load` action into events, or raise IllegalAction naming the rule it breaks.

Which units move: of each named type, the mover's stacks in `path[0]` that pass every move check, those
with the least movement left first (so fresher units stay free). Transports are matched by their cargo.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace

from aare.actions import Load, Move
from aare.board.notation import parse_units
from aare.economy.capture import capture_territory_events
from aare.errors import IllegalAction
from aare.events import ControlChanged, Event, UnitsChanged
from aare.movement import flags
from aare.movement.move_checks import RANGE_RULE, Check, Leg, Violation, first_violation, leg_checks
from aare.movement.pathing import blitzed, flown_over, remaining
from aare.movement.situation import Situation
from aare.movement.transport import load_events, unload_events
from aare.state.unit_stacks import Stack

Picked = list[tuple[Stack, int]]


def move_action_events(view: Situation, action: Move, combat: bool) -> list[Event]:
    """The events of `action` in combat move (`combat`) or non-combat move, with what rule modules add (the
    ``move_events`` hook)."""
    path = tuple(view.board.resolve(p) for p in action.path)
    events: list[Event] = view.ruleset.modify("move_events", _move_events(view, action, combat), view=view,
                                              combat=combat, path=path)
    return events


def _move_events(view: Situation, action: Move, combat: bool) -> list[Event]:
    board, catalogue = view.board, view.units
    path = tuple(board.resolve(p) for p in action.path)
    want = parse_units(action.units, catalogue)
    if not want:
        raise IllegalAction("name the units to move, e.g. '2 infantry'", RANGE_RULE["land"])
    land = {u: n for u, n in want.items() if catalogue[u].domain == "land"}
    if view.is_sea(path[0]) and land and not view.is_sea(path[-1]):
        if len(land) != len(want):
            raise IllegalAction("unload land units in a move of their own", "LHTR-TRANSPORT-offloaded-units-stop")
        if len(path) != 2:
            reason = "units unload from a sea zone into one adjacent territory"
            raise IllegalAction(reason, "LHTR-TRANSPORT-amphibious-assault")
        if action.raid:
            raise IllegalAction("only bombers fly bombing raids", "LHTR-SBR-eligibility")
        return unload_events(view, combat, path[0], path[1], land)
    checks = leg_checks(view)
    cargo_wanted = Counter(land) if view.is_sea(path[0]) else Counter()
    boats = [u for u in want if view.unit(u, view.power).has("transport")]
    movers = [u for u in want if not (cargo_wanted and u in land)]
    domains = {catalogue[u].domain for u in movers}
    company = tuple(sorted(want.items()))
    picked: Picked = []
    for unit_id in movers:
        if cargo_wanted and unit_id in boats:
            continue
        others = frozenset(domains - {catalogue[unit_id].domain})
        picked += pick(view, combat, path, unit_id, want[unit_id], action.raid, others, checks, company)
    if cargo_wanted:
        if not boats:
            reason = "land units cross the sea only aboard transports: name the transports"
            raise IllegalAction(reason, RANGE_RULE["land"])
        others = frozenset(domains - {"sea"})
        picked += pick_transports(view, combat, path, boats[0], want[boats[0]], cargo_wanted, others, checks, company)
    return move_events(view, combat, path, picked, action.raid)


def pick(
    view: Situation,
    combat: bool,
    path: tuple[str, ...],
    unit_id: str,
    count: int,
    raid: bool,
    others: frozenset[str],
    checks: tuple[Check, ...],
    company: tuple[tuple[str, int], ...] = (),
) -> Picked:
    """Choose `count` units of `unit_id` in `path[0]` that may make this move (`company`: every unit the
    action names)."""
    ok: list[Stack] = []
    bad: list[Violation] = []
    for stack in view.own(path[0]):
        if stack.unit != unit_id:
            continue
        if view.unit(stack).has("transport") and flags.cargo(stack):
            continue  # a loaded transport is named with its cargo
        leg = Leg(view, combat, stack.with_count(min(stack.count, count)), path, raid, others, company)
        found = first_violation(leg, checks)
        if found is None:
            ok.append(stack)
        else:
            bad.append(found)
    ok.sort(key=lambda s: (s.owner != view.power, remaining(view, s), s.status))  # own units first
    picked: Picked = []
    need = count
    for stack in ok:
        take = min(stack.count, need)
        if take:
            picked.append((stack, take))
            need -= take
    if need:
        if bad:
            raise bad[0].error()
        unit = view.unit(unit_id)
        have = count - need
        reason = f"{view.power} has {have} {unit.display_plural} in {path[0]} that can make this move; {count} asked"
        raise IllegalAction(reason, RANGE_RULE.get(unit.domain, RANGE_RULE["land"]))
    return picked


def pick_transports(
    view: Situation,
    combat: bool,
    path: tuple[str, ...],
    unit_id: str,
    count: int,
    cargo: Counter[str],
    others: frozenset[str],
    checks: tuple[Check, ...],
    company: tuple[tuple[str, int], ...] = (),
) -> Picked:
    """Choose `count` transports in `path[0]` whose cargo together is exactly `cargo` ({unit: count})."""
    ok: list[Stack] = []
    bad: list[Violation] = []
    for stack in view.own(path[0]):
        if stack.unit != unit_id:
            continue
        found = first_violation(Leg(view, combat, stack.with_count(1), path, False, others, company), checks)
        if found is None:
            ok.append(stack)
        else:
            bad.append(found)
    ok.sort(key=lambda s: (s.owner != view.power, remaining(view, s), s.status))  # own units first
    loads = [Counter(u for _, u in flags.cargo(s)) for s in ok]

    def search(i: int, left: int, need: Counter[str]) -> Picked | None:
        if left == 0:
            return [] if not +need else None
        if i == len(ok):
            return None
        for take in range(min(ok[i].count, left), -1, -1):
            rest = need.copy()
            rest.subtract({u: n * take for u, n in loads[i].items()})
            if any(v < 0 for v in rest.values()):
                continue
            found = search(i + 1, left - take, rest)
            if found is not None:
                return ([(ok[i], take)] if take else []) + found
        return None

    picked = search(0, count, cargo)
    if picked is None:
        if bad:
            raise bad[0].error()
        if not ok:
            raise IllegalAction(f"{view.power} has no transports in {path[0]}", RANGE_RULE["sea"])
        what = ", ".join(f"{n} {view.unit(u).display_plural}" for u, n in cargo.items())
        reason = f"no {count} transport(s) in {path[0]} that can make this move carry exactly {what}"
        raise IllegalAction(reason, "LHTR-TRANSPORT-capacity")
    return picked


def capture_owner(view: Situation, territory: str) -> tuple[str, str]:
    """Who takes `territory` blitzed, and the rule: its original owner when that is an ally holding its own
    capital (LHTR-ECON-liberation-to-original-owner), else the mover; the ``capture_controller`` hook may
    change it."""
    original = view.board.spaces[territory].owner
    owner = view.power
    if original and original != view.power and view.friend(original) \
            and view.board.holds_capital(original, view.state.owners):
        owner = original
    found: tuple[str, str] = view.ruleset.modify("capture_controller", (owner, "LHTR-LANDMOVE-blitz"),
                                                 state=view.state, territory=territory, capturer=view.power)
    return found


def after_move(view: Situation, combat: bool, stack: Stack, path: tuple[str, ...], raid: bool) -> Stack:
    """The status of `stack` once it has moved along `path`; rule modules add flags of their own (the
    ``moved_flags`` hook)."""
    unit = view.unit(stack)
    add: list[str] = []
    if combat:
        add.append(flags.COMBAT)
        if unit.domain in ("land", "sea"):
            add.append(f"{flags.FROM}={path[-2]}")
        leaving = view.hostile(path[0]) and not view.hostile(path[-1]) and not flags.has(stack, flags.COMBAT)
        if unit.domain == "sea" and leaving and stack.moved == 0:
            add.append(flags.WITHDREW)
        if raid:
            add.append(f"{flags.SBR}={path[-1]}")
        if unit.domain == "air":
            add += [f"{flags.FLYOVER}={t}" for t in flown_over(view, path)]
    add += view.ruleset.modify("moved_flags", [], view=view, stack=stack, path=path, combat=combat, raid=raid,
                               riding=False)
    moved = flags.with_flags(stack, add, [flags.FROM] if combat else [])
    return replace(moved, moved=stack.moved + view.path_cost(path, unit.domain))


def move_events(view: Situation, combat: bool, path: tuple[str, ...], picked: Picked, raid: bool) -> list[Event]:
    """ControlChanged for blitzed territories, then one UnitsChanged per moving stack; allied fighters aboard
    moving carriers ride along."""
    out: list[Event] = []
    captured: list[str] = []
    if combat:
        for stack, _ in picked:
            if view.unit(stack).domain == "land":
                captured += [t for t in blitzed(view, path) if t not in captured]
    if view.rules.blitz_through_infrastructure:  # AA guns and complexes change hands with the territory
        for territory in captured:
            out += capture_territory_events(view.state, view.ruleset, territory, view.power)
    else:
        out += [ControlChanged(t, *capture_owner(view, t)) for t in captured]
    for stack, count in picked:
        after = after_move(view, combat, stack, path, raid)
        out.append(UnitsChanged(path[0], stack.with_count(count), after.with_count(count), path[-1]))
    out += riders(view, path, picked, combat)
    return out


def riders(view: Situation, path: tuple[str, ...], picked: Picked, combat: bool = False) -> list[Event]:
    """Allied fighters aboard the mover's carriers travel with them as cargo (LHTR-AIRMOVE-carrier-fighters-launch):
    those the carriers staying behind have no room for. Where the ruleset says so (`MovementRules.own_fighters_ride`)
    the mover's own fighters that did not move in combat move ride first, as many as the moving carriers hold,
    marked as rule modules say (the ``moved_flags`` hook, with `riding`)."""
    moving = sum(view.unit(s).carrier_capacity * n for s, n in picked)
    if not moving or not view.is_sea(path[0]):
        return []
    stacks = view.stacks(path[0])
    out: list[Event] = []
    leaving = moving  # carrier room that leaves the zone
    if view.rules.own_fighters_ride:
        flying = {s: n for s, n in picked}
        for stack in sorted(stacks):
            size = view.unit(stack).carrier_size
            if not size or not view.commands(stack) or flags.has(stack, flags.COMBAT):
                continue
            take = min(stack.count - flying.get(stack, 0), moving // size)
            if take > 0:
                marks = view.ruleset.modify("moved_flags", [], view=view, stack=stack, path=path, combat=combat,
                                            raid=False, riding=True)
                after = flags.with_flags(stack, marks).with_count(take)
                out.append(UnitsChanged(path[0], stack.with_count(take), after, path[-1]))
                moving -= take * size
    allied_air = [s for s in stacks if not view.commands(s) and view.friend(s.owner) and view.unit(s).carrier_size]
    if not allied_air or not moving:
        return out
    room = sum(view.unit(s).carrier_capacity * s.count for s in stacks if view.friend(s.owner))
    need = sum(view.unit(s).carrier_size * s.count for s in allied_air)
    board = min(moving, max(0, need - (room - leaving)))
    for stack in sorted(allied_air):
        take = min(stack.count, board // max(1, view.unit(stack).carrier_size))
        if take:
            out.append(UnitsChanged(path[0], stack.with_count(take), stack.with_count(take), path[-1]))
            board -= take * view.unit(stack).carrier_size
    return out


def load_action_events(view: Situation, action: Load, combat: bool) -> list[Event]:
    board = view.board
    territory, sea = board.resolve(action.territory), board.resolve(action.sea_zone)
    want: Mapping[str, int] = parse_units(action.units, view.units)
    if not want:
        raise IllegalAction("name the units to load, e.g. '1 infantry'", "LHTR-TRANSPORT-capacity")
    return load_events(view, combat, territory, sea, want)
