"""AARHE Phase 1 purchase and mobilisation (module `aarhep1_production`): infantry are bought for a victory city
held since the turn began and raised there, priced and capped by the city (`buy 2 infantry at Germany`); an
industrial complex is bought for the territory it will stand in at 15 IPCs less the territory's value times its
VCP (`buy 1 industrial complex at India`); other units are mobilised at complexes standing since the turn began, at
most four times the territory's value in IPCs a turn (AARHEP1-INF-*, AARHEP1-INFCOST-*, AARHEP1-IC-*).

`extra["aarhep1_production"][power]` is the turn's record (with its `round`): `orders` (territory -> units bought
there), `raised` (infantry placed per city), `spent` (IPCs mobilised per complex)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.actions import Place, Purchase
from aare.board.notation import format_units, parse_units
from aare.economy.pool import pool
from aare.economy.production import has_complex
from aare.economy.turn import held_since_turn_start
from aare.errors import IllegalAction
from aare.events import Event, UnitsChanged, UnitsRemoved
from aare.phases.base import PhaseExtension, TurnContext, phase_handler
from aare.rules.effects import Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import production as aarhe_production
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.production import TurnRecord, connected, order_events, waiting_infantry_events
from aare.rulesets.aarhe_p1.cities import CAPITAL, MAJOR, city, points
from aare.rulesets.aarhe_p1.rockets import purchase_events as rocket_purchase_events
from aare.rulesets.aarhe_p1.rockets import split_order

R_VC_ONLY = "AARHEP1-INF-vc-only"
R_HELD = "AARHEP1-INF-held-at-start"
R_ASSIGN = "AARHEP1-INF-assign-at-purchase"
R_CAP_TABLE = "AARHEP1-INF-cap-table"
R_CAP = "AARHEP1-INF-cap-original"
R_CUT_OFF = "AARHEP1-INF-cap-disconnected"
R_WEST = "AARHEP1-INF-cap-western-capital"
R_CAPTURED = "AARHEP1-INF-cap-captured"
R_IC_CAP = "AARHEP1-IC-non-inf-cap"
R_INDEPENDENT = "AARHEP1-IC-independent-caps"
R_IC_COST = "AARHEP1-IC-cost-formula"
R_IC_EXAMPLES = "AARHEP1-IC-cost-examples"
R_IC_DECLARE = "AARHEP1-IC-declare-location"
R_IC_HELD = "AARHEP1-IC-owned-at-start"
R_IC_NEW = "AARHEP1-IC-no-build-first-turn"
R_IC_INITIAL = "AARHEP1-IC-initial"
R_IC_DESTROY = "AARHEP1-IC-purchased-destructible"
R_COST_TABLE = "AARHEP1-INFCOST-table"
R_COST = "AARHEP1-INFCOST-rule"

INFANTRY, FACTORY = "infantry", "factory"
RECORD = "aarhep1_production"
WESTERN_ALLIES = ("United Kingdom", "United States")  # capital cap 3; the others lose 1 at a cut-off city
WESTERN_CAPITAL_CAP = 3
IC_BASE = 15  # AARHEP1-IC-cost-formula
DESTROYED, CAPTURED = "destroyed", "captured"  # what becomes of a bought complex whose territory is lost
# infantry by where they are raised (AARHEP1-INFCOST-table)
INFANTRY_COST = {"capital": 2, "own": 3, "captured": 4}


TURN_RECORD = TurnRecord(RECORD)


def record(state: Any, power: str) -> dict[str, Any]:
    """`power`'s production record of this turn (empty parts when none, or when made in an earlier round)."""
    return TURN_RECORD.of(state, power)


def ic_cost(territory: str, board: Any) -> int:
    """A new complex's price: 15 less the territory's value times its VCP, never below 0 (AARHEP1-IC-cost-formula)."""
    value: int = board.spaces[territory].ipc
    return max(0, IC_BASE - value * points(territory))


def infantry_cap(state: Any, ruleset: Any, power: str, territory: str) -> tuple[int, str]:
    """The infantry `power` may raise a turn at the city in `territory`, and the rule that sets it."""
    found = city(territory)
    if found is None:
        return 0, R_VC_ONLY
    if found.nation != power:
        return found.points // 2, R_CAPTURED
    if found.category == CAPITAL:
        return (WESTERN_CAPITAL_CAP, R_WEST) if power in WESTERN_ALLIES else (found.points, R_CAP)
    if power not in WESTERN_ALLIES and not connected(state, ruleset, power, territory):
        return found.points - 1, R_CUT_OFF
    return found.points, R_CAP


def infantry_price(ruleset: Any, power: str, territory: str) -> int:
    """An infantry's price at `territory`: at the capital, in a territory of the nation's own (held at set-up), in
    a captured one (AARHEP1-INFCOST-rule)."""
    board = ruleset.board
    if territory == board.capital_of(power):
        return INFANTRY_COST["capital"]
    return INFANTRY_COST["own" if board.owners.get(territory) == power else "captured"]


def _ordered(state: Any, power: str, territory: str, unit: str) -> int:
    return int(record(state, power)["orders"].get(territory, {}).get(unit, 0))


def purchase_events(state: Any, ruleset: Any, power: str, units: Mapping[str, int], territory: str) -> list[Event]:
    """The events of buying `units` (infantry, or one complex) for `territory`; IllegalAction if not allowed."""
    board = ruleset.board
    territory = board.resolve(territory)
    if set(units) == {INFANTRY}:
        n = units[INFANTRY]
        if not points(territory):
            raise IllegalAction(f"infantry are raised at victory cities; {territory} has none", R_VC_ONLY)
        if not held_since_turn_start(state, power, territory):
            raise IllegalAction(f"{power} has not held {territory} since the start of its turn", R_HELD)
        cap, rule = infantry_cap(state, ruleset, power, territory)
        already = _ordered(state, power, territory, INFANTRY)
        if already + n > cap:
            raise IllegalAction(f"the city in {territory} raises at most {cap} infantry a turn for {power}; "
                                f"{already} already bought", rule)
        cost, rule = n * infantry_price(ruleset, power, territory), R_COST
    elif set(units) == {FACTORY} and units[FACTORY] == 1:
        if not board.spaces[territory].is_land or not held_since_turn_start(state, power, territory):
            raise IllegalAction(f"{power} has not held {territory} since the start of its turn", R_IC_HELD)
        if has_complex(state, ruleset, territory) or _ordered(state, power, territory, FACTORY):
            raise IllegalAction(f"{territory} already has an industrial complex (one per territory)", R_IC_COST)
        cost, rule = ic_cost(territory, board), R_IC_COST
    else:
        raise IllegalAction("only infantry (at a victory city) or one industrial complex are bought at a place",
                            R_ASSIGN)
    placed_rule = R_ASSIGN if INFANTRY in units else R_IC_DECLARE
    return order_events(state, ruleset, power, units, territory, cost, rule, placed_rule, TURN_RECORD)


class Buying(PhaseExtension):
    """Purchase: infantry and complexes are bought for a place; rockets go to `aarhep1_rockets`."""

    name = "purchase"
    action_types = frozenset({"purchase"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        bank = state.banks.get(power, 0)
        out: list[Any] = []
        for territory, owner in sorted(state.owners.items()):
            if owner != power or space not in (None, territory) or not held_since_turn_start(state, power, territory):
                continue
            if points(territory) and infantry_price(ruleset, power, territory) <= bank and \
                    _ordered(state, power, territory, INFANTRY) < infantry_cap(state, ruleset, power, territory)[0]:
                out.append(Purchase(units="1 infantry", at=territory))
            if ruleset.board.spaces[territory].ipc and ic_cost(territory, ruleset.board) <= bank and \
                    not has_complex(state, ruleset, territory) and not _ordered(state, power, territory, FACTORY):
                out.append(Purchase(units="1 industrial complex", at=territory))
        return out

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        rockets, units = split_order(parse_units(action.units, ctx.ruleset.units))
        if rockets:
            if action.at:
                raise IllegalAction("rockets are bought for the nation, not for a place (buy 3 rockets)",
                                    "AARHEP1-OPT-rockets-purchase")
            ctx.emit(*rocket_purchase_events(ctx.state, ctx.ruleset, ctx.power, rockets))
            if not units:
                return
            action = action.model_copy(update={"units": format_units(units, ctx.ruleset.units)})
        if action.at:
            ctx.emit(*purchase_events(ctx.state, ctx.ruleset, ctx.power, units, action.at))
            return
        if INFANTRY in units:
            raise IllegalAction("infantry are bought for a victory city: buy them there (buy 2 infantry at Germany)",
                                R_ASSIGN)
        if FACTORY in units:
            raise IllegalAction("an industrial complex is bought for the territory it will stand in "
                                "(buy 1 industrial complex at India)", R_IC_DECLARE)
        phase_handler(self.name).events_for(ctx, action)


class Mobilizing(PhaseExtension):
    """Mobilize: infantry at the cities they were bought for, a complex where it was bought, other units at
    complexes within four times the territory's value in IPCs."""

    name = "mobilize"
    action_types = frozenset({"place"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        rec = record(ctx.state, ctx.power)
        if not pool(ctx.state, ctx.power).get(INFANTRY, 0):
            return []
        return [Place(units="1 infantry", space=t) for t, order in sorted(rec["orders"].items())
                if order.get(INFANTRY, 0) > rec["raised"].get(t, 0) and space in (None, t)]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        space = ruleset.board.resolve(action.space)
        units = parse_units(action.units, ruleset.units)
        if INFANTRY in units:  # raised at their city; the other units of the order as usual
            ctx.emit(*raise_events(state, power, {INFANTRY: units[INFANTRY]}, space))
            units = {u: n for u, n in units.items() if u != INFANTRY}
            if not units:
                return
            state = ctx.state
            action = action.model_copy(update={"units": format_units(units, ruleset.units)})
        if FACTORY in units and units[FACTORY] > _ordered(state, power, space, FACTORY):
            raise IllegalAction(f"{power} bought no industrial complex for {space}", R_IC_DECLARE)
        spent = _spend(state, ruleset, power, units, space)
        phase_handler(self.name).events_for(ctx, action)
        if spent is not None:
            ctx.emit(TURN_RECORD.event(ctx.state, power, R_IC_CAP, spent=spent))


def raise_events(state: Any, power: str, units: Mapping[str, int], space: str) -> list[Event]:
    """Infantry bought for the city in `space` placed there (AARHEP1-INF-assign-at-purchase)."""
    raised, events = waiting_infantry_events(state, power, units, space, TURN_RECORD, R_ASSIGN, R_VC_ONLY,
                                             ("bought", "for"))
    if not held_since_turn_start(state, power, space):
        raise IllegalAction(f"{power} has not held {space} since the start of its turn", R_HELD)
    return [*events, TURN_RECORD.event(state, power, R_ASSIGN, raised={**record(state, power)["raised"],
                                                                       space: raised})]


def spend_room(state: Any, ruleset: Any, power: str, territory: str) -> int:
    """IPCs of non-infantry units the complex in `territory` may still mobilise this turn (AARHEP1-IC-non-inf-cap);
    infantry raised at a city there do not count (AARHEP1-IC-independent-caps)."""
    return aarhe_production.spend_room(state, ruleset, power, territory, record(state, power)["spent"])


def _spend(state: Any, ruleset: Any, power: str, units: Mapping[str, int], space: str) -> dict[str, int] | None:
    """The complexes' spending after placing `units` in `space` (AARHE's rule, the same four times the value), or
    None when nothing counts; IllegalAction past the cap (AARHEP1-IC-non-inf-cap)."""
    return aarhe_production.spending(state, ruleset, power, units, space, record(state, power)["spent"], R_IC_CAP)


def initial_complex(territory: str) -> bool:
    """Whether the complex in `territory` is an initial one, never destroyed: at a capital or major victory city
    (AARHEP1-IC-initial)."""
    found = city(territory)
    return found is not None and found.category in (CAPITAL, MAJOR)


def _capture_events(events: list[Event], ruleset: Any, territory: str, **_: Any) -> list[Event]:
    """A bought complex in a captured territory is destroyed rather than handed over, unless the option
    `bought_complexes` keeps it (AARHEP1-IC-purchased-destructible)."""
    if ruleset.options.get("bought_complexes", DESTROYED) != DESTROYED or initial_complex(territory):
        return events
    out: list[Event] = []
    for event in events:
        if isinstance(event, UnitsChanged) and ruleset.units[event.before.unit].has("factory"):
            out.append(UnitsRemoved(territory, event.before, R_IC_DESTROY))
        else:
            out.append(event)
    return out


BUYING = Buying()
MOBILIZING = Mobilizing()


def _placement_rules(rules: set[str], **_: Any) -> set[str]:
    return {*rules, R_VC_ONLY}


def _free_pool_rules(rules: set[str], **_: Any) -> set[str]:
    """Units bought at a place are paid by a `rule:` payment at their own price."""
    return {*rules, R_ASSIGN, R_IC_DECLARE}


AARHEP1_PRODUCTION = register_module(
    RuleModule(
        id="aarhep1_production",
        title="AARHE Phase 1 purchase and mobilisation: infantry at victory cities, complexes priced by place",
        rule_ids=(R_VC_ONLY, R_HELD, R_ASSIGN, R_CAP_TABLE, R_CAP, R_CUT_OFF, R_WEST, R_CAPTURED, R_IC_CAP,
                  R_INDEPENDENT, R_IC_COST, R_IC_EXAMPLES, R_IC_DECLARE, R_IC_HELD, R_IC_NEW, R_IC_INITIAL,
                  R_IC_DESTROY, R_COST_TABLE, R_COST),
        hooks={"phase_actions": by_phase(BUYING, MOBILIZING), "placement_rules": _placement_rules,
               "free_pool_rules": _free_pool_rules, "capture_events": _capture_events},
        options=(OptionSpec(key="bought_complexes", type=str, default=DESTROYED, choices=(DESTROYED, CAPTURED),
                            help="a bought complex whose territory is lost: destroyed by its defender, or captured",
                            rule_id=R_IC_DESTROY),),
        # the count of units a complex takes gives way to the IPC cap (AARHEP1-IC-non-inf-cap)
        effects=(Effect("production", "*", "set", 1000, R_IC_CAP, "at most 4x the territory's value in IPCs"),),
    )
)
