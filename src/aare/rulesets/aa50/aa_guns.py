"""The optional limit of one AA gun per territory at mobilization (AA50-AA-one-per-territory, option
`one_aa_gun_per_territory`, off by default: several guns may share a territory, and only one fires)."""

from __future__ import annotations

from typing import Any

from aare.actions import Place
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec

RULE = "AA50-AA-one-per-territory"
ONE_AA_GUN = OptionSpec(
    "one_aa_gun_per_territory", bool, False,
    "A power may not mobilize an AA gun in a territory that already holds one of its AA guns", RULE,
)


class OneAaGunPerTerritory(PhaseExtension):
    """Mobilize: refuse an AA gun placed where the power already has one (or two placed at once)."""

    name = "one-aa-gun-per-territory"

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            return
        units = ctx.ruleset.units
        placed = sum(n for u, n in parse_units(action.units, units).items() if units[u].has("aa"))
        if not placed:
            return
        space = ctx.ruleset.board.resolve(action.space)
        there = sum(s.count for s in ctx.state.stacks(space) if s.owner == ctx.power and units[s.unit].has("aa"))
        if there + placed > 1:
            raise IllegalAction(f"{ctx.power} may have one AA gun in {space} (option {ONE_AA_GUN.key})", RULE)


ONE_PER_TERRITORY = OneAaGunPerTerritory()


def phase_actions(found: list[Any], phase: str, ruleset: Any = None, **_: Any) -> list[Any]:
    """The extension in mobilize when the option is on."""
    if phase != "mobilize" or ruleset is None or not ruleset.options.get(ONE_AA_GUN.key, False):
        return found
    return [*found, ONE_PER_TERRITORY]
