"""AARHE defensive air support and air interdiction (module `aarhe_air_support`; AARHE-DAS-*,
AARHE-INTERDICT-*): during an enemy turn a power's aircraft may defend in an adjacent space and its bombers may
strike an adjacent hostile one.

When the enemy team's conduct combat starts, each power of the other side with a mission that can matter is
asked in turn (pending ``air_missions``, answered with one `air_missions` action; no battle is fought before
every declaration is in). Supporting aircraft fly to their target and defend there from the second cycle
(held back in the first: `JOINS_NEXT_CYCLE`), so they are absent from their home's battle. The strikes are
resolved as the declarations close (`interdiction`). When the last member of the enemy team leaves conduct
combat, the aircraft return home if it is still friendly; else supporting aircraft stay in the space they
supported if it is friendly, and aircraft fly to the first friendly territory adjacent to where they are; else
they are lost.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import AirMissions, ChooseCasualties
from aare.combat.battle_state import JOINS_NEXT_CYCLE, UnitKey, make_stacks
from aare.errors import IllegalAction
from aare.events import DecisionPending, Event, UnitsChanged, UnitsRemoved
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.movement.graph import graph_of
from aare.phases.base import PhaseExtension, TurnContext, phase_handler
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe import air_missions as am
from aare.rulesets.aarhe import interdiction
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

MISSIONS_SHOWN = 8  # the ready-made declarations offered besides "none"


class Declarations(PhaseExtension):
    """Conduct combat of the enemy team: the declarations, the strikes, and the aircraft's return."""

    name = "conduct-combat"
    action_types = frozenset({"air_missions", "choose_casualties"})
    answers = frozenset({am.DECISION, interdiction.CASUALTIES})

    def on_enter(self, ctx: TurnContext) -> None:
        if am.record(ctx.state):
            return  # a teammate opened this turn's declarations
        board = ctx.ruleset.board
        side = board.side_of(ctx.power)
        asked = [p.name for p in board.powers
                 if p.side != side and am.may_declare(ctx.state, ctx.ruleset, p.name)]
        ctx.emit(am.record_event(ctx.state, asked=asked, declared={}, strikes=[], interdicted={}, open=bool(asked)))
        if asked:
            ctx.emit(_ask(asked[0]))

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if space is not None or pending is None:
            return []
        if pending.get("kind") == interdiction.CASUALTIES:
            return interdiction.candidates(ctx)
        if pending.get("kind") != am.DECISION:
            return []
        useful = am.useful_missions(ctx.state, ctx.ruleset, str(pending["power"]))
        return [AirMissions(missions=""), *(AirMissions(missions=m.text(ctx.ruleset)) for m in useful)][
            : MISSIONS_SHOWN + 1]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        pending = ctx.state.pending or {}
        if isinstance(action, ChooseCasualties):
            if pending.get("kind") == interdiction.CASUALTIES:
                interdiction.answer(ctx, action)
                self._close(ctx)
            else:  # a battle's casualties
                phase_handler(ctx.state.phase).events_for(ctx, action)
            return
        if pending.get("kind") != am.DECISION:
            raise IllegalAction("air missions are declared as the enemy's conduct combat starts, before any battle "
                                "of its turn", am.R_DECLARE)
        power = str(pending["power"])
        missions = am.parse(action.missions, ctx.ruleset)
        am.check(ctx.state, ctx.ruleset, power, missions)
        for mission in missions:
            ctx.emit(*am.fly(ctx.state, power, mission))
        rec = am.record(ctx.state)
        strikes = [*rec.get("strikes", []), *({"power": power, "home": m.home, "target": m.target,
                                                "units": dict(m.units)} for m in missions if m.strike)]
        asked = list(rec.get("asked", []))[1:]
        declared = {**rec.get("declared", {}), power: "; ".join(m.text(ctx.ruleset) for m in missions)}
        ctx.emit(am.record_event(ctx.state, asked=asked, declared=declared, strikes=strikes))
        if asked:
            ctx.emit(_ask(asked[0]))
            return
        ctx.emit(DecisionPending(None))
        interdiction.resolve(ctx)
        self._close(ctx)

    @staticmethod
    def _close(ctx: TurnContext) -> None:
        """Battles may start once every declaration is in and every strike resolved."""
        rec = am.record(ctx.state)
        if ctx.state.pending is None and not rec.get("strikes") and rec.get("open"):
            ctx.emit(am.record_event(ctx.state, open=False))

    def before(self, ctx: TurnContext, action: Any) -> None:
        _refuse_while_open(ctx)

    def can_end(self, ctx: TurnContext) -> None:
        _refuse_while_open(ctx)

    def on_exit(self, ctx: TurnContext) -> None:
        others = [p for p, place in ctx.state.members.items()
                  if p != ctx.power and place.get("phase") == self.name and place.get("status") != "done"]
        if not others:
            ctx.emit(*returns(ctx.state, ctx.ruleset))


def _ask(power: str) -> DecisionPending:
    return DecisionPending({"kind": am.DECISION, "power": power, "rule": am.R_DECLARE})


def _refuse_while_open(ctx: TurnContext) -> None:
    rec = am.record(ctx.state)
    if rec.get("open"):
        asked = rec.get("asked") or []
        who = f"{asked[0]} declares its air missions" if asked else "the interdiction strikes are resolved"
        raise IllegalAction(f"{who} first: no battle before every declaration is in", am.R_DECLARE)


# ---------------------------------------------------------------- the return


def _friendly(state: GameState, ruleset: Ruleset, space: str, power: str) -> bool:
    return am.friendly_land(state, ruleset, space, power)


def _landing(state: GameState, ruleset: Ruleset, stack: Stack, home: str, here: str, stay: bool) -> str | None:
    """Where aircraft on a mission land: home if friendly; else `here` when they may stay; else the first
    friendly territory adjacent to `here`; None: nowhere (lost)."""
    if _friendly(state, ruleset, home, stack.owner):
        return home
    if stay and _friendly(state, ruleset, here, stack.owner):
        return here
    return next((t for t in sorted(graph_of(ruleset.board).air[here]) if _friendly(state, ruleset, t, stack.owner)),
                None)


def returns(state: GameState, ruleset: Ruleset) -> list[Event]:
    """AARHE-DAS-return, AARHE-INTERDICT-return: every aircraft on a mission lands (or is lost)."""
    out: list[Event] = []
    for space, stacks in sorted(state.units.items()):
        for stack in stacks:
            home, target = flags.value(stack, am.SUPPORT), flags.value(stack, am.STRIKE)
            if home is not None:
                to = _landing(state, ruleset, stack, home, space, True)
                rule = am.R_RETURN
            elif target is not None:
                to = _landing(state, ruleset, stack, space, target, False)
                rule = am.R_STRIKE_RETURN
            else:
                continue
            if to is None:
                out.append(UnitsRemoved(space, stack, rule))
                continue
            after = flags.with_flags(stack, drop=[am.SUPPORT, am.STRIKE, flags.ELSEWHERE])
            out.append(UnitsChanged(space, stack, after, to_space=to if to != space else ""))
    return out


# ---------------------------------------------------------------- in battle


def battle_inputs(inputs: dict[str, Any], state: GameState, site: BattleSite, **_: Any) -> dict[str, Any]:
    """AARHE-DAS-second-cycle: the supporting aircraft among the defenders are held back until cycle 2."""
    late: dict[tuple[str, str, int], int] = {}
    for stacks in site.defenders.values():
        for stack in stacks:
            if flags.value(stack, am.SUPPORT) is not None:
                late[(stack.unit, stack.owner, stack.damage)] = late.get((stack.unit, stack.owner, stack.damage),
                                                                         0) + stack.count
    if not late:
        return inputs
    out: list[tuple[UnitKey, int]] = []
    for key, n in inputs["defender"]:
        held = min(n, late.get((key.type, key.owner, key.damage), 0))
        if held and not key.flags:
            late[(key.type, key.owner, key.damage)] -= held
            out += [(key.with_flag(JOINS_NEXT_CYCLE), held), (key, n - held)]
        else:
            out.append((key, n))
    return {**inputs, "defender": make_stacks(out)}


AARHE_AIR_SUPPORT = register_module(
    RuleModule(
        id="aarhe_air_support",
        title="AARHE defensive air support and air interdiction",
        rule_ids=(am.R_ELIGIBLE, am.R_ONE_SPACE, am.R_SECOND_CYCLE, am.R_RETURN, am.R_DECLARE, am.R_UNATTACKED,
                  am.R_MISSION, am.R_NO_COMBAT, am.R_STRIKE_RETURN, am.R_ID_FIRE, am.R_MOVEMENT),
        hooks={"phase_actions": by_phase(Declarations(), interdiction.MoveDice()), "battle_inputs": battle_inputs},
        options=(
            OptionSpec(
                key=am.ASKED_OPTION,
                type=str,
                default=am.ASK_USEFUL,
                choices=(am.ASK_USEFUL, am.ASK_ALWAYS),
                help="who is asked for air missions: powers with a mission that can matter (support to or from an "
                "attacked space, a strike on enemy land or sea units), or every power whose aircraft may fly one",
                rule_id=am.R_DECLARE,
            ),
        ),
    )
)
