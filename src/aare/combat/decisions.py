"""Pending decisions and their answers. A battle stops with a decision in `BattleState.pending`; a
player, bot, test or the calculator answers it with `aare.combat.engine.decide`.
"""

from __future__ import annotations

from dataclasses import dataclass

from aare.combat.battle_state import HitBatch, Side, UnitKey


@dataclass(frozen=True)
class ChooseCasualties:
    """`side` must assign `batches` of hits (LHTR-COMBAT-owner-chooses-casualties)."""

    side: Side
    batches: tuple[HitBatch, ...]
    required: int  # hits that can be assigned (excess hits on ineligible units are void)
    rule: str = "LHTR-COMBAT-owner-chooses-casualties"


@dataclass(frozen=True)
class PressOrRetreat:
    """The attacker presses the attack or retreats (LHTR-COMBAT-attacker-retreat)."""

    destinations: tuple[str, ...]
    can_retreat_all: bool
    can_retreat_air: bool
    side: Side = "attacker"
    rule: str = "LHTR-COMBAT-attacker-retreat"
    # a retreat leaves the units landed from the sea behind, fighting on (`CombatRules.partial_amphibious_retreat`)
    leaves_amphibious: bool = False
    # the side may retreat some of its units (the answer's `units`), the rest fighting on
    partial: bool = False
    # the side must retreat: pressing on is refused
    forced: bool = False


@dataclass(frozen=True)
class ChooseSubmerge:
    """`side` may submerge up to `available` submarines.

    `stage` says when: "end of cycle" (LHTR), "after opening fire" (AARe undetected subs) or "start of battle"
    (before any fire). Subs with a flag in `exclude_flags` cannot be chosen; with `mark_stayers`, the subs that
    could go and stay get that flag (AARe: an undetected sub that stays becomes detected). `destinations`: the
    sea zones the subs withdraw to, one of which the answer names (none: they stay in the battle's zone).
    """

    side: Side
    available: int
    rule: str
    stage: str = "end of cycle"
    exclude_flags: tuple[str, ...] = ()
    mark_stayers: str = ""
    destinations: tuple[str, ...] = ()


TARGETS_NOTE = "targets="  # the note a `ChooseTargets` answer is kept under by default


@dataclass(frozen=True)
class ChooseTargets:
    """`side` names `count` units, in order, as the targets of its units (e.g. AARe's Kaitens and Kamikazes,
    declared at the start of a sea battle, or a selective attack). `eligible`: ``(owner, unit type, hits)`` of the
    units that may be named, with how often each may be named (e.g. the hits they can take in all: a unit needing
    two hits may be named twice). The answer is kept in the battle's notes under `note` (`targets_note`); with
    `up_to`, fewer than `count` targets may be named; `suggested` is the answer a policy gives by default."""

    side: Side
    count: int
    eligible: tuple[tuple[str, str, int], ...]
    rule: str
    note: str = TARGETS_NOTE
    up_to: bool = False
    suggested: tuple[tuple[str, str], ...] = ()

    def resolve(self, answer: Targets) -> tuple[tuple[str, str], ...] | str:
        """The answer's ``(owner, type)`` targets (an empty owner is the first eligible one), or why it is wrong."""
        if len(answer.targets) > self.count or (len(answer.targets) < self.count and not self.up_to):
            return f"name {'up to ' if self.up_to else ''}{self.count} target(s), in order (primary first)"
        room = {(o, t): h for o, t, h in self.eligible}
        out = []
        for owner, unit in answer.targets:
            found = next(((o, t) for o, t, _ in self.eligible if t == unit and (not owner or o == owner)), None)
            if found is None:
                return f"{(owner + ' ') if owner else ''}{unit} cannot be a target here"
            if not owner:
                found = next(((o, t) for o, t, _ in self.eligible if t == unit and room[(o, t)] > 0), found)
            if room[found] <= 0:
                return f"{found[1]} is named more often than it can be hit"
            room[found] -= 1
            out.append(found)
        return tuple(out)


def targets_note(targets: tuple[tuple[str, str], ...], prefix: str = TARGETS_NOTE) -> str:
    return prefix + "|".join(f"{o}:{t}" for o, t in targets)


def declared_targets(notes: frozenset[str], prefix: str = TARGETS_NOTE) -> tuple[tuple[str, str], ...] | None:
    """The targets declared under `prefix` in this battle (None: not declared yet); a prefix starting with
    ``cycle:`` keeps them for one cycle."""
    for note in notes:
        if note.startswith(prefix):
            body = note[len(prefix):]
            return tuple(tuple(item.split(":", 1)) for item in body.split("|") if item)  # type: ignore[misc]
    return None


@dataclass(frozen=True)
class ChooseOption:
    """`side` picks one of `options` (e.g. AARHE's break off: press on or break off); the answer is kept in the
    battle's notes as `note` + the option (a `note` starting with ``cycle:`` keeps it for one cycle). The first
    option is the one a policy picks by default."""

    side: Side
    options: tuple[str, ...]
    rule: str
    note: str


def chosen_option(notes: frozenset[str], note: str) -> str | None:
    """The option chosen under `note` in this battle (None: not chosen)."""
    return next((n[len(note):] for n in notes if n.startswith(note)), None)


Decision = ChooseCasualties | PressOrRetreat | ChooseSubmerge | ChooseTargets | ChooseOption


@dataclass(frozen=True)
class Casualties:
    """One entry per unit hit: ``(unit, hits it takes)``; a two-hit battleship may take 1 or 2."""

    hits: tuple[tuple[UnitKey, int], ...]


@dataclass(frozen=True)
class Press:
    pass


@dataclass(frozen=True)
class Retreat:
    """Retreat every unit of the side to `to`, or only the aircraft (`air_only`, amphibious assaults), or, where the
    decision is `partial`, only `units` (``((unit type, count), ...)``; empty: every unit)."""

    to: str | None = None
    air_only: bool = False
    units: tuple[tuple[str, int], ...] = ()


@dataclass(frozen=True)
class Submerge:
    count: int


@dataclass(frozen=True)
class Targets:
    """Targets in order: ``(owner, unit type)``; an empty owner means the first eligible one."""

    targets: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Option:
    """One of a `ChooseOption` decision's options."""

    name: str


Answer = Casualties | Press | Retreat | Submerge | Targets | Option
