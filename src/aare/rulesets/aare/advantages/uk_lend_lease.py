"""UK Lend-Lease (seed NATIONAL ADVANTAGES / UNITED KINGDOM 6, AARE-NA-UK-ll-*).

On declaration the UK receives 5 IPCs once. In the UK's purchase phase the US may lend it up to 2 IPCs from its
treasury (`lend`), spendable at once; in the UK's mobilize phase the UK may turn US units into UK units
(`convert`): land and air units in the United Kingdom, Eastern Canada, Anglo Egypt, South Africa, India or
Australia, and ships, aircraft and land units aboard transports in a sea zone next to one of them that the UK
holds, counted at their base (catalogue) price. Loans and conversions together come to 12 IPCs a UK turn. The
turn's use is kept with Russia's Lend-Lease in ``extra["lend_lease"]["United Kingdom"]``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Convert, Lend
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, UnitsChanged, apply_events
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conversion import convert_stacks
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.base import Advantage, in_force
from aare.rulesets.aare.advantages.russia_lend_lease import KEY, base_cost, used
from aare.state.game_state import GameState

UK, US = "United Kingdom", "United States"
ID = "uk_lend_lease"
GRANT, LOAN_CAP, TURN_CAP = 5, 2, 12
R_BONUS = "AARE-NA-UK-ll-bonus-5"
R_LAND = "AARE-NA-UK-ll-convert-units"
R_SEA = "AARE-NA-UK-ll-convert-sea"
R_LOSES = "AARE-NA-UK-ll-convert-loses-bonuses"
R_BASE = "AARE-NA-UK-ll-convert-base-cost"
R_LOAN = "AARE-NA-UK-ll-cash-loan"
R_CAP = "AARE-NA-UK-ll-total-cap-12"
RULE_IDS = (R_BONUS, R_LAND, R_SEA, R_LOSES, R_BASE, R_LOAN, R_CAP)


def on_declare(ctx: TurnContext, adv: Advantage) -> None:
    """The one-time grant of 5 IPCs, merged into the treasury (AARE-NA-UK-ll-bonus-5)."""
    ctx.emit(BankChanged(UK, GRANT, "rule", R_BONUS))


def _record(state: GameState, rule: str, **changes: int) -> ExtraSet:
    table = dict(state.extra.get(KEY) or {})
    table[UK] = {"round": state.round, **used(state, UK), **changes}
    return ExtraSet(KEY, dict(sorted(table.items())), rule)


def room(state: GameState) -> int:
    spent = used(state, UK)
    return TURN_CAP - spent["lent"] - spent["converted"]


class Loan(PhaseExtension):
    """The UK's purchase phase: the US lends up to 2 IPCs (AARE-NA-UK-ll-cash-loan)."""

    name = "uk-lend-lease-loan"
    action_types = frozenset({"lend"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        most = min(LOAN_CAP - used(ctx.state, UK)["lent"], ctx.state.banks.get(US, 0), room(ctx.state))
        yield from (Lend(lender=US, amount=n) for n in range(1, most + 1))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        lender = ctx.ruleset.board.resolve_power(action.lender)
        if lender != US:
            raise IllegalAction(f"only the United States lends the United Kingdom IPCs, not {lender}", R_LOAN)
        spent = used(state, UK)
        if spent["lent"] + action.amount > LOAN_CAP:
            raise IllegalAction(f"the US lends the UK {LOAN_CAP} IPCs a turn at most; {spent['lent']} lent", R_LOAN)
        if action.amount > room(state):
            raise IllegalAction(f"loans and conversions come to {TURN_CAP} IPCs a turn; {room(state)} left", R_CAP)
        if state.banks.get(US, 0) < action.amount:
            raise IllegalAction(f"the United States has {state.banks.get(US, 0)} IPCs", R_LOAN)
        ctx.emit(BankChanged(US, -action.amount, "rule", R_LOAN), BankChanged(UK, action.amount, "rule", R_LOAN),
                 _record(state, R_LOAN, lent=spent["lent"] + action.amount))


def territories(ruleset: Ruleset) -> tuple[str, ...]:
    from aare.rulesets.aare.advantages.united_kingdom import HOME_AND_COLONIES

    return HOME_AND_COLONIES


def where_allowed(state: GameState, ruleset: Ruleset, space: str) -> str:
    """The rule that lets the UK convert units in `space`, or IllegalAction: one of the six territories (land and
    air units), or a sea zone next to one of them that the UK holds."""
    board = ruleset.board
    listed = territories(ruleset)
    if board.spaces[space].is_land:
        if space not in listed:
            raise IllegalAction(f"{space} is not one of {', '.join(listed)}", R_LAND)
        return R_LAND
    coasts = [t for t in listed if t in board.spaces[space].neighbors]
    if not coasts:
        raise IllegalAction(f"{space} is not next to {', '.join(listed)}", R_SEA)
    if not any(state.owners.get(t) == UK for t in coasts):
        raise IllegalAction(f"the UK does not hold {' or '.join(coasts)} next to {space}", R_SEA)
    return R_SEA


def convert_events(state: GameState, ruleset: Ruleset, action: Convert) -> list[Event]:
    """The events of turning US units into UK ones, or IllegalAction naming the rule."""
    board, catalogue = ruleset.board, ruleset.units
    space, owner = board.resolve(action.space), board.resolve_power(action.owner)
    units = parse_units(action.units, catalogue)
    if owner != US:
        raise IllegalAction(f"the UK converts units of the United States, not {owner}", R_LAND)
    rule = where_allowed(state, ruleset, space)
    if not units:
        raise IllegalAction("name the units to convert, e.g. '1 fighter'", rule)
    at_sea = board.spaces[space].is_sea
    wrong = [u for u in units if catalogue[u].domain not in (("land", "air", "sea") if at_sea else ("land", "air"))]
    if wrong:
        raise IllegalAction(f"{', '.join(wrong)} cannot be converted in {space}", rule)
    cost = base_cost(ruleset, dict(units))
    if cost > room(state):
        spent = used(state, UK)
        reason = (f"{action.units} count {cost} IPCs at base cost; loans and conversions come to {TURN_CAP} a turn "
                  f"and {spent['lent'] + spent['converted']} are used")
        raise IllegalAction(reason, R_CAP)
    events: list[Event] = []
    for unit, n in units.items():
        convert = _convert_cargo if at_sea and catalogue[unit].domain == "land" else _convert_stacks
        done = convert(state, space, unit, n, catalogue[unit].display_plural)
        events += done
        state = apply_events(state, done)
    spent = used(state, UK)
    events.append(_record(state, R_BASE, converted=spent["converted"] + cost))
    return events


def _convert_stacks(state: GameState, space: str, unit: str, n: int, name: str) -> list[Event]:
    """US units standing in `space` (ships with their cargo, damage and carried units kept) become UK units; the
    US's techs and advantages no longer apply to them (AARE-NA-UK-ll-convert-loses-bonuses)."""
    return convert_stacks(state, space, unit, n, US, UK, R_LOSES, name, R_LAND)


def _convert_cargo(state: GameState, space: str, unit: str, n: int, name: str) -> list[Event]:
    """US land units aboard transports in `space` become UK units aboard the same transports."""
    events: list[Event] = []
    left = n
    for transport in [s for s in state.stacks(space) if (US, unit) in flags.cargo(s)]:
        for _ in range(transport.count):
            if not left:
                break
            one = transport.with_count(1)
            load = list(flags.cargo(one))
            aboard = min(left, load.count((US, unit)))
            for _ in range(aboard):
                load[load.index((US, unit))] = (UK, unit)
            left -= aboard
            events.append(UnitsChanged(space, one, flags.with_cargo(one, load)))
    if left:
        raise IllegalAction(f"fewer than {n} US {name} are aboard transports in {space}", R_SEA)
    return events


class Conversion(PhaseExtension):
    """The UK's mobilize phase: `convert` US units (AARE-NA-UK-ll-convert-units, -convert-sea)."""

    name = "uk-lend-lease-convert"
    action_types = frozenset({"convert"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset = ctx.state, ctx.ruleset
        for where in sorted(state.units):
            if space not in (None, where):
                continue
            found = {s.unit for s in state.stacks(where) if s.owner == US}
            found |= {u for s in state.stacks(where) for o, u in flags.cargo(s) if o == US}
            for unit in sorted(found):
                yield Convert(units=f"1 {ruleset.units[unit].display}", owner=US, space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        ctx.emit(*convert_events(ctx.state, ctx.ruleset, action))


LOAN, CONVERSION = Loan(), Conversion()


def phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
    """Loans in the UK's purchase phase, conversions in its mobilize phase, while UK Lend-Lease is in force."""
    if state is None or state.nation != UK or not in_force(state, UK, ID):
        return found
    if phase == "purchase":
        return [*found, LOAN]
    if phase == "mobilize":
        return [*found, CONVERSION]
    return found

