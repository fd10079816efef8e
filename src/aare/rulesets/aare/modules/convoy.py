"""AARe 5.0 convoy raids (seed "BASE GAME" 5): at the collect-income phase of the UK, the US and Japan, enemy
submarines near their industrial complexes cut the income collected (`aare.rulesets.aare.convoy`). The cap of all
economic damage per territory and turn is the one raids and rockets share (`aare.economy.damage`)."""

from __future__ import annotations

from typing import Any

from aare.phases.collect_income import AfterCollection
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.convoy import convoy_events

# the raids follow the collection (AARE-CR-victim-collect-phase)
CONVOY_RAIDS = AfterCollection("convoy-raids", convoy_events)


def _phase_actions(found: list[Any], phase: str, **_: Any) -> list[Any]:
    return [*found, CONVOY_RAIDS] if phase == "collect-income" else found


AARE_CONVOY = register_module(
    RuleModule(
        id="aare_convoy",
        title="AARe 5.0 convoy raids",
        rule_ids=(
            "AARE-CR-eligible-nations",
            "AARE-CR-subs-only",
            "AARE-CR-victim-collect-phase",
            "AARE-CR-adjacent-sub",
            "AARE-CR-two-sz-sub",
            "AARE-CR-submerged-no-damage",
            "AARE-CR-territory-cap",
            "AARE-CR-one-ic-per-sub-per-turn",
            "AARE-CR-multiple-ics-per-round",
            "AARE-CR-combined-economic-cap",
            "AARE-CR-cap-resets-each-turn",
        ),
        hooks={"phase_actions": _phase_actions},
        requires=("lhtr",),
    )
)
