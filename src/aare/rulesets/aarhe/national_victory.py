"""AARHE national victory (module `aarhe_national_victory`, option `national_victory`): besides its side's victory
or defeat, a power wins as a nation by achieving three of its national goals (AARHE-NATVICTORY-*).

- Selection: before play (the `national-goals` phase of round 0) each power with goals chooses three of them in
  secret (`choose sea-lion, barbarossa, defend-fatherland`), one power after the other in turn order, play waiting
  for its decision (`national_goals`, so the table offers the choices). The choice is
  recorded in `extra["national_goals"][power]`, a hidden field only that power sees (`hidden_fields`): every view
  (CLI, API, event stream, pages, exports before the end) shows the others `hidden` there, and the action that
  made it shows only its type.
- What goals look back on is a public record (`extra["national_goal_facts"]`, `national_goals.Facts`), kept for
  every goal whether chosen or not, so it gives no choice away: the captures of Germany and the United Kingdom,
  each power's collections, and whether the Soviet Union lost a territory with its complex.
- Reveal: at the end of each complete round a power whose chosen goals are all met as things stand has them
  revealed to everyone (the record's `revealed`); once the game has ended every choice is shown.
- Win: at the game's end a power that met three of its chosen goals is a national victor (`national_victors`,
  shown with how the goals stand in the summary's victory standing).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from itertools import combinations
from typing import Any

from aare.actions import Choose
from aare.economy.bids import bidders
from aare.economy.production import has_complex
from aare.errors import IllegalAction
from aare.events import BankChanged, DecisionPending, ExtraSet, PhaseEntered
from aare.phases.base import PhaseExtension, PhaseHandler, TurnContext, register_phase
from aare.rules.hidden import Hidden
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.national_goals import FACTS, GOALS, USSR, WATCHED, Facts, goals_of

OPTION = "national_victory"
COUNT = "national_goals_chosen"
KEY = "national_goals"
PHASE = "national-goals"
R_SELECTION = "AARHE-NATVICTORY-selection"
R_WIN = "AARHE-NATVICTORY-win"
R_REVEAL = "AARHE-NATVICTORY-reveal"
TO_WIN = 3


def enabled(ruleset: Any) -> bool:
    return bool(ruleset.options.get(OPTION, False))


def to_choose(ruleset: Any, power: str) -> int:
    """How many goals `power` chooses: the option (3 by default), at most all of its list."""
    return min(int(ruleset.options.get(COUNT, TO_WIN)), len(goals_of(power)))


def choosers(ruleset: Any) -> list[str]:
    """The powers of the board that have national goals, in turn order."""
    return [p.name for p in ruleset.board.powers if goals_of(p.name)]


def chosen(state: Any) -> dict[str, Any]:
    """Each power's chosen goal ids (a list; in a view that may not see them, the marker `hidden`)."""
    raw = state.extra.get(KEY)
    return dict(raw) if isinstance(raw, Mapping) else {}


# -- the public record ----------------------------------------------------------------------------------------


def _facts_raw(state: Any) -> dict[str, Any]:
    raw = state.extra.get(FACTS)
    return dict(raw) if isinstance(raw, Mapping) else {}


def revealed(state: Any) -> dict[str, int]:
    """The powers whose choices were revealed, with the round at whose end they were."""
    return dict(_facts_raw(state).get("revealed") or {})


def observed(ruleset: Any, state: Any) -> dict[str, Any]:
    """The public record brought up to date with the board: a capture of a watched territory (its controller
    changed), a territory with a Soviet complex controlled by someone else (one scorched by its owner no longer
    counts)."""
    raw = _facts_raw(state)
    seen = dict(raw.get("seen") or {})
    captures = {t: list(p) for t, p in (raw.get("captures") or {}).items()}
    for territory in WATCHED:
        now = state.owners.get(territory)
        if territory in seen and now is not None and now != seen[territory]:
            captures.setdefault(territory, []).append(now)
        seen[territory] = now
    ics = set(raw.get("ics") or ())
    ics |= {t for t, o in state.owners.items() if o == USSR and has_complex(state, ruleset, t)}
    ics = {t for t in ics if has_complex(state, ruleset, t) or state.owners.get(t) != USSR}
    lost = bool(raw.get("ics_lost")) or any(state.owners.get(t) != USSR for t in ics)
    return {**raw, "seen": seen, "captures": captures, "ics": sorted(ics), "ics_lost": lost}


def collected(raw: Mapping[str, Any], power: str, amount: int) -> dict[str, Any]:
    """The record with `power`'s collection of `amount` IPCs."""
    last, peak, low = (dict(raw.get(k) or {}) for k in ("collected", "peak", "low"))
    return {**raw, "collected": {**last, power: amount}, "peak": {**peak, power: max(amount, peak.get(power, amount))},
            "low": {**low, power: min(amount, low.get(power, amount))}}


def met_goals(ruleset: Any, state: Any, power: str) -> list[str]:
    """Those of `power`'s chosen goals met on `state` (none while they are hidden in it)."""
    ids = chosen(state).get(power)
    if not isinstance(ids, list):
        return []
    facts, goals = Facts.of(state), goals_of(power)
    return [g for g in ids if g in goals and goals[g].check(ruleset, state, facts)]


def national_victors(ruleset: Any, state: Any) -> list[str]:
    """The powers that achieved three of their chosen goals on `state` (at the game's end: the national victors,
    AARHE-NATVICTORY-win)."""
    return [p for p in chosen(state) if len(met_goals(ruleset, state, p)) >= TO_WIN]


def judged(ruleset: Any, state: Any, round_: int) -> dict[str, Any]:
    """The record after judging the end of round `round_`: a power whose chosen goals are all met (three at
    least) has them revealed (AARHE-NATVICTORY-reveal)."""
    raw = observed(ruleset, state)
    shown = dict(raw.get("revealed") or {})
    for power, ids in chosen(state).items():
        if power in shown or not isinstance(ids, list):
            continue
        if len(met_goals(ruleset, state, power)) >= min(TO_WIN, len(ids)):
            shown[power] = round_
    return {**raw, "revealed": shown, "judged": round_}


# -- the selection phase --------------------------------------------------------------------------------------


def decision(ruleset: Any, power: str) -> dict[str, Any]:
    """The decision play waits for while `power` chooses (how many; its choices are the legal actions)."""
    return {"kind": "national_goals", "power": power, "count": to_choose(ruleset, power), "refusal_rule": R_SELECTION}


def parse_choice(text: str) -> list[str]:
    return [part.strip().lower() for part in text.split(",") if part.strip()]


class GoalSelection(PhaseHandler):
    """Round 0: each power with goals chooses them in secret (AARHE-NATVICTORY-selection)."""

    name = PHASE
    title = "Choose national goals"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        power = ctx.power
        if space is not None or power in chosen(ctx.state):
            return
        ids = list(goals_of(power))
        for combo in combinations(ids, to_choose(ctx.ruleset, power)):
            yield Choose(option=", ".join(combo))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Choose):
            super().events_for(ctx, action)
            return
        power, record = ctx.power, chosen(ctx.state)
        goals, n = goals_of(power), to_choose(ctx.ruleset, power)
        if power in record:
            raise IllegalAction(f"{power} has chosen its national goals", R_SELECTION)
        ids = parse_choice(action.option)
        unknown = [g for g in ids if g not in goals]
        if unknown:
            raise IllegalAction(f"{power} has no national goal {unknown[0]!r} (its goals: {', '.join(goals)})",
                                R_SELECTION)
        if len(set(ids)) != n or len(ids) != n:
            raise IllegalAction(f"{power} chooses {n} different national goals, not {len(set(ids))}", R_SELECTION)
        ctx.emit(ExtraSet(KEY, {**record, power: ids}, R_SELECTION), DecisionPending(None))

    def on_enter(self, ctx: TurnContext) -> None:
        if ctx.power not in chosen(ctx.state) and ctx.state.pending is None:
            ctx.emit(DecisionPending(decision(ctx.ruleset, ctx.power)))

    def can_end(self, ctx: TurnContext) -> None:
        if ctx.power not in chosen(ctx.state):
            raise IllegalAction(f"{ctx.power} chooses its national goals first ('choose GOAL, GOAL, GOAL')",
                                R_SELECTION)

    def on_exit(self, ctx: TurnContext) -> None:
        ruleset, state = ctx.ruleset, ctx.state
        waiting = [p for p in choosers(ruleset) if p not in chosen(state)]
        if waiting:
            ctx.emit(PhaseEntered(0, waiting[0], PHASE))
            return
        bidding = bidders(ruleset, state) if state.extra.get("bid") else []
        if bidding:
            ctx.emit(PhaseEntered(0, bidding[0], "setup-bid"))
            return
        first = ruleset.turn_order(1).turns[0].powers[0]  # a team's first turn: the engine starts the team
        ctx.emit(PhaseEntered(1, first, ruleset.phase_table()[0].name))


GOAL_SELECTION = register_phase(GoalSelection())


class GoalWatch(PhaseExtension):
    """Every phase of play: the public record kept up to date after each action; a collection recorded as it is
    made; the end of a complete round judged as the next begins (AARHE-NATVICTORY-reveal)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def _update(self, ctx: TurnContext, raw: dict[str, Any]) -> None:
        if raw != _facts_raw(ctx.state):
            ctx.emit(ExtraSet(FACTS, raw, R_WIN))

    def on_enter(self, ctx: TurnContext) -> None:
        state = ctx.state
        raw = observed(ctx.ruleset, state)
        if self.name == "collect-income":
            amount = sum(e.delta for e in ctx.events if isinstance(e, BankChanged) and e.power == ctx.power
                         and e.reason.startswith("income"))
            raw = collected(raw, ctx.power, amount)
        self._update(ctx, raw)
        done = int(_facts_raw(ctx.state).get("judged", 0))
        if state.round >= 2 and done < state.round - 1:
            self._update(ctx, judged(ctx.ruleset, ctx.state, state.round - 1))

    def after(self, ctx: TurnContext, action: Any) -> None:
        self._update(ctx, observed(ctx.ruleset, ctx.state))

    def on_exit(self, ctx: TurnContext) -> None:
        self._update(ctx, observed(ctx.ruleset, ctx.state))


_WATCHES: dict[str, GoalWatch] = {}


def _phase_actions(found: list[Any], ruleset: Any, phase: str, **_: Any) -> list[Any]:
    if not enabled(ruleset) or phase == PHASE:
        return found
    return [*found, _WATCHES.setdefault(phase, GoalWatch(phase))]


def _start(state: Any, ruleset: Any, **_: Any) -> Any:
    """Play starts with the choice of goals in round 0 (AARHE-NATVICTORY-selection); the public record starts
    with the board as set up."""
    if not enabled(ruleset) or not choosers(ruleset):
        return state
    extra = {**state.extra, KEY: {}, FACTS: {}}
    state = replace(state, extra=extra)
    extra = {**extra, FACTS: observed(ruleset, state)}
    first = choosers(ruleset)[0]
    return replace(state, round=0, nation=first, phase=PHASE, extra=extra, pending=decision(ruleset, first))


def _hidden(found: list[Hidden], ruleset: Any, state: Any, **_: Any) -> list[Hidden]:
    """A power's choice is its own secret until revealed (AARHE-NATVICTORY-selection, -reveal)."""
    if not enabled(ruleset):
        return found
    shown = revealed(state)
    return [*found, *(Hidden(("extra", KEY, p), frozenset({p}), R_SELECTION) for p in chosen(state) if p not in shown)]


def goal_titles(power: str, ids: Iterable[str]) -> list[str]:
    goals = goals_of(power)
    return [goals[g].title if g in goals else g for g in ids]


def _standing(records: list[dict[str, Any]], ruleset: Any, state: Any, **_: Any) -> list[dict[str, Any]]:
    """How each power's national goals stand, as far as the reader may see them; at the end, who won as a
    nation (AARHE-NATVICTORY-win)."""
    if not enabled(ruleset):
        return records
    out = list(records)
    ended = state.winner is not None
    for power, ids in chosen(state).items():
        if not isinstance(ids, list):
            out.append({"kind": "national goals", "power": power, "text": f"{power}'s national goals: hidden",
                        "rule_id": R_SELECTION})
            continue
        met = met_goals(ruleset, state, power)
        goals = ", ".join(f"{title} ({'met' if g in met else 'not met'})"
                          for g, title in zip(ids, goal_titles(power, ids), strict=True))
        text = f"{power}'s national goals: {goals}"
        won = len(met) >= TO_WIN
        if ended:
            text += "; a national victory" if won else "; no national victory"
        out.append({"kind": "national goals", "power": power, "text": text, "goals": list(ids), "met": met,
                    "rule_id": R_WIN if ended else R_SELECTION, "national_victor": ended and won})
    return out


AARHE_NATIONAL_VICTORY = register_module(
    RuleModule(
        id="aarhe_national_victory",
        title="AARHE national victory (option): secret national goals",
        rule_ids=(R_SELECTION, R_WIN, R_REVEAL, *(g.rule for g in GOALS)),
        hooks={"initial_state": _start, "phase_actions": _phase_actions, "hidden_fields": _hidden,
               "victory_standing": _standing},
        options=(
            OptionSpec(OPTION, bool, False, "national victory: each power chooses three secret national goals before "
                       "play and wins as a nation by achieving them", R_WIN),
            OptionSpec(COUNT, int, TO_WIN, "national victory: the goals each power chooses (three of them win)",
                       R_SELECTION, minimum=TO_WIN),
        ),
    )
)
