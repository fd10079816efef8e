"""Enhanced Realism '98 neutrals (module `realism_neutrals`): attacking a neutral costs nothing, but attacking it
or flying over it gives the mover's opponent whose capital is closest a grant of 3 dice of IPCs (6 for Turkey or
Spain), spent at once on units placed in the neutral to defend it. A held neutral's value of 1 is counted by the
economy module (`realism`). The Classic fee and ban on overflight (module `classic_movement`, options
`neutral_entry_fee` and `neutral_overflight`) are fixed at 0 and allowed.

By default the granting power chooses what the grant buys: play waits for its decision (`state.pending`, kind
`neutral_grant`), answered with one `purchase` of land and air units; the option `neutral_grant` may instead buy
by a fixed rule (all infantry, or armour first). The closest capital is counted in spaces (territories and sea
zones) on the board."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Move, Purchase
from aare.board.notation import format_units, parse_units
from aare.errors import IllegalAction
from aare.events import DecisionPending, Event, ExtraSet, UnitsAdded
from aare.movement.graph import graph_of
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.state.unit_stacks import Stack

TRIGGER_RULE = "REAL98-NEUTRAL-defence-trigger"
OVERFLIGHT_RULE = "REAL98-NEUTRAL-overflight-allowed"
DICE_RULE = "REAL98-NEUTRAL-defence-dice"
SPEND_RULE = "REAL98-NEUTRAL-defence-spend"
VIOLATED = "neutrals_violated"
GRANT = "neutral_grant"
DICE = 3
SIX_DICE = frozenset({"Turkey", "Spain"})  # REAL98-NEUTRAL-defence-dice
CHOICE = "choice"
BUYS = {"infantry": ("infantry",), "armour-first": ("armour", "infantry")}
DECISION = "neutral_grant"


def is_neutral(ruleset: Any, state: Any, space: str) -> bool:
    """A Classic neutral nobody holds: a land territory with no original owner and no controller."""
    found = ruleset.board.spaces[space]
    return found.is_land and found.owner is None and state.owners.get(space) is None


def violated(state: Any) -> list[str]:
    return list(state.extra.get(VIOLATED) or [])


def granting_power(ruleset: Any, state: Any, mover: str, neutral: str) -> str:
    """The mover's opponent whose capital is closest to `neutral` (spaces counted over land and sea); a tie goes
    to the tied opponent who plays first after the mover."""
    board = ruleset.board
    graph = graph_of(board)
    side = board.side_of(mover)
    order = [p.name for p in board.powers]
    start = order.index(mover)
    best: tuple[int, int, str] | None = None
    for power in board.powers:
        capital = power.capital
        if power.side == side or capital is None:
            continue
        distance = graph.distances_from([capital]).get(neutral, len(board.spaces))
        key = (distance, (order.index(power.name) - start) % len(order), power.name)
        best = key if best is None or key < best else best
    assert best is not None, "a side without opponents"
    return best[2]


def grant_units(ruleset: Any, state: Any, power: str, ipcs: int) -> dict[str, int]:
    """What `ipcs` buy under the option `neutral_grant` when it is a fixed rule (all infantry, or armour first)."""
    units = BUYS.get(str(ruleset.options.get(GRANT, CHOICE)), BUYS["infantry"])
    return grant_units_by(ruleset, state, power, ipcs, units)


class NeutralViolation(PhaseExtension):
    """A move entering or flying over a neutral not yet violated: the grant is rolled and its units placed there
    at once (REAL98-NEUTRAL-defence-trigger, -overflight-allowed, -defence-dice, -defence-spend)."""

    def __init__(self, phase: str) -> None:
        self.name = phase

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Move):
            return
        ruleset = ctx.ruleset
        path = [ruleset.board.resolve(s) for s in action.path]
        grants = [self.grant(ctx, n) for n in dict.fromkeys(path[1:])
                  if is_neutral(ruleset, ctx.state, n) and n not in violated(ctx.state)]
        if grants and ruleset.options.get(GRANT, CHOICE) == CHOICE:
            ctx.emit(grant_decision(grants))

    @staticmethod
    def grant(ctx: TurnContext, neutral: str) -> dict[str, Any]:
        """Roll the grant for `neutral`; bought at once by a fixed rule, else returned for the granting power's
        decision."""
        ruleset, state = ctx.ruleset, ctx.state
        power = granting_power(ruleset, state, ctx.power, neutral)
        dice = 2 * DICE if neutral in SIX_DICE else DICE
        ipcs = sum(ctx.roll(dice, f"neutral defence grant: {power} for {neutral}"))
        events: list[Event] = [ExtraSet(VIOLATED, [*violated(ctx.state), neutral], TRIGGER_RULE)]
        if ruleset.options.get(GRANT, CHOICE) != CHOICE:
            for unit, count in grant_units(ruleset, state, power, ipcs).items():
                events.append(UnitsAdded(neutral, Stack(power, unit, count), SPEND_RULE))
        ctx.emit(*events)
        return {"power": power, "neutral": neutral, "ipcs": ipcs}


def grant_decision(grants: list[dict[str, Any]]) -> DecisionPending:
    """Play waits for the first grant's power to buy its defenders; the others follow in turn (`queue`)."""
    first, *rest = grants
    return DecisionPending({"kind": DECISION, **first, "queue": rest})


def grant_choices(ruleset: Any, state: Any, power: str, ipcs: int) -> list[dict[str, int]]:
    """Orders offered for a grant: as many of each land or air unit as it pays for, and armour then infantry."""
    orders: list[dict[str, int]] = []
    for unit in ruleset.units:
        cost = ruleset.unit_cost(unit.id, power=power, state=state).value
        if unit.domain in ("land", "air") and not unit.has("factory") and 0 < cost <= ipcs:
            orders.append({unit.id: ipcs // cost})
    for mixed in BUYS.values():
        order = grant_units_by(ruleset, state, power, ipcs, mixed)
        if order and order not in orders:
            orders.append(order)
    return orders


def grant_units_by(ruleset: Any, state: Any, power: str, ipcs: int, units: Iterable[str]) -> dict[str, int]:
    """`ipcs` spent on `units` in order, each as many as the rest pays for."""
    bought: dict[str, int] = {}
    for unit in units:
        cost = ruleset.unit_cost(unit, power=power, state=state).value
        count = ipcs // cost if cost else 0
        if count:
            bought[unit] = count
            ipcs -= count * cost
    return bought


class GrantPurchase(PhaseExtension):
    """The granting power buys the neutral's defenders: land and air units, at most the grant; what is left is
    lost (REAL98-NEUTRAL-defence-spend)."""

    name = "neutral-grant"
    action_types = frozenset({"purchase"})
    answers = frozenset({DECISION})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if space is None and pending is not None and pending.get("kind") == DECISION:
            power, ipcs = str(pending["power"]), int(pending["ipcs"])
            for order in grant_choices(ctx.ruleset, ctx.state, power, ipcs):
                yield Purchase(units=format_units(order, ctx.ruleset.units))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        pending = ctx.state.pending
        if pending is None or pending.get("kind") != DECISION or not isinstance(action, Purchase):
            raise IllegalAction("units are bought in the purchase phase", "LHTR-TURN-phase-sequence")
        ruleset, state = ctx.ruleset, ctx.state
        power, neutral, ipcs = str(pending["power"]), str(pending["neutral"]), int(pending["ipcs"])
        units = parse_units(action.units, ruleset.units)
        wrong = [u for u in units if ruleset.units[u].domain not in ("land", "air") or ruleset.units[u].has("factory")]
        if wrong:
            raise IllegalAction(f"a neutral defence grant buys land and air units only, not {', '.join(wrong)}",
                                SPEND_RULE)
        cost = sum(ruleset.unit_cost(u, power=power, state=state).value * n for u, n in units.items())
        if cost > ipcs:
            raise IllegalAction(f"{format_units(units, ruleset.units)} cost {cost} IPCs; the grant is {ipcs}",
                                SPEND_RULE)
        queue = list(pending.get("queue") or [])
        ctx.emit(*(UnitsAdded(neutral, Stack(power, u, n), SPEND_RULE) for u, n in units.items() if n),
                 grant_decision(queue) if queue else DecisionPending(None))


GRANT_PURCHASE = GrantPurchase()


EXTENSIONS = {phase: NeutralViolation(phase) for phase in ("combat-move", "non-combat-move")}


def _phase_actions(extensions: list[PhaseExtension], phase: str, **_: Any) -> list[PhaseExtension]:
    found = EXTENSIONS.get(phase)
    return [*extensions, found, GRANT_PURCHASE] if found is not None else extensions


MODULE = register_module(
    RuleModule(
        id="realism_neutrals",
        title="Enhanced Realism '98 neutrals",
        rule_ids=("REAL98-NEUTRAL-no-penalty", TRIGGER_RULE, OVERFLIGHT_RULE, DICE_RULE, SPEND_RULE),
        hooks={"phase_actions": _phase_actions},
        options=(
            # the Classic entry fee and ban on overflight (module classic_movement) are fixed off here
            OptionSpec("neutral_entry_fee", int, 0, "IPCs a power pays to enter a neutral: none in Realism '98",
                       "REAL98-NEUTRAL-no-penalty", choices=(0,)),
            OptionSpec("neutral_overflight", bool, True, "aircraft may fly over neutrals (a violation, which calls "
                       "in the defence grant)", OVERFLIGHT_RULE, choices=(True,)),
            OptionSpec(GRANT, str, CHOICE, "how a neutral defence grant is spent: chosen by the granting power, or "
                       "bought by rule: all infantry, or armour first and infantry with the rest (the remainder is "
                       "lost)", SPEND_RULE, choices=(CHOICE, *BUYS)),
        ),
    )
)
