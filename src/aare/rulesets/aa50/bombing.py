"""Industrial complexes (module `aa50_bombing`): strategic bombing and rockets put damage points on the
industrial complex instead of taking IPCs from the treasury, capped at twice the territory's value; a complex
mobilises its territory's value less its damage; the owner repairs in the purchase phase. Increased Factory
Production adds two units at complexes in territories worth 3 or more and halves the price of repairs. Units
left unplaced wait for a later mobilize phase; an option keeps new units out of sea zones with enemy warships.

The mechanism is the core's (`aare.economy.complex_damage`, switched on through the `damage_rules` hook)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aare.actions import Place
from aare.combat.rules import CombatRules
from aare.economy.complex_damage import DamageRules
from aare.errors import IllegalAction
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module

IFP = "increased_factory_production"
IFP_RULE = "AA50-RESEARCH-increased-factory-production"
IFP_MIN_VALUE = 3
NAVAL_RULE = "AA50-MOBILIZE-naval"
ENEMY_SEAS = "mobilize_beside_enemy_warships"


def _damage_rules(rules: DamageRules, **_: Any) -> DamageRules:
    """Raids and rockets damage the complex (AA50-SBR-damage, AA50-RESEARCH-rockets), never the treasury
    (AA50-ECON-no-negative), at most twice the territory's value in all (AA50-SBR-damage-cap); repairs in the
    purchase phase (AA50-PURCHASE-repair-damage)."""
    return replace(
        rules,
        on_complex=True,
        cap_factor=2,
        raid_rule="AA50-SBR-damage",
        rocket_rule="AA50-RESEARCH-rockets",
        repair_rule="AA50-PURCHASE-repair-damage",
    )


def _raid_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Raids: only bombers fly them and only AA guns oppose them (AA50-SBR-no-escorts-interceptors); a heavy
    bomber's damage is the sum of its two dice (AA50-SBR-damage, AA50-RESEARCH-heavy-bombers); the damage is
    capped by what the complex may still take (AA50-SBR-damage-cap)."""
    return replace(rules, sbr_escorts=False, sbr_interceptors=False, sbr_turn_cap=True, heavy_bomber_sbr_bonus=0,
                   heavy_bomber_sbr_best_of=False)


def _keep_unplaced(keep: bool, **_: Any) -> bool:
    """Units bought but not mobilized stay with the power for a later turn (AA50-MOBILIZE-unplaced-kept)."""
    return True


def factory_effects(tech: str, rules: tuple[str, str], titles: tuple[str, str],
                    min_value: Callable[[Any], int]) -> tuple[Effect, Effect]:
    """The effects of a factory technology: 2 more units at each complex of the power in a territory worth
    `min_value(ruleset)` or more, and repairs at 1 IPC for 2 points (`rules`, `titles`: of each)."""

    def has(context: Any) -> bool:
        state, power = context.get("state"), context.get("power")
        return state is not None and tech in state.techs.get(power, ())

    def at_complex(context: Any) -> bool:
        territory, ruleset = context.get("territory"), context.get("ruleset")
        if territory is None or not has(context):
            return False
        return bool(ruleset.board.spaces[territory].ipc >= min_value(ruleset))

    return (Effect("production", "*", "add", 2, rules[0], titles[0], at_complex),
            Effect("repair_points", "*", "set", 2, rules[1], titles[1], has))


class NoPlacementBesideEnemyWarships(PhaseExtension):
    """Mobilize, played with `mobilize_beside_enemy_warships` off: no new unit goes into a sea zone that holds
    enemy surface warships (submarines and transports do not count)."""

    name = "no-placement-beside-enemy-warships"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            return
        board, units = ctx.ruleset.board, ctx.ruleset.units
        space = board.resolve(action.space)
        if not board.spaces[space].is_sea:
            return
        side = board.side_of(ctx.power)
        for stack in ctx.state.stacks(space):
            unit = units[stack.unit]
            if (board.side_of(stack.owner) != side and unit.domain == "sea" and not unit.has("submerge")
                    and (unit.attack or unit.defense)):
                raise IllegalAction(f"{space} holds enemy warships: no new units go there (played with "
                                    f"{ENEMY_SEAS} off)", NAVAL_RULE)


NO_ENEMY_SEAS = NoPlacementBesideEnemyWarships()


def _phase_actions(found: list[Any], phase: str, ruleset: Any, **_: Any) -> list[Any]:
    if phase == "mobilize" and not ruleset.options.get(ENEMY_SEAS, True):
        return [*found, NO_ENEMY_SEAS]
    return found


IFP_EFFECTS = factory_effects(IFP, (IFP_RULE, IFP_RULE),
                              ("Increased Factory Production", "Increased Factory Production: 1 IPC removes 2"),
                              lambda _ruleset: IFP_MIN_VALUE)

MODULE = register_module(
    RuleModule(
        id="aa50_bombing",
        title="Industrial complexes: damage, repair, production",
        rule_ids=(
            "AA50-SBR-declare",
            "AA50-SBR-aa-first",
            "AA50-SBR-damage",
            "AA50-SBR-damage-cap",
            "AA50-SBR-reduces-production",
            "AA50-SBR-bombers-return",
            "AA50-SBR-no-escorts-interceptors",
            "AA50-ECON-no-negative",
            "AA50-PURCHASE-repair-damage",
            "AA50-RESEARCH-rockets",
            IFP_RULE,
            "AA50-MOBILIZE-unplaced-kept",
            NAVAL_RULE,
        ),
        hooks={
            "damage_rules": _damage_rules,
            "combat_rules": _raid_rules,
            "keep_unplaced": _keep_unplaced,
            "phase_actions": _phase_actions,
        },
        effects=IFP_EFFECTS,
        options=(
            OptionSpec(
                key=ENEMY_SEAS,
                type=bool,
                default=True,
                help="whether new ships and fighters may be placed in a sea zone holding enemy surface warships "
                "(off: a house rule some groups play)",
                rule_id=NAVAL_RULE,
            ),
        ),
    )
)
