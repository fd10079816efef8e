"""AARe 5.0 Russia-Japan non-aggression treaty (seed "BASE GAME" 4; the record and triggers are in
`aare.rulesets.aare.treaty`).

While the treaty is active the module watches every phase: a capital of Russia or Japan changing hands voids
it without free infantry. On the turns of Russia and Japan it also watches their moves (entering the listed
territories, overflights), their attacks (settled when conduct-combat begins, before any battle: break, void,
or both, with one set of free infantry placed at once or where the victim chooses, `treaty_infantry`), their
rockets, and at Japan's collect-income the convoy raids of Russian submarines on Japan.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from typing import Any

from aare.actions import Move, Rocket, TreatyInfantry
from aare.board.notation import parse_units
from aare.errors import IllegalAction
from aare.events import DecisionPending, ExtraSet, UnitsAdded
from aare.movement.battles import pending_battles
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.convoy import raided_by
from aare.rulesets.aare.treaty import (
    DECISION,
    JAPAN,
    KEY,
    PARTIES,
    R_BOTH,
    R_BREAK_FREE,
    R_BREAK_ONE,
    R_CAPITAL,
    R_ECONOMIC,
    R_ENDS,
    R_VOID_FREE,
    RUSSIA,
    active,
    attack_triggers,
    capital_lost,
    ended,
    fresh,
    infantry_count,
    move_triggers,
    places,
    record,
    trigger,
)
from aare.state.unit_stacks import Stack


def settle(ctx: TurnContext, triggers: Sequence[Mapping[str, Any]]) -> None:
    """End the treaty for `triggers` and grant the one set of free infantry: placed at once when there is one
    place for it, else the victim chooses (a pending decision)."""
    victim = str(triggers[0]["victim"])
    where = places(ctx.state, ctx.ruleset, triggers)
    breaks = any(t["kind"] == "break" for t in triggers)
    rule = R_BREAK_FREE if breaks else R_VOID_FREE
    count = infantry_count(ctx.state, ctx.ruleset, victim, rule)
    if len(where) == 1:
        _place(ctx, triggers, where[0], count, rule)
        return
    ctx.emit(ExtraSet(KEY, ended(ctx.state, triggers, None), str(triggers[0]["rule"])))
    if not where:
        return
    both = breaks and any(t["kind"] == "void" for t in triggers)
    decision = {
        "kind": DECISION,
        "power": victim,
        "space": None,
        "count": count,
        "rule": R_BOTH if both else R_BREAK_ONE,
        "reason": "; ".join(str(t["reason"]) for t in triggers),
        "options": [TreatyInfantry(space=s).to_json() for s in where],
    }
    ctx.emit(DecisionPending(decision))


def _place(ctx: TurnContext, triggers: Sequence[Mapping[str, Any]], space: str, count: int, rule: str) -> None:
    victim = str(triggers[0]["victim"])
    infantry = {"power": victim, "space": space, "count": count}
    ctx.emit(ExtraSet(KEY, ended(ctx.state, triggers, infantry), str(triggers[0]["rule"])))
    ctx.emit(UnitsAdded(space, Stack(victim, "infantry", count), rule))


class Treaty(PhaseExtension):
    """The treaty's watch over a phase while it is active, and the victim's choice of where the infantry go."""

    name = "non-aggression-treaty"
    action_types = frozenset({"treaty_infantry"})
    answers = frozenset({DECISION})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if pending is not None and pending.get("kind") == DECISION:
            for option in pending.get("options", ()):
                if space in (None, option["space"]):
                    yield TreatyInfantry(space=option["space"])

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        pending = ctx.state.pending
        if pending is None or pending.get("kind") != DECISION:
            raise IllegalAction("no free treaty infantry are waiting to be placed", R_ENDS)
        space = ctx.ruleset.board.resolve(action.space)
        allowed = [o["space"] for o in pending.get("options", ())]
        if space not in allowed:
            raise IllegalAction(f"the free infantry go to one of {', '.join(allowed)}", str(pending["rule"]))
        triggers = record(ctx.state)["reasons"]
        rule = R_BREAK_FREE if any(t["kind"] == "break" for t in triggers) else R_VOID_FREE
        _place(ctx, triggers, space, int(pending["count"]), rule)
        ctx.emit(DecisionPending(None))

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not active(ctx.state):
            return
        lost = capital_lost(ctx.state, ctx.ruleset)
        if lost is not None:
            reason = {"kind": "void", "rule": R_CAPITAL, "by": ctx.power, "victim": lost, "space": "",
                      "reason": f"{lost}'s capital is captured"}
            ctx.emit(ExtraSet(KEY, ended(ctx.state, [reason], None), R_CAPITAL))
            return
        if ctx.power not in PARTIES:
            return
        phase = ctx.state.phase
        if isinstance(action, Move) and phase in ("combat-move", "non-combat-move"):
            path = [ctx.ruleset.board.resolve(p) for p in action.path]
            air = any(ctx.ruleset.units[u].domain == "air" for u in parse_units(action.units, ctx.ruleset.units))
            found = move_triggers(ctx.state, ctx.ruleset, path, air)
            if found and phase == "combat-move":
                rec = record(ctx.state)
                new = [t for t in found if t not in rec["pending"]]
                if new:
                    ctx.emit(ExtraSet(KEY, {**rec, "pending": [*rec["pending"], *new]}, str(new[0]["rule"])))
            elif found:
                settle(ctx, found)
        elif isinstance(action, Rocket) and phase == "conduct-combat":
            target = ctx.ruleset.board.resolve(action.target)
            if ctx.state.owners.get(target) == (JAPAN if ctx.power == RUSSIA else RUSSIA):
                settle(ctx, [trigger("void", R_ECONOMIC, ctx.power, target, f"{ctx.power} fires a rocket at {target}")])

    def on_enter(self, ctx: TurnContext) -> None:
        if not active(ctx.state):
            return
        phase, power = ctx.state.phase, ctx.power
        if phase == "conduct-combat" and power in PARTIES:
            sites = [s for s in pending_battles(ctx.state, ctx.ruleset) if s.kind != "flyover"]
            found = [*record(ctx.state)["pending"], *attack_triggers(ctx.state, ctx.ruleset, sites)]
            if found:
                settle(ctx, found)
        elif phase == "collect-income" and power == JAPAN and raided_by(ctx.state, JAPAN, RUSSIA):
            settle(ctx, [trigger("void", R_ECONOMIC, RUSSIA, "", "Russian submarines raid Japan's convoys")])


TREATY = Treaty()


def _initial(state: Any, ruleset: Any, **_: Any) -> Any:
    """Russia and Japan start bound by the treaty (AARE-NAT-initial-state)."""
    if not ruleset.options.get("non_aggression_treaty", True):
        return state
    return replace(state, extra={**state.extra, KEY: fresh()})


def _phase_actions(found: list[Any], ruleset: Any, state: Any, **_: Any) -> list[Any]:
    if not ruleset.options.get("non_aggression_treaty", True) or state is None:
        return found
    pending = state.pending
    if active(state) or (pending is not None and pending.get("kind") == DECISION):
        return [*found, TREATY]
    return found


def _summary_records(keys: list[str], **_: Any) -> list[str]:
    """The treaty record is shown in a game's summary."""
    return [*keys, KEY]


AARE_TREATY = register_module(
    RuleModule(
        id="aare_treaty",
        title="AARe 5.0 Russia-Japan non-aggression treaty",
        rule_ids=(
            "AARE-NAT-initial-state",
            "AARE-NAT-break-russia-attacks-orange",
            "AARE-NAT-break-japan-attacks-red",
            "AARE-NAT-break-free-inf",
            "AARE-NAT-break-single-territory",
            "AARE-NAT-void-russia-attacks-japanese-nonorange",
            "AARE-NAT-void-japan-attacks-russian-nonred",
            "AARE-NAT-void-russia-enters-allied-orange",
            "AARE-NAT-void-japan-enters-german-red",
            "AARE-NAT-void-overflight",
            "AARE-NAT-void-naval-attack",
            "AARE-NAT-void-economic-attack",
            "AARE-NAT-void-free-inf",
            "AARE-NAT-void-capital-capture",
            "AARE-NAT-void-and-break-same-phase",
            "AARE-NAT-unlisted-actions-allowed",
            "AARE-NAT-ends-permanently",
        ),
        hooks={"initial_state": _initial, "phase_actions": _phase_actions, "summary_records": _summary_records},
        requires=("lhtr",),
        options=(
            OptionSpec(
                key="non_aggression_treaty",
                type=bool,
                default=True,
                help="Russia and Japan start the game with a non-aggression treaty",
                rule_id="AARE-NAT-initial-state",
            ),
        ),
    )
)
