"""AARHE Phase 1 first-turn levy (module `aarhep1_levy`): a victory city attacked before its defender's first turn
raises infantry at once, bought from the defender's treasury at the city's price and up to its cap, placed before
the battle (AARHEP1-INF-emergency-levy, -window).

Reading (docs/rulings.md): the defender raises as many as it can afford within the cap (option `first_turn_levy`
`full`), or none (`none`), as conduct combat begins."""

from __future__ import annotations

from typing import Any

from aare.events import BankChanged, Event, UnitsAdded
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe_p1.cities import points
from aare.rulesets.aarhe_p1.production import INFANTRY, infantry_cap, infantry_price
from aare.state.unit_stacks import Stack

R_LEVY = "AARHEP1-INF-emergency-levy"
R_WINDOW = "AARHEP1-INF-emergency-window"

FULL, NONE = "full", "none"


def before_first_turn(ruleset: Any, state: Any, defender: str) -> bool:
    """Whether `defender` has not yet had its first turn: round 1, its turn after the one being played."""
    if state.round != 1:
        return False
    order = ruleset.turn_order(1)
    try:
        later: bool = order.index_of(defender) > order.index_of(state.nation)
    except KeyError:
        return False
    return later


def levy_events(state: Any, ruleset: Any, attacker: str) -> list[Event]:
    """The infantry raised at each victory city `attacker`'s units stand in, held by an enemy before its first
    turn."""
    board = ruleset.board
    side = board.side_of(attacker)
    events: list[Event] = []
    for territory in sorted(state.units):
        defender = state.owners.get(territory)
        if defender is None or board.side_of(defender) == side or not points(territory):
            continue
        if not any(s.owner == attacker for s in state.units[territory]):
            continue
        if not before_first_turn(ruleset, state, defender):
            continue
        price = infantry_price(ruleset, defender, territory)
        n = min(infantry_cap(state, ruleset, defender, territory)[0], state.banks.get(defender, 0) // price)
        if n > 0:
            events += [BankChanged(defender, -n * price, f"rule: {n} infantry raised at {territory}", R_LEVY),
                       UnitsAdded(territory, Stack(defender, INFANTRY, n), R_LEVY)]
    return events


class Levy(PhaseExtension):
    """Conduct combat: as it begins, the first-turn levies are raised."""

    name = "conduct-combat"

    def on_enter(self, ctx: TurnContext) -> None:
        if ctx.ruleset.options.get("first_turn_levy", FULL) == FULL:
            ctx.emit(*levy_events(ctx.state, ctx.ruleset, ctx.power))


AARHEP1_LEVY = register_module(
    RuleModule(
        id="aarhep1_levy",
        title="AARHE Phase 1 first-turn levy: infantry raised at a victory city attacked before its defender's turn",
        rule_ids=(R_LEVY, R_WINDOW),
        hooks={"phase_actions": by_phase(Levy())},
        options=(OptionSpec(key="first_turn_levy", type=str, default=FULL, choices=(FULL, NONE),
                            help="a victory city attacked before its defender's first turn raises as many infantry "
                            "as the defender can afford within the city's cap (full), or none", rule_id=R_LEVY),),
    )
)
