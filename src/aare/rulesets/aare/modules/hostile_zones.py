"""AARe 5.0 naval units starting in a hostile sea zone (seed "BASE GAME" 8, LHTR SUMMARY D2).

LHTR already makes such ships leave in combat move or fight there (LHTR-SEAMOVE-start-in-hostile; the move
marks them `turn:withdrew`), stops them in a hostile zone they enter (AARE-HOSTILESZ-hostile-first-sz) and
keeps a ship that moved or fought in combat move, and a transport's cargo, out of non-combat move. AARe lets a
ship that left its hostile start zone into a friendly one finish its turn in non-combat move instead: one
that stopped in the first zone entered (one space moved) and neither unloaded nor bombarded sheds its combat
mark when non-combat move begins, so it may move on, and a transport may load and unload
(AARE-HOSTILESZ-finish-in-one-phase, AARE-HOSTILESZ-transport-ncm-exception, AARE-LHTR-transport-combat-unload).
One that went further in combat move has finished its turn there. The extension is the core's
(`aare.phases.hostile_start`).
"""

from __future__ import annotations

from typing import Any

from aare.phases.hostile_start import FINISH
from aare.rules.rule_module import RuleModule, register_module


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    return [*found, FINISH] if phase == "non-combat-move" else found


AARE_HOSTILE_ZONES = register_module(
    RuleModule(
        id="aare_hostile_zones",
        title="AARe 5.0 naval units starting in a hostile sea zone",
        rule_ids=(
            "AARE-HOSTILESZ-leave-in-combat-move",
            "AARE-HOSTILESZ-finish-in-one-phase",
            "AARE-HOSTILESZ-transport-ncm-exception",
            "AARE-HOSTILESZ-hostile-first-sz",
            "AARE-LHTR-transport-combat-unload",
        ),
        hooks={"phase_actions": _phase_actions},
        requires=("lhtr",),
    )
)
