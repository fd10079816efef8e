"""AARe research (seed "WEAPONS DEVELOPMENT" 7-9): major and minor techs, the 4:2 rule, the shared-tech
discount. A phase extension of develop-weapons takes over the `research` action; a developed tech waits in
`extra["tech_pending"]` and is in force from the power's mobilize phase, as in LHTR.

Each power's attempts are kept in ``extra["research_attempts"] = {power: {tech: [rounds]}}``: the first
attempt at a tech needs 4 dice (any 6 develops it), the second 2 and succeeds without a roll, and 6 dice in
one attempt succeed without a roll (`research_auto_dice`, which national advantages may lower). One attempt
per tech and turn: the turn's dice for a tech are bought together.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Research
from aare.economy.tech import pending, pending_event, research_cost, resolve_tech, technologies
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.effects import Context, Effect
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

MAJOR = ("rockets", "long_range_aircraft", "heavy_bombers")  # AARE-TECH-major-cost-5
MINOR = ("super_submarines", "combined_bombardment", "jet_fighters")  # AARE-TECH-minor-cost-4
ATTEMPTS = "research_attempts"
FIRST_MIN, SECOND_MIN, ALL_DICE = 4, 2, 6


def _ally_has(context: Context) -> bool:
    """AARE-TECH-shared-discount: another power of the researcher's side already has the tech in force."""
    ruleset, state, power, tech = (context.get(k) for k in ("ruleset", "state", "power", "tech"))
    if ruleset is None or state is None or not tech:
        return False
    side = ruleset.board.side_of(power)
    return any(p != power and ruleset.board.side_of(p) == side and tech in t for p, t in state.techs.items())


COST_EFFECTS = (
    Effect("research_cost", "*", "set", 5, "AARE-TECH-major-cost-5", "major technology",
           lambda c: c.get("tech") in MAJOR),
    Effect("research_cost", "*", "set", 4, "AARE-TECH-minor-cost-4", "minor technology",
           lambda c: c.get("tech") in MINOR),
    # one effect: the discount stays 1 however many allies have the tech (AARE-TECH-shared-discount-max-1)
    Effect("research_cost", "*", "add", -1, "AARE-TECH-shared-discount", "an ally has it", _ally_has),
)


def attempts(state: GameState, power: str, tech: str) -> list[int]:
    """The rounds in which `power` rolled for `tech`."""
    table = state.extra.get(ATTEMPTS) or {}
    return list((table.get(power) or {}).get(tech, []))


def auto_dice(state: GameState, ruleset: Ruleset, power: str, tech: str) -> int:
    """Dice in one attempt that develop `tech` without a roll (AARE-TECH-42-six-rolls-auto)."""
    found = ruleset.value("research_auto_dice", power, ALL_DICE, "AARE-TECH-42-six-rolls-auto", power=power,
                          state=state, tech=tech)
    return found.value


def minimum_dice(state: GameState, power: str, tech: str) -> tuple[int, str]:
    """The fewest dice of an attempt, with the rule (AARE-TECH-42-first-attempt-min-4, -second-attempt-auto)."""
    if attempts(state, power, tech):
        return SECOND_MIN, "AARE-TECH-42-second-attempt-auto"
    return FIRST_MIN, "AARE-TECH-42-first-attempt-min-4"


def _record(state: GameState, power: str, tech: str, rule_id: str) -> ExtraSet:
    table = {p: {t: list(r) for t, r in techs.items()} for p, techs in (state.extra.get(ATTEMPTS) or {}).items()}
    mine = table.setdefault(power, {})
    mine[tech] = [*mine.get(tech, []), state.round]
    return ExtraSet(ATTEMPTS, {p: dict(sorted(t.items())) for p, t in sorted(table.items())}, rule_id)


class AareResearch(PhaseExtension):
    """The `research` action of develop-weapons under the AARe rules."""

    name = "develop-weapons"
    action_types = frozenset({"research"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        power = ctx.power
        have = set(ctx.state.techs.get(power, ())) | set(pending(ctx.state, power))
        for tech in technologies(ctx.ruleset):
            if tech in have or ctx.state.round in attempts(ctx.state, power, tech):
                continue
            least, _ = minimum_dice(ctx.state, power, tech)
            for dice in sorted({least, min(ALL_DICE, auto_dice(ctx.state, ctx.ruleset, power, tech))}):
                yield Research(dice=dice, tech=tech)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", "LHTR-TURN-phase-sequence")
        state, power = ctx.state, ctx.power
        if not action.tech:
            raise IllegalAction("name the technology the dice are for", "LHTR-TECH-choose-target")
        tech = resolve_tech(ctx.ruleset, action.tech)
        if tech in state.techs.get(power, ()) or tech in pending(state, power):
            raise IllegalAction(f"{power} already has {tech}", "LHTR-TECH-choose-target")
        tried = attempts(state, power, tech)
        if state.round in tried:
            reason = f"{power} already rolled for {tech} this turn: a turn's dice for a tech are bought together"
            raise IllegalAction(reason, "AARE-TECH-42-second-attempt-auto")
        least, rule = minimum_dice(state, power, tech)
        if action.dice < least:
            which = "a second" if tried else "a first"
            raise IllegalAction(f"{which} attempt at {tech} needs at least {least} rolls", rule)
        if action.dice > ALL_DICE:
            raise IllegalAction(f"at most {ALL_DICE} rolls for one tech in a turn", "AARE-TECH-42-six-rolls-auto")
        price = research_cost(state, ctx.ruleset, power, tech)
        cost = action.dice * price
        bank = state.banks.get(power, 0)
        cost_rule = "AARE-TECH-major-cost-5" if tech in MAJOR else "AARE-TECH-minor-cost-4"
        if cost > bank:
            raise IllegalAction(f"{action.dice} rolls for {tech} cost {cost} IPCs; {power} has {bank}", cost_rule)
        ctx.emit(BankChanged(power, -cost, "research", cost_rule))
        automatic = self._automatic(ctx, tech, action.dice, bool(tried))
        ctx.emit(_record(ctx.state, power, tech, rule))
        if automatic:
            ctx.emit(pending_event(ctx.state, power, [*pending(ctx.state, power), tech], automatic))
        elif 6 in ctx.roll(action.dice, f"research {tech}"):
            developed = [*pending(ctx.state, power), tech]
            ctx.emit(pending_event(ctx.state, power, developed, "AARE-TECH-42-first-attempt-min-4"))

    @staticmethod
    def _automatic(ctx: TurnContext, tech: str, dice: int, second: bool) -> str:
        """The rule that develops `tech` without a roll, or ""."""
        if second:
            return "AARE-TECH-42-second-attempt-auto"
        if dice >= auto_dice(ctx.state, ctx.ruleset, ctx.power, tech):
            return "AARE-TECH-42-six-rolls-auto"
        return ""


RESEARCH = AareResearch()
