"""AARHE Phase 1 bombers' bail-out (module `aarhep1_bailout`, AARHEP1-OPT-lra-bomber-bailout): a nation with
Long-range aircraft whose bombers are shot down in its conduct combat (in a battle, a raid, or by AA guns as they
fly over) may save each for 10 IPCs (`designate bail_out: 1 bomber in Western Europe`) until the phase ends. A
saved bomber is back where it was lost, has done no damage and takes no further part in combat that turn (its
raid's damage was rolled without it); it flies on in non-combat move. A bomber not saved is lost as usual.

State: ``extra["aarhep1_bailout"] = {"round", "power", "downed": {space: [stack, ...]}}``, the bombers lost this
conduct combat and not saved."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Designate
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet, UnitsAdded, UnitsRemoved
from aare.movement import flags
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_BAILOUT = "AARHEP1-OPT-lra-bomber-bailout"
BAIL_OUT = "bail_out"  # the `designate` purpose
PRICE = 10
LONG_RANGE = "long_range_aircraft"
RECORD = "aarhep1_bailout"


def downed(state: Any) -> dict[str, list[Stack]]:
    """The bombers of the power to move lost this conduct combat and not saved, by space."""
    found = state.extra.get(RECORD) or {}
    if found.get("round") != state.round or found.get("power") != state.nation:
        return {}
    return {space: [Stack.from_json(s) for s in stacks] for space, stacks in found.get("downed", {}).items()}


def _record(state: Any, lost: dict[str, list[Stack]]) -> ExtraSet:
    table = {space: [s.to_json() for s in stacks] for space, stacks in sorted(lost.items()) if stacks}
    return ExtraSet(RECORD, {"round": state.round, "power": state.nation, "downed": table}, R_BAILOUT)


def _waiting(state: Any, space: str) -> int:
    return sum(s.count for s in downed(state).get(space, []))


class BailOut(PhaseExtension):
    """Conduct combat: the bombers lost are noted as they fall; `designate bail_out` saves them for 10 IPCs each."""

    name = "conduct-combat"
    action_types = frozenset({"designate"})

    def _note(self, ctx: TurnContext) -> None:
        power = ctx.power
        if LONG_RANGE not in ctx.state.techs.get(power, ()):
            return
        lost = [e for e in ctx.events if isinstance(e, UnitsRemoved) and e.stack.owner == power
                and ctx.ruleset.units[e.stack.unit].has("bomber")]
        if not lost:
            return
        table = downed(ctx.state)
        for event in lost:
            table[event.space] = [*table.get(event.space, []), event.stack]
        ctx.emit(_record(ctx.state, table))

    def on_enter(self, ctx: TurnContext) -> None:
        self._note(ctx)  # aircraft lost to AA guns as they flew over

    def after(self, ctx: TurnContext, action: Any) -> None:
        if action.type != "designate":
            self._note(ctx)

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if ctx.state.pending is not None or ctx.state.banks.get(ctx.power, 0) < PRICE:
            return
        for where in downed(ctx.state):
            if space in (None, where):
                yield Designate(advantage=BAIL_OUT, units="1 bomber", space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, power = ctx.state, ctx.power
        if not isinstance(action, Designate) or action.advantage != BAIL_OUT:
            raise IllegalAction(f"{getattr(action, 'advantage', action.type)} is nothing to designate here "
                                f"(designate {BAIL_OUT}: N bomber in SPACE)", R_BAILOUT)
        if state.pending is not None:
            raise IllegalAction("the battle waits for an answer first", R_BAILOUT)
        if LONG_RANGE not in state.techs.get(power, ()):
            raise IllegalAction(f"{power} has not developed Long-range aircraft", R_BAILOUT)
        space = ctx.ruleset.board.resolve(action.space)
        units = parse_units(action.units, ctx.ruleset.units)
        n = units.get("bomber", 0)
        if set(units) != {"bomber"} or n < 1:
            raise IllegalAction("only bombers bail out", R_BAILOUT)
        if n > _waiting(state, space):
            raise IllegalAction(f"{power} lost {_waiting(state, space)} bombers in {space} this turn, not {n}",
                                R_BAILOUT)
        if PRICE * n > state.banks.get(power, 0):
            raise IllegalAction(f"saving {n} bombers costs {PRICE * n} IPCs; {power} has "
                                f"{state.banks.get(power, 0)}", R_BAILOUT)
        table = downed(state)
        left, saved = n, []
        rest = []
        for stack in table[space]:
            take = min(left, stack.count)
            left -= take
            if take:
                saved.append(stack.with_count(take))
            if stack.count - take:
                rest.append(stack.with_count(stack.count - take))
        table[space] = rest
        ctx.emit(BankChanged(power, -PRICE * n, f"rule: {n} bombers saved", R_BAILOUT))
        for stack in saved:  # out of any battle still to come there (a bomber downed on its way), as if repelled
            back = flags.with_flags(stack, [flags.RETREATED], drop=[flags.COMBAT, flags.FLYOVER])
            ctx.emit(UnitsAdded(space, back, R_BAILOUT))
        ctx.emit(_record(ctx.state, table))


AARHEP1_BAILOUT = register_module(
    RuleModule(
        id="aarhep1_bailout",
        title="AARHE Phase 1 bombers' bail-out: a bomber shot down saved for 10 IPCs (Long-range aircraft)",
        rule_ids=(R_BAILOUT,),
        hooks={"phase_actions": by_phase(BailOut())},
        requires=("aarhep1_research",),
    )
)
