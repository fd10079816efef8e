"""National advantages in battle: an NA that changes combat values puts its ability, ``na:<id>``, into the
techs of its nation's units in a battle (the `battle_inputs` hook on the board, ``--attacker-advantage`` /
``--defender-advantage`` in the calculator); `TechBonus` records with that tech then change the values.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.rulesets.aare.advantages.base import advantage

PREFIX = "na:"


def battle_tag(adv_id: str) -> str:
    """The ability of NA `adv_id` in a battle (UnknownName for an unknown NA)."""
    return PREFIX + advantage(adv_id).id


def battle_tags(adv_ids: Iterable[str]) -> frozenset[str]:
    return frozenset(battle_tag(a) for a in adv_ids)


def with_tag(inputs: Mapping[str, Any], attacker: str, power: str, tag: str, side: str = "") -> dict[str, Any]:
    """The battle inputs with `tag` among `power`'s techs: those of the attacking side when `power` is the
    `attacker`, and `power`'s own entry of `owner_techs` when it has one (a defender, or a power attacking
    jointly). `side` ("attacker"/"defender") limits it to `power` in that role."""
    attacking = power == attacker or any(k.owner == power for k, _ in inputs.get("attacker") or ())
    if side and (side == "attacker") != attacking:
        return dict(inputs)
    out = dict(inputs)
    if power == attacker:
        out["attacker_techs"] = frozenset(out.get("attacker_techs") or ()) | {tag}
    owners = dict(out.get("owner_techs") or {})
    if power in owners:
        owners[power] = frozenset(owners[power]) | {tag}
        out["owner_techs"] = owners
    return out
