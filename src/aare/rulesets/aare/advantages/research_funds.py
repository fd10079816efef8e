"""IPCs an NA grants for research only (e.g. Tech Investment's 5 IPCs for Minor Tech): kept apart from the
treasury in ``extra["research_funds"] = {advantage id: IPCs left}``, they carry over from turn to turn and pay,
first, for research dice of the techs they are for (moved into the treasury just before the dice are paid).
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from aare.actions import Research
from aare.economy.tech import research_cost, resolve_tech
from aare.errors import AareError
from aare.events import BankChanged, ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.state.game_state import GameState

KEY = "research_funds"
PHASE = "develop-weapons"


def funds_left(state: GameState | None, adv_id: str) -> int:
    if state is None:
        return 0
    return int((state.extra.get(KEY) or {}).get(adv_id, 0))


def funds_event(state: GameState, adv_id: str, ipcs: int, rule: str) -> ExtraSet:
    table = {k: v for k, v in (state.extra.get(KEY) or {}).items() if k != adv_id}
    if ipcs:
        table[adv_id] = ipcs
    return ExtraSet(KEY, dict(sorted(table.items())), rule)


class _PayFromFunds(PhaseExtension):
    """Before research dice for one of the techs are paid, the NA's funds go into the treasury (as far as the
    dice cost)."""

    name = "research-funds"

    def __init__(self, adv_id: str, nation: str, techs: Collection[str], rule: str) -> None:
        self.adv_id, self.nation, self.techs, self.rule = adv_id, nation, frozenset(techs), rule

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research) or ctx.power != self.nation or not action.tech:
            return
        left = funds_left(ctx.state, self.adv_id)
        try:
            tech = resolve_tech(ctx.ruleset, action.tech)
        except AareError:
            return  # the research itself refuses it
        if not left or tech not in self.techs:
            return
        use = min(left, action.dice * research_cost(ctx.state, ctx.ruleset, ctx.power, tech))
        ctx.emit(BankChanged(self.nation, use, "rule", self.rule),
                 funds_event(ctx.state, self.adv_id, left - use, self.rule))


def research_funds(adv_id: str, nation: str, ipcs: int, techs: Collection[str], rule: str
                   ) -> tuple[dict[str, Callable[..., Any]], Callable[[TurnContext, Advantage], None]]:
    """The hooks and the declaration step of an NA granting `ipcs` IPCs for research of `techs`."""
    payer = _PayFromFunds(adv_id, nation, techs, rule)

    def on_declare(ctx: TurnContext, adv: Advantage) -> None:
        ctx.emit(funds_event(ctx.state, adv_id, funds_left(ctx.state, adv_id) + ipcs, rule))

    def phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
        if phase == PHASE and state is not None and state.nation == nation and funds_left(state, adv_id) \
                and in_force(state, nation, adv_id):
            return [*found, payer]
        return found

    return {"phase_actions": phase_actions}, on_declare
