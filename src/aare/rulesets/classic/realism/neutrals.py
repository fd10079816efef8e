"""Enhanced Realism '98 neutrals (module `realism_neutrals`): attacking a neutral costs nothing, but attacking it
or flying over it gives the mover's opponent whose capital is closest a grant of 3 dice of IPCs (6 for Turkey or
Spain), spent at once on units placed in the neutral to defend it. A held neutral's value of 1 is counted by the
economy module (`realism`).

The grant is bought by a fixed rule (the option `neutral_grant`: all infantry, or armour first), not by a choice
of the granting player; the closest capital is counted in spaces (territories and sea zones) on the board."""

from __future__ import annotations

from typing import Any

from aare.actions import Move
from aare.events import Event, ExtraSet, UnitsAdded
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
BUYS = {"infantry": ("infantry",), "armour-first": ("armour", "infantry")}


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
    """What `ipcs` buy under the option `neutral_grant`: the listed units in order, each as many as the rest pays."""
    bought: dict[str, int] = {}
    for unit in BUYS[str(ruleset.options.get(GRANT, "infantry"))]:
        cost = ruleset.unit_cost(unit, power=power, state=state).value
        count = ipcs // cost if cost else 0
        if count:
            bought[unit] = count
            ipcs -= count * cost
    return bought


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
        for neutral in dict.fromkeys(path[1:]):
            if is_neutral(ruleset, ctx.state, neutral) and neutral not in violated(ctx.state):
                self.grant(ctx, neutral)

    @staticmethod
    def grant(ctx: TurnContext, neutral: str) -> None:
        ruleset, state = ctx.ruleset, ctx.state
        power = granting_power(ruleset, state, ctx.power, neutral)
        dice = 2 * DICE if neutral in SIX_DICE else DICE
        ipcs = sum(ctx.roll(dice, f"neutral defence grant: {power} for {neutral}"))
        events: list[Event] = [ExtraSet(VIOLATED, [*violated(ctx.state), neutral], TRIGGER_RULE)]
        for unit, count in grant_units(ruleset, state, power, ipcs).items():
            events.append(UnitsAdded(neutral, Stack(power, unit, count), SPEND_RULE))
        ctx.emit(*events)


EXTENSIONS = {phase: NeutralViolation(phase) for phase in ("combat-move", "non-combat-move")}


def _phase_actions(extensions: list[PhaseExtension], phase: str, **_: Any) -> list[PhaseExtension]:
    found = EXTENSIONS.get(phase)
    return [*extensions, found] if found is not None else extensions


MODULE = register_module(
    RuleModule(
        id="realism_neutrals",
        title="Enhanced Realism '98 neutrals",
        rule_ids=("REAL98-NEUTRAL-no-penalty", TRIGGER_RULE, OVERFLIGHT_RULE, DICE_RULE, SPEND_RULE),
        hooks={"phase_actions": _phase_actions},
        options=(
            OptionSpec(GRANT, str, "infantry", "how a neutral defence grant is spent: all infantry, or armour first "
                       "and infantry with the rest (the remainder is lost)", SPEND_RULE, choices=tuple(BUYS)),
        ),
    )
)
