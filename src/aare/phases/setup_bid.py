"""Setup-bid: before round 1, each power of a side with a bid buys and places units from its side's bid
fund, free of production limits (LHTR-SETUP-bid-placement; the reading is in `aare.economy.bids`)."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Place
from aare.board.notation import format_units, parse_units
from aare.economy.bids import BID, RULE, bidders, funds, last_of_side
from aare.economy.production import carrier_room, has_complex
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, PhaseEntered, UnitsAdded
from aare.phases.base import PhaseHandler, TurnContext, register_phase
from aare.phases.purchase import order_cost
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

PHASE = "setup-bid"


def _own_unit(state: GameState, power: str, space: str) -> bool:
    return any(s.owner == power for s in state.stacks(space))


def _friendly_sea(state: GameState, ruleset: Ruleset, power: str, space: str) -> bool:
    side = ruleset.board.side_of(power)
    stacks = state.stacks(space)
    return _own_unit(state, power, space) and all(ruleset.board.side_of(s.owner) == side for s in stacks)


def bid_spaces(state: GameState, ruleset: Ruleset, power: str, unit: str) -> list[str]:
    """Where a bid `unit` may go (before cost)."""
    kind = ruleset.units[unit]
    own_unit = bool(ruleset.options.get("bid_needs_own_unit", False))
    land = sorted(
        t for t, owner in state.owners.items() if owner == power and (not own_unit or _own_unit(state, power, t))
    )
    seas = sorted(s.name for s in ruleset.board.seas() if _friendly_sea(state, ruleset, power, s.name))
    if kind.domain == "building":
        return [t for t in land if not has_complex(state, ruleset, t)]
    if kind.domain == "land":
        return land
    if kind.domain == "sea":
        return seas
    return land + ([s for s in seas if carrier_room(state, ruleset, s, power) > 0] if kind.carrier_size else [])


def bid_events(state: GameState, ruleset: Ruleset, power: str, text: str, space: str) -> list[Event]:
    """Buy `text` from the side's bid fund and place it in `space`; IllegalAction if not allowed."""
    space = ruleset.board.resolve(space)
    units = parse_units(text, ruleset.units)
    if not units:
        raise IllegalAction("place at least one unit", RULE)
    side = ruleset.board.side_of(power)
    fund = funds(state)
    cost = order_cost(state, ruleset, power, units)
    if cost > fund.get(side, 0):
        raise IllegalAction(
            f"{format_units(units, ruleset.units)} cost {cost} IPCs; the {side} bid has {fund.get(side, 0)} left", RULE
        )
    ships = [Stack(power, u, n) for u, n in units.items() if ruleset.units[u].domain == "sea"]
    air = 0
    for unit, n in units.items():
        kind = ruleset.units[unit]
        if kind.domain == "sea" and ruleset.board.spaces[space].is_sea:
            if not _friendly_sea(state, ruleset, power, space):
                raise IllegalAction(f"bid ships go to a sea zone with a {power} unit and no enemy", RULE)
            continue
        if kind.domain == "air" and kind.carrier_size and ruleset.board.spaces[space].is_sea:
            air += kind.carrier_size * n
            continue
        if space not in bid_spaces(state, ruleset, power, unit) or (kind.domain == "building" and n > 1):
            raise IllegalAction(f"{power} cannot place bid {kind.display_plural} in {space}", RULE)
    room = carrier_room(state, ruleset, space, power, ships) if air else 0
    if air and (air > room or not _friendly_sea(state, ruleset, power, space)):
        raise IllegalAction(f"no room on {power}'s carriers in {space}", RULE)
    events: list[Event] = [UnitsAdded(space, Stack(power, u, n), RULE) for u, n in units.items()]
    events.append(ExtraSet(BID, {**fund, side: fund[side] - cost}, RULE))
    return events


class SetupBidPhase(PhaseHandler):
    name = PHASE
    title = "Bid placement"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        fund = funds(state).get(ruleset.board.side_of(power), 0)
        target = ruleset.board.resolve(space) if space is not None else None
        for unit in ruleset.units:
            if order_cost(state, ruleset, power, {unit.id: 1}) <= fund:
                for where in bid_spaces(state, ruleset, power, unit.id):
                    if target is None or where == target:
                        yield Place(units=f"1 {unit.display}", space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            super().events_for(ctx, action)
            return
        ctx.emit(*bid_events(ctx.state, ctx.ruleset, ctx.power, action.units, action.space))

    def on_exit(self, ctx: TurnContext) -> None:
        ruleset, power = ctx.ruleset, ctx.power
        side = ruleset.board.side_of(power)
        fund = funds(ctx.state)
        if last_of_side(ruleset, power, ctx.state) and fund.get(side, 0) > 0:
            ctx.emit(BankChanged(power, fund[side], "bid", RULE), ExtraSet(BID, {**fund, side: 0}, RULE))
        order = bidders(ruleset, ctx.state)
        later = order[order.index(power) + 1 :] if power in order else []
        if later:
            ctx.emit(PhaseEntered(ctx.state.round, later[0], PHASE))
        else:
            first = ruleset.turn_order(1).turns[0].powers[0]  # a team's first turn: the engine starts the team
            ctx.emit(PhaseEntered(1, first, ruleset.phase_table()[0].name))


SETUP_BID = register_phase(SetupBidPhase())
