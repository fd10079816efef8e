"""AARe heavy bombers' air transport (seed "WEAPONS DEVELOPMENT" 6): the core's air transport in non-combat move
(`aare.phases.air_transport`) by heavy bombers."""

from __future__ import annotations

from aare.phases.air_transport import AirLift, NonCombatAirTransport

LIFT = AirLift(
    tech="heavy_bombers",
    rule="AARE-TECH-hb-air-transport",
    move_rule="AARE-TECH-hb-air-transport-movement",
    drop_rule="AARE-TECH-hb-air-transport-drop",
    landing_rule="AARE-TECH-hb-air-transport-landing",
    overnight_rule="AARE-TECH-hb-air-transport-no-overnight",
)
AIR_TRANSPORT = NonCombatAirTransport(LIFT)
