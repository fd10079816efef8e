"""D-Day (AARe, seed "BASE GAME" 6, AARE-DDAY-*): the joint UK and US invasion of Western Europe, an `Invasion`
of the core's `aare.phases.joint_invasion` (the record `state.extra["d_day"]`, the flag `d-day` on eligible UK
units, the US player commanding them on the US turn).

AARe's own readings: land units attack overland from Germany or Southern Europe; the UK's warships bombard only
if SZ 7 held no enemy unit when the US turn began (`sz7_clear`); the invasion is lost once the Allies hold
Western Europe before it, also after the declaration.
"""

from __future__ import annotations

from aare.phases.joint_invasion import Invasion, InvasionRules

R_CASUALTIES = "AARE-DDAY-casualty-agreement"

SPEC = Invasion(
    declarer="United Kingdom",
    executor="United States",
    targets=("Western Europe",),
    zone="SZ 7",
    overland=("Germany", "Southern Europe"),
    rules=InvasionRules(
        once="AARE-DDAY-once-per-game",
        declare="AARE-DDAY-declare-at-uk-turn-start",
        executor_turn="AARE-DDAY-resolved-on-us-turn",
        target="AARE-DDAY-target-weur",
        zone="AARE-DDAY-amphib-from-sz7",
        overland="AARE-DDAY-overland-exception",
        targets_only="AARE-DDAY-uk-units-weur-only",
        bombard="AARE-DDAY-uk-bombard-if-sz7-empty",
        irrevocable="AARE-DDAY-irrevocable",
        lost="AARE-DDAY-lost-if-allies-held-weur",
    ),
    clear_key="sz7_clear",
)
