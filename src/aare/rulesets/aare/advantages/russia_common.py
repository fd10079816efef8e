"""What Russia's national advantages share: the nation, its Red territories, adding an NA's battle ability."""

from __future__ import annotations

from typing import Any

from aare.movement.battles import BattleSite
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.base import in_force
from aare.rulesets.aare.advantages.battle_tags import battle_tag, with_tag
from aare.state.game_state import GameState

RUSSIA = "Russia"
UK, US = "United Kingdom", "United States"


def red(ruleset: Ruleset) -> frozenset[str]:
    """The Red territories: the land Russia owns at set-up, whoever holds it now (docs/rulings.md)."""
    return frozenset(s.name for s in ruleset.board.land() if s.owner == RUSSIA)


def tag_russia(inputs: dict[str, Any], site: BattleSite, adv_id: str, side: str = "") -> dict[str, Any]:
    """The battle inputs with NA `adv_id`'s ability among Russia's techs (`side`: only in that role)."""
    return with_tag(inputs, site.attacker, RUSSIA, battle_tag(adv_id), side)


def holds(state: GameState | None, adv_id: str) -> bool:
    return in_force(state, RUSSIA, adv_id)
