"""`Situation`: what movement needs to know about a state, seen by the power to move; cached per state."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Mapping
from functools import cached_property
from itertools import pairwise
from typing import Any

from aare.board.board import Canal
from aare.board.units import UnitType
from aare.economy.pool import pool
from aare.economy.turn import turn_start_owners
from aare.identity_cache import ByIdentity, Recent
from aare.movement import flags
from aare.movement.graph import Graph, graph_of
from aare.movement.rules import MovementRules
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState, units_ancestors, units_line
from aare.state.unit_stacks import Stack


def purchased_units(state: GameState, power: str) -> dict[str, int]:
    """Units `power` bought this turn and has not placed (the purchase pool)."""
    return pool(state, power)


class Situation:
    """Friends, enemies, hostile sea zones, AA guns, canals and turn-start control for `power`."""

    def __init__(self, state: GameState, ruleset: Ruleset, power: str) -> None:
        self.state, self.ruleset, self.power = state, ruleset, power
        self.board = ruleset.board
        self.units = ruleset.units
        self.graph: Graph = graph_of(self.board)
        self.sides = {p.name: p.side for p in self.board.powers}
        self.side = self.sides[power]
        self.start_owners = turn_start_owners(state)
        self.techs = frozenset(state.techs.get(power, ()))
        # allies whose units carrying the given flag move with the power to move this turn (joint attacks)
        self.co_movers: dict[str, str] = ruleset.modify("co_movers", {}, state=state, power=power)
        self.rules = movement_rules(ruleset)
        (self.hostile_seas, self.blocking_seas, self.destroyer_seas, self.enemy_aa, self.enemy_factories,
         self.enemy_occupied, self.enemy_fighting) = _enemy_spaces(state, ruleset, self.side, self.sides,
                                                                   self.rules.passable_enemy_ships)
        # sea zones the mover's ships may neither enter nor leave now (the `sealed_seas` hook, e.g. a sea behind
        # straits its side does not hold): the reach of ships and transports passes them over
        self.sealed_seas: frozenset[str] = frozenset(ruleset.modify("sealed_seas", frozenset(), state=state,
                                                                    power=self.power))
        self.cache: dict[Any, Any] = {}
        self._types: dict[tuple[str, str], UnitType] = {}  # (unit, owner) -> its type in movement (`unit`)

    # --- powers and control --------------------------------------------------------------------------------

    def friend(self, power: str | None) -> bool:
        return power is not None and self.sides.get(power) == self.side

    def unit(self, stack: Stack | str, owner: str | None = None) -> UnitType:
        """The unit type of `stack` (or of unit id `stack` of `owner`), as rule modules change it for its owner in
        movement (the ``stack_unit`` hook); a bare unit id: the catalogue's."""
        if isinstance(stack, str):
            if owner is None:
                return self.units[stack]
            stack = Stack(owner, stack, 1)
        key = (stack.unit, stack.owner)
        found = self._types.get(key)
        if found is None:
            found = self._types[key] = self.ruleset.modify("stack_unit", self.units[stack.unit], view=self,
                                                           stack=stack)
        return found

    def is_land(self, space: str) -> bool:
        return space in self.graph.land

    def is_sea(self, space: str) -> bool:
        return space in self.graph.sea

    def enemy_land(self, space: str) -> bool:
        return space in self.graph.land and not self.friend(self.state.owners.get(space))

    def friendly_land(self, space: str) -> bool:
        return space in self.graph.land and self.friend(self.state.owners.get(space))

    def held_since_start(self, space: str) -> bool:
        """Friendly now and when the turn began (LHTR-AIRMOVE-land-friendly-since-start), or only now when the
        ruleset counts control in real time (`MovementRules.control_in_real_time`)."""
        if self.rules.control_in_real_time:
            return self.friendly_land(space)
        return self.friendly_land(space) and self.friend(self.start_owners.get(space))

    @cached_property
    def flyover_aa(self) -> dict[str, str]:
        """Spaces whose enemy fire meets aircraft flying over them in combat move, with the rule: enemy AA guns
        (LHTR-AA-flyover) and what rule modules add (the ``flyover_aa`` hook)."""
        base = {s: "LHTR-AA-flyover" for s in sorted(self.enemy_aa) if self.is_land(s)}
        found: dict[str, str] = self.ruleset.modify("flyover_aa", base, view=self)
        return found

    @cached_property
    def air_closed(self) -> frozenset[str]:
        """Spaces aircraft may neither fly over nor enter now (the ``air_closed`` hook)."""
        found: frozenset[str] = frozenset(self.ruleset.modify("air_closed", frozenset(), view=self))
        return found

    def air_nbrs(self, space: str) -> tuple[str, ...]:
        """The air neighbours of `space` that aircraft may enter now."""
        nbrs = self.graph.air[space]
        closed = self.air_closed
        return tuple(n for n in nbrs if n not in closed) if closed else nbrs

    def refused(self) -> dict[str, tuple[str, str]]:
        """Enemy territories the mover may not enter with land units in combat move now, with the reason and rule
        (the ``entry_refusals`` hook)."""
        if "refused" not in self.cache:
            self.cache["refused"] = self.ruleset.modify("entry_refusals", {}, view=self)
        found: dict[str, tuple[str, str]] = self.cache["refused"]
        return found

    def barred_ends(self) -> frozenset[str]:
        """Spaces the mover's units may pass but not end a move in now (the ``barred_ends`` hook)."""
        if "barred_ends" not in self.cache:
            self.cache["barred_ends"] = frozenset(self.ruleset.modify("barred_ends", frozenset(), view=self))
        found: frozenset[str] = self.cache["barred_ends"]
        return found

    def hostile(self, sea: str) -> bool:
        """A sea zone with enemy sea units other than submerged submarines."""
        return sea in self.hostile_seas

    def blocks(self, sea: str) -> bool:
        """A sea zone whose enemy ships stop ships passing through and bar peaceful moves and (un)loading there:
        a hostile one, less the enemy ships the ruleset lets pass (`MovementRules.passable_enemy_ships`)."""
        return sea in self.blocking_seas

    def path_cost(self, path: tuple[str, ...] | list[str], domain: str) -> int:
        """Movement a path costs: one a step, none for a ship passing a canal that joins its two sea zones into one
        for the side that may pass (`Canal.joins`)."""
        cost = len(path) - 1
        if domain == "sea":
            for a, b in pairwise(path):
                canal = self.graph.canal(a, b)
                if canal is not None and canal.joins and self.canal_open(canal):
                    cost -= 1
        return cost

    def canal_open(self, canal: Canal) -> bool:
        """The mover's side has held every territory the canal needs since the turn began (or holds them now, when
        control counts in real time)."""
        return all(self.held_since_start(t) for t in canal.requires)

    # --- units ---------------------------------------------------------------------------------------------

    def stacks(self, space: str) -> tuple[Stack, ...]:
        return self.state.stacks(space)

    def commands(self, stack: Stack) -> bool:
        """Whether the power to move moves `stack`: its own units, and an ally's units flagged to move with it
        (the `co_movers` hook)."""
        if stack.owner == self.power:
            return True
        flag = self.co_movers.get(stack.owner)
        return flag is not None and flag in stack.flags

    def moves_for(self, owner: str) -> bool:
        """Whether units of `owner` (e.g. cargo aboard a transport the mover commands) move with the mover."""
        return owner == self.power or owner in self.co_movers

    def own(self, space: str) -> tuple[Stack, ...]:
        return self.own_spaces.get(space, ())

    @cached_property
    def own_spaces(self) -> dict[str, tuple[Stack, ...]]:
        """The stacks the mover moves, in each space that has any (in no particular order: readers sort). Only the
        spaces whose units changed since a units mapping seen before (the one these units were made from, else the
        last seen for the same mover) are read again."""
        units = self.state.units
        mover = (self.power, tuple(sorted(self.co_movers.items())), id(self.ruleset))
        line = (*mover, units_line(units))
        base = _OWN_SPACES.find(units, mover, self.ruleset) or _LAST_OWN.get(line)
        if base is not None and base[0] is self.ruleset:
            seen, before = base[2], base[3]
            news = {sp: self._commanded(units.get(sp, ())) for sp in _changed(seen, units)}
            out: dict[str, tuple[Stack, ...]] = before  # never changed in place: new stacks, a new dict
            if any(mine != before.get(space, ()) for space, mine in news.items()):
                out = {**before, **news}
                for space in [sp for sp, mine in news.items() if not mine]:
                    del out[space]
        else:
            out = {}
            for space, stacks in units.items():
                mine = self._commanded(stacks)
                if mine:
                    out[space] = mine
        entry = (self.ruleset, units, dict(units), out)
        _OWN_SPACES.keep(units, mover, entry)
        _LAST_OWN.put(line, entry)
        return out

    def _commanded(self, stacks: tuple[Stack, ...]) -> tuple[Stack, ...]:
        """The stacks of one space the mover moves."""
        if not stacks or {self.power, *self.co_movers}.isdisjoint(
                _owner_masks(stacks, self.ruleset, self.rules.passable_enemy_ships)):
            return ()
        return tuple(s for s in stacks if self.commands(s))

    def enemies(self, space: str) -> tuple[Stack, ...]:
        return tuple(s for s in self.state.stacks(space) if not self.friend(s.owner))

    def purchased(self) -> dict[str, int]:
        return purchased_units(self.state, self.power)


_EnemySpaces = tuple[frozenset[str], frozenset[str], frozenset[str], frozenset[str], frozenset[str], frozenset[str],
                     frozenset[str]]
# what a space's units of one owner are, as bits: any unit, one that can be a casualty, a ship (not submerged), a
# ship that blocks, a destroyer, an AA gun, a complex
_ANY, _FIGHTING, _SHIP, _BLOCKING, _DESTROYER, _AA, _FACTORY = (1 << i for i in range(7))
_MASKS: dict[tuple[int, int, frozenset[str]], tuple[tuple[Stack, ...], dict[str, int]]] = {}



def _owner_masks(stacks: tuple[Stack, ...], ruleset: Ruleset, passable: frozenset[str]) -> dict[str, int]:
    """Each owner's units in one space, as bits; remembered per stacks value (states share the stacks of every
    space an event did not touch; the entry keeps the value alive, so its id is not reused meanwhile)."""
    key = (id(stacks), id(ruleset), passable)
    known = _MASKS.get(key)
    if known is not None and known[0] is stacks:
        return known[1]
    masks: dict[str, int] = {}
    for stack in stacks:
        unit = ruleset.units[stack.unit]
        bits = _ANY
        if not unit.has("not_casualty"):
            bits |= _FIGHTING
        if unit.domain == "sea" and not flags.submerged(stack):
            bits |= _SHIP
            if passable.isdisjoint(unit.tags):
                bits |= _BLOCKING
            if unit.has("anti_submarine"):
                bits |= _DESTROYER
        if unit.has("aa"):
            bits |= _AA
        if unit.has("factory"):
            bits |= _FACTORY
        masks[stack.owner] = masks.get(stack.owner, 0) | bits
    if type(stacks) is tuple:
        if len(_MASKS) > 200_000:
            _MASKS.clear()
        _MASKS[key] = (stacks, masks)
    return masks


def _space_bits(stacks: tuple[Stack, ...], ruleset: Ruleset, side: str, sides: Mapping[str, str],
                passable: frozenset[str]) -> int:
    """What the units of the other side in one space are, as bits."""
    bits = 0
    for owner, mask in _owner_masks(stacks, ruleset, passable).items():
        if sides.get(owner) != side:
            bits |= mask
    return bits


_BITS_ORDER = (_SHIP, _BLOCKING, _DESTROYER, _AA, _FACTORY, _ANY, _FIGHTING)


_Entry = tuple[Any, ...]
"""What `_ByUnits` keeps for a units mapping: the ruleset, the mapping, a copy of it then, what was worked out."""


class _ByUnits:
    """What was worked out for a units mapping, by its id and a key, the least recently used dropped past `size`
    (each entry holds the mapping, so its id is not reused meanwhile)."""

    def __init__(self, size: int) -> None:
        self.size = size
        self.entries: OrderedDict[tuple[int, Any], _Entry] = OrderedDict()
        self.lock = threading.Lock()

    def find(self, units: Mapping[str, tuple[Stack, ...]], key: Any, ruleset: Any) -> _Entry | None:
        """The entry of `units`, else of the nearest mapping it was made from (`units_ancestors`)."""
        with self.lock:
            for node in (id(units), *units_ancestors(units, _ANCESTORS_ASKED)):
                found = self.entries.get((node, key))
                if found is not None and found[0] is ruleset:
                    self.entries.move_to_end((node, key))
                    return found
        return None

    def keep(self, units: Mapping[str, tuple[Stack, ...]], key: Any, entry: _Entry) -> None:
        with self.lock:
            self.entries[(id(units), key)] = entry
            self.entries.move_to_end((id(units), key))
            while len(self.entries) > self.size:
                self.entries.popitem(last=False)


def _changed(seen: Mapping[str, tuple[Stack, ...]], units: Mapping[str, tuple[Stack, ...]]) -> list[str]:
    """The spaces whose stacks differ between `seen` (a copy of a mapping counted before) and `units`."""
    changed = [sp for sp, stacks in units.items() if seen.get(sp) is not stacks]
    return changed + [sp for sp in seen if sp not in units]


# per units mapping: the mover's stacks (per mover, its co-movers and ruleset) and the enemy spaces (per side and
# passable ships); and the last of each worked out per line of mappings (`units_line`: one game's, as a rule), for
# a mapping none of whose few nearest ancestors has one (the next turn of the same mover or side): it is compared
# with that one of its own game, not another game's
_OWN_SPACES = _ByUnits(2_048)
_LAST_OWN: Recent[tuple[Any, ...], _Entry] = Recent(4_096)
_ENEMY_SPACES = _ByUnits(2_048)
_LAST_BITS: Recent[tuple[Any, ...], _Entry] = Recent(4_096)
_ANCESTORS_ASKED = 8


def _enemy_spaces(state: GameState, ruleset: Ruleset, side: str, sides: Mapping[str, str],
                  passable: frozenset[str]) -> _EnemySpaces:
    """The spaces holding units of the other side, by what they hold: hostile ships, ships that block, destroyers,
    AA guns, complexes, any unit, a unit that can be a casualty. Remembered per units mapping (states share it
    until a unit changes; a shallow copy taken then catches a mapping changed in place) and side; a new mapping
    is compared space by space with one seen before (the one it was made from, else the last seen for the side)
    and only the spaces whose units changed are read again."""
    units = state.units
    key = (side, passable)
    line = (side, id(ruleset), passable, units_line(units))
    base = _ENEMY_SPACES.find(units, key, ruleset) or _LAST_BITS.get(line)
    if base is not None and base[0] is ruleset:
        _, _, seen, old_bits, old_sets = base
        changed = _changed(seen, units)
        if not changed and base[1] is units:
            return old_sets  # type: ignore[no-any-return]
        flipped: dict[str, int] = {}  # the changed spaces whose bits differ from before
        for space in changed:
            stacks = units.get(space)
            bits = _space_bits(stacks, ruleset, side, sides, passable) if stacks is not None else 0
            if bits != old_bits.get(space, 0):
                flipped[space] = bits
        found: _EnemySpaces = old_sets
        bits_of = old_bits  # never changed in place: a new mapping gets a new dict
        if flipped:
            bits_of = {**old_bits, **flipped}
            sets = list(old_sets)
            for i, bit in enumerate(_BITS_ORDER):
                turned = [(sp, bool(b & bit)) for sp, b in flipped.items() if (b ^ old_bits.get(sp, 0)) & bit]
                if turned:
                    grown = set(sets[i])
                    for space, on in turned:
                        if on:
                            grown.add(space)
                        else:
                            grown.discard(space)
                    sets[i] = frozenset(grown)
            found = tuple(sets)
    else:
        bits_of = {space: _space_bits(stacks, ruleset, side, sides, passable) for space, stacks in units.items()}
        found = tuple(frozenset(sp for sp, bits in bits_of.items() if bits & bit)  # type: ignore[assignment]
                      for bit in _BITS_ORDER)
    entry = (ruleset, units, dict(units), bits_of, found)
    _ENEMY_SPACES.keep(units, key, entry)
    _LAST_BITS.put(line, entry)
    return found


_RULES: ByIdentity[MovementRules] = ByIdentity(1_000)


def movement_rules(ruleset: Ruleset) -> MovementRules:
    """The ruleset's movement rules (the `movement_rules` hook, which reads the ruleset and its options only),
    worked out once per ruleset."""
    known = _RULES.get(ruleset)
    return known if known is not None else _RULES.put(ruleset, ruleset.modify("movement_rules", MovementRules()))


_CACHE: dict[tuple[int, str], Situation] = {}
_SITUATIONS_KEPT = 256
"""How many situations are remembered: one per game a server serves in turn (each keeps what it worked out)."""


def situation(state: GameState, ruleset: Ruleset, power: str | None = None) -> Situation:
    """The (cached) situation of `state` for `power` (default: the power to move)."""
    power = power or state.nation
    key = (id(state), power)
    found = _CACHE.get(key)
    if found is not None and found.state is state and found.ruleset is ruleset:
        return found
    if len(_CACHE) > _SITUATIONS_KEPT:
        _CACHE.clear()
    found = _CACHE[key] = Situation(state, ruleset, power)
    return found
