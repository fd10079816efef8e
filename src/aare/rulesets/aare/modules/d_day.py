"""AARe 5.0 D-Day (seed "BASE GAME" 6; the invasion is the core's `aare.phases.joint_invasion`, AARe's values in
`aare.rulesets.aare.d_day`).

Once a game, at the start of a UK turn (its first phase, before any research or purchase), the UK may
declare D-Day (`declare_d_day`). The UK plays its turn normally; its units that move, load or fight then, and
those it buys, are not eligible. On the US turn of the round the US player moves the eligible UK units with
his own (the `co_movers` hook), and the one joint attack of the game is fought in Western Europe: the combat
engine accepts both nations as attackers (`battle_inputs`: `joint_attack`), each nation keeps its own techs,
AA guns fire at each nation's aircraft apart, and the Allied player (or, with the option, the defender)
chooses the attackers' casualties. D-Day cannot be called off while the attack can be made; it is lost for
good once the Allies hold Western Europe before it.
"""

from __future__ import annotations

from typing import Any

from aare.phases.joint_invasion import InvasionHooks
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.d_day import R_CASUALTIES, SPEC


def _battle_decider(power: str, state: Any, site: Any, side: str, ruleset: Any, **_: Any) -> str:
    """With `d_day_casualties=defender` the defender chooses the D-Day attackers' losses
    (AARE-DDAY-casualty-agreement); by default the US player chooses them for both nations."""
    if side != "attacker" or ruleset.options.get("d_day_casualties", "allies") != "defender":
        return power
    if not SPEC.turn(state) or len({s.owner for s in site.attackers}) < 2:
        return power
    from aare.combat.board_battle import deciding_power

    return deciding_power(state, ruleset, site, "defender")


AARE_D_DAY = register_module(
    RuleModule(
        id="aare_d_day",
        title="AARe 5.0 D-Day",
        rule_ids=(
            "AARE-DDAY-once-per-game",
            "AARE-DDAY-declare-at-uk-turn-start",
            "AARE-DDAY-resolved-on-us-turn",
            "AARE-DDAY-target-weur",
            "AARE-DDAY-amphib-from-sz7",
            "AARE-DDAY-overland-exception",
            "AARE-DDAY-air-any-origin",
            "AARE-DDAY-uk-turn-normal",
            "AARE-DDAY-uk-used-units-excluded",
            "AARE-DDAY-uk-new-units-excluded",
            "AARE-DDAY-us-moves-uk-units",
            "AARE-DDAY-cross-transport",
            "AARE-DDAY-uk-units-weur-only",
            "AARE-DDAY-uk-loaded-trn-sz7",
            "AARE-DDAY-uk-bombard-if-sz7-empty",
            R_CASUALTIES,
            "AARE-DDAY-aa-per-nation",
            "AARE-DDAY-bonuses-own-units",
            "AARE-DDAY-irrevocable",
            "AARE-DDAY-lost-if-allies-held-weur",
        ),
        hooks={**InvasionHooks(SPEC).hooks(), "battle_decider": _battle_decider},
        requires=("lhtr",),
        options=(
            OptionSpec(
                key="d_day_casualties",
                type=str,
                default="allies",
                choices=("allies", "defender"),
                help="who chooses the D-Day attackers' casualties: the Allied player (UK and US agree) or the "
                "defender (they do not)",
                rule_id=R_CASUALTIES,
            ),
        ),
    )
)
