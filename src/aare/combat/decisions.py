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


@dataclass(frozen=True)
class ChooseSubmerge:
    """`side` may submerge up to `available` submarines.

    `stage` says when: "end of cycle" (LHTR) or "after opening fire" (AARe undetected subs). Subs with a
    flag in `exclude_flags` cannot be chosen; with `mark_stayers`, the subs that could go and stay get that
    flag (AARe: an undetected sub that stays becomes detected).
    """

    side: Side
    available: int
    rule: str
    stage: str = "end of cycle"
    exclude_flags: tuple[str, ...] = ()
    mark_stayers: str = ""


Decision = ChooseCasualties | PressOrRetreat | ChooseSubmerge


@dataclass(frozen=True)
class Casualties:
    """One entry per unit hit: ``(unit, hits it takes)``; a two-hit battleship may take 1 or 2."""

    hits: tuple[tuple[UnitKey, int], ...]


@dataclass(frozen=True)
class Press:
    pass


@dataclass(frozen=True)
class Retreat:
    """Retreat every attacking unit to `to`, or only the aircraft (`air_only`, amphibious assaults)."""

    to: str | None = None
    air_only: bool = False


@dataclass(frozen=True)
class Submerge:
    count: int


Answer = Casualties | Press | Retreat | Submerge
