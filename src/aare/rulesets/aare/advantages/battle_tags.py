"""National advantages in battle: an NA that changes combat values puts its ability, ``na:<id>``, into the
techs of its nation's units in a battle (the `battle_inputs` hook on the board, ``--attacker-advantage`` /
``--defender-advantage`` in the calculator); `TechBonus` records with that tech then change the values.
"""

from __future__ import annotations

from collections.abc import Iterable

from aare.combat.board_battle import with_tag
from aare.rulesets.aare.advantages.base import advantage

PREFIX = "na:"
__all__ = ["PREFIX", "battle_tag", "battle_tags", "with_tag"]


def battle_tag(adv_id: str) -> str:
    """The ability of NA `adv_id` in a battle (UnknownName for an unknown NA)."""
    return PREFIX + advantage(adv_id).id


def battle_tags(adv_ids: Iterable[str]) -> frozenset[str]:
    return frozenset(battle_tag(a) for a in adv_ids)
