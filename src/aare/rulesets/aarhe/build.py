"""AARHE build schedule (module `aarhe_build`): battleships, carriers and cruisers are mobilised the turn after
they are bought; a new infrastructure defence (ID, the antiaircraft gun) arrives on its side, undeployed: it does
not fire, and once deployed (`designate deploy: 1 ID in SPACE` in mobilize, the turn it arrives or later) it never
moves again (AARHE-BUILD-*); an undeployed one moves one territory in non-combat move (AARHE-IDMOVE-undeployed).

`extra["aarhe_building"]` holds each power's ships bought this turn; unplaced ships stay in the pool for a later
turn, every other unplaced unit is lost as in LHTR."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from typing import Any

from aare.actions import Designate, Place, Purchase
from aare.board.notation import parse_units
from aare.combat.battle_state import UnitKey, make_stacks
from aare.economy.pool import pool, pool_event
from aare.errors import IllegalAction
from aare.events import ExtraSet, UnitsChanged
from aare.movement.move_checks import Check, Leg, Violation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_SHIPS = "AARHE-BUILD-two-turn-ships"
R_UNDEPLOYED = "AARHE-BUILD-id-undeployed"
R_DEPLOY = "AARHE-BUILD-id-deploy"
R_IDMOVE = "AARHE-IDMOVE-undeployed"
R_FIXED = "AARHE-BUILD-id-fixed"

TWO_TURN = ("battleship", "carrier", "cruiser")
ID = "aa_gun"
UNDEPLOYED = "undeployed"  # the stack flag of an ID on its side
DEPLOY = "deploy"  # the `designate` purpose that stands an ID upright
BUILDING = "aarhe_building"


def building(state: Any, power: str) -> dict[str, int]:
    """The two-turn ships `power` bought this turn."""
    return dict((state.extra.get(BUILDING) or {}).get(power, {}))


def _building_event(state: Any, power: str, counts: dict[str, int]) -> ExtraSet:
    table = {p: c for p, c in (state.extra.get(BUILDING) or {}).items() if p != power}
    if counts:
        table[power] = dict(sorted(counts.items()))
    return ExtraSet(BUILDING, dict(sorted(table.items())), R_SHIPS)


def undeployed(stack: Stack) -> bool:
    return stack.unit == ID and UNDEPLOYED in stack.flags


class ShipYards(PhaseExtension):
    """Purchase: the ships bought are recorded as under construction this turn."""

    name = "purchase"

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Purchase):
            return
        bought = parse_units(action.units, ctx.ruleset.units)
        ships = {u: n for u, n in bought.items() if u in TWO_TURN}
        if ships:
            counts = building(ctx.state, ctx.power)
            for unit, n in ships.items():
                counts[unit] = counts.get(unit, 0) + n
            ctx.emit(_building_event(ctx.state, ctx.power, counts))


class Deployment(PhaseExtension):
    """Mobilize: ships bought this turn wait; a placed ID lies on its side until deployed; at the end the ships
    under construction stay in the pool."""

    name = "mobilize"
    action_types = frozenset({"designate"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        out: list[Any] = []
        for where in sorted(ctx.state.units):
            if space is not None and where != space:
                continue
            if any(s.owner == ctx.power and undeployed(s) for s in ctx.state.units[where]):
                out.append(Designate(advantage=DEPLOY, units=f"1 {ctx.ruleset.units[ID].display}", space=where))
        return out

    def before(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            return
        have, waiting = pool(ctx.state, ctx.power), building(ctx.state, ctx.power)
        for unit, n in parse_units(action.units, ctx.ruleset.units).items():
            ready = have.get(unit, 0) - waiting.get(unit, 0)
            if unit in TWO_TURN and n > ready:
                name = ctx.ruleset.units[unit].display_plural
                raise IllegalAction(f"{name} take two turns to build: those bought this turn are mobilised next turn "
                                    f"({max(ready, 0)} ready)", R_SHIPS)

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Place):
            return
        space = ctx.ruleset.board.resolve(action.space)
        n = parse_units(action.units, ctx.ruleset.units).get(ID, 0)
        if n:
            ctx.emit(UnitsChanged(space, Stack(ctx.power, ID, n), Stack(ctx.power, ID, n, flags=(UNDEPLOYED,))))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Designate) or action.advantage != DEPLOY:
            raise IllegalAction(f"{ctx.power} may only deploy infrastructure defences in mobilize", R_DEPLOY)
        space = ctx.ruleset.board.resolve(action.space)
        units = parse_units(action.units, ctx.ruleset.units)
        if set(units) != {ID}:
            raise IllegalAction("only infrastructure defences are deployed", R_DEPLOY)
        lying = sum(s.count for s in ctx.state.stacks(space) if s.owner == ctx.power and undeployed(s))
        if units[ID] > lying:
            raise IllegalAction(f"{ctx.power} has {lying} undeployed infrastructure defences in {space}", R_DEPLOY)
        stack = next(s for s in ctx.state.stacks(space) if s.owner == ctx.power and undeployed(s))
        standing = replace(stack, count=units[ID], flags=tuple(f for f in stack.flags if f != UNDEPLOYED))
        ctx.emit(UnitsChanged(space, stack.with_count(units[ID]), standing))

    def on_exit(self, ctx: TurnContext) -> None:
        have = pool(ctx.state, ctx.power)
        ships = {u: n for u, n in have.items() if u in TWO_TURN}
        if ships != have:
            ctx.emit(pool_event(ctx.state, ctx.power, ships, "LHTR-PURCHASE-unplaced-lost"))
        if building(ctx.state, ctx.power):
            ctx.emit(_building_event(ctx.state, ctx.power, {}))


SHIP_YARDS = ShipYards()
DEPLOYMENT = Deployment()



def _keep_unplaced(keep: bool, state: Any, power: str, **_: Any) -> bool:
    """Ships still in the pool after mobilize wait for a later turn."""
    have = pool(state, power)
    return keep or (bool(have) and all(u in TWO_TURN for u in have))


def fixed(leg: Leg) -> Violation | None:
    """A deployed ID never moves (AARHE-BUILD-id-fixed)."""
    if leg.stack.unit == ID and UNDEPLOYED not in leg.stack.flags:
        return Violation(f"{leg.where}: a deployed infrastructure defence cannot move", R_FIXED)
    return None


def undeployed_move(leg: Leg) -> Violation | None:
    """An undeployed ID moves one territory, in non-combat move only (AARHE-IDMOVE-undeployed)."""
    if leg.stack.unit != ID or UNDEPLOYED not in leg.stack.flags:
        return None
    if leg.combat:
        return Violation(f"{leg.where}: an undeployed infrastructure defence moves in non-combat move only", R_IDMOVE)
    if len(leg.path) > 2:
        return Violation(f"{leg.where}: an undeployed infrastructure defence moves one territory", R_IDMOVE)
    return None


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    return [fixed, undeployed_move, *checks]


def _battle_inputs(inputs: dict[str, Any], state: Any, site: Any, **_: Any) -> dict[str, Any]:
    """An undeployed ID takes no part in the battle: it does not fire (AARHE-BUILD-id-undeployed)."""
    lying = Counter[UnitKey]()
    for stack in state.stacks(site.space):
        if undeployed(stack):
            lying[UnitKey(stack.unit, stack.owner, stack.damage)] += stack.count
    if not lying:
        return inputs
    left = [(key, n - lying.get(key, 0)) for key, n in inputs["defender"]]
    return {**inputs, "defender": make_stacks((key, n) for key, n in left if n > 0)}


AARHE_BUILD = register_module(
    RuleModule(
        id="aarhe_build",
        title="AARHE build schedule: two-turn ships, infrastructure defence deployment",
        rule_ids=(R_SHIPS, R_UNDEPLOYED, R_DEPLOY, R_FIXED, R_IDMOVE),
        hooks={"phase_actions": by_phase(SHIP_YARDS, DEPLOYMENT), "keep_unplaced": _keep_unplaced,
               "move_checks": _move_checks, "battle_inputs": _battle_inputs},
    )
)
