"""The battle state: a small frozen value, separate from the game state.

Units are counted stacks keyed by `UnitKey` (type, owner, damage, flags), so that equal positions compare
equal and the calculator can merge them. Flags: ``amphibious`` (landed from the sea, cannot retreat),
``submerged`` and ``retreated`` (out of the battle), ``detected`` and ``kaiten`` (sub-detection rules), ``kamikaze``
(an aircraft on a suicide mission), ``rocket`` (a rocket fired by the AA gun it is keyed as) and the casualty
marks ``casualty`` (removed at "remove casualties") and ``casualty:opening`` (removed at the end of opening
fire); marked units still fire until they are removed.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

Side = Literal["attacker", "defender"]
SIDES: tuple[Side, Side] = ("attacker", "defender")
KINDS = ("land", "sea", "amphibious", "bombing")

# a unit held back: off the battle board until the next cycle starts, when it joins its side (units arriving
# late, e.g. aircraft flying in to support a defence); a battle over before then goes on without it
JOINS_NEXT_CYCLE = "joins-next-cycle"
OUT_FLAGS = frozenset({"submerged", "retreated", JOINS_NEXT_CYCLE})
CASUALTY_FLAGS = frozenset({"casualty", "casualty:opening"})


def other(side: Side) -> Side:
    return "defender" if side == "attacker" else "attacker"


@dataclass(frozen=True, order=True)
class UnitKey:
    """One kind of unit in a battle; a stack is a key and a count."""

    type: str
    owner: str = ""
    damage: int = 0
    flags: tuple[str, ...] = ()

    def has(self, flag: str) -> bool:
        return flag in self.flags

    def with_flag(self, flag: str) -> UnitKey:
        if flag in self.flags:
            return self
        return UnitKey(self.type, self.owner, self.damage, tuple(sorted((*self.flags, flag))))

    def without(self, *flags: str) -> UnitKey:
        if not any(f in flags for f in self.flags):
            return self
        return UnitKey(self.type, self.owner, self.damage, tuple(f for f in self.flags if f not in flags))

    @property
    def present(self) -> bool:
        """Still on the battle board (not submerged or retreated)."""
        return not (self.flags and OUT_FLAGS.intersection(self.flags))

    @property
    def marked(self) -> bool:
        """Hit and waiting for removal."""
        return bool(self.flags and CASUALTY_FLAGS.intersection(self.flags))

    def label(self) -> str:
        extra = [f"damaged {self.damage}"] if self.damage else []
        extra += list(self.flags)
        owner = f"{self.owner} " if self.owner else ""
        return f"{owner}{self.type}" + (f" ({', '.join(extra)})" if extra else "")


Stacks = tuple[tuple[UnitKey, int], ...]

EXTRA_HIT = "extra_hit"  # the unit takes one hit more than its type (e.g. a national advantage's carriers)


def hit_points(catalogue: Any, key: UnitKey) -> int:
    """Hits that destroy a unit of `key`: its type's, one more when flagged ``extra_hit``."""
    hits: int = catalogue[key.type].hits
    return hits + 1 if EXTRA_HIT in key.flags else hits


def make_stacks(counts: Mapping[UnitKey, int] | Iterable[tuple[UnitKey, int]]) -> Stacks:
    """Canonical stacks: merged, sorted, zero counts dropped."""
    merged: dict[UnitKey, int] = {}
    items = counts.items() if isinstance(counts, Mapping) else counts
    for key, n in items:
        merged[key] = merged.get(key, 0) + n
    # the keys are distinct: sorted by their fields, as `UnitKey` orders them
    return tuple(sorted(((k, n) for k, n in merged.items() if n > 0), key=_key_fields))


def _key_fields(stack: tuple[UnitKey, int]) -> tuple[str, str, int, tuple[str, ...]]:
    key = stack[0]
    return key.type, key.owner, key.damage, key.flags


def add_units(stacks: Stacks, key: UnitKey, n: int = 1) -> Stacks:
    return make_stacks((*stacks, (key, n)))


def remove_units(stacks: Stacks, key: UnitKey, n: int = 1) -> Stacks:
    have = dict(stacks)
    if have.get(key, 0) < n:
        raise ValueError(f"cannot remove {n} {key.label()}: only {have.get(key, 0)}")
    return make_stacks((*stacks, (key, -n)))


def count_types(stacks: Stacks, present_only: bool = True) -> dict[str, int]:
    """``{unit type: count}`` of the stacks (present units only by default)."""
    out: dict[str, int] = {}
    for key, n in stacks:
        if present_only and not key.present:
            continue
        out[key.type] = out.get(key.type, 0) + n
    return out


def iter_units(stacks: Stacks) -> Iterator[UnitKey]:
    for key, n in stacks:
        for _ in range(n):
            yield key


@dataclass(frozen=True)
class Target:
    """Which enemy units a group of hits may be assigned to (LHTR-COMBAT-hit-eligibility)."""

    types: tuple[str, ...] = ()  # only these unit types (empty: any type)
    exclude_domains: tuple[str, ...] = ()
    exclude_tags: tuple[str, ...] = ()
    rule: str = "LHTR-COMBAT-hit-eligibility"
    owners: tuple[str, ...] = ()  # only units of these powers (empty: any)
    flags: tuple[str, ...] = ()  # only units carrying one of these flags (empty: any)
    exclude_flags: tuple[str, ...] = ()  # not units carrying one of these flags
    # only units with one of these tags, of a domain named ``domain:<domain>``, of a type named ``type:<unit>``
    # or whose key carries a battle flag named ``flag:<flag>`` (empty: any)
    tags: tuple[str, ...] = ()
    # tiers of tags (as `tags`): the hits go to units of the first tier while any can take them, then the next,
    # then to any eligible unit (e.g. tank hits on tanks and artillery first); `casualties.refine` splits them
    first: tuple[tuple[str, ...], ...] = ()
    most: int = 0  # at most this many hits of one roll count (0: no limit); the rest are lost
    one_each: bool = False  # each unit takes at most one of these hits (each die was aimed at its own unit)

    def __hash__(self) -> int:
        """The fields' hash, kept once computed (targets key the hits of a roll and the dice groups)."""
        found: int | None = self.__dict__.get("_hash")
        if found is None:
            found = self.__dict__["_hash"] = hash((
                self.types, self.exclude_domains, self.exclude_tags, self.rule, self.owners, self.flags,
                self.exclude_flags, self.tags, self.first, self.most, self.one_each))
        return found

    def __getstate__(self) -> dict[str, Any]:
        """The fields without the kept hash (the hash of a string differs from one process to another)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    def describe(self) -> str:
        """The target as a player reads it (worked out once per target: hits and dice events name it)."""
        found: str | None = self.__dict__.get("_describe")
        if found is None:
            found = self.__dict__["_describe"] = self._describe()
        return found

    def _describe(self) -> str:
        parts = []
        if self.types:
            parts.append("only " + "/".join(self.types))
        if any(self.owners):
            parts.append("of " + "/".join(o for o in self.owners if o))
        if self.flags:
            parts.append("marked " + "/".join(self.flags))
        if self.exclude_flags:
            parts.append("not marked " + "/".join(self.exclude_flags))
        if self.exclude_domains:
            parts.append("not " + "/".join(self.exclude_domains))
        if self.exclude_tags:
            parts.append("not " + "/".join(self.exclude_tags))
        if self.tags:
            parts.append("only " + "/".join(_tag_text(t) for t in self.tags))
        for tier in self.first:
            parts.append("first " + "/".join(_tag_text(t) for t in tier))
        if self.most:
            parts.append(f"at most {self.most}")
        if self.one_each:
            parts.append("one each")
        return ", ".join(parts) or "any unit"


ANY = Target()


def _tag_text(tag: str) -> str:
    """A `Target` tag as a player reads it: the domain, unit type or flag it names."""
    kind, _, name = tag.partition(":")
    return name if kind in ("domain", "type", "flag") else tag


def matches_tags(unit: Any, tags: tuple[str, ...], key: UnitKey | None = None) -> bool:
    """Whether `unit` (a UnitType) has one of `tags`, is of a domain named ``domain:<domain>`` or a type named
    ``type:<unit>``, or its battle `key` carries a flag named ``flag:<flag>``."""
    return any(
        unit.has(t) or t == f"domain:{unit.domain}" or t == f"type:{unit.id}"
        or (key is not None and t.startswith("flag:") and key.has(t[5:]))
        for t in tags
    )


MARK = "flag:"  # a HitBatch removal ``flag:<flag>`` flags the units hit instead of harming them
REPELLED = "repelled"  # the flag of a unit a die repelled (`DiceGroup.repel_on`); it leaves at the next removal


@dataclass(frozen=True)
class HitBatch:
    """Hits scored on `side`, waiting to be assigned. `removal`: "now", "opening" or "cycle"."""

    side: Side
    target: Target
    count: int
    removal: str
    source: str = ""


@dataclass(frozen=True)
class DiceGroup:
    """Dice rolled together: `count` units of `unit` of `side`, each hitting on `hit_on` or less.

    `dice_per_unit` > 1 with `best_of` keeps each unit's best die (LHTR heavy bombers); without it each die
    counts. `damage` groups (bombing) roll for a damage total instead of hits: each unit keeps its best die
    (without `best_of`: the sum of its dice) and adds `bonus`. `lowest` groups (e.g. submarine detection)
    report only their lowest die, capped at `hit_on` + 1 ("no die at or under `hit_on`"); the next step
    reads it from `BattleState.rolled`. A `lowest` group with `threshold` reports only whether that die is at
    or under `hit_on` (then `hit_on`, else `hit_on` + 1): two chance outcomes instead of `hit_on` + 1.
    """

    side: Side
    unit: str
    count: int
    hit_on: int
    target: Target = ANY
    removal: str = "cycle"
    dice_per_unit: int = 1
    best_of: bool = False
    damage: bool = False
    bonus: int = 0
    lowest: bool = False
    threshold: bool = False
    # a die above `hit_on` and at or under `repel_on` repels its target instead of hitting it (with `best_of`, a
    # unit's best die decides); the hits and repels are one joint outcome (`chance.REPEL_STRIDE`)
    repel_on: int = 0

    @property
    def hit_chance(self) -> float:
        p = min(max(self.hit_on, 0), 6) / 6
        if self.dice_per_unit > 1 and self.best_of:
            return 1 - (1 - p) ** self.dice_per_unit
        return p

    @property
    def rolls(self) -> int:
        """Independent hit chances in the group."""
        return self.count if self.best_of else self.count * self.dice_per_unit


@dataclass(frozen=True)
class RollRequest:
    """A chance node: the dice a step asks for. `step` names the step that rolls."""

    step: str
    groups: tuple[DiceGroup, ...]


@dataclass(frozen=True)
class BattleState:
    """Where a battle stands. Frozen and hashable; the battle's inputs live in `Battle.setup`."""

    kind: str
    attacker: Stacks
    defender: Stacks
    cycle: int = 1
    cursor: int = 0
    roll: RollRequest | None = None
    hits: tuple[HitBatch, ...] = ()
    pending: Any = None  # a decision from aare.combat.decisions
    result: str | None = None  # attacker | defender | draw | stalemate | retreat | bombed
    damage: int = 0  # bombing damage inflicted
    notes: frozenset[str] = field(default_factory=frozenset)  # per-battle marks steps may set
    rolled: tuple[tuple[str, str, int], ...] = ()  # (side, group unit, lowest die) of `lowest` dice groups
    echo: tuple[Any, ...] = ()  # events of a decision, reported by the next `advance`

    def units(self, side: Side) -> Stacks:
        return self.attacker if side == "attacker" else self.defender

    def with_units(self, side: Side, stacks: Stacks) -> BattleState:
        return self.evolve(attacker=stacks) if side == "attacker" else self.evolve(defender=stacks)

    def evolve(self, **changes: Any) -> BattleState:
        """A copy with `changes` to these fields: `dataclasses.replace` without its checks (the calculator
        makes many), so only for literal field names."""
        new = object.__new__(BattleState)
        fields = new.__dict__
        fields.update(self.__dict__)
        fields.update(changes)
        fields.pop("_hash", None)
        return new

    def __hash__(self) -> int:
        """The fields' hash, kept once computed (the calculator uses states as dictionary keys)."""
        cached: int | None = self.__dict__.get("_hash")
        if cached is None:
            cached = hash((self.kind, self.attacker, self.defender, self.cycle, self.cursor, self.roll, self.hits,
                           self.pending, self.result, self.damage, self.notes, self.rolled, self.echo))
            self.__dict__["_hash"] = cached
        return cached

    def __getstate__(self) -> dict[str, Any]:
        """The fields without the kept hash (string hashes differ from one process to another)."""
        return {k: v for k, v in self.__dict__.items() if k != "_hash"}

    @property
    def ended(self) -> bool:
        return self.result is not None

    @property
    def at_cycle_start(self) -> bool:
        return self.cursor == 0 and self.roll is None and not self.hits and self.pending is None and not self.rolled


def joined(state: BattleState) -> BattleState:
    """`state` with the units held back (`JOINS_NEXT_CYCLE`) joined to their sides: a new cycle starts."""
    if not any(k.has(JOINS_NEXT_CYCLE) for k, _ in state.attacker + state.defender):
        return state
    return state.evolve(**{side: make_stacks((k.without(JOINS_NEXT_CYCLE), n) for k, n in state.units(side))
                           for side in SIDES})
