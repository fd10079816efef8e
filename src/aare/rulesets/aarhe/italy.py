"""AARHE's optional Italy player (module `aarhe_italy`, option `italy`): the game is played on the Italy map
variant (`data/board_changes/italy.toml`: Italy split from Southern Europe, Malta, Germany worth 20, the German
units of Southern Europe, Balkans and Libya Italian), Italy a sixth power with its own turn in the Axis team
turn (AARHE-ITALY-*).

Italy's territories (those it owns on the map: Italy, Southern Europe, Balkans, Libya) build only Italian units:
no other power buys infantry or a complex there or mobilises there, nor places ships in a sea zone that only a
complex on Italian soil serves (AARHE-ITALY-production)."""

from __future__ import annotations

from typing import Any

from aare.actions import Place, Purchase
from aare.economy.production import producers, sea_producers
from aare.errors import IllegalAction
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase

OPTION = "italy"
ITALY = "Italy"  # the power (and the territory of its capital)
CHANGES = "italy"  # data/board_changes/italy.toml
R_MAP = "AARHE-ITALY-map"
R_VALUES = "AARHE-ITALY-map-values-table"
R_UNITS = "AARHE-ITALY-units-transfer"
R_PRODUCTION = "AARHE-ITALY-production"
R_PARITY = "AARHE-ITALY-na-parity"
R_GERMANY = "AARHE-ITALY-germany-value"


def plays(ruleset: Any) -> bool:
    """Whether Italy is a player of this game."""
    return bool(ruleset.options.get(OPTION, False))


def italian_soil(ruleset: Any, territory: str) -> bool:
    """Whether `territory` is one of Italy's own (its owner on the map)."""
    return bool(ruleset.board.spaces[territory].owner == ITALY)


def _board_changes(changes: tuple[str, ...], **_: Any) -> tuple[str, ...]:
    """The Italy map variant over the ruleset's board (AARHE-ITALY-map)."""
    return (*changes, CHANGES)


class ItalianProduction(PhaseExtension):
    """Purchase and mobilize: only Italian units are bought for and placed in Italy's territories."""

    def __init__(self, name: str) -> None:
        self.name = name

    def before(self, ctx: TurnContext, action: Any) -> None:
        power, ruleset = ctx.power, ctx.ruleset
        if power == ITALY:
            return
        if isinstance(action, Purchase) and action.at:
            territory = ruleset.board.resolve(action.at)
            if italian_soil(ruleset, territory):
                raise IllegalAction(f"{territory} is Italy's: only Italian units are bought there", R_PRODUCTION)
        if isinstance(action, Place):
            space = ruleset.board.resolve(action.space)
            if ruleset.board.spaces[space].is_land:
                if italian_soil(ruleset, space):
                    raise IllegalAction(f"{space} is Italy's: only Italian units are mobilised there", R_PRODUCTION)
                return
            serving = sea_producers(ruleset, producers(ctx.state, ruleset, power), space)
            if serving and all(italian_soil(ruleset, t) for t in serving):
                raise IllegalAction(f"only complexes on Italian soil ({', '.join(serving)}) serve {space}: only "
                                    "Italian units are mobilised there", R_PRODUCTION)


PRODUCTION = tuple(ItalianProduction(name) for name in ("purchase", "mobilize"))


AARHE_ITALY = register_module(
    RuleModule(
        id="aarhe_italy",
        title="AARHE Italy player: the Italy map, Italy a third Axis power",
        rule_ids=(R_MAP, R_VALUES, R_UNITS, R_PRODUCTION, R_PARITY, R_GERMANY),
        hooks={"board_changes": _board_changes, "phase_actions": by_phase(*PRODUCTION)},
        option=OPTION,
        requires=("aarhe_turn",),
    )
)
