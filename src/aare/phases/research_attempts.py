"""Research by attempts at one named technology, under the 4:2 rule: the first attempt at a tech needs at least
`first_min` rolls (any 6 develops it), the second `second_dice` rolls and succeeds without a roll, and an
attempt of `research_auto_dice` rolls (a value rule modules may set; 0: never) succeeds without a roll too.
One attempt per tech and turn: the turn's rolls for a tech are bought together. The price of a roll is the
`research_cost` value for the tech (`aare.economy.tech.research_price`); `ally_has_tech` is the condition of the
usual shared-technology discount.

Each power's attempts are kept in ``extra["research_attempts"] = {power: {tech: [rounds]}}``. A developed tech
waits in `extra["tech_pending"]` until mobilize (`in_force_at_once` False) or is in force at once; `gained` is
the place for what a ruleset grants with it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from aare.actions import Research
from aare.economy.tech import pending, pending_event, research_cost, resolve_tech, technologies
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet, TechGained
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Context
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

ATTEMPTS = "research_attempts"


@dataclass(frozen=True)
class AttemptRules:
    """The numbers of the 4:2 rule and the rule each check names."""

    first_rule: str
    second_rule: str
    auto_rule: str
    cost_rule: Callable[[str], str]  # tech -> the rule of its price
    first_min: int = 4
    second_dice: int = 2
    second_exact: bool = False  # the second attempt buys exactly `second_dice` rolls (else at least)
    max_dice: int | None = 6  # most rolls in one attempt (None: no limit)
    auto_dice: int = 6  # rolls of one attempt that develop the tech without a roll (0: none)
    in_force_at_once: bool = False  # a developed tech is in force at once (else from mobilize)
    phase_rule: str = "LHTR-TURN-phase-sequence"


def ally_has_tech(context: Context) -> bool:
    """Another power of the researcher's side already has the tech in force (a shared-technology discount)."""
    ruleset, state, power, tech = (context.get(k) for k in ("ruleset", "state", "power", "tech"))
    if ruleset is None or state is None or not tech:
        return False
    side = ruleset.board.side_of(power)
    return any(p != power and ruleset.board.side_of(p) == side and tech in t for p, t in state.techs.items())


def attempts(state: GameState, power: str, tech: str) -> list[int]:
    """The rounds in which `power` rolled for `tech`."""
    table = state.extra.get(ATTEMPTS) or {}
    return list((table.get(power) or {}).get(tech, []))


def record_event(state: GameState, power: str, tech: str, rule_id: str) -> ExtraSet:
    """`power` made an attempt at `tech` this round."""
    table = {p: {t: list(r) for t, r in techs.items()} for p, techs in (state.extra.get(ATTEMPTS) or {}).items()}
    mine = table.setdefault(power, {})
    mine[tech] = [*mine.get(tech, []), state.round]
    return ExtraSet(ATTEMPTS, {p: dict(sorted(t.items())) for p, t in sorted(table.items())}, rule_id)


class AttemptResearch(PhaseExtension):
    """The `research` action of develop-weapons: rolls toward one named technology under the 4:2 rule."""

    name = "develop-weapons"
    action_types = frozenset({"research"})

    def __init__(self, rules: AttemptRules) -> None:
        self.rules = rules

    def auto_dice(self, state: GameState, ruleset: Ruleset, power: str, tech: str) -> int:
        """Rolls in one attempt that develop `tech` without a roll (0: none)."""
        found = ruleset.value("research_auto_dice", power, self.rules.auto_dice, self.rules.auto_rule, power=power,
                              state=state, tech=tech)
        return int(found.value)

    def minimum_dice(self, state: GameState, power: str, tech: str) -> tuple[int, str]:
        """The fewest rolls of an attempt, with the rule."""
        if attempts(state, power, tech):
            return self.rules.second_dice, self.rules.second_rule
        return self.rules.first_min, self.rules.first_rule

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        power = ctx.power
        have = set(ctx.state.techs.get(power, ())) | set(pending(ctx.state, power))
        for tech in technologies(ctx.ruleset):
            if tech in have or ctx.state.round in attempts(ctx.state, power, tech):
                continue
            least, _ = self.minimum_dice(ctx.state, power, tech)
            auto = self.auto_dice(ctx.state, ctx.ruleset, power, tech)
            most = self.rules.max_dice
            counts = {least}
            if auto and not (self.rules.second_exact and attempts(ctx.state, power, tech)):
                counts.add(min(most, auto) if most is not None else auto)
            for dice in sorted(counts):
                yield Research(dice=dice, tech=tech)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", self.rules.phase_rule)
        rules, state, power = self.rules, ctx.state, ctx.power
        if not action.tech:
            raise IllegalAction("name the technology the dice are for", "LHTR-TECH-choose-target")
        tech = resolve_tech(ctx.ruleset, action.tech)
        if tech in state.techs.get(power, ()) or tech in pending(state, power):
            raise IllegalAction(f"{power} already has {tech}", "LHTR-TECH-choose-target")
        tried = attempts(state, power, tech)
        if state.round in tried:
            reason = f"{power} already rolled for {tech} this turn: a turn's dice for a tech are bought together"
            raise IllegalAction(reason, rules.second_rule)
        least, rule = self.minimum_dice(state, power, tech)
        if action.dice < least:
            which = "a second" if tried else "a first"
            raise IllegalAction(f"{which} attempt at {tech} needs at least {least} rolls", rule)
        if tried and rules.second_exact and action.dice != least:
            raise IllegalAction(f"a second attempt at {tech} buys exactly {least} rolls", rule)
        if rules.max_dice is not None and action.dice > rules.max_dice:
            raise IllegalAction(f"at most {rules.max_dice} rolls for one tech in a turn", rules.auto_rule)
        cost = action.dice * research_cost(state, ctx.ruleset, power, tech)
        bank = state.banks.get(power, 0)
        if cost > bank:
            reason = f"{action.dice} rolls for {tech} cost {cost} IPCs; {power} has {bank}"
            raise IllegalAction(reason, rules.cost_rule(tech))
        ctx.emit(BankChanged(power, -cost, "research", rules.cost_rule(tech)))
        automatic = self._automatic(ctx, tech, action.dice, bool(tried))
        ctx.emit(record_event(ctx.state, power, tech, rule))
        if automatic:
            self.develop(ctx, tech, automatic)
        elif 6 in ctx.roll(action.dice, f"research {tech}"):
            self.develop(ctx, tech, rules.first_rule)

    def develop(self, ctx: TurnContext, tech: str, rule_id: str) -> None:
        """`tech` is developed: in force at once (then `gained`) or waiting for mobilize."""
        if self.rules.in_force_at_once:
            ctx.emit(TechGained(ctx.power, tech, rule_id))
            self.gained(ctx, tech)
        else:
            ctx.emit(pending_event(ctx.state, ctx.power, [*pending(ctx.state, ctx.power), tech], rule_id))

    def gained(self, ctx: TurnContext, tech: str) -> None:
        """What comes with a tech in force at once (nothing here)."""

    def _automatic(self, ctx: TurnContext, tech: str, dice: int, second: bool) -> str:
        """The rule that develops `tech` without a roll, or ""."""
        if second:
            return self.rules.second_rule
        auto = self.auto_dice(ctx.state, ctx.ruleset, ctx.power, tech)
        if auto and dice >= auto:
            return self.rules.auto_rule
        return ""
