"""The AA50E base module `aa50e`: the variant over the Anniversary rules (seed 1: variant > FAQ > rulebook), the new
prices (seed 6) and strategic victory by 14 victory cities or 8 national objectives (seed 2)."""

from __future__ import annotations

from typing import Any

from aare.board.units import UnitCatalogue
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.victory import city_victory, victory_hooks
from aare.rulesets.aa50.objectives import objectives_met

CITY_LEVEL = 14  # AA50E-VICTORY-cities-14
OBJECTIVE_LEVEL = 8  # AA50E-VICTORY-objectives-8
R_CITIES = "AA50E-VICTORY-cities-14"
R_OBJECTIVES = "AA50E-VICTORY-objectives-8"
DESTROYER_COST = OptionSpec(
    "destroyer_cost", int, 8,
    "IPCs a destroyer costs: 8 as in the Anniversary table (the seed's note keeps its prices), or 10 as in AARe",
    "AA50E-UNIT-external-aare-stats", choices=(8, 10),
)

# unit -> (changed statistics, rule id)
UNIT_CHANGES: dict[str, tuple[dict[str, int], str]] = {
    "factory": ({"cost": 12}, "AA50E-UNIT-ic-cost"),
    "bomber": ({"cost": 14}, "AA50E-UNIT-bomber-cost"),
}


def _units(catalogue: UnitCatalogue, ruleset: Any = None, **_: Any) -> UnitCatalogue:
    """Industrial complex 12, bomber 14 (AA50E-UNIT-ic-cost, -bomber-cost); the carrier, battleship and
    destroyer keep their Anniversary statistics (AA50E-UNIT-external-aare-stats), the destroyer's price being the
    option `destroyer_cost`."""
    changes = {unit: {**stats, "rule": rule} for unit, (stats, rule) in UNIT_CHANGES.items()}
    destroyer = int(ruleset.options.get(DESTROYER_COST.key, 8)) if ruleset is not None else 8
    if destroyer != catalogue["destroyer"].cost:
        changes["destroyer"] = {"cost": destroyer, "rule": DESTROYER_COST.rule_id}
    return catalogue.with_overrides(changes)


def _thresholds(needed: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Every side needs 14 of the 18 cities; there is no level to choose (AA50E-VICTORY-cities-14)."""
    return {**needed, **{p.side: CITY_LEVEL for p in ruleset.board.powers}}


def objectives_by_side(ruleset: Any, state: Any) -> dict[str, int]:
    """The national objectives each side's powers meet now, summed over the side (none for a power without its
    capital, none with national objectives off)."""
    counts: dict[str, int] = {}
    for power in ruleset.board.powers:
        counts[power.side] = counts.get(power.side, 0) + len(objectives_met(state, ruleset, power.name))
    return counts


def victory_by(ruleset: Any, state: Any) -> tuple[str, str, str] | None:
    """(side, reason, rule) of a win now: 14 cities first, else the one side meeting 8 objectives (both: none)."""
    side = city_victory(ruleset, state)
    if side is not None:
        return side, "victory cities", R_CITIES
    sides = [s for s, n in objectives_by_side(ruleset, state).items() if n >= OBJECTIVE_LEVEL]
    return (sides[0], "national objectives", R_OBJECTIVES) if len(sides) == 1 else None


AA50E = register_module(
    RuleModule(
        id="aa50e",
        title="Anniversary Edition - Enhanced: precedence, prices and strategic victory",
        rule_ids=(
            "AA50E-BASE-faq-applies",
            "AA50E-BASE-variant-over-faq",
            "AA50E-BASE-variant-over-rulebook",
            "AA50E-VICTORY-two-paths",
            "AA50E-VICTORY-cities-14",
            "AA50E-VICTORY-objectives-8",
            "AA50E-UNIT-ic-cost",
            "AA50E-UNIT-bomber-cost",
            "AA50E-UNIT-external-aare-stats",
            "AA50E-UNIT-no-combined-arms",
        ),
        hooks={
            "unit_catalogue": _units,
            "victory_thresholds": _thresholds,
            **victory_hooks(victory_by),
        },
        requires=("aa50",),
        replaces_options=("victory_cities",),
        options=(DESTROYER_COST,),
    )
)
