"""AARe weapons development on the board: what a raid is fought with and the escort leg of a raid (the core's
`aare.phases.raid_forces`), Combined Arms battleships firing at aircraft flying over.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.combat.air_defence import COMBINED_ARMS
from aare.movement import flags
from aare.movement.situation import Situation
from aare.phases.raid_forces import escort_check, with_escorts
from aare.rules.ruleset import Ruleset

FLYOVER_RULE = "AARE-TECH-ca-bb-aa-flyover"
escort_raid_target = escort_check("AARE-TECH-lra-escort-neutralize")  # AARE-TECH-lra-escort-neutralize


def flyover_aa(found: Mapping[str, str], ruleset: Ruleset, view: Situation, **_: Any) -> dict[str, str]:
    """Sea zones with an enemy battleship of a power with Combined Arms fire at aircraft flying over them in
    combat move, one die per aircraft however many battleships (AARE-TECH-ca-bb-aa-flyover, option
    `battleship_aa_flyover`)."""
    out = dict(found)
    if not ruleset.options.get("battleship_aa_flyover", True):
        return out
    for space in sorted(view.graph.sea):
        for stack in view.enemies(space):
            unit = view.unit(stack)
            if unit.has("bombard") and not flags.submerged(stack) and COMBINED_ARMS in view.state.techs.get(
                    stack.owner, ()):
                out[space] = FLYOVER_RULE
                break
    return out


def move_checks(checks: list[Any], **_: Any) -> list[Any]:
    """The raid check, extended to escorts."""
    return with_escorts(checks, escort_raid_target)
