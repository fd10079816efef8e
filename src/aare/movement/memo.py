"""Each stack's move candidates kept from one state to the next while nothing they read has changed: between two
moves of a movement phase only a few spaces' units change, and most other stacks' moves are the same (listing them
is most of the cost of `Game.legal_actions` in a movement phase).

A ruleset opts in with `MovementRules.moves_local`: its leg checks and movement hooks read the units only within a
stack's reach (`_reach`), and only as the default leg checks (`LEG_CHECKS`) do. A kept list is dropped when any part
of the state but the units changes. When units change, each changed space is classed by what differs in it
(`_aspects`: the stacks found before or after but not both), and a list is dropped only for a change of a kind it
reads, within the distance that kind matters at. What the default checks read of the units:

- the other side's units (hostile and blocking sea zones, destroyers, AA guns, complexes, units to fight): every
  list, within its reach;
- of its own side's units, a land unit's list reads nothing (its path and end are judged by control and the other
  side's units); a ship's list in combat move reads the units that came ashore in an assault from a sea zone (a
  ship may end its combat move where it backs one), within its reach; an aircraft's list in combat move reads the
  land units attacking a territory (aircraft may join their attack), within its movement left, and the list of an
  aircraft that lands on carriers reads, within its movement left and as far again as a carrier may come
  (`CARRIER_REACH`), the sea zones' friendly carriers and aircraft (their room, and where the mover's carriers can
  still go) and the mover's complexes (fighters may wait beside one for a carrier bought this turn).

Any other change of units (e.g. the mover's land units moved between its own territories, or onto its transports)
leaves the other lists as they are. A ruleset whose `move_checks` hook changes the checks has every list read
every kind of change. A stack's movement left is kept with its list: both depend on the stack and the rest of the
state only. A sea zone's unloads and a territory's loads are kept too, while no unit changes there or on its coast
(`listed`); so are each space's part of the last listing, made of those lists (`segments_for`), and the sea zones
holding friendly transports, counted again only where units changed (`transport_seas`). With
AARE_CHECK_MOVE_MEMO=1 (the tests) every kept list, part and count is made again and compared."""

from __future__ import annotations

import os
import threading
from collections.abc import Callable
from dataclasses import fields

from aare.actions import Load, Move
from aare.board.units import UnitType
from aare.movement import flags
from aare.movement.move_checks import LEG_CHECKS, leg_checks
from aare.movement.situation import Situation
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

CHECK = os.environ.get("AARE_CHECK_MOVE_MEMO") == "1"
CARRIER_REACH = 2
"""How far a carrier may come to take on an aircraft that lands at sea."""
_OTHER_FIELDS = tuple(f.name for f in fields(GameState) if f.name not in ("units", "version"))
_LOCAL = threading.local()

# kinds of change of one space's units (`_aspects`)
OTHER_SIDE = 1  # units of the other side
CARRIER_ROOM = 2  # in a sea zone, the friendly carriers' free room, or the mover's carriers
COMPLEXES = 4  # friendly industrial complexes
LAND_ATTACK = 8  # friendly land units that moved in combat move
ASSAULT = 16  # friendly units that came ashore in an assault
ANY = 32  # any unit
EVERY = OTHER_SIDE | CARRIER_ROOM | COMPLEXES | LAND_ATTACK | ASSAULT | ANY

Listed = tuple[list[Move], int, UnitType]
"""A stack's moves, its movement left and its unit type."""
Reads = tuple[tuple[int, frozenset[str]], ...]
"""What a kept list reads: kinds of change, each with the spaces where it matters."""


class MoveMemo:
    """The move lists of one power's stacks in one kind of movement, as of the last state seen."""

    def __init__(self, combat: bool) -> None:
        self.combat = combat
        self.state: GameState | None = None
        self.default_checks: bool | None = None
        self.read = 0  # the kinds of change some kept list reads
        self.kept: dict[tuple[str, Stack], tuple[list[Move], Reads]] = {}
        self.others: dict[tuple[str, ...], tuple[list[Move | Load], frozenset[str]]] = {}  # (`listed`)
        # per space, its part of the last listing (moves and unloads, then loads) made of the kept lists above:
        # dropped with any of them, or when the space's units change (`segments_for`)
        self.segments: dict[str, tuple[list[Move | Load], list[Move | Load]]] = {}
        self.refused: object = None  # the entry refusals the segments were made under
        self.before: GameState | None = None  # the state seen before the last one, and the spaces whose units
        self.changed: frozenset[str] | None = None  # changed since (None: not known)
        self.boats: tuple[GameState, frozenset[str]] | None = None  # a state's sea zones with friendly transports

    def moves(self, view: Situation, where: str, stack: Stack, listing: Callable[[], Listed]) -> list[Move]:
        """The moves of `stack` in `where` (`listing` lists them), kept while nothing they read changed."""
        self._advance(view)
        key = (where, stack)
        found = self.kept.get(key)
        if found is not None:
            if CHECK:
                fresh = listing()[0]
                if fresh != found[0]:
                    raise AssertionError(f"kept moves of {stack} in {where} differ from a fresh listing: "
                                         f"{found[0]} != {fresh}")
            return found[0]
        moves, left, unit = listing()
        if self.default_checks is None:
            self.default_checks = leg_checks(view) == LEG_CHECKS
        reads = self._reads(view, where, left, unit)
        self.kept[key] = (moves, reads)
        for kinds, _ in reads:
            self.read |= kinds
        return moves

    def listed(self, view: Situation, key: tuple[str, ...], spaces: frozenset[str],
               listing: Callable[[], list[Move | Load]]) -> list[Move | Load]:
        """Other candidates of the mover (`key`: a sea zone's unloads, a territory's loads; `listing` lists them)
        that read the units of `spaces` only: kept while no unit changes there."""
        self._advance(view)
        found = self.others.get(key)
        if found is not None:
            if CHECK and (fresh := listing()) != found[0]:
                raise AssertionError(f"kept {key} differ from a fresh listing: {found[0]} != {fresh}")
            return found[0]
        items = listing()
        self.others[key] = (items, spaces)
        return items

    def segments_for(self, view: Situation) -> dict[str, tuple[list[Move | Load], list[Move | Load]]]:
        """Per space, its part of the listing (moves and unloads, then loads) as made for an earlier state of the
        same movement out of the kept lists: those still right for the state of `view` (each is dropped with any
        list it was made of, or when the units in its space change). The caller adds the parts it makes."""
        self._advance(view)
        refused = view.refused()
        if refused != self.refused:
            self.segments.clear()
            self.refused = refused
        return self.segments

    def transport_seas(self, view: Situation, holds: Callable[[str], bool]) -> frozenset[str]:
        """The sea zones that hold a friendly transport (`holds` asks one) in the state of `view`: those of the
        state before, asked again only where units changed since."""
        self._advance(view)
        kept, state = self.boats, view.state
        if kept is not None and kept[0] is state:
            return kept[1]
        zones = view.graph.sea
        if kept is not None and kept[0] is self.before and self.changed is not None:
            found = set(kept[1])
            for sea in self.changed:
                if sea in zones:
                    if holds(sea):
                        found.add(sea)
                    else:
                        found.discard(sea)
            seas = frozenset(found)
            if CHECK and seas != (fresh := frozenset(sea for sea in state.units if sea in zones and holds(sea))):
                raise AssertionError(f"kept transport zones differ from a fresh count: {seas} != {fresh}")
        else:
            seas = frozenset(sea for sea in state.units if sea in zones and holds(sea))
        self.boats = (state, seas)
        return seas

    def _forget(self) -> None:
        self.kept.clear()
        self.others.clear()
        self.segments.clear()

    def _reads(self, view: Situation, where: str, left: int, unit: UnitType) -> Reads:
        """The kinds of change the list of a stack of `unit` in `where` with `left` movement reads, and where."""
        if not left:
            return ()
        if unit.domain == "air":
            near = _reach(view, where, left, "air")
            far = _reach(view, where, left + CARRIER_REACH, "air")
            if not self.default_checks:
                return ((EVERY, far),)
            lands = CARRIER_ROOM | COMPLEXES if unit.carrier_size else 0
            return ((OTHER_SIDE | lands, far), (LAND_ATTACK, near)) if self.combat else ((OTHER_SIDE | lands, far),)
        reach = _reach(view, where, left, unit.domain)
        if not self.default_checks:
            return ((EVERY, reach),)
        if unit.domain == "sea" and self.combat:
            return ((OTHER_SIDE | ASSAULT, reach),)
        return ((OTHER_SIDE, reach),)

    def _advance(self, view: Situation) -> None:
        """Forget what the state of `view` may have changed since the last state seen."""
        last, state = self.state, view.state
        if last is state:
            return
        self.state, self.before, self.changed = state, last, None
        if last is None or not (self.kept or self.others):
            self._forget()
            return
        for name in _OTHER_FIELDS:
            before, after = getattr(last, name), getattr(state, name)
            if before is not after and before != after:
                self._forget()
                return
        old, new = last.units, state.units
        changed: dict[str, int] = {}
        for space, after in new.items():
            before = old.get(space, ())
            if before is not after and before != after:
                changed[space] = _aspects(view, space, before, after)
        for space, before in old.items():
            if space not in new and before:
                changed[space] = _aspects(view, space, before, ())
        self.changed = frozenset(changed)
        if not changed:
            return
        segments = self.segments
        for space in changed:
            segments.pop(space, None)
        if self.others:
            kept_others = {k: v for k, v in self.others.items() if v[1].isdisjoint(changed)}
            if len(kept_others) < len(self.others):
                for key in self.others.keys() - kept_others.keys():
                    segments.pop(key[1], None)
            self.others = kept_others
        if not any(kinds & self.read for kinds in changed.values()):
            return
        hit: dict[int, frozenset[str]] = {}  # per kinds of change read, the changed spaces of those kinds

        def spaces(reads: int) -> frozenset[str]:
            found = hit.get(reads)
            if found is None:
                found = hit[reads] = frozenset(s for s, kinds in changed.items() if kinds & reads)
            return found

        kept = {k: v for k, v in self.kept.items() if all(r.isdisjoint(spaces(m)) for m, r in v[1])}
        if len(kept) < len(self.kept):
            for where, _ in self.kept.keys() - kept.keys():
                segments.pop(where, None)
        self.kept = kept
        self.read = 0
        for _, reads in self.kept.values():
            for kinds, _ in reads:
                self.read |= kinds


def _aspects(view: Situation, space: str, before: tuple[Stack, ...], after: tuple[Stack, ...]) -> int:
    """What kinds of change of units `space` saw, judged by the stacks found before or after but not both: any
    unit of the other side; in a sea zone, the friendly carriers' free room or the mover's carriers; friendly
    complexes; whether the mover attacks with land units there, in an enemy territory without enemy units to fight
    (where aircraft need them); where the mover's units there came ashore from."""
    kinds = ANY
    carriers = ashore = False
    for stack in set(before).symmetric_difference(after):
        if not view.friend(stack.owner):
            return EVERY
        unit = view.unit(stack)
        carriers = carriers or bool(unit.carrier_capacity or unit.carrier_size)
        if unit.has("factory"):
            kinds |= COMPLEXES
        ashore = ashore or any(f.startswith(_AMPHIBIOUS) for f in stack.flags)
    if carriers and view.is_sea(space) and _carrier_room(view, before) != _carrier_room(view, after):
        kinds |= CARRIER_ROOM
    if ashore and _landed_from(view, before) != _landed_from(view, after):
        kinds |= ASSAULT
    if (view.enemy_land(space) and space not in view.enemy_fighting
            and _land_attack(view, before) != _land_attack(view, after)):
        kinds |= LAND_ATTACK
    return kinds


_AMPHIBIOUS = flags.AMPHIBIOUS + "="


def _carrier_room(view: Situation, stacks: tuple[Stack, ...]) -> tuple[int, frozenset[Stack]] | None:
    """What aircraft landing at sea read of a sea zone's `stacks` (`landing.carrier_groups`): None without friendly
    carriers, else their free room and the mover's carriers (which may come to them)."""
    friends = [s for s in stacks if view.friend(s.owner)]
    room = sum(view.unit(s).carrier_capacity * s.count for s in friends)
    if not room:
        return None
    used = sum(view.unit(s).carrier_size * s.count for s in friends)
    return room - used, frozenset(s for s in friends if s.owner == view.power and view.unit(s).carrier_capacity)


def _landed_from(view: Situation, stacks: tuple[Stack, ...]) -> frozenset[str]:
    """The sea zones the mover's units among `stacks` came ashore from in an assault."""
    found = (flags.value(s, flags.AMPHIBIOUS) for s in stacks if view.commands(s))
    return frozenset(sea for sea in found if sea is not None)


def _land_attack(view: Situation, stacks: tuple[Stack, ...]) -> bool:
    """Whether `stacks` hold land units of the mover that moved in combat move."""
    return any(view.commands(s) and view.unit(s).domain == "land" and flags.has(s, flags.COMBAT) for s in stacks)


def _reach(view: Situation, where: str, left: int, domain: str) -> frozenset[str]:
    """The spaces whose units the moves of a stack of `domain` with `left` movement in `where` may read: land
    units, the land within `left`; ships, the sea within `left` and its shores; aircraft, the spaces within
    `left`."""
    graph = view.graph
    key = ("memo_reach", where, left, domain)
    known = graph.derived.get(key)
    if known is not None:
        return known  # type: ignore[return-value]
    if domain == "land":
        found = frozenset(graph.ball(where, left, lambda s: graph.land_nbrs[s]))
    elif domain == "sea":
        seas = graph.ball(where, left, lambda s: graph.sea_nbrs[s])
        found = frozenset(seas).union(*(graph.air[s] for s in seas))
    else:
        found = frozenset(graph.ball(where, left))
    graph.derived[key] = found
    return found


def memo_for(view: Situation, combat: bool) -> MoveMemo | None:
    """This thread's memo for the mover and kind of movement of `view`, or None when the ruleset does not opt in."""
    if not view.rules.moves_local:
        return None
    memos: dict[tuple[int, str, bool], MoveMemo] | None = getattr(_LOCAL, "memos", None)
    if memos is None:
        memos = _LOCAL.memos = {}
    key = (id(view.ruleset), view.power, combat)
    found = memos.get(key)
    if found is None:
        if len(memos) > 64:
            memos.clear()
        found = memos[key] = MoveMemo(combat)
    return found
