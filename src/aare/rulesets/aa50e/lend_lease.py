"""AA50E UK Lend-Lease (national advantage, part of `aa50e_advantages`; AA50E-NA-uk-lend-lease): in its purchase
phase the United Kingdom either borrows 5 IPCs from the United States' treasury (`lend 5 from United States`, not
repaid) or turns up to 12 IPCs of US units, at their catalogue price, into UK units (`convert 1 fighter of United
States in Egypt`, in any number of conversions), not both in one turn. The turn's use is kept in
``extra["lend_lease"] = {"round", "lent", "converted"}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Convert, Lend
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, apply_events
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conversion import convert_stacks
from aare.state.game_state import GameState

UK, US = "United Kingdom", "United States"
KEY = "lend_lease"
LOAN, CAP = 5, 12
RULE = "AA50E-NA-uk-lend-lease"


def used(state: GameState) -> dict[str, int]:
    """This UK turn's loan and conversions ({"lent", "converted"})."""
    raw = state.extra.get(KEY)
    if not isinstance(raw, dict) or raw.get("round") != state.round:
        return {"lent": 0, "converted": 0}
    return {"lent": int(raw.get("lent", 0)), "converted": int(raw.get("converted", 0))}


def _record(state: GameState, **changes: int) -> ExtraSet:
    return ExtraSet(KEY, {"round": state.round, **used(state), **changes}, RULE)


def convert_events(ctx: TurnContext, action: Convert) -> list[Event]:
    """US units in a space become UK units, within 12 IPCs a turn; none after a loan."""
    state, ruleset = ctx.state, ctx.ruleset
    board, catalogue = ruleset.board, ruleset.units
    if board.resolve_power(action.owner) != US:
        raise IllegalAction(f"the United Kingdom converts units of the United States, not {action.owner}", RULE)
    spent = used(state)
    if spent["lent"]:
        raise IllegalAction("the United Kingdom borrowed from the United States this turn: no conversion too", RULE)
    space, units = board.resolve(action.space), parse_units(action.units, catalogue)
    if not units:
        raise IllegalAction("name the units to convert, e.g. '1 fighter'", RULE)
    cost = sum(catalogue[u].cost * n for u, n in units.items())
    if spent["converted"] + cost > CAP:
        raise IllegalAction(f"{action.units} count {cost} IPCs; conversions come to {CAP} a turn and "
                            f"{spent['converted']} are used", RULE)
    events: list[Event] = []
    for unit, n in units.items():
        done = convert_stacks(state, space, unit, n, US, UK, RULE, catalogue[unit].display_plural)
        events += done
        state = apply_events(state, done)
    return [*events, _record(state, converted=spent["converted"] + cost)]


class LendLease(PhaseExtension):
    """The UK's purchase phase: the loan or the conversions."""

    name = "lend-lease"
    action_types = frozenset({"lend", "convert"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state = ctx.state
        spent = used(state)
        if spent["lent"]:
            return
        if space is None and not spent["converted"] and state.banks.get(US, 0) >= LOAN:
            yield Lend(lender=US, amount=LOAN)
        for where in sorted(state.units) if space is None else [space]:
            for unit in sorted({s.unit for s in state.stacks(where) if s.owner == US}):
                if spent["converted"] + ctx.ruleset.units[unit].cost <= CAP:
                    yield Convert(units=f"1 {ctx.ruleset.units[unit].display}", owner=US, space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, Convert):
            ctx.emit(*convert_events(ctx, action))
            return
        if not isinstance(action, Lend):
            raise IllegalAction(f"{action.type} is not Lend-Lease", RULE)
        state = ctx.state
        if ctx.ruleset.board.resolve_power(action.lender) != US:
            raise IllegalAction(f"only the United States lends the United Kingdom IPCs, not {action.lender}", RULE)
        spent = used(state)
        if spent["lent"] or spent["converted"]:
            raise IllegalAction("the United Kingdom borrows or converts once a turn, not both", RULE)
        if action.amount != LOAN:
            raise IllegalAction(f"the loan is {LOAN} IPCs", RULE)
        if state.banks.get(US, 0) < LOAN:
            raise IllegalAction(f"the United States has {state.banks.get(US, 0)} IPCs", RULE)
        ctx.emit(BankChanged(US, -LOAN, "rule", RULE), BankChanged(UK, LOAN, "rule", RULE), _record(state, lent=LOAN))


LEND_LEASE = LendLease()


def phase_actions(found: list[Any], phase: str, state: GameState | None = None) -> list[Any]:
    """Lend-Lease in the United Kingdom's purchase phase."""
    if phase == "purchase" and state is not None and state.nation == UK:
        return [*found, LEND_LEASE]
    return found
