"""The effects of AARHE's technologies (module `aarhe_technologies`; research is `aarhe_research`, the atomic
bomb `aarhe_atomic`).

- Jet Plane: the aircraft's values (`aarhe_combat`, AARHE-TECH-jet-plane).
- Long Range Aircraft: +2 movement for every air unit (the core's allowance, AARHE-TECH-long-range-aircraft);
  AARHE's half legs are taken of the larger allowance.
- Heavy Bomber: two dice, each able to hit, in combat (attack and defence), their sum in a raid
  (AARHE-TECH-heavy-bomber).
- Heavy Artillery, Heavy Tank: the unit may be bought (AARHE-TECH-heavy-artillery, -heavy-tank); with the unit's
  game option on, every power may buy it without the technology.
- Advanced Submarine: submarines attack and defend at +1 (the core's tech bonus, AARHE-TECH-advanced-submarine).
- Advanced Production: FTR, SS, AP 1 IPC less; DD, CA, BMR 2 less; BB, CV 3 less (AARHE-TECH-advanced-production).
- Underground Factory: no production interruption (`aarhe_income`); of the raid and rocket damage on a territory's
  complex, the territory keeps its interruption amount (a named income bonus at collection).
- Advanced ASW, Advanced Submarine's stealth: `aarhe_naval` and `aarhe_sub_passage`; Advanced Radar:
  `infrastructure`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from typing import Any

from aare.actions import Purchase
from aare.board.notation import parse_units
from aare.board.units import UnitCatalogue
from aare.combat.rules import CombatRules
from aare.errors import IllegalAction
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.bonuses import IncomeBonus
from aare.rules.effects import Context, Effect
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import optional_units as opt
from aare.rulesets.aarhe import research as r
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.income import interruption_loss
from aare.state.game_state import GameState

R_LONG_RANGE = "AARHE-TECH-long-range-aircraft"
R_HEAVY_BOMBER = "AARHE-TECH-heavy-bomber"
R_HEAVY_ARTILLERY = "AARHE-TECH-heavy-artillery"
R_HEAVY_TANK = "AARHE-TECH-heavy-tank"
R_ADVANCED_SUB = "AARHE-TECH-advanced-submarine"
R_PRODUCTION = "AARHE-TECH-advanced-production"
R_PRODUCTION_TABLE = "AARHE-TECH-advanced-production-table"
R_UNDERGROUND = "AARHE-TECH-underground-factory-interruption"
R_PROTECTED = "AARHE-TECH-underground-factory-bombing"

# the units a technology lets a power build, with its rule
TECH_UNITS: dict[str, tuple[str, str]] = {
    opt.HEAVY_TANK: (r.HEAVY_TANK, R_HEAVY_TANK),
    opt.HEAVY_ARTILLERY: (r.HEAVY_ARTILLERY, R_HEAVY_ARTILLERY),
}

# AARHE-TECH-advanced-production-table: IPCs off each unit's price
PRICE_CUTS: dict[str, int] = {"fighter": 1, "submarine": 1, "transport": 1, "destroyer": 2, opt.CRUISER: 2,
                              "bomber": 2, "battleship": 3, "carrier": 3}


def holds(tech: str) -> Callable[[Context], bool]:
    """An effect's condition: the power named in its context has `tech` in force."""

    def check(context: Context) -> bool:
        return r.has_tech(context.get("state"), str(context.get("power", "")), tech)

    return check


EFFECTS = tuple(Effect("cost", unit, "add", -cut, R_PRODUCTION, "Advanced Production", holds(r.PRODUCTION))
                for unit, cut in PRICE_CUTS.items())


def _units(catalogue: UnitCatalogue, ruleset: Any = None, **_: Any) -> UnitCatalogue:
    """The heavy tank and the heavy artillery are on the unit list of a game with research, to be bought with
    their technology."""
    if ruleset is None or not r.research_on(ruleset):
        return catalogue
    out = list(catalogue)
    for key in TECH_UNITS:
        base, unit = opt.UNITS[key]
        if key in catalogue or base not in catalogue:
            continue
        at = next(i for i, u in enumerate(out) if u.id == base) + 1
        out.insert(at, replace(unit, transport_size=catalogue[base].transport_size))
    return UnitCatalogue(out) if len(out) != len(list(catalogue)) else catalogue


class TechUnitsOnly(PhaseExtension):
    """A heavy tank or heavy artillery is bought only with its technology (unless its game option is on)."""

    name = "purchase"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Purchase):
            return
        units = parse_units(action.units, ctx.ruleset.units)
        for unit, (tech, rule) in TECH_UNITS.items():
            if units.get(unit) and not ctx.ruleset.options.get(unit) and not r.has_tech(ctx.state, ctx.power, tech):
                raise IllegalAction(f"{ctx.power} needs {r.TECHS[tech].title} to build "
                                    f"{ctx.ruleset.units[unit].plural}", rule)


def protected_income(state: GameState, ruleset: Any, power: str) -> int:
    """Underground Factory: the IPCs of `power`'s territories that raid and rocket damage standing on their
    complexes would take but cannot, each territory keeping its production-interruption amount
    (AARHE-TECH-underground-factory-bombing)."""
    if not r.has_tech(state, power, r.UNDERGROUND):
        return 0
    kept = 0
    for space, stacks in state.units.items():
        damage = sum(s.damage * s.count for s in stacks
                     if s.owner == power and ruleset.units[s.unit].has("bombing_target"))
        if damage and state.owners.get(space) == power:
            value = ruleset.board.spaces[space].ipc
            kept += max(0, min(damage, value) - (value - interruption_loss(value)))
    return kept


def _income_bonuses(found: list[IncomeBonus], ruleset: Any, power: str, state: GameState | None = None,
                    **_: Any) -> list[IncomeBonus]:
    """The income an Underground Factory keeps from raids and rockets."""
    kept = protected_income(state, ruleset, power) if state is not None else 0
    return [*found, IncomeBonus(kept, "Underground Factory", R_PROTECTED)] if kept else found


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Heavy Bomber: two dice that each may hit, attacking and defending; a raid's damage is their sum."""
    return replace(rules, heavy_bomber_dice=2, heavy_bomber_best_of=False, heavy_bombers_on_defense=True,
                   heavy_bombers_best_of_on_defense=False, heavy_bomber_sbr_bonus=0, heavy_bomber_sbr_best_of=False)


AARHE_TECHNOLOGIES = register_module(
    RuleModule(
        id="aarhe_technologies",
        title="AARHE technologies: their effects",
        rule_ids=(R_LONG_RANGE, R_HEAVY_BOMBER, R_HEAVY_ARTILLERY, R_HEAVY_TANK, R_ADVANCED_SUB, R_PRODUCTION,
                  R_PRODUCTION_TABLE, R_UNDERGROUND, R_PROTECTED),
        hooks={
            "unit_catalogue": _units,
            "phase_actions": by_phase(TechUnitsOnly()),
            "combat_rules": _combat_rules,
            "income_bonuses": _income_bonuses,
        },
        effects=EFFECTS,
        requires=("aarhe_research",),
    )
)
