"""AARHE air transport (module `aarhe_air_transport`): in non-combat move every bomber may carry one infantry (two
with Heavy Bombers), loaded, flown and set down in one action, so none stays aboard (AARHE-AIRTRANS-*). The core's
air transport (`aare.phases.air_transport`) carries it; a carrying bomber flies with its combat-move range: at
most half its movement to the drop, then at most half its movement to land, unless a ferry leg before the carry
used its second leg (`aarhe_air`)."""

from __future__ import annotations

from aare.movement import flags
from aare.movement.pathing import allowance
from aare.movement.situation import Situation
from aare.phases.air_transport import AirLift, NonCombatAirTransport
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.air import LEG, half
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_CAPACITY = "AARHE-AIRTRANS-bomber-capacity"
R_SAME_TURN = "AARHE-AIRTRANS-same-turn"
R_RANGE = "AARHE-AIRTRANS-combat-range"
HEAVY_BOMBERS = "heavy_bombers"


def capacity(view: Situation) -> int:
    """Infantry a bomber carries: one, two with Heavy Bombers."""
    return 2 if HEAVY_BOMBERS in view.techs else 1


def carrying_leg(view: Situation, stack: Stack) -> int:
    """The longest carrying flight: half the bomber's movement."""
    return half(allowance(view, view.unit(stack), stack.owner))


def left_after(view: Situation, stack: Stack, cost: int) -> int:
    """After carrying, one more leg of half its movement to land, unless it already flew a ferry leg."""
    return 0 if flags.values(stack, LEG) else carrying_leg(view, stack)


LIFT = AirLift(
    tech="",
    rule=R_CAPACITY,
    move_rule=R_CAPACITY,
    drop_rule=R_CAPACITY,
    landing_rule=R_RANGE,
    overnight_rule=R_SAME_TURN,
    name="bombers",
    capacity=capacity,
    range_rule=R_RANGE,
    leg=carrying_leg,
    left_after=left_after,
)

AARHE_AIR_TRANSPORT = register_module(
    RuleModule(
        id="aarhe_air_transport",
        title="AARHE air transport by bombers",
        rule_ids=(R_CAPACITY, R_SAME_TURN, R_RANGE),
        hooks={"phase_actions": by_phase(NonCombatAirTransport(LIFT))},
    )
)
