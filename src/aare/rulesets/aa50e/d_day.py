"""AA50E D-Day (module `aa50e_d_day`, seed 5): the core's joint invasion (`aare.phases.joint_invasion`) declared by
the United Kingdom at the start of its turn, once a game, carried out on the United States' turn against France
and/or Northwestern Europe, every land and sea unit from Sea Zone 7 (land units in Germany or Italy may attack
overland), aircraft from anywhere in range. UK units used or bought on the UK turn stay out; the US player moves
the others with his own, on either nation's transports; UK and US battleships and cruisers bombard under the
Anniversary rules; AA guns fire at each nation's aircraft apart. D-Day is lost if the Allies hold France or
Northwestern Europe before it is declared. The US player may leave it undone (it then lapses)."""

from __future__ import annotations

from aare.phases.joint_invasion import Invasion, InvasionHooks, InvasionRules
from aare.rules.rule_module import RuleModule, register_module

R_ONCE = "AA50E-DDAY-declare-once"
R_TARGETS = "AA50E-DDAY-targets"
R_SZ7 = "AA50E-DDAY-amphibious-from-sz7"

SPEC = Invasion(
    declarer="United Kingdom",
    executor="United States",
    targets=("France", "Northwestern Europe"),
    zone="SZ 7",
    overland=("Germany", "Italy"),
    rules=InvasionRules(
        once=R_ONCE,
        declare=R_ONCE,
        executor_turn="AA50E-DDAY-us-moves-uk-units",
        target=R_TARGETS,
        zone=R_SZ7,
        overland=R_SZ7,
        targets_only=R_TARGETS,
        bombard="AA50E-DDAY-bombardment",
        irrevocable="AA50E-DDAY-us-moves-uk-units",
        lost="AA50E-DDAY-forfeit-if-liberated",
    ),
    bombard_needs_clear_zone=False,
    lost_once_declared=False,
    irrevocable=False,
)

MODULE = register_module(
    RuleModule(
        id="aa50e_d_day",
        title="Anniversary Edition - Enhanced: D-Day",
        rule_ids=(
            R_ONCE,
            R_TARGETS,
            R_SZ7,
            "AA50E-DDAY-air-any-origin",
            "AA50E-DDAY-uk-turn-normal",
            "AA50E-DDAY-used-units-excluded",
            "AA50E-DDAY-new-uk-units-excluded",
            "AA50E-DDAY-us-moves-uk-units",
            "AA50E-DDAY-shared-transports",
            "AA50E-DDAY-bombardment",
            "AA50E-DDAY-aa-per-nation",
            "AA50E-DDAY-forfeit-if-liberated",
        ),
        hooks=InvasionHooks(SPEC).hooks(),
        requires=("aa50",),
    )
)
