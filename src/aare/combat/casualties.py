"""Casualty choice: which units may take which hits, legality of a choice, and the default order of loss.

Hits come in batches with a `Target`; a choice is legal when its hits can be matched one-to-one to the
batches' eligible units (LHTR-COMBAT-hit-eligibility). The order-of-loss choice takes hit slots greedily in
order-of-loss order, keeping a matching possible: since assignable slot sets form a transversal matroid,
this gives the best loss set for any mix of restricted hits (sub hits that cannot hit aircraft, aircraft
hits that cannot hit subs, hits on one aircraft type).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from functools import lru_cache
from types import MappingProxyType

from aare.board.units import UnitCatalogue
from aare.combat.battle_state import HitBatch, Stacks, Target, UnitKey, hit_points, matches_tags
from aare.identity_cache import ByIdentity

# A hit slot: (unit key, index of the unit within its stack, hits this unit has taken before the slot).
Slot = tuple[UnitKey, int, int]


def eligible(catalogue: UnitCatalogue, key: UnitKey, target: Target) -> bool:
    unit = catalogue[key.type]
    flags = key.flags
    if flags:  # a target may name units that left
        if (not key.present and not any(f in flags for f in target.flags)) or key.marked:
            return False
        if target.exclude_flags and any(f in flags for f in target.exclude_flags):
            return False
    if unit.has("not_casualty") and "rocket" not in flags:
        return False
    if target.types and key.type not in target.types:
        return False
    if target.owners and key.owner not in target.owners:
        return False
    if target.flags and not any(f in flags for f in target.flags):
        return False
    if target.exclude_domains and unit.domain in target.exclude_domains:
        return False
    if target.tags and not matches_tags(unit, target.tags, key):
        return False
    return not (target.exclude_tags and any(unit.has(tag) for tag in target.exclude_tags))


def refine(catalogue: UnitCatalogue, stacks: Stacks, batches: Sequence[HitBatch]) -> tuple[HitBatch, ...]:
    """Batches whose target has priority tiers (`Target.first`) split into plain batches: as many hits as the
    units of the first tier can take go to them, then the next tier, the rest to any eligible unit. Tiers of
    several batches share the units' hit slots in batch order."""
    if not any(b.target.first for b in batches):
        return tuple(batches)
    used: dict[UnitKey, int] = {}
    out: list[HitBatch] = []
    for batch in batches:
        if not batch.target.first:
            out.append(batch)
            continue
        plain = replace(batch.target, first=())
        left = batch.count
        for tier in batch.target.first:
            target = replace(plain, tags=tier)
            room = 0
            for key, n in stacks:
                if left - room <= 0:
                    break
                if not eligible(catalogue, key, target):
                    continue
                free = min((hit_points(catalogue, key) - key.damage) * n - used.get(key, 0), left - room)
                if free > 0:
                    used[key] = used.get(key, 0) + free
                    room += free
            if room:
                out.append(replace(batch, target=target, count=room))
                left -= room
        if left:
            out.append(replace(batch, target=plain, count=left))
    return tuple(out)


def _slots(catalogue: UnitCatalogue, stacks: Stacks, batches: Sequence[HitBatch]) -> tuple[tuple[Slot, int], ...]:
    """Every hit slot of units some batch may hit, with a bitmask of the batches that may hit it. The last ones
    worked out are kept (the count of hits that can be assigned, whether the choice is forced and the default
    choice ask for the same units and hits in a row): found again by the identity of the same (frozen) values."""
    last = _LAST_SLOTS[0]
    if last is not None and last[0] is catalogue and last[1] is stacks and last[2] is batches:
        return last[3]
    out = tuple(_find_slots(catalogue, stacks, batches))
    if type(stacks) is tuple and type(batches) is tuple:
        _LAST_SLOTS[0] = (catalogue, stacks, batches, out)
    return out


_LAST_SLOTS: list[tuple[UnitCatalogue, Stacks, Sequence[HitBatch], tuple[tuple[Slot, int], ...]] | None] = [None]


def _find_slots(catalogue: UnitCatalogue, stacks: Stacks, batches: Sequence[HitBatch]) -> list[tuple[Slot, int]]:
    out: list[tuple[Slot, int]] = []
    single = _one_each(batches)
    for key, n in stacks:
        mask = sum(1 << i for i, b in enumerate(batches) if eligible(catalogue, key, b.target))
        if not mask:
            continue
        remaining = hit_points(catalogue, key) - key.damage
        for index in range(n):
            for taken in range(remaining):
                hit_by = mask if not taken else mask & ~single
                if hit_by:
                    out.append(((key, index, taken), hit_by))
    return out


def _one_each(batches: Sequence[HitBatch]) -> int:
    """The bitmask of the batches whose hits go one to a unit (`Target.one_each`)."""
    mask = 0
    for i, batch in enumerate(batches):
        if batch.target.one_each:
            mask |= 1 << i
    return mask


def _matchable(masks: Sequence[int], capacity: Sequence[int]) -> bool:
    """Whether every slot (a batch bitmask) can be given its own hit (Kuhn's augmenting paths)."""
    if len(capacity) == 1:  # one batch: as many slots as it has hits, each one it may hit
        return len(masks) <= capacity[0] and all(m & 1 for m in masks)
    owner: list[list[int]] = [[] for _ in capacity]

    def place(slot: int, seen: set[int]) -> bool:
        for b, cap in enumerate(capacity):
            if not masks[slot] >> b & 1 or b in seen:
                continue
            seen.add(b)
            if len(owner[b]) < cap:
                owner[b].append(slot)
                return True
            for i, other in enumerate(owner[b]):
                if place(other, seen):
                    owner[b][i] = slot
                    return True
        return False

    return all(place(s, set()) for s in range(len(masks)))


def assignable(catalogue: UnitCatalogue, stacks: Stacks, batches: Sequence[HitBatch]) -> int:
    """How many of the hits can be assigned at all (the rest are void)."""
    capacity = [b.count for b in batches]
    chosen: list[int] = []
    for _slot, mask in _slots(catalogue, stacks, batches):
        if _matchable([*chosen, mask], capacity):
            chosen.append(mask)
            if len(chosen) == sum(capacity):
                break
    return len(chosen)


Rank = Mapping[str, tuple[float, ...]]
"""Per unit type, its place in the order of losses (lowest first)."""


def default_rank(catalogue: UnitCatalogue, side: str, last: Sequence[str] = ()) -> Rank:
    """Cheapest first; among equal costs the weaker unit first, then catalogue order. Units with a tag in
    `last` come after all others (`CombatRules.last_casualty_tags`). Worked out once per catalogue and side."""
    return _default_rank(catalogue, side, tuple(last))


@lru_cache(maxsize=1024)
def _default_rank(catalogue: UnitCatalogue, side: str, last: tuple[str, ...]) -> Rank:
    role = "attack" if side == "attacker" else "defense"
    return MappingProxyType({u.id: (_is_last(catalogue, u.id, last), u.cost, getattr(u, role), catalogue.order(u.id))
                             for u in catalogue})


def _is_last(catalogue: UnitCatalogue, unit: str, last: Sequence[str]) -> int:
    return int(any(catalogue[unit].has(tag) for tag in last))


def order_rank(catalogue: UnitCatalogue, side: str, order: Sequence[str] | None, last: Sequence[str] = ()) -> Rank:
    """Rank of each unit type for losses: an explicit order (unlisted types after it, cheapest first); units
    with a tag in `last` after every other unit whatever the order."""
    return _order_rank(catalogue, side, tuple(order or ()), tuple(last))


@lru_cache(maxsize=4096)
def _order_rank(catalogue: UnitCatalogue, side: str, order: tuple[str, ...], last: tuple[str, ...]) -> Rank:
    base = _default_rank(catalogue, side, last)
    if not order:
        return base
    listed = [catalogue.resolve(name) for name in order]
    return MappingProxyType({
        uid: (base[uid][0], listed.index(uid)) if uid in listed else (base[uid][0], len(listed), *base[uid][1:])
        for uid in base
    })


def choose_by_order(
    catalogue: UnitCatalogue,
    stacks: Stacks,
    batches: tuple[HitBatch, ...],
    rank: Rank,
) -> tuple[tuple[UnitKey, int], ...]:
    """The order-of-loss answer: multi-hit units absorb a hit first, then losses in `rank` order."""
    return _choose(catalogue, stacks, batches, _rank_items(rank))


def _rank_items(rank: Rank) -> tuple[tuple[str, tuple[float, ...]], ...]:
    """`rank` as a sorted tuple (a key of `_choose`), kept for the ranks `order_rank` keeps."""
    known = _RANK_ITEMS.get(rank)
    if known is not None:
        return known
    items = tuple(sorted(rank.items()))
    return _RANK_ITEMS.put(rank, items) if isinstance(rank, MappingProxyType) else items


_RANK_ITEMS: ByIdentity[tuple[tuple[str, tuple[float, ...]], ...]] = ByIdentity(4_096)


@lru_cache(maxsize=65536)
def _choose(
    catalogue: UnitCatalogue,
    stacks: Stacks,
    batches: tuple[HitBatch, ...],
    rank_items: tuple[tuple[str, tuple[float, ...]], ...],
) -> tuple[tuple[UnitKey, int], ...]:
    rank = dict(rank_items)
    slots = _slots(catalogue, stacks, batches)

    def priority(item: tuple[Slot, int]) -> tuple[object, ...]:
        (key, index, taken), _mask = item
        last = taken == hit_points(catalogue, key) - key.damage - 1
        # absorbing hits first; then losses by rank; damaged units before undamaged ones of a type
        return (last, rank.get(key.type, (99,)), -key.damage, key, index, taken)

    capacity = [b.count for b in batches]
    chosen: list[int] = []
    taken_by: dict[tuple[UnitKey, int], int] = {}
    for (key, index, _taken), mask in sorted(slots, key=priority):
        if len(chosen) == sum(capacity):
            break
        if _matchable([*chosen, mask], capacity):
            chosen.append(mask)
            taken_by[(key, index)] = taken_by.get((key, index), 0) + 1
    return tuple(sorted((key, hits) for (key, _i), hits in taken_by.items()))


def check_choice(
    catalogue: UnitCatalogue,
    stacks: Stacks,
    batches: Sequence[HitBatch],
    choice: Sequence[tuple[UnitKey, int]],
    required: int,
) -> str | None:
    """Why `choice` is not a legal casualty assignment, or None if it is."""
    have = dict(stacks)
    used: dict[UnitKey, int] = {}
    masks: list[int] = []
    for key, hits in choice:
        used[key] = used.get(key, 0) + 1
        if used[key] > have.get(key, 0):
            return f"no {key.label()} left to take a hit"
        remaining = hit_points(catalogue, key) - key.damage
        if not 1 <= hits <= remaining:
            return f"a {key.label()} cannot take {hits} hit(s)"
        mask = sum(1 << i for i, b in enumerate(batches) if eligible(catalogue, key, b.target))
        if not mask:
            return f"{key.label()} cannot be hit by these hits"
        more = mask & ~_one_each(batches)
        if hits > 1 and not more:
            return f"a {key.label()} cannot take more than one of these hits"
        masks += [mask] + [more] * (hits - 1)
    if len(masks) != required:
        return f"{required} hit(s) must be assigned, got {len(masks)}"
    if not _matchable(masks, [b.count for b in batches]):
        targets = "; ".join(f"{b.count} hit(s) on {b.target.describe()}" for b in batches)
        return f"the chosen units cannot take these hits ({targets})"
    return None


def check_last(
    catalogue: UnitCatalogue,
    stacks: Stacks,
    batches: Sequence[HitBatch],
    choice: Sequence[tuple[UnitKey, int]],
    required: int,
    last: Sequence[str],
) -> str | None:
    """Why a legal `choice` breaks the rule that units tagged in `last` are chosen only after every other unit
    the hits may reach, or None."""
    if not last:
        return None
    others = tuple((k, n) for k, n in stacks if not _is_last(catalogue, k.type, last))
    on_others = sum(hits for key, hits in choice if not _is_last(catalogue, key.type, last))
    if on_others >= min(required, assignable(catalogue, others, batches)):
        return None
    names = sorted({catalogue[k.type].display_plural for k, _ in choice if _is_last(catalogue, k.type, last)})
    return f"{', '.join(names)} may be chosen only after every other unit that can take these hits"


def choosable(
    catalogue: UnitCatalogue, stacks: Stacks, batches: Sequence[HitBatch], required: int, last: Sequence[str]
) -> Stacks:
    """The units the hits may go to: those not tagged in `last` when they can take every hit, else all."""
    if not last:
        return stacks
    others = tuple((k, n) for k, n in stacks if not _is_last(catalogue, k.type, last))
    return others if assignable(catalogue, others, batches) >= required else stacks


def is_forced(catalogue: UnitCatalogue, stacks: Stacks, batches: Sequence[HitBatch], required: int) -> bool:
    """Whether every legal choice is the same, so no decision is needed."""
    slots = _slots(catalogue, stacks, batches)
    if required == 0 or required == len(slots):
        return True
    keys = {key for (key, _i, _t), _m in slots}
    if len(keys) != 1:
        return False
    key = next(iter(keys))
    count = dict(stacks)[key]
    return count == 1 or required == 1 or hit_points(catalogue, key) - key.damage == 1
