"""AARHE submarines passing enemy destroyers in combat move (module `aarhe_sub_passage`; AARHE-SUBMOVE-*).

A submarine may move through a sea zone holding enemy destroyers; each destroyer there rolls one ASW search die
at 3 - 1 = 2 against one passing submarine (dealt out over them). A detected submarine ends its move in that zone
and fights there; after all the rolls, the mover chooses for its undetected submarines: sail on (`press`) or stop
in a zone they passed (`designate stop: 1 submarine in SZ 6`). In non-combat move destroyers still bar the way
(LHTR), so no battle can arise outside the combat phase.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Designate, Move, Press
from aare.board.notation import format_units, parse_units
from aare.errors import IllegalAction
from aare.events import DecisionPending, Event, UnitsChanged
from aare.movement.move_checks import Check, Leg, Violation, sea_passage
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.research import ADVANCED_ASW, ADVANCED_SUB, has_tech

R_SEARCH = "AARHE-SUBMOVE-asw-search"
R_STOP = "AARHE-SUBMOVE-detected-stop"
R_CHOICE = "AARHE-SUBMOVE-undetected-choice"

SEARCH_ON = 3 - 1  # the ASW search value, -1 against a passing submarine
DECISION = "sub_passage"


def passage(leg: Leg) -> Violation | None:
    """LHTR's sea passage, but a submarine in combat move may pass a zone with enemy destroyers."""
    found = sea_passage(leg)
    if found is not None and found.rule_id == "LHTR-SEAMOVE-sub-passage" and leg.combat:
        rest = [s for s in leg.path[1:-1] if leg.view.blocks(s) and s not in leg.view.destroyer_seas]
        return None if not rest else found
    return found


def _checks(checks: list[Check], **_: Any) -> list[Check]:
    return [passage if check is sea_passage else check for check in checks]


def _enemy_destroyers(ctx: TurnContext, zone: str) -> int:
    board, units = ctx.ruleset.board, ctx.ruleset.units
    return sum(s.count for s in ctx.state.stacks(zone) if board.side_of(s.owner) != board.side_of(ctx.power)
               and units[s.unit].has("anti_submarine"))


def _passage_modifier(ctx: TurnContext, zone: str) -> int:
    """+1 when an owner of the searching destroyers has Advanced ASW (AARHE-TECH-advanced-asw), -1 when the
    mover has Advanced Submarine (AARHE-TECH-advanced-submarine-stealth)."""
    board, units = ctx.ruleset.board, ctx.ruleset.units
    owners = {s.owner for s in ctx.state.stacks(zone) if board.side_of(s.owner) != board.side_of(ctx.power)
              and units[s.unit].has("anti_submarine")}
    asw = any(has_tech(ctx.state, o, ADVANCED_ASW) for o in owners)
    return (1 if asw else 0) - (1 if has_tech(ctx.state, ctx.power, ADVANCED_SUB) else 0)


class SubPassage(PhaseExtension):
    """Combat move: the ASW search of the destroyers a moving submarine passes, then the mover's choice."""

    name = "combat-move"
    action_types = frozenset({"press", "designate"})
    answers = frozenset({DECISION})

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Move) or ctx.state.pending is not None:
            return
        units = ctx.ruleset.units
        subs = sum(n for u, n in parse_units(action.units, units).items() if units[u].has("passes_hostile"))
        path = [ctx.ruleset.board.resolve(s) for s in action.path]
        guarded = [z for z in path[1:-1] if _enemy_destroyers(ctx, z)]
        if not subs or not guarded:
            return
        sub = next(u.id for u in units if u.has("passes_hostile"))
        end = path[-1]
        passed = []
        for zone in guarded:
            dice = _enemy_destroyers(ctx, zone)
            search_on = SEARCH_ON + _passage_modifier(ctx, zone)
            per = [dice // subs + (1 if i < dice % subs else 0) for i in range(subs)]
            rolled = ctx.roll(sum(per), f"ASW search in {zone}: {dice} destroyer(s) against {subs} submarine(s)")
            found, i = 0, 0
            for n in per:
                found += any(v <= search_on for v in rolled[i:i + n])
                i += n
            if found:
                ctx.emit(*_stop(ctx, sub, found, end, zone))
                subs -= found
            passed.append(zone)
            if not subs:
                return
        ctx.emit(DecisionPending({"kind": DECISION, "power": ctx.power, "unit": sub, "count": subs, "at": end,
                                  "zones": passed, "rule": R_CHOICE}))

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if space is not None or pending is None or pending.get("kind") != DECISION:
            return []
        text = format_units({pending["unit"]: pending["count"]}, ctx.ruleset.units)
        return [Press(), *(Designate(advantage="stop", units=text, space=z) for z in pending["zones"])]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        pending = ctx.state.pending
        if pending is None or pending.get("kind") != DECISION:
            raise IllegalAction("no submarine is waiting to sail on or stop", R_CHOICE)
        if isinstance(action, Designate):
            if action.advantage != "stop":
                raise IllegalAction("answer with press (sail on) or designate stop", R_CHOICE)
            zone = ctx.ruleset.board.resolve(action.space)
            wanted = parse_units(action.units, ctx.ruleset.units)
            count = wanted.get(str(pending["unit"]), 0)
            if zone not in pending["zones"] or set(wanted) != {pending["unit"]} or not 0 < count <= pending["count"]:
                raise IllegalAction(f"up to {pending['count']} submarine(s) may stop in "
                                    f"{', '.join(pending['zones'])}", R_CHOICE)
            ctx.emit(*_stop(ctx, str(pending["unit"]), count, str(pending["at"]), zone))
        elif not isinstance(action, Press):
            raise IllegalAction("answer with press (sail on) or designate stop", R_CHOICE)
        ctx.emit(DecisionPending(None))


def _stop(ctx: TurnContext, sub: str, count: int, end: str, zone: str) -> list[Event]:
    """`count` of the mover's submarines that just reached `end` end their move in `zone` instead."""
    out: list[Event] = []
    for stack in ctx.state.stacks(end):
        if count and stack.owner == ctx.power and stack.unit == sub:
            n = min(count, stack.count)
            count -= n
            out.append(UnitsChanged(end, stack.with_count(n), stack.with_count(n), to_space=zone))
    return out


AARHE_SUB_PASSAGE = register_module(
    RuleModule(
        id="aarhe_sub_passage",
        title="AARHE submarines passing destroyers",
        rule_ids=(R_SEARCH, R_STOP, R_CHOICE),
        hooks={"move_checks": _checks, "phase_actions": by_phase(SubPassage())},
    )
)
