"""The United States' national advantages (seed NATIONAL ADVANTAGES / UNITED STATES, ledger AARE-NA-US-*).

Battle abilities (Marines, Reinforced Carriers) go into the US units' techs as ``na:<id>`` (`battle_tags`);
Mechanized Infantry changes movement; Naval Industry and Reinforced Carriers change prices; Tech Investment
changes research (`research_funds`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.combat.battle_state import Side, UnitKey
from aare.combat.rules import CombatRules, TechBonus
from aare.combat.setup import Battle
from aare.events import UnitsChanged
from aare.movement.battles import BattleSite
from aare.movement.move_checks import Check, Leg, Violation, land_passage
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.base import Advantage, FreeUnits, in_force, register
from aare.rulesets.aare.advantages.battle_tags import battle_tag, with_tag
from aare.rulesets.aare.advantages.first_purchase import first_purchase_hooks
from aare.rulesets.aare.advantages.research_funds import research_funds
from aare.rulesets.aare.weapons.research import MINOR
from aare.state.game_state import GameState

US = "United States"
EUS, CUS, WUS = "Eastern United States", "Central United States", "Western United States"
MAINLAND = (EUS, CUS, WUS)
PACIFIC = ("Sinkiang", "China", "Kwangtung", "Philippine Islands", "Alaska", "Hawaiian Islands", WUS)
MARINE_SEAS = {"SZ 10": EUS, "SZ 54": WUS, "SZ 55": WUS}  # the sea zones next to Eastern / Western US
NAVAL = ("transport", "submarine", "destroyer", "carrier", "battleship")

R_MECH_INF = "AARE-NA-US-mech-free-inf"
R_MECH_MOVE = "AARE-NA-US-mech-move-2"
R_MECH_BLITZ = "AARE-NA-US-mech-blitz"
R_PD = "AARE-NA-US-pd-free-inf"
R_MAR_TRN = "AARE-NA-US-mar-free-trn"
R_MAR_INF = "AARE-NA-US-mar-free-inf"
R_MAR_ATTACK = "AARE-NA-US-mar-amphib-attack-2"
R_MAR_ART = "AARE-NA-US-mar-artillery-3"
R_NAVAL = "AARE-NA-US-ni-naval-discount"
R_RC_HITS = "AARE-NA-US-rc-two-hits"
R_RC_FIRST = "AARE-NA-US-rc-first-ac"
R_TI_FOUR = "AARE-NA-US-ti-four-rolls"
R_TI_GRANT = "AARE-NA-US-ti-grant-5"
R_TI_CARRY = "AARE-NA-US-ti-grant-carryover"
MARINES_OVERLAND = "marines_overland_bonus"


def _holds(state: GameState | None, adv_id: str) -> bool:
    return in_force(state, US, adv_id)


# --- Mechanized Infantry: US infantry move 2 and blitz ------------------------------------------------------


def _blitzing(check: Check) -> Check:
    """`check` (the land-passage check), judging US infantry as armour that blitzes (AARE-NA-US-mech-blitz)."""

    def land_passage(leg: Leg) -> Violation | None:
        if leg.combat and leg.unit.has("infantry") and leg.stack.owner == US and _holds(leg.view.state,
                                                                                          "mechanized_infantry"):
            blitzing = Leg(leg.view, leg.combat, leg.stack, leg.path, leg.raid, leg.others)
            blitzing.__dict__["unit"] = replace(leg.unit, tags=leg.unit.tags | {"blitz"})
            return check(blitzing)
        return check(leg)

    return land_passage


def _mech_checks(checks: list[Check], **_: Any) -> list[Check]:
    """The land-passage check (whoever else has wrapped it) lets US infantry blitz."""
    return [_blitzing(c) if getattr(c, "__name__", "") == land_passage.__name__ else c for c in checks]


# --- Marines: US infantry landing from the sea attack at 2 in the first cycle --------------------------------


def _landed(battle: Battle, side: Side, key: UnitKey) -> bool:
    return battle.state.kind == "amphibious" and key.has("amphibious")


def _in_assault(battle: Battle, side: Side, key: UnitKey) -> bool:
    return battle.state.kind == "amphibious"


def _marines_rules(rules: CombatRules, ruleset: Ruleset, **_: Any) -> CombatRules:
    """+1 in the first cycle of an amphibious assault, for US infantry that landed from the sea (option
    `marines_overland_bonus`: every US infantry of the assault); artillery support adds its own +1
    (AARE-NA-US-mar-artillery-3)."""
    when = _in_assault if ruleset.options.get(MARINES_OVERLAND, False) else _landed
    bonus = TechBonus(battle_tag("marines"), "infantry", "attack", 1, R_MAR_ATTACK, cycles=1, when=when)
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, bonus))


def _marines_inputs(inputs: dict[str, Any], state: GameState, site: BattleSite, **_: Any) -> dict[str, Any]:
    if site.kind != "amphibious" or not _holds(state, "marines"):
        return inputs
    return with_tag(inputs, site.attacker, US, battle_tag("marines"), "attacker")


# --- Reinforced Carriers: US carriers take 2 hits and are repaired like battleships ------------------------

RC_BONUS = TechBonus("na:reinforced_carriers", "carrier", "hits", 1, R_RC_HITS)


def _rc_rules(rules: CombatRules, **_: Any) -> CombatRules:
    return replace(rules, tech_bonuses=(*rules.tech_bonuses, RC_BONUS))


def _rc_inputs(inputs: dict[str, Any], state: GameState, site: BattleSite, **_: Any) -> dict[str, Any]:
    if site.kind != "sea" or not _holds(state, "reinforced_carriers"):
        return inputs
    return with_tag(inputs, site.attacker, US, battle_tag("reinforced_carriers"))


class CarrierRepair(PhaseExtension):
    """Damaged US carriers are whole again at the end of each turn, as battleships (AARE-NA-US-rc-two-hits)."""

    name = "reinforced-carriers"

    def on_exit(self, ctx: TurnContext) -> None:
        units = ctx.ruleset.units
        for space in sorted(ctx.state.units):
            for stack in ctx.state.units[space]:
                if stack.owner == US and stack.damage and units[stack.unit].has("carrier"):
                    ctx.emit(UnitsChanged(space, stack, replace(stack, damage=0)))


REPAIR = CarrierRepair()


def _rc_phases(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
    if phase == "collect-income" and _holds(state, "reinforced_carriers"):
        return [*found, REPAIR]
    return found


def _rc_hooks() -> dict[str, Any]:
    first = first_purchase_hooks("reinforced_carriers", US, "carrier", 5, R_RC_FIRST)
    phases = first["phase_actions"]

    def phase_actions(found: list[Any], **context: Any) -> list[Any]:
        return _rc_phases(phases(found, **context), **context)

    return {"combat_rules": _rc_rules, "battle_inputs": _rc_inputs, "order_cost": first["order_cost"],
            "phase_actions": phase_actions}


# --- Tech Investment -----------------------------------------------------------------------------------------

TI_HOOKS, TI_DECLARE = research_funds("tech_investment", US, 5, MINOR, R_TI_GRANT)


def _naval_discounts(units: Iterable[str]) -> tuple[Effect, ...]:
    return tuple(Effect("cost", u, "add", -1, R_NAVAL, "Naval Industry") for u in units)


ADVANTAGES = register(
    Advantage(
        "mechanized_infantry", US, 1, "Mechanized Infantry", rule_ids=(R_MECH_INF, R_MECH_MOVE, R_MECH_BLITZ),
        free_units=(FreeUnits((("infantry", 2),), MAINLAND, R_MECH_INF),),
        effects=(Effect("movement", "infantry", "add", 1, R_MECH_MOVE, "Mechanized Infantry"),),
        hooks={"move_checks": _mech_checks},
    ),
    Advantage(
        "pacific_divisions", US, 2, "Pacific Divisions", rule_ids=(R_PD,), timing="per_turn",
        free_units=(FreeUnits((("infantry", 1),), PACIFIC, R_PD, every_turn=True),),
    ),
    Advantage(
        "marines", US, 3, "Marines", rule_ids=(R_MAR_TRN, R_MAR_INF, R_MAR_ATTACK, R_MAR_ART),
        free_units=(
            FreeUnits((("transport", 1),), tuple(MARINE_SEAS), R_MAR_TRN, coast=MARINE_SEAS),
            FreeUnits((("infantry", 2),), (*MAINLAND, "Alaska", "Hawaiian Islands"), R_MAR_INF, together=False),
        ),
        hooks={"combat_rules": _marines_rules, "battle_inputs": _marines_inputs},
        options=(
            OptionSpec(
                key=MARINES_OVERLAND,
                type=bool,
                default=False,
                help="Marines: every US infantry in an amphibious assault attacks at 2 in the first cycle, also "
                "those attacking overland (off: only those landing from the sea)",
                rule_id=R_MAR_ATTACK,
            ),
        ),
    ),
    Advantage(
        "naval_industry", US, 4, "Naval Industry", rule_ids=(R_NAVAL,), effects=_naval_discounts(NAVAL),
    ),
    Advantage(
        "reinforced_carriers", US, 5, "Reinforced Carriers", rule_ids=(R_RC_HITS, R_RC_FIRST), hooks=_rc_hooks(),
    ),
    Advantage(
        "tech_investment", US, 6, "Tech Investment", rule_ids=(R_TI_FOUR, R_TI_GRANT, R_TI_CARRY),
        effects=(Effect("research_auto_dice", US, "set", 4, R_TI_FOUR, "Tech Investment"),),
        hooks=TI_HOOKS, on_declare=TI_DECLARE,
    ),
)
