"""AA50E optional units (module `aa50e_units`, seed "Optional Rules 1"), with the game option `optional_units`:
the pocket battleship (attack 4, defence 4, move 2, 17 IPCs, 14 with Improved Shipyards, shore bombardment) and the
escort carrier (attack 0, defence 1, move 2, 8 IPCs, room for 1 fighter).

The variant's readings: the pocket battleship sinks on one hit and has no AA gun (it is no "battleship" for the
battleship AA rule); the escort carrier costs 8 with or without Improved Shipyards. Both are bought, moved and
fought as any ship of their kind; with the option off (the default) neither exists.
"""

from __future__ import annotations

from typing import Any

from aare.board.units import UnitCatalogue, UnitType
from aare.rules.effects import Context, Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module

R_TABLE = "AA50E-OPTUNIT-table"
R_POCKET = "AA50E-OPTUNIT-pocket-battleship"
R_ESCORT = "AA50E-OPTUNIT-escort-carrier"
SHIPYARDS = "improved_shipyards"
POCKET_SHIPYARD_COST = 14

OPTION = OptionSpec("optional_units", bool, False,
                    "the optional units: the pocket battleship and the escort carrier", R_TABLE)

UNITS = (
    UnitType("pocket_battleship", "sea", cost=17, move=2, attack=4, defense=4, name="pocket battleship",
             plural="pocket battleships", aliases=("pbb", "pocket bb"), tags=frozenset({"bombard"}), rule=R_POCKET),
    UnitType("escort_carrier", "sea", cost=8, move=2, attack=0, defense=1, name="escort carrier",
             plural="escort carriers", aliases=("cve", "escort cv"), carrier_capacity=1, tags=frozenset({"carrier"}),
             rule=R_ESCORT),
)


def _units(catalogue: UnitCatalogue, ruleset: Any = None, **_: Any) -> UnitCatalogue:
    """The two units join the catalogue, after the Anniversary ships, when the option is on."""
    if ruleset is None or not ruleset.options.get(OPTION.key, False):
        return catalogue
    return UnitCatalogue([*catalogue, *(u for u in UNITS if u.id not in catalogue)])


def _shipyards(context: Context) -> bool:
    state, power = context.get("state"), context.get("power")
    return state is not None and SHIPYARDS in state.techs.get(str(power), ())


MODULE = register_module(
    RuleModule(
        id="aa50e_units",
        title="Anniversary Edition - Enhanced: optional units",
        rule_ids=(R_TABLE, R_POCKET, R_ESCORT),
        hooks={"unit_catalogue": _units},
        effects=(Effect("cost", "pocket_battleship", "set", POCKET_SHIPYARD_COST, R_POCKET,
                        "Improved Shipyards", _shipyards),),
        requires=("aa50e",),
        options=(OPTION,),
    )
)
