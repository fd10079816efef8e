"""Lend-Lease (seed NATIONAL ADVANTAGES / RUSSIA 4, AARE-NA-RUS-ll-*).

On declaration Russia receives 5 IPCs once. In Russia's purchase phase the UK and the US may lend it up to 2
IPCs in all from their treasuries (`lend`), spendable at once; in Russia's mobilize phase Russia may turn UK
and US land and air units standing in Red territories into Russian units (`convert`), counted at their base
(catalogue) price. Loans and conversions together come to 12 IPCs a Russian turn at most. The turn's use is
kept in ``extra["lend_lease"] = {receiver: {"round", "lent", "converted"}}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Convert, Lend
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, UnitsAdded, UnitsRemoved
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.base import Advantage
from aare.rulesets.aare.advantages.russia_common import RUSSIA, UK, US, holds, red
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

ID = "russian_lend_lease"
KEY = "lend_lease"
GRANT = 5
LOAN_CAP = 2
TURN_CAP = 12
LENDERS = (UK, US)
R_BONUS = "AARE-NA-RUS-ll-bonus-5"
R_CONVERT = "AARE-NA-RUS-ll-convert-units"
R_LOSES = "AARE-NA-RUS-ll-convert-loses-bonuses"
R_BASE = "AARE-NA-RUS-ll-convert-base-cost"
R_LOAN = "AARE-NA-RUS-ll-cash-loan"
R_CAP = "AARE-NA-RUS-ll-total-cap-12"
RULE_IDS = (R_BONUS, R_CONVERT, R_LOSES, R_BASE, R_LOAN, R_CAP)


def on_declare(ctx: TurnContext, adv: Advantage) -> None:
    """The one-time grant of 5 IPCs, merged into the treasury (AARE-NA-RUS-ll-bonus-5)."""
    ctx.emit(BankChanged(adv.nation, GRANT, "rule", R_BONUS))


def used(state: GameState, receiver: str = RUSSIA) -> dict[str, int]:
    """This turn's loans and conversions of `receiver` ({"lent", "converted"}; zero in a new turn)."""
    raw = (state.extra.get(KEY) or {}).get(receiver)
    if not isinstance(raw, dict) or raw.get("round") != state.round:
        return {"lent": 0, "converted": 0}
    return {"lent": int(raw.get("lent", 0)), "converted": int(raw.get("converted", 0))}


def _record(state: GameState, rule: str, receiver: str = RUSSIA, **changes: int) -> ExtraSet:
    table = dict(state.extra.get(KEY) or {})
    table[receiver] = {"round": state.round, **used(state, receiver), **changes}
    return ExtraSet(KEY, dict(sorted(table.items())), rule)


def base_cost(ruleset: Ruleset, units: dict[str, int]) -> int:
    """The units' base price: the catalogue's, whatever their owner paid (AARE-NA-RUS-ll-convert-base-cost)."""
    return sum(ruleset.units[u].cost * n for u, n in units.items())


def _room(state: GameState) -> int:
    spent = used(state)
    return TURN_CAP - spent["lent"] - spent["converted"]


class LoanExtension(PhaseExtension):
    """Russia's purchase phase: `lend` from the UK or the US (AARE-NA-RUS-ll-cash-loan)."""

    name = "lend-lease-loan"
    action_types = frozenset({"lend"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        lent = used(ctx.state)["lent"]
        for lender in LENDERS:
            for amount in range(1, min(LOAN_CAP - lent, ctx.state.banks.get(lender, 0)) + 1):
                yield Lend(lender=lender, amount=amount)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        lender = ctx.ruleset.board.resolve_power(action.lender)
        if lender not in LENDERS:
            raise IllegalAction(f"only the United Kingdom and the United States lend Russia IPCs, not {lender}", R_LOAN)
        spent = used(state)
        if spent["lent"] + action.amount > LOAN_CAP:
            raise IllegalAction(f"the UK and the US lend Russia {LOAN_CAP} IPCs a turn in all; {spent['lent']} lent",
                                R_LOAN)
        if action.amount > _room(state):
            raise IllegalAction(f"loans and conversions come to {TURN_CAP} IPCs a turn; {_room(state)} left", R_CAP)
        if state.banks.get(lender, 0) < action.amount:
            raise IllegalAction(f"{lender} has {state.banks.get(lender, 0)} IPCs", R_LOAN)
        ctx.emit(BankChanged(lender, -action.amount, "rule", R_LOAN),
                 BankChanged(RUSSIA, action.amount, "rule", R_LOAN),
                 _record(state, R_LOAN, lent=spent["lent"] + action.amount))


def convert_events(state: GameState, ruleset: Ruleset, action: Convert) -> list[Event]:
    """The events of turning an ally's units into Russian ones, or IllegalAction naming the rule."""
    board = ruleset.board
    space, owner = board.resolve(action.space), board.resolve_power(action.owner)
    units = parse_units(action.units, ruleset.units)
    if owner not in LENDERS:
        raise IllegalAction(f"Russia converts units of the United Kingdom and the United States, not {owner}",
                            R_CONVERT)
    if space not in red(ruleset):
        raise IllegalAction(f"{space} is not a Red territory: units are converted in Red territories", R_CONVERT)
    if not units:
        raise IllegalAction("name the units to convert, e.g. '1 fighter'", R_CONVERT)
    wrong = [u for u in units if ruleset.units[u].domain not in ("land", "air")]
    if wrong:
        raise IllegalAction(f"only land and air units are converted, not {', '.join(wrong)}", R_CONVERT)
    for unit, n in units.items():
        if sum(s.count for s in state.stacks(space) if s.owner == owner and s.unit == unit) < n:
            raise IllegalAction(f"{owner} has fewer than {n} {ruleset.units[unit].display_plural} in {space}",
                                R_CONVERT)
    cost = base_cost(ruleset, units)
    spent = used(state)
    if cost > _room(state):
        reason = (f"{action.units} count {cost} IPCs at base cost; loans and conversions come to {TURN_CAP} a turn "
                  f"and {spent['lent'] + spent['converted']} are used")
        raise IllegalAction(reason, R_CAP)
    events: list[Event] = []
    for unit, n in units.items():
        stacks = [s for s in state.stacks(space) if s.owner == owner and s.unit == unit]
        left = n
        for stack in stacks:
            take = min(left, stack.count)
            if take:
                events.append(UnitsRemoved(space, stack.with_count(take), R_CONVERT))
                left -= take
        # a fresh Russian unit: the former owner's techs and advantages no longer apply (ll-convert-loses-bonuses)
        events.append(UnitsAdded(space, Stack(RUSSIA, unit, n), R_LOSES))
    events.append(_record(state, R_BASE, converted=spent["converted"] + cost))
    return events


class ConvertExtension(PhaseExtension):
    """Russia's mobilize phase: `convert` UK and US units in Red territories (AARE-NA-RUS-ll-convert-units)."""

    name = "lend-lease-convert"
    action_types = frozenset({"convert"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        ruleset = ctx.ruleset
        for where in sorted(red(ruleset)):
            if space not in (None, where):
                continue
            found = {(s.owner, s.unit) for s in ctx.state.stacks(where)
                     if s.owner in LENDERS and ruleset.units[s.unit].domain in ("land", "air")}
            for owner, unit in sorted(found):
                yield Convert(units=f"1 {ruleset.units[unit].display}", owner=owner, space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        ctx.emit(*convert_events(ctx.state, ctx.ruleset, action))


LOAN, CONVERT = LoanExtension(), ConvertExtension()


def phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
    """Loans in Russia's purchase phase, conversions in its mobilize phase, while Lend-Lease is in force."""
    if state is None or state.nation != RUSSIA or not holds(state, ID):
        return found
    if phase == "purchase":
        return [*found, LOAN]
    if phase == "mobilize":
        return [*found, CONVERT]
    return found
