"""AARHE purchase and deployment (module `aarhe_production`): infantry are raised at victory cities and industrial
complexes bought for a place, both priced by where (`buy 2 infantry at Russia`, `buy 1 industrial complex at
Persia`); scorched earth removes a power's own complex as mobilize begins; every other unit is bought as in LHTR
and mobilised at complexes, at most four times the territory's value in IPCs a turn (AARHE-PURCH-*,
AARHE-MOBIL-*).

`extra["aarhe_production"][power]` is the turn's record (with its `round`): `orders` (territory -> units bought
there), `raised` (infantry placed per city), `spent` (IPCs mobilised per complex), `scorched` (complexes marked for
destruction).
Units bought at a place enter the purchase pool under AARHE-PURCH-inf-at-vc / AARHE-PURCH-ic-cost, paid as
`rule: ...` (the `free_pool_rules` hook keeps the invariant checks' price of a plain purchase out of it)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from aare.actions import Designate, Place, Purchase
from aare.board.notation import format_units, parse_units
from aare.economy.pool import pool, pool_event
from aare.economy.production import has_complex, producers, sea_producers
from aare.economy.turn import held_since_turn_start
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, UnitsAdded, UnitsRemoved
from aare.phases.base import PhaseExtension, TurnContext, phase_handler
from aare.phases.purchase import check_capital
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe import national_builds as nb
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.victory import is_minor, points
from aare.state.unit_stacks import Stack

R_IC_TABLE = "AARHE-PURCH-ic-cost-table"
R_IC_COST = "AARHE-PURCH-ic-cost"
R_SCORCH = "AARHE-PURCH-scorched-select"
R_SCORCH_REMOVE = "AARHE-PURCH-scorched-remove"
R_INF_AT_VC = "AARHE-PURCH-inf-at-vc"
R_AUTH_TABLE = "AARHE-PURCH-inf-cost-authoritarian-table"
R_AUTH = "AARHE-PURCH-inf-cost-authoritarian"
R_DEMO_TABLE = "AARHE-PURCH-inf-cost-democratic-table"
R_DEMO = "AARHE-PURCH-inf-cost-democratic"
R_IC_CAP = "AARHE-MOBIL-ic-spend-cap"
R_INF_CAP = "AARHE-MOBIL-inf-vc-cap"

INFANTRY, FACTORY = "infantry", "factory"
RECORD = "aarhe_production"
SCORCH = "scorch"  # the `designate` purpose marking a complex for destruction
DEMOCRACIES = ("United Kingdom", "United States")  # every other power raises infantry as an authoritarian one
# a new complex: 5 IPCs with a non-minor victory city, 10 with a minor one, 15 elsewhere (AARHE-PURCH-ic-cost-table)
IC_COST = {"non-minor": 5, "minor": 10, "other": 15}
# authoritarian infantry: at the capital, at a city connected to it, elsewhere (AARHE-PURCH-inf-cost-authoritarian)
AUTHORITARIAN_COST = {"capital": 2, "connected": 3, "other": 4}
# democratic infantry at one city in a turn: the first at a non-minor / minor city, the second, the rest
DEMOCRATIC_COST = {"first": 2, "first-minor": 3, "second": 3, "further": 4}
IC_SPEND_FACTOR = 4


@dataclass(frozen=True)
class TurnRecord:
    """A power's production record of the turn in `extra[key]` (with its `round`): `orders` (territory -> units
    bought there), `raised` (infantry placed per city), `spent` (IPCs mobilised per complex) and the `lists` of
    its own."""

    key: str
    lists: tuple[str, ...] = ()

    def of(self, state: Any, power: str) -> dict[str, Any]:
        """`power`'s record of this turn (empty parts when none, or when made in an earlier round)."""
        found = (state.extra.get(self.key) or {}).get(power) or {}
        if found.get("round") != state.round:
            found = {}
        return {"round": state.round, "orders": {}, "raised": {}, "spent": {},
                **{name: [] for name in self.lists}, **found}

    def event(self, state: Any, power: str, rule_id: str, **changes: Any) -> ExtraSet:
        """The event setting `changes` in `power`'s record of this turn."""
        table = dict(state.extra.get(self.key) or {})
        table[power] = {**self.of(state, power), **changes}
        return ExtraSet(self.key, dict(sorted(table.items())), rule_id)


TURN_RECORD = TurnRecord(RECORD, ("scorched",))


def record(state: Any, power: str) -> dict[str, Any]:
    """`power`'s production record of this turn (empty parts when none, or when made in an earlier round)."""
    return TURN_RECORD.of(state, power)


def _record_event(state: Any, power: str, rule_id: str, **changes: Any) -> ExtraSet:
    return TURN_RECORD.event(state, power, rule_id, **changes)


def order_events(state: Any, ruleset: Any, power: str, units: Mapping[str, int], territory: str, cost: int,
                 rule_id: str, placed_rule: str, turn: TurnRecord, **changes: Any) -> list[Event]:
    """The events of an order of `units` for `territory` at `cost` IPCs once its place is allowed: paid under
    `rule_id`, into the pool and the `turn` record under `placed_rule` (with `changes`);
    IllegalAction when the capital is lost or the bank is short."""
    check_capital(state, ruleset, power)
    bank = state.banks.get(power, 0)
    text = format_units(units, ruleset.units)
    if cost > bank:
        raise IllegalAction(f"{text} at {territory} cost {cost} IPCs; {power} has {bank}", "LHTR-PURCHASE-budget")
    have = pool(state, power)
    orders = dict(turn.of(state, power)["orders"])
    here = dict(orders.get(territory, {}))
    for unit, n in units.items():
        have[unit] = have.get(unit, 0) + n
        here[unit] = here.get(unit, 0) + n
    orders[territory] = here
    return [BankChanged(power, -cost, f"rule: {text} bought at {territory}", rule_id),
            pool_event(state, power, have, placed_rule),
            turn.event(state, power, placed_rule, orders=dict(sorted(orders.items())), **changes)]


def waiting_infantry_events(state: Any, power: str, units: Mapping[str, int], space: str, turn: TurnRecord,
                            rule_id: str, added_rule: str, how: tuple[str, str]) -> tuple[int, list[Event]]:
    """The infantry bought for the city in `space` (in the `turn` record) placed there under `added_rule`: how
    many it will then have raised this turn, and the events; IllegalAction under `rule_id` for other units or more
    than wait. `how` names the order ("raised", "at") or ("bought", "for")."""
    verb, prep = how
    if set(units) != {INFANTRY}:
        raise IllegalAction(f"infantry are placed on their own, at the city they were {verb} {prep}", rule_id)
    n = units[INFANTRY]
    rec = turn.of(state, power)
    raised = int(rec["raised"].get(space, 0))
    waiting = int(rec["orders"].get(space, {}).get(INFANTRY, 0)) - raised
    if n > waiting:
        raise IllegalAction(f"{power} {verb} {max(waiting, 0)} more infantry {prep} {space} this turn, not {n}; "
                            f"infantry are placed at the victory city they were {verb} {prep}", rule_id)
    have = pool(state, power)
    have[INFANTRY] = have.get(INFANTRY, 0) - n
    return raised + n, [UnitsAdded(space, Stack(power, INFANTRY, n), added_rule),
                        pool_event(state, power, have, "LHTR-PURCHASE-units-wait-for-mobilize")]


def ic_cost(territory: str, board: Any | None = None) -> int:
    """A new complex's price in `territory` (AARHE-PURCH-ic-cost)."""
    vcp = points(territory, board)
    return IC_COST["other" if not vcp else "minor" if vcp == 1 else "non-minor"]


def connected(state: Any, ruleset: Any, power: str, territory: str) -> bool:
    """Whether a chain of land territories controlled by `power`'s side joins `territory` to its capital."""
    board = ruleset.board
    capital = board.capital_of(power)
    if capital is None or state.owners.get(capital) != power:
        return False
    side = board.side_of(power)
    seen, todo = {capital}, [capital]
    while todo:
        here = todo.pop()
        if here == territory:
            return True
        for near in board.spaces[here].neighbors:
            owner = state.owners.get(near)
            if near not in seen and owner is not None and board.side_of(owner) == side:
                seen.add(near)
                todo.append(near)
    return False


def infantry_cost(state: Any, ruleset: Any, power: str, territory: str, already: int) -> tuple[int, str]:
    """The price of the next infantry `power` raises at the city in `territory`, after `already` raised there this
    turn, and the rule that sets it."""
    if power in DEMOCRACIES:
        if already == 0:
            return DEMOCRATIC_COST["first-minor" if is_minor(territory, ruleset.board) else "first"], R_DEMO
        return DEMOCRATIC_COST["second" if already == 1 else "further"], R_DEMO
    if territory == ruleset.board.capital_of(power) and state.owners.get(territory) == power:
        return AUTHORITARIAN_COST["capital"], R_AUTH
    return AUTHORITARIAN_COST["connected" if connected(state, ruleset, power, territory) else "other"], R_AUTH


def _ordered(state: Any, power: str, territory: str, unit: str) -> int:
    return int(record(state, power)["orders"].get(territory, {}).get(unit, 0))


def cities(state: Any, ruleset: Any, power: str) -> list[str]:
    """The victory cities `power` controls."""
    return sorted(t for t, owner in state.owners.items() if owner == power and points(t, ruleset.board))


def located_purchase_events(state: Any, ruleset: Any, power: str, units: Mapping[str, int],
                            territory: str) -> list[Event]:
    """The events of buying `units` (infantry, or one industrial complex) at `territory`; IllegalAction if not
    allowed."""
    board = ruleset.board
    territory = board.resolve(territory)
    bought = list(record(state, power).get(nb.NATIONAL, []))
    found = nb.package_for(state, ruleset, power, units, territory, bought)
    if set(units) == {INFANTRY}:
        n = units[INFANTRY]
        vcp = points(territory, board)
        if not vcp:
            raise IllegalAction(f"infantry are raised at victory cities; {territory} has none", R_INF_AT_VC)
        if state.owners.get(territory) != power:
            raise IllegalAction(f"{power} does not control {territory}", R_INF_AT_VC)
        already = _ordered(state, power, territory, INFANTRY)
        if already + n > vcp:
            raise IllegalAction(f"the city in {territory} ({vcp} points) raises at most {vcp} infantry a turn; "
                                f"{already} already bought", R_INF_CAP)
        cost, rule = 0, R_AUTH
        for k in range(n):
            price, rule = infantry_cost(state, ruleset, power, territory, already + k)
            cost += price
        if found is not None:
            cost, rule = found[2], found[0].rule
    elif found is not None:
        if state.owners.get(territory) != power:
            raise IllegalAction(f"{power} does not control {territory}", found[0].rule)
        cost, rule = found[2], found[0].rule
    elif set(units) == {FACTORY} and units[FACTORY] == 1:
        if state.owners.get(territory) != power or not board.spaces[territory].is_land:
            raise IllegalAction(f"{power} does not control {territory}", R_IC_COST)
        if has_complex(state, ruleset, territory) or _ordered(state, power, territory, FACTORY):
            raise IllegalAction(f"{territory} already has an industrial complex (one per territory)", R_IC_COST)
        cost, rule = ic_cost(territory, board), R_IC_COST
    else:
        raise IllegalAction("only infantry (at a victory city), one industrial complex or a national build are "
                            "bought at a place", R_INF_AT_VC)
    placed_rule = found[0].rule if found is not None else R_INF_AT_VC if INFANTRY in units else R_IC_COST
    national = {nb.NATIONAL: [*bought, found[1]]} if found is not None else {}
    return order_events(state, ruleset, power, units, territory, cost, rule, placed_rule, TURN_RECORD, **national)


class Recruiting(PhaseExtension):
    """Purchase: infantry and complexes are bought at a place; a complex may be marked for scorched earth."""

    name = "purchase"
    action_types = frozenset({"purchase", "designate"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        bank = state.banks.get(power, 0)
        out: list[Any] = []
        for city in cities(state, ruleset, power):
            already = _ordered(state, power, city, INFANTRY)
            if space in (None, city) and already < points(city, ruleset.board) and \
                    infantry_cost(state, ruleset, power, city, already)[0] <= bank:
                out.append(Purchase(units="1 infantry", at=city))
        for territory, owner in sorted(state.owners.items()):
            if owner == power and space in (None, territory) and ic_cost(territory, ruleset.board) <= bank \
                    and not has_complex(state, ruleset, territory) and not _ordered(state, power, territory, FACTORY):
                out.append(Purchase(units="1 industrial complex", at=territory))
        out += _national_candidates(state, ruleset, power, space, bank)
        marked = record(state, power)["scorched"]
        for territory in sorted(t for t, o in state.owners.items() if o == power and t not in marked):
            if space in (None, territory) and has_complex(state, ruleset, territory, power):
                out.append(Designate(advantage=SCORCH, units="1 industrial complex", space=territory))
        return out

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if isinstance(action, Designate):
            ctx.emit(*scorch_events(state, ruleset, power, action))
            return
        units = parse_units(action.units, ruleset.units)
        if action.at:
            ctx.emit(*located_purchase_events(state, ruleset, power, units, action.at))
            return
        if INFANTRY in units:
            raise IllegalAction("infantry are raised at a victory city: buy them there (buy 2 infantry at Russia)",
                                R_INF_AT_VC)
        if FACTORY in units:
            raise IllegalAction("an industrial complex is bought for the territory it will stand in "
                                "(buy 1 industrial complex at Persia)", R_IC_COST)
        phase_handler(self.name).events_for(ctx, action)


def _national_candidates(state: Any, ruleset: Any, power: str, space: str | None, bank: int) -> list[Any]:
    """The national build `power` may still buy, at each place it may be bought for."""
    package = nb.PACKAGES.get(power)
    if not nb.enabled(ruleset) or package is None:
        return []
    places = [package.place] if package.place is not None else sorted(producers(state, ruleset, power))
    bought = record(state, power).get(nb.NATIONAL, [])
    out: list[Any] = []
    for units in package.choices or (package.units,):
        if package.price(ruleset, units) > bank:
            continue
        text = format_units(dict(units), ruleset.units)
        out += [Purchase(units=text, at=t) for t in places if space in (None, t) and state.owners.get(t) == power
                and package.key(t) not in bought]
    return out


def scorch_events(state: Any, ruleset: Any, power: str, action: Designate) -> list[Event]:
    """`power` marks its complex in `action.space` for destruction (AARHE-PURCH-scorched-select)."""
    if action.advantage != SCORCH:
        raise IllegalAction(f"{power} may only mark complexes for scorched earth in purchase", R_SCORCH)
    territory = ruleset.board.resolve(action.space)
    if set(parse_units(action.units, ruleset.units)) != {FACTORY} or not has_complex(state, ruleset, territory,
                                                                                       power):
        raise IllegalAction(f"{power} has no industrial complex in {territory} to destroy", R_SCORCH)
    marked = record(state, power)["scorched"]
    if territory in marked:
        raise IllegalAction(f"the complex in {territory} is already marked for destruction", R_SCORCH)
    return [_record_event(state, power, R_SCORCH, scorched=sorted([*marked, territory]))]


class Deploying(PhaseExtension):
    """Mobilize: scorched complexes go first; infantry are placed at the cities they were raised at, a complex
    where it was bought, other units at complexes within four times the territory's value in IPCs."""

    name = "mobilize"
    action_types = frozenset({"place"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        state, power = ctx.state, ctx.power
        have = pool(state, power).get(INFANTRY, 0)
        if not have:
            return []
        rec = record(state, power)
        return [Place(units="1 infantry", space=t) for t, order in sorted(rec["orders"].items())
                if order.get(INFANTRY, 0) > rec["raised"].get(t, 0) and space in (None, t)]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        space = ruleset.board.resolve(action.space)
        units = parse_units(action.units, ruleset.units)
        rec = record(state, power)
        city_infantry = set(units) == {INFANTRY} and bool(ruleset.options.get("scorched_city_infantry"))
        if space in rec["scorched"] and not city_infantry:
            raise IllegalAction(f"the complex in {space} was destroyed this turn: nothing is mobilised there",
                                R_SCORCH_REMOVE)
        if INFANTRY in units:
            ctx.emit(*raise_events(state, ruleset, power, units, space))
            return
        if FACTORY in units and units[FACTORY] > _ordered(state, power, space, FACTORY):
            raise IllegalAction(f"{power} bought no industrial complex for {space}", R_IC_COST)
        national = _national_placement(state, ruleset, power, units, space)
        spent = _spend(state, ruleset, power, units, space)
        phase_handler(self.name).events_for(ctx, action)
        if spent is not None:
            ctx.emit(_record_event(ctx.state, power, R_IC_CAP, spent=spent))
        if national is not None:
            ctx.emit(_record_event(ctx.state, power, nb.R_UK, placed_at=national))

    def on_enter(self, ctx: TurnContext) -> None:
        ctx.emit(*scorched_earth_events(ctx.state, ctx.ruleset, ctx.power))


def _national_placement(state: Any, ruleset: Any, power: str, units: Mapping[str, int], space: str
                        ) -> dict[str, dict[str, int]] | None:
    """National builds: units bought for a place are mobilised there; what is placed in `space` counts for the
    places it serves (the territory, or the territories on a sea zone); the updated `placed_at`, None when no
    national build is concerned. IllegalAction when the placement would leave too few for their places."""
    rec = record(state, power)
    orders = {t: {u: n for u, n in o.items() if u not in (INFANTRY, FACTORY)} for t, o in rec["orders"].items()}
    if not any(orders.values()):
        return None
    board = ruleset.board
    here = {space} if board.spaces[space].is_land else set(board.spaces[space].neighbors)
    placed = {t: dict(p) for t, p in (rec.get("placed_at") or {}).items()}
    have = pool(state, power)
    for unit, n in units.items():
        nb.check_warship(power, orders, ruleset.units[unit], here)
        reserved = nb.reserved_elsewhere(orders, placed, unit, here)
        if have.get(unit, 0) - n < reserved:
            places = sorted(t for t in orders if t not in here and orders[t].get(unit))
            raise IllegalAction(f"{reserved} {ruleset.units[unit].display_plural} bought as a national build wait "
                                f"to be mobilised at {', '.join(places)}", nb.PACKAGES[power].rule)
        left = n
        for territory in sorted(here):
            due = int(orders.get(territory, {}).get(unit, 0)) - int(placed.get(territory, {}).get(unit, 0))
            take = min(left, max(due, 0))
            if take:
                placed.setdefault(territory, {})[unit] = placed.get(territory, {}).get(unit, 0) + take
                left -= take
    return dict(sorted(placed.items()))


def raise_events(state: Any, ruleset: Any, power: str, units: Mapping[str, int], space: str) -> list[Event]:
    """Infantry bought at the city in `space` placed there (AARHE-PURCH-inf-at-vc), at most its points a turn
    (AARHE-MOBIL-inf-vc-cap)."""
    raised, events = waiting_infantry_events(state, power, units, space, TURN_RECORD, R_INF_AT_VC, R_INF_AT_VC,
                                             ("raised", "at"))
    if state.owners.get(space) != power:
        raise IllegalAction(f"{power} no longer controls {space}", R_INF_AT_VC)
    if raised > points(space, ruleset.board):
        raise IllegalAction(f"the city in {space} mobilises at most {points(space, ruleset.board)} infantry a turn",
                            R_INF_CAP)
    return [*events, _record_event(state, power, R_INF_CAP, raised={**record(state, power)["raised"], space: raised})]


def spend_room(state: Any, ruleset: Any, power: str, territory: str, spent: Mapping[str, int] | None = None) -> int:
    """IPCs of units the complex in `territory` may still mobilise this turn (AARHE-MOBIL-ic-spend-cap), after
    `spent` (IPCs mobilised per complex this turn; by default this module's record)."""
    cap: int = IC_SPEND_FACTOR * ruleset.board.spaces[territory].ipc
    done = record(state, power)["spent"] if spent is None else spent
    return cap - int(done.get(territory, 0))


def _spend(state: Any, ruleset: Any, power: str, units: Mapping[str, int], space: str) -> dict[str, int] | None:
    return spending(state, ruleset, power, units, space, record(state, power)["spent"], R_IC_CAP)


def spending(state: Any, ruleset: Any, power: str, units: Mapping[str, int], space: str, spent: Mapping[str, int],
             rule_id: str) -> dict[str, int] | None:
    """The complexes' spending (`spent` before) after placing `units` in `space`, or None when nothing counts (a
    new complex); IllegalAction under `rule_id` past four times the territory's value. Ships count against the
    adjacent complex with the most room."""
    value = sum(ruleset.unit_cost(u, power=power, state=state).value * n for u, n in units.items()
                if ruleset.units[u].domain != "building")
    if not value:
        return None
    producing = producers(state, ruleset, power)
    sources: Iterable[str] = [space] if ruleset.board.spaces[space].is_land else sea_producers(ruleset, producing,
                                                                                              space)
    rooms = {t: spend_room(state, ruleset, power, t, spent) for t in sources if t in producing}
    if not rooms:
        return None  # the core names why nothing may be placed here
    best = max(sorted(rooms), key=lambda t: rooms[t])
    if value > rooms[best]:
        cap = IC_SPEND_FACTOR * ruleset.board.spaces[best].ipc
        raise IllegalAction(f"the complex in {best} mobilises at most {cap} IPCs of units a turn; "
                            f"{max(rooms[best], 0)} left, these cost {value}", rule_id)
    after = dict(spent)
    after[best] = int(after.get(best, 0)) + value
    return dict(sorted(after.items()))


def scorched_earth_events(state: Any, ruleset: Any, power: str) -> list[Event]:
    """The complexes `power` marked are removed as mobilize begins (AARHE-PURCH-scorched-remove); one whose
    territory was lost meanwhile stays with the captor."""
    events: list[Event] = []
    for territory in record(state, power)["scorched"]:
        if not held_since_turn_start(state, power, territory):
            continue
        for stack in state.stacks(territory):
            if stack.owner == power and ruleset.units[stack.unit].has("factory"):
                events.append(UnitsRemoved(territory, stack, R_SCORCH_REMOVE))
    return events


RECRUITING = Recruiting()
DEPLOYING = Deploying()



def _placement_rules(rules: set[str], **_: Any) -> set[str]:
    return {*rules, R_INF_AT_VC}


def _free_pool_rules(rules: set[str], **_: Any) -> set[str]:
    """Units bought at a place are paid by a `rule:` payment at their own price."""
    return {*rules, R_INF_AT_VC, R_IC_COST, *(package.rule for package in nb.PACKAGES.values())}


AARHE_PRODUCTION = register_module(
    RuleModule(
        id="aarhe_production",
        title="AARHE purchase and deployment: infantry at victory cities, variable costs, scorched earth",
        rule_ids=(R_IC_TABLE, R_IC_COST, R_SCORCH, R_SCORCH_REMOVE, R_INF_AT_VC, R_AUTH_TABLE, R_AUTH, R_DEMO_TABLE,
                  R_DEMO, R_IC_CAP, R_INF_CAP),
        hooks={"phase_actions": by_phase(RECRUITING, DEPLOYING), "placement_rules": _placement_rules,
               "free_pool_rules": _free_pool_rules},
        options=(
            OptionSpec(
                key="scorched_city_infantry",
                type=bool,
                default=False,
                help="infantry may still be mobilised at a victory city whose territory's complex was scorched",
                rule_id=R_SCORCH_REMOVE,
            ),
        ),
    )
)
