"""Candidate actions for the movement phases: per stack of the power to move, per reachable destination,
one move along the best legal path (and, for land units, one per blitz variant); then unloads and loads.
`Game.legal_actions` keeps the candidates that the phase's `events_for` accepts."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from functools import partial
from typing import cast

from aare.actions import Load, Move
from aare.board.notation import format_units, parse_units
from aare.errors import AareError
from aare.identity_cache import Worked
from aare.movement import flags
from aare.movement import memo as move_memo
from aare.movement.move_checks import (
    COUNT_BLIND,
    Check,
    Leg,
    attack_ends,
    combat_purpose,
    domain,
    first_violation,
    leg_checks,
    movable,
    neutrals,
    not_committed,
    path_shape,
)
from aare.movement.pathing import air_routes, blitzed, remaining, simple_paths
from aare.movement.situation import Situation
from aare.movement.transport import fits, load_violation, may_board, unload_events, unloadable
from aare.state.unit_stacks import Stack


def move_candidates(view: Situation, combat: bool, space: str | None = None) -> list[Move | Load]:
    """Every space's moves, unloads and loads (of `space` alone, when given), in the order of the spaces' names: only
    the spaces where the mover has units or a friendly transport is have any. Each space's part is kept from the
    last listing while the lists it was made of are (`MoveMemo.segments_for`)."""
    memo = move_memo.memo_for(view, combat)  # (looked up in the module: tests and benchmarks turn it off)
    boats = _transport_seas(view, memo)
    if space is not None:
        out = _space_moves(view, combat, space, boats, memo)
        if view.is_land(space):
            out += loads(view, combat, space)
        elif view.is_sea(space):
            for territory in view.graph.coast[space]:
                out += loads(view, combat, territory, only=space)
        return out
    spaces = sorted(view.own_spaces.keys() | boats)
    if memo is None:
        return _listing_of(view, combat, spaces, boats, None)
    segments = memo.segments_for(view)
    out, after = [], []
    for where in spaces:
        part = segments.get(where)
        if part is None:
            loaded = (_kept(view, memo, ("loads", where), where, partial(_listing, loads, view, combat, where))
                      if view.is_land(where) else [])
            part = segments[where] = (_space_moves(view, combat, where, boats, memo), loaded)
        out += part[0]
        after += part[1]
    out += after
    if move_memo.CHECK and out != (fresh := _listing_of(view, combat, spaces, boats, None)):
        raise AssertionError(f"kept move candidates differ from a fresh listing: {out} != {fresh}")
    return out


def _listing_of(view: Situation, combat: bool, spaces: list[str], boats: frozenset[str],
                memo: move_memo.MoveMemo | None) -> list[Move | Load]:
    """The moves and unloads of `spaces`, then their loads."""
    out = [m for where in spaces for m in _space_moves(view, combat, where, boats, memo)]
    return out + [c for where in spaces if view.is_land(where) for c in loads(view, combat, where)]


def _space_moves(view: Situation, combat: bool, where: str, boats: frozenset[str],
                 memo: move_memo.MoveMemo | None) -> list[Move | Load]:
    """The moves of the mover's stacks in `where`, then its unloads (a sea zone with a friendly transport)."""
    stacks = view.own(where)
    out: list[Move | Load] = []
    if len(stacks) == 1:
        out += _stack_moves(view, combat, where, stacks[0], memo)
    elif stacks:  # (moves from different spaces differ in their first space)
        seen: set[tuple[object, ...]] = set()
        for stack in stacks:
            for move in _stack_moves(view, combat, where, stack, memo):
                key = (move.units, tuple(move.path), move.raid)
                if key not in seen:
                    seen.add(key)
                    out.append(move)
    if where in boats:  # (only a sea zone with a friendly transport has unloads)
        out += _kept(view, memo, ("unloads", where, *_refused_ashore(view, combat, where)), where,
                     partial(_listing, unloads, view, combat, where))
    return out


def _kept(view: Situation, memo: move_memo.MoveMemo | None, key: tuple[str, ...], where: str,
          listing: Callable[[], list[Move | Load]]) -> list[Move | Load]:
    """The loads or unloads of `where` (`listing` lists them), kept while no unit changes there or on its shore or
    coast (what they read of the units)."""
    if memo is None:
        return listing()
    return memo.listed(view, key, view.graph.with_coast[where], listing)


def _listing(found: Callable[[Situation, bool, str], Iterator[Move | Load]], view: Situation, combat: bool,
             where: str) -> list[Move | Load]:
    return list(found(view, combat, where))


def _refused_ashore(view: Situation, combat: bool, sea: str) -> tuple[str, ...]:
    """The territories on the shore of `sea` the mover may not enter in combat move now (`Situation.refused`)."""
    refused = view.refused() if combat else None
    return tuple(t for t in view.graph.coast[sea] if t in refused) if refused else ()


def _text(view: Situation, stack: Stack, count: int) -> str:
    """`count` units of `stack` with their cargo, as a move names them (kept per situation)."""
    key = ("move_text", stack.unit, stack.flags, count)
    text: str | None = view.cache.get(key)
    if text is None:
        units = Counter({stack.unit: count})
        for _, unit in flags.cargo(stack):
            units[unit] += count
        text = view.cache[key] = format_units(units, view.units)
    return text


STACK_CHECKS = (movable, not_committed)
# what the paths listed here are by construction: steps between neighbours of the unit's own domain (the movement
# graph leaves impassable neutrals out), no space twice
BUILT_CHECKS = (path_shape, neutrals, domain)


def _listing_checks(view: Situation) -> tuple[Check, ...]:
    """The leg checks a listed leg still needs, the one that refuses most legs first: the probe passed the checks
    that read only the stack and where it stands, and the paths are well formed by construction. A candidate
    needs only to pass every check, so their order changes nothing but which refusal would be named."""
    key = "listing_checks"
    if key not in view.cache:
        rest = [c for c in leg_checks(view) if c not in STACK_CHECKS and c not in BUILT_CHECKS]
        view.cache[key] = tuple(sorted(rest, key=lambda c: c is not combat_purpose))
    checks: tuple[Check, ...] = view.cache[key]
    return checks


def _stack_checks(view: Situation) -> tuple[Check, ...]:
    """Of the listing's checks, those a whole stack may fail where one of its units passes: all but the default
    checks that read a stack's status and never its count (`COUNT_BLIND`)."""
    key = "stack_checks"
    if key not in view.cache:
        view.cache[key] = tuple(c for c in _listing_checks(view) if c not in COUNT_BLIND)
    checks: tuple[Check, ...] = view.cache[key]
    return checks


def stack_moves(view: Situation, combat: bool, where: str, stack: Stack) -> list[Move]:
    """The moves of `stack` in `where`: one per reachable destination (and blitz variant, or raid), for one unit and
    for the whole stack; kept from the last state while nothing they read changed (`aare.movement.memo`)."""
    return _stack_moves(view, combat, where, stack, move_memo.memo_for(view, combat))


def _stack_moves(view: Situation, combat: bool, where: str, stack: Stack,
                 memo: move_memo.MoveMemo | None) -> list[Move]:
    """`stack_moves`, with the memo of the mover's movement (None: the ruleset keeps no lists)."""
    def listing() -> move_memo.Listed:
        return _stack_listing(view, combat, where, stack)
    return listing()[0] if memo is None else memo.moves(view, where, stack, listing)


def _stack_listing(view: Situation, combat: bool, where: str, stack: Stack) -> move_memo.Listed:
    """The moves of `stack` in `where` listed afresh, with its movement left and unit type."""
    unit = view.unit(stack)
    left = remaining(view, stack, where)
    if not left or unit.domain == "building":
        return [], left, unit
    return list(_listed_moves(view, combat, where, stack, left)), left, unit


def _listed_moves(view: Situation, combat: bool, where: str, stack: Stack, left: int) -> Iterator[Move]:
    unit = view.unit(stack)
    probe = Leg(view, combat, stack, (where,))
    if movable(probe) or not_committed(probe):
        return
    checks = _listing_checks(view)
    counts = [1, stack.count] if stack.count > 1 else [1]
    one = stack.with_count(1)
    chosen: dict[tuple[str, ...], tuple[str, ...]] = {}
    raids: list[tuple[str, ...]] = []
    ends = attack_ends(view, stack, unit, where) if combat and combat_purpose in checks else None
    if unit.domain == "air":
        bombs = combat and unit.has("strategic_bomber")
        for dest, path in air_routes(view, where, left, avoid_aa=combat).items():
            if (ends is None or ends(dest)) and first_violation(Leg(view, combat, one, path, unit=unit),
                                                                checks) is None:
                chosen[(dest,)] = path
            bombing = Leg(view, combat, one, path, True, unit=unit) if bombs and dest in view.enemy_factories else None
            if bombing is not None and first_violation(bombing, checks) is None:
                raids.append(path)
    else:
        nbrs = view.graph.land_nbrs if unit.domain == "land" else view.graph.sea_nbrs
        blitzes = unit.domain == "land" and combat
        if blitzes and combat_purpose in checks and not _enemy_land_within(view, where, left):
            return  # (every path ends in or passes friendly territory only: no attack)
        for path in simple_paths(where, left, nbrs):
            key = (path[-1], *blitzed(view, path)) if blitzes else (path[-1],)
            if key in chosen or (ends is not None and not ends(path[-1])):
                continue
            if first_violation(Leg(view, combat, one, path, unit=unit), checks) is None:
                chosen[key] = path
    whole = _stack_checks(view)  # (the whole stack passes the others wherever one unit of it does)
    for count in counts:
        text = _text(view, stack, count)
        for path, raid in [*((p, False) for p in chosen.values()), *((p, True) for p in raids)]:
            if count == 1 or _whole_passes(Leg(view, combat, stack, path, raid, unit=unit), whole, checks):
                yield _move(text, path, raid)


def _whole_passes(leg: Leg, whole: tuple[Check, ...], checks: tuple[Check, ...]) -> bool:
    """Whether the whole stack of `leg` passes `whole` (one of its units passed `checks`); with
    AARE_CHECK_MOVE_MEMO=1 (the tests), compared with `checks` asked of the whole stack."""
    found = first_violation(leg, whole) is None
    if move_memo.CHECK and found != (first_violation(leg, checks) is None):
        raise AssertionError(f"the count-blind checks judge {leg} otherwise for the whole stack than for one unit")
    return found


def _enemy_land_within(view: Situation, where: str, steps: int) -> bool:
    """Whether an enemy territory lies within `steps` land moves of `where`."""
    graph = view.graph
    key = ("land_ball", where, steps)
    ball = graph.derived.get(key)
    if ball is None:
        near = graph.ball(where, steps, graph.land_nbrs.__getitem__)
        ball = graph.derived[key] = tuple(s for s in near if s != where)
    return any(view.enemy_land(s) for s in cast(tuple[str, ...], ball))


def _move(units: str, path: tuple[str, ...], raid: bool) -> Move:
    """The move of `units` along `path`: one value per distinct move, made once (actions are frozen; a listing
    made afresh meets the same moves again and again)."""
    return _MOVES.find((units, path, raid), lambda: Move(units=units, path=list(path), raid=raid))


_MOVES: Worked[tuple[str, tuple[str, ...], bool], Move] = Worked(50_000)


def unloads(view: Situation, combat: bool, sea: str) -> Iterator[Move]:
    for stack in view.stacks(sea):
        if not stack.flags or not view.friend(stack.owner) or not view.unit(stack).has("transport"):
            continue  # (no flags: no cargo)
        aboard = Counter(u for _, u in unloadable(view, stack))
        if not aboard:
            continue
        options = [aboard] + [Counter({u: 1}) for u in aboard if len(aboard) > 1 or aboard[u] > 1]
        for territory in view.graph.coast[sea]:
            if (view.enemy_land(territory) and territory not in view.refused() if combat
                    else view.friendly_land(territory)):
                for units in options:
                    if _unloads(view, combat, sea, territory, units):
                        yield Move(units=format_units(units, view.units), path=[sea, territory])


def _unloads(view: Situation, combat: bool, sea: str, territory: str, units: Mapping[str, int]) -> bool:
    """Whether `units` may go ashore from `sea` in `territory` now (as `apply` judges an unload)."""
    try:
        unload_events(view, combat, sea, territory, units)
    except AareError:
        return False
    return True


def _transport_seas(view: Situation, memo: move_memo.MoveMemo | None = None) -> frozenset[str]:
    """The sea zones holding a friendly transport (where loads and unloads can be); with the memo of the mover's
    movement, read again only where units changed."""
    key = "transport_seas"
    if key not in view.cache:
        ships: dict[tuple[str, str], bool] = {}  # (owner, unit) -> a friendly transport in movement now

        def holds(sea: str) -> bool:
            for s in view.state.units.get(sea, ()):
                ship = ships.get((s.owner, s.unit))
                if ship is None:
                    ship = ships[s.owner, s.unit] = view.friend(s.owner) and view.unit(s).has("transport")
                if ship:
                    return True
            return False

        zones = view.graph.sea
        view.cache[key] = (memo.transport_seas(view, holds) if memo is not None
                           else frozenset(sea for sea in view.state.units if sea in zones and holds(sea)))
    seas: frozenset[str] = view.cache[key]
    return seas


def _boats(view: Situation, combat: bool, sea: str, assault: bool = False) -> list[Stack]:
    """The friendly transports in `sea` without a `load_violation` for the mover's land units now; with `assault`,
    those `load_events` lets them board (`may_board`: in combat move one able to reach an assault). Kept per
    situation: every territory on the zone's shore asks."""
    key = ("boats", sea, combat, assault)
    found: list[Stack] | None = view.cache.get(key)
    if found is None:
        found = view.cache[key] = [
            s for s in view.stacks(sea)
            if view.friend(s.owner) and view.unit(s).has("transport")
            and (may_board(view, combat, s, sea) if assault else load_violation(view, combat, s) is None)
        ]
    return found


def boards(view: Situation, combat: bool, unit: str, sea: str, assault: bool = False) -> bool:
    """Whether one of the mover's `unit` finds room aboard a transport in `sea` it may board (`_boats`)."""
    entry = (view.power, unit)
    return any(fits(view, b, (*flags.cargo(b), entry), combat) for b in _boats(view, combat, sea, assault))


def load_admitted(view: Situation, load: Load) -> bool:
    """Whether `load_events` accepts a listed combat-move load (one unit that finds room aboard a transport without
    a `load_violation`): room aboard one that can also reach an assault."""
    (unit,) = parse_units(load.units, view.units)
    return boards(view, True, unit, load.sea_zone, assault=True)


def loads(view: Situation, combat: bool, territory: str, only: str | None = None) -> Iterator[Load]:
    if _transport_seas(view).isdisjoint(view.graph.coast[territory]):
        return
    ready = [
        s for s in view.own(territory)
        if view.unit(s).domain == "land" and s.moved == 0 and not flags.turn_flags(s)
        and not (combat and view.unit(s).has("noncombat_move_only"))
    ]
    if not ready:
        return
    for sea in view.graph.coast[territory]:
        if (only is not None and sea != only) or view.blocks(sea):
            continue
        for unit in sorted({s.unit for s in ready}):
            if boards(view, combat, unit, sea):
                yield Load(units=format_units({unit: 1}, view.units), territory=territory, sea_zone=sea)
