"""AARe research (seed "WEAPONS DEVELOPMENT" 7-9): major and minor techs, the 4:2 rule, the shared-tech
discount, on the core's attempts at a named tech (`aare.phases.research_attempts`); a developed tech waits in
`extra["tech_pending"]` and is in force from the power's mobilize phase, as in LHTR.

The first attempt at a tech needs 4 dice (any 6 develops it), the second 2 and succeeds without a roll, and 6
dice in one attempt succeed without a roll (`research_auto_dice`, which national advantages may lower).
"""

from __future__ import annotations

from aare.phases.research_attempts import AttemptResearch, AttemptRules, ally_has_tech
from aare.rules.effects import Effect

MAJOR = ("rockets", "long_range_aircraft", "heavy_bombers")  # AARE-TECH-major-cost-5
MINOR = ("super_submarines", "combined_bombardment", "jet_fighters")  # AARE-TECH-minor-cost-4

COST_EFFECTS = (
    Effect("research_cost", "*", "set", 5, "AARE-TECH-major-cost-5", "major technology",
           lambda c: c.get("tech") in MAJOR),
    Effect("research_cost", "*", "set", 4, "AARE-TECH-minor-cost-4", "minor technology",
           lambda c: c.get("tech") in MINOR),
    # one effect: the discount stays 1 however many allies have the tech (AARE-TECH-shared-discount-max-1)
    Effect("research_cost", "*", "add", -1, "AARE-TECH-shared-discount", "an ally has it", ally_has_tech),
)


def _cost_rule(tech: str) -> str:
    return "AARE-TECH-major-cost-5" if tech in MAJOR else "AARE-TECH-minor-cost-4"


RULES = AttemptRules(
    first_rule="AARE-TECH-42-first-attempt-min-4",
    second_rule="AARE-TECH-42-second-attempt-auto",
    auto_rule="AARE-TECH-42-six-rolls-auto",
    cost_rule=_cost_rule,
)
RESEARCH = AttemptResearch(RULES)
