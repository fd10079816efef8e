"""AARHE's optional units (module `aarhe_optional_units`), each a game option: the cruiser (CA), the dive bomber
(DIV), the heavy tank (H.ARM) and the heavy artillery (H.ART), with the seed's values (AARHE-OPTUNIT-table; the
naval fighter is module `aarhe_naval_fighter`). A heavy tank takes two hits and is set upright at the start of
any team's turn in a friendly territory with an industrial complex or a victory city (AARHE-OPTUNIT-harm-two-hits,
AARHE-OPTUNIT-harm-repair).

A cruiser is a DD/CA (screens, ASW, escort hits; anti-air 4: `naval_values`); a dive bomber has dogfight values
1/2 (`combat_values.DOGFIGHT`) and is neither a fighter nor a bomber for other rules; a heavy tank is a tank; a
heavy artillery supports infantry as artillery does (its fire into a neighbouring battle: `heavy_artillery.py`).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.board.units import UnitCatalogue, UnitType
from aare.events import UnitsChanged
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.combat_values import TANK
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.unit_values import bases

R_TABLE = "AARHE-OPTUNIT-table"
R_TWO_HITS = "AARHE-OPTUNIT-harm-two-hits"
R_REPAIR = "AARHE-OPTUNIT-harm-repair"

CRUISER, DIVE_BOMBER, HEAVY_TANK, HEAVY_ARTILLERY = "cruiser", "dive_bomber", "heavy_tank", "heavy_artillery"


UNITS: dict[str, tuple[str, UnitType]] = {
    CRUISER: ("destroyer", UnitType(CRUISER, "sea", cost=15, move=3, attack=3, defense=3, name="cruiser",
                                    plural="cruisers", aliases=("ca", "cas", "cruisers"),
                                    tags=frozenset({CRUISER}), rule=R_TABLE)),
    DIVE_BOMBER: ("bomber", UnitType(DIVE_BOMBER, "air", cost=8, move=4, attack=3, defense=2, name="dive bomber",
                                     plural="dive bombers", aliases=("div", "divs", "dive bombers"),
                                     tags=frozenset({DIVE_BOMBER}), rule=R_TABLE)),
    HEAVY_TANK: ("armour", UnitType(HEAVY_TANK, "land", cost=8, move=2, attack=4, defense=3, hits=2,
                                    name="heavy tank", plural="heavy tanks",
                                    aliases=("h.arm", "harm", "h arm", "heavy tanks", "heavy armour"),
                                    tags=frozenset({HEAVY_TANK, TANK, "blitz", "two_hit"}), rule=R_TABLE)),
    HEAVY_ARTILLERY: ("artillery", UnitType(HEAVY_ARTILLERY, "land", cost=5, move=1, attack=3, defense=2,
                                            name="heavy artillery", plural="heavy artillery",
                                            aliases=("h.art", "hart", "h art"),
                                            tags=frozenset({HEAVY_ARTILLERY, "artillery"}), rule=R_TABLE)),
}
OPTIONS = {key: OptionSpec(key, bool, False, f"the optional {UNITS[key][1].display} ({help_})", R_TABLE)
           for key, help_ in ((CRUISER, "CA: 15 IPCs, move 3, 3/3, anti-air 4"),
                              (DIVE_BOMBER, "DIV: 8 IPCs, move 4, 3/2, dogfight 1/2"),
                              (HEAVY_TANK, "H.ARM: 8 IPCs, move 2, 4/3, two hits"),
                              (HEAVY_ARTILLERY, "H.ART: 5 IPCs, move 1, 3/2"))}


def _units(catalogue: UnitCatalogue, ruleset: Any = None, **_: Any) -> UnitCatalogue:
    """AARHE-OPTUNIT-table: each unit whose option is on joins the catalogue after the unit it resembles."""
    if ruleset is None:
        return catalogue
    out = list(catalogue)
    for key, (base, unit) in UNITS.items():
        if not ruleset.options.get(key) or key in catalogue or base not in catalogue:
            continue
        at = next(i for i, u in enumerate(out) if u.id == base) + 1
        out.insert(at, replace(unit, transport_size=catalogue[base].transport_size))
    return UnitCatalogue(out) if len(out) != len(list(catalogue)) else catalogue


class HeavyTankRepairs(PhaseExtension):
    """AARHE-OPTUNIT-harm-repair: as a turn begins (its purchase phase), every damaged heavy tank, whoever's, in a
    territory its side holds with an industrial complex or a victory city is set upright."""

    name = "purchase"

    def on_enter(self, ctx: TurnContext) -> None:
        state, ruleset = ctx.state, ctx.ruleset
        if HEAVY_TANK not in ruleset.units:
            return
        for space in sorted(state.units):
            for stack in state.stacks(space):
                if stack.unit == HEAVY_TANK and stack.damage and space in bases(state, ruleset, stack.owner):
                    ctx.emit(UnitsChanged(space, stack, replace(stack, damage=0)))


AARHE_OPTIONAL_UNITS = register_module(
    RuleModule(
        id="aarhe_optional_units",
        title="AARHE optional units: cruiser, dive bomber, heavy tank, heavy artillery",
        rule_ids=(R_TABLE, R_TWO_HITS, R_REPAIR),
        hooks={"unit_catalogue": _units, "phase_actions": by_phase(HeavyTankRepairs())},
        options=tuple(OPTIONS.values()),
    )
)
