"""AARHE lend-lease (module `aarhe_lend_lease`): in non-combat move the United States loads up to 12 IPCs a turn
from its treasury onto its transports off Eastern or Western United States, at most 6 a transport and no units
with them; a transport in SZ 4 or SZ 34 puts them ashore in a territory the Soviet Union or the UK controls; they
are income of that territory at the next collection of whoever then controls it. A sunk transport's IPCs are lost.
Everything is public (AARHE-LENDLEASE-*). Option `advanced_lend_lease`: the 12 come each turn from an extra fund,
not from the treasury.

The IPCs aboard are the transport's stack flag `lend_lease=N`; `extra["aarhe_lend_lease"]` holds what was loaded
this turn (`round`, `loaded`) and what waits ashore (`ashore`: territory -> IPCs)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.actions import LendLease
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, UnitsChanged
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.bonuses import IncomeBonus
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.turn import contested
from aare.state.unit_stacks import Stack

R_LOAD = "AARHE-LENDLEASE-load"
R_PUBLIC = "AARHE-LENDLEASE-public"
R_CAPACITY = "AARHE-LENDLEASE-ap-capacity"
R_ROUTE = "AARHE-LENDLEASE-route"
R_SUNK = "AARHE-LENDLEASE-interception"
R_INCOME = "AARHE-LENDLEASE-income"
R_ADVANCED = "AARHE-LENDLEASE-advanced"

LENDER = "United States"
PORTS = ("Eastern United States", "Western United States")
DROPS = ("SZ 4", "SZ 34")
RECEIVERS = ("Russia", "United Kingdom")
PER_TURN, PER_TRANSPORT = 12, 6
FLAG = "lend_lease"
RECORD = "aarhe_lend_lease"
PHASE = "non-combat-move"


def aboard(stack: Stack) -> int:
    """The lend-lease IPCs one transport of `stack` carries."""
    found = flags.value(stack, FLAG)
    return int(found) if found else 0


def record(state: Any) -> dict[str, Any]:
    found = state.extra.get(RECORD) or {}
    loaded = int(found.get("loaded", 0)) if found.get("round") == state.round else 0
    return {"round": state.round, "loaded": loaded, "ashore": dict(found.get("ashore", {}))}


def load_zones(ruleset: Any) -> list[str]:
    spaces = ruleset.board.spaces
    return sorted({n for port in PORTS for n in spaces[port].neighbors if spaces[n].is_sea})


def left_this_turn(state: Any) -> int:
    loaded: int = record(state)["loaded"]
    return PER_TURN - loaded


def _transports(state: Any, ruleset: Any, sea: str, power: str) -> list[Stack]:
    return [s for s in state.stacks(sea) if s.owner == power and ruleset.units[s.unit].has("transport")]


def load_events(state: Any, ruleset: Any, power: str, sea: str, amount: int) -> list[Event]:
    """`power` loads `amount` lend-lease IPCs onto one transport in `sea` (AARHE-LENDLEASE-load, -ap-capacity)."""
    if power != LENDER:
        raise IllegalAction(f"only the {LENDER} sends lend-lease", R_LOAD)
    if sea not in load_zones(ruleset):
        raise IllegalAction(f"lend-lease is loaded off {' or '.join(PORTS)}, not in {sea}", R_LOAD)
    if amount < 1 or amount > left_this_turn(state):
        raise IllegalAction(f"load 1 to {left_this_turn(state)} IPCs of lend-lease this turn, not {amount}", R_LOAD)
    advanced = bool(ruleset.options.get("advanced_lend_lease", False))
    if not advanced and amount > state.banks.get(power, 0):
        raise IllegalAction(f"{power} has {state.banks.get(power, 0)} IPCs, not {amount}", R_LOAD)
    room = [s for s in _transports(state, ruleset, sea, power)
            if not flags.cargo(s) and aboard(s) + amount <= PER_TRANSPORT]
    if not room:
        raise IllegalAction(f"no transport of {power}'s in {sea} without units has room for {amount} more IPCs "
                            f"(at most {PER_TRANSPORT} each)", R_CAPACITY)
    boat = max(room, key=aboard).with_count(1)
    loaded = flags.with_flags(boat, [f"{FLAG}={aboard(boat) + amount}"], [FLAG])
    rec = record(state)
    events: list[Event] = [UnitsChanged(sea, boat, loaded)]
    if not advanced:
        events.append(BankChanged(power, -amount, "rule: lend-lease loaded", R_LOAD))
    events.append(ExtraSet(RECORD, {**rec, "loaded": rec["loaded"] + amount}, R_ADVANCED if advanced else R_LOAD))
    return events


def unload_events(state: Any, ruleset: Any, power: str, sea: str, territory: str) -> list[Event]:
    """The lend-lease aboard one of `power`'s transports in `sea` goes ashore in `territory`
    (AARHE-LENDLEASE-route)."""
    if sea not in DROPS:
        raise IllegalAction(f"lend-lease is put ashore from {' or '.join(DROPS)}, not {sea}", R_ROUTE)
    if territory not in ruleset.board.spaces[sea].neighbors or state.owners.get(territory) not in RECEIVERS:
        raise IllegalAction(f"lend-lease goes ashore next to {sea} in a territory of the Soviet Union or the UK",
                            R_ROUTE)
    boats = [s for s in _transports(state, ruleset, sea, power) if aboard(s)]
    if not boats:
        raise IllegalAction(f"no transport of {power}'s in {sea} carries lend-lease", R_ROUTE)
    boat = boats[0].with_count(1)
    empty = replace(boat, flags=tuple(f for f in boat.flags if not f.startswith(FLAG + "=")))
    rec = record(state)
    ashore = {**rec["ashore"], territory: int(rec["ashore"].get(territory, 0)) + aboard(boat)}
    return [UnitsChanged(sea, boat, empty), ExtraSet(RECORD, {**rec, "ashore": dict(sorted(ashore.items()))},
                                                      R_ROUTE)]


class Shipping(PhaseExtension):
    """Non-combat move: load and put ashore lend-lease; no units board a transport carrying it."""

    name = PHASE
    action_types = frozenset({"lend_lease"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if power != LENDER:
            return []
        out: list[Any] = []
        amount = min(PER_TRANSPORT, left_this_turn(state))
        for sea in load_zones(ruleset):
            if amount and space in (None, sea):
                out.append(LendLease(sea_zone=sea, amount=amount))
        for sea in DROPS:
            if space in (None, sea) and any(aboard(s) for s in _transports(state, ruleset, sea, power)):
                out += [LendLease(sea_zone=sea, territory=t) for t in ruleset.board.spaces[sea].neighbors
                        if state.owners.get(t) in RECEIVERS]
        return out

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        sea = ctx.ruleset.board.resolve(action.sea_zone)
        if action.territory:
            ctx.emit(*unload_events(ctx.state, ctx.ruleset, ctx.power, sea, ctx.ruleset.board.resolve(
                action.territory)))
        else:
            ctx.emit(*load_events(ctx.state, ctx.ruleset, ctx.power, sea, action.amount))

    def after(self, ctx: TurnContext, action: Any) -> None:
        if action.type == "load":
            no_units_aboard(ctx)


class NoUnitsAboard(PhaseExtension):
    """Combat move: no units board a transport carrying lend-lease."""

    name = "combat-move"

    def after(self, ctx: TurnContext, action: Any) -> None:
        if action.type == "load":
            no_units_aboard(ctx)


def no_units_aboard(ctx: TurnContext) -> None:
    """Refuse a load that put units aboard a transport carrying lend-lease (AARHE-LENDLEASE-ap-capacity)."""
    for space, stacks in ctx.state.units.items():
        if any(aboard(s) and flags.cargo(s) for s in stacks):
            raise IllegalAction(f"a transport carrying lend-lease in {space} takes no units", R_CAPACITY)


class Delivery(PhaseExtension):
    """Collect income: the lend-lease ashore in the collector's territories was paid with its income (or lost with
    a contested territory's); it is cleared."""

    name = "collect-income"

    def on_enter(self, ctx: TurnContext) -> None:
        rec = record(ctx.state)
        mine = {t for t in rec["ashore"] if ctx.state.owners.get(t) == ctx.power}
        if mine:
            ashore = {t: n for t, n in rec["ashore"].items() if t not in mine}
            ctx.emit(ExtraSet(RECORD, {**rec, "ashore": ashore}, R_INCOME))


def delivered(state: Any, ruleset: Any, power: str) -> int:
    """The lend-lease ashore in territories `power` controls that yield income now (AARHE-LENDLEASE-income)."""
    lost = contested(state, ruleset, power)
    return sum(n for t, n in record(state)["ashore"].items() if state.owners.get(t) == power and t not in lost)


def _income_bonuses(found: list[IncomeBonus], state: Any, ruleset: Any, power: str, **_: Any) -> list[IncomeBonus]:
    amount = delivered(state, ruleset, power)
    return [*found, IncomeBonus(amount, "lend-lease", R_INCOME)] if amount else found


SHIPPING, NO_UNITS, DELIVERY = Shipping(), NoUnitsAboard(), Delivery()



AARHE_LEND_LEASE = register_module(
    RuleModule(
        id="aarhe_lend_lease",
        title="AARHE lend-lease by sea",
        rule_ids=(R_LOAD, R_PUBLIC, R_CAPACITY, R_ROUTE, R_SUNK, R_INCOME, R_ADVANCED),
        hooks={"phase_actions": by_phase(SHIPPING, NO_UNITS, DELIVERY), "income_bonuses": _income_bonuses},
        options=(
            OptionSpec(
                key="advanced_lend_lease",
                type=bool,
                default=False,
                help="Advanced Lend-lease: the United States' lend-lease comes from 12 extra IPCs a turn, not from its "
                "treasury",
                rule_id=R_ADVANCED,
            ),
        ),
    )
)
