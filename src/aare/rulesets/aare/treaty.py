"""The Russia-Japan non-aggression treaty of AARe (seed "BASE GAME" 4, AARE-NAT-*): a `Pact` of the core's
`aare.phases.non_aggression` (the record `state.extra["treaty"]`, its triggers and the free infantry).

AARe's readings: Russia may not enter original Japanese land held by the United Kingdom or the United States,
Japan not original Russian land held by Germany; Russian submarines raiding Japan's convoys void it.
"""

from __future__ import annotations

from aare.phases.non_aggression import Pact, PactRules, infantry_count

__all__ = ["JAPAN", "RUSSIA", "SPEC", "infantry_count"]

RUSSIA, JAPAN = "Russia", "Japan"

SPEC = Pact(
    parties=(RUSSIA, JAPAN),
    forbidden_holders={RUSSIA: ("United Kingdom", "United States"), JAPAN: ("Germany",)},
    rules=PactRules(
        initial="AARE-NAT-initial-state",
        break_free="AARE-NAT-break-free-inf",
        break_one="AARE-NAT-break-single-territory",
        void_free="AARE-NAT-void-free-inf",
        capital="AARE-NAT-void-capital-capture",
        both="AARE-NAT-void-and-break-same-phase",
        ends="AARE-NAT-ends-permanently",
        break_attack={RUSSIA: "AARE-NAT-break-russia-attacks-orange", JAPAN: "AARE-NAT-break-japan-attacks-red"},
        void_attack={RUSSIA: "AARE-NAT-void-russia-attacks-japanese-nonorange",
                     JAPAN: "AARE-NAT-void-japan-attacks-russian-nonred"},
        void_enter={RUSSIA: "AARE-NAT-void-russia-enters-allied-orange",
                    JAPAN: "AARE-NAT-void-japan-enters-german-red"},
        overflight="AARE-NAT-void-overflight",
        naval="AARE-NAT-void-naval-attack",
        economic="AARE-NAT-void-economic-attack",
    ),
    option="non_aggression_treaty",
    convoy_victims=(JAPAN,),
)

