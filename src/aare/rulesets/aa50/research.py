"""Research & development (module `aa50_research`): research tokens and the two breakthrough charts; the
non-combat technologies.

- Tokens: in the research phase a power buys tokens at 5 IPCs each (`research` actions with no technology);
  they are kept in ``extra["research_tokens"] = {power: n}``, public (`aare show` lists them). When the power
  ends the phase it rolls one die per token held; any 6 discards every token, and each 6 is one breakthrough
  (a switch: one per turn). The power then chooses a chart per breakthrough (a `research_chart` decision
  answered by `choose_chart`, which waits at the start of the purchase phase) and rolls on it, rerolling
  technologies it already has. A technology is in force at once (TechGained), before any unit is bought.
- War Bonds: a die of IPCs at collect income, while the power collects income (its capital held).
- Improved Mechanized Infantry: an infantry moving in one move with as many tanks as infantry moves 2 (and
  blitzes with them).
- Improved Shipyards: the naval costs (`cost` effects). Long-Range Aircraft: the core's +2 for aircraft.
- Paratroopers: bombers carry one infantry each in combat move (`aare.rulesets.aa50.paratroopers`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable
from dataclasses import replace
from typing import Any

from aare.actions import ChooseChart, Research
from aare.economy.tech import held, held_event
from aare.errors import IllegalAction
from aare.events import BankChanged, DecisionPending, ExtraSet, TechGained
from aare.movement.move_checks import Check, Leg, Violation, land_passage
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.develop_weapons import buy_research
from aare.rules.effects import Context, Effect
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aa50.modules import CHART_1, CHART_2
from aare.rulesets.aa50.paratroopers import PARATROOPERS
from aare.state.game_state import GameState

TOKENS = "research_tokens"
DECISION = "research_chart"
CHARTS = (CHART_1, CHART_2)
ONE_PER_TURN = "one_breakthrough_per_turn"
MAX_REROLLS = 100  # rerolls on a chart before its first missing technology is taken (never with real dice)

R_BUY = "AA50-RESEARCH-buy-tokens"
R_ROLL = "AA50-RESEARCH-roll-per-token"
R_DISCARD = "AA50-RESEARCH-tokens-discarded"
R_PER_SIX = "AA50-RESEARCH-one-tech-per-six"
R_CHARTS = ("AA50-RESEARCH-chart-1", "AA50-RESEARCH-chart-2")
R_WAR_BONDS = "AA50-RESEARCH-war-bonds"
R_MECH = "AA50-RESEARCH-mechanized-infantry"
R_SHIPYARDS = "AA50-RESEARCH-improved-shipyards"

WAR_BONDS = "war_bonds"
MECH_INFANTRY = "improved_mechanized_infantry"
SHIPYARDS = "improved_shipyards"
SHIPYARD_COSTS = {"battleship": 17, "carrier": 11, "cruiser": 10, "destroyer": 7, "transport": 6, "submarine": 5}


def tokens(state: GameState, power: str) -> int:
    """The research tokens `power` holds."""
    return held(state, TOKENS, power)


def tokens_event(state: GameState, power: str, count: int, rule_id: str) -> ExtraSet:
    """`power` holds `count` research tokens."""
    return held_event(state, TOKENS, power, count, rule_id)


def has_tech(state: GameState | None, power: str, tech: str) -> bool:
    return state is not None and tech in state.techs.get(power, ())


def open_charts(state: GameState, power: str) -> list[int]:
    """The charts (1, 2) with a technology `power` does not have yet (AA50-RESEARCH-one-tech-per-six)."""
    have = set(state.techs.get(power, ()))
    return [i + 1 for i, chart in enumerate(CHARTS) if not set(chart) <= have]


def _decision(state: GameState, power: str, count: int) -> DecisionPending:
    """The chart choice of `count` breakthroughs, or no decision when none is left or every chart is complete."""
    charts = open_charts(state, power)
    if count <= 0 or not charts:
        return DecisionPending(None)
    return DecisionPending({"kind": DECISION, "power": power, "count": count, "charts": charts,
                            "options": [ChooseChart(chart=c).to_json() for c in charts], "rule": R_PER_SIX})


class TokenResearch(PhaseExtension):
    """Buying tokens in the research phase, and the roll of every token held when it ends."""

    name = "develop-weapons"
    action_types = frozenset({"research"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None:
            yield Research(dice=1)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", "AA50-PHASES-sequence")
        if action.tech:
            raise IllegalAction("research buys tokens, not dice for a named technology: 'research N'", R_BUY)
        buy_research(ctx, action.dice, TOKENS, R_BUY, "research token(s)")

    def on_exit(self, ctx: TurnContext) -> None:
        """One die per token held (AA50-RESEARCH-roll-per-token); a 6 discards them all and each 6 is a
        breakthrough whose chart the power chooses next."""
        power = ctx.power
        held = tokens(ctx.state, power)
        if not held:
            return
        sixes = ctx.roll(held, f"research: {held} token(s)").count(6)
        if not sixes:
            return
        ctx.emit(tokens_event(ctx.state, power, 0, R_DISCARD))
        if ctx.ruleset.options.get(ONE_PER_TURN, False):
            sixes = 1
        ctx.emit(_decision(ctx.state, power, sixes))


class ChartChoice(PhaseExtension):
    """A breakthrough's chart: the power names it, rolls on it (rerolling what it has) and gains the technology."""

    name = "research-chart"
    action_types = frozenset({"choose_chart"})
    answers = frozenset({DECISION})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        pending = ctx.state.pending
        if space is None and pending is not None and pending.get("kind") == DECISION:
            for chart in pending.get("charts", ()):
                yield ChooseChart(chart=chart)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        pending = ctx.state.pending
        if pending is None or pending.get("kind") != DECISION or not isinstance(action, ChooseChart):
            raise IllegalAction("no research breakthrough is waiting for its chart", R_PER_SIX)
        power = str(pending["power"])
        if action.chart > len(CHARTS):
            raise IllegalAction(f"there are {len(CHARTS)} breakthrough charts", R_PER_SIX)
        if action.chart not in open_charts(ctx.state, power):
            raise IllegalAction(f"{power} has every technology of chart {action.chart}", R_PER_SIX)
        chart = CHARTS[action.chart - 1]
        have = set(ctx.state.techs.get(power, ()))
        tech = ""
        for _ in range(MAX_REROLLS):
            rolled = chart[ctx.roll(1, f"research chart {action.chart}")[0] - 1]
            if rolled not in have:
                tech = rolled
                break
        tech = tech or next(t for t in chart if t not in have)
        ctx.emit(TechGained(power, tech, R_CHARTS[action.chart - 1]))
        ctx.emit(_decision(ctx.state, power, int(pending["count"]) - 1))


class WarBonds(PhaseExtension):
    """War Bonds: a die of IPCs at collect income (AA50-RESEARCH-war-bonds)."""

    name = "war-bonds"

    def on_enter(self, ctx: TurnContext) -> None:
        state, power, board = ctx.state, ctx.power, ctx.ruleset.board
        if not has_tech(state, power, WAR_BONDS) or board.capital_of(power) is None:
            return
        if not board.holds_capital(power, state.owners):
            return  # no income while the capital is held by the enemy (AA50-ECON-capital-captured)
        bonds = ctx.roll(1, "war bonds")[0]
        ctx.emit(BankChanged(power, bonds, "income", R_WAR_BONDS))


TOKEN_RESEARCH, CHART_CHOICE, WAR_BONDS_INCOME = TokenResearch(), ChartChoice(), WarBonds()


def _phase_actions(found: list[Any], phase: str, state: GameState | None = None, **_: Any) -> list[Any]:
    """Tokens in the research phase, the chart choice wherever it waits, paratroopers in combat move, War Bonds
    at collect income."""
    added: list[Any] = []
    if phase == "develop-weapons":
        added.append(TOKEN_RESEARCH)
    if state is not None and state.pending is not None and state.pending.get("kind") == DECISION:
        added.append(CHART_CHOICE)
    if phase == "combat-move":
        added.append(PARATROOPERS)
    if phase == "collect-income":
        added.append(WAR_BONDS_INCOME)
    return [*found, *added]


def _records(found: dict[str, Any], state: GameState, power: str, **_: Any) -> dict[str, Any]:
    """Research tokens are public: `aare show` lists each power's."""
    held = tokens(state, power)
    return {**found, "research tokens": held} if held else found


# --- Improved Mechanized Infantry -----------------------------------------------------------------------------


def _paired(leg: Leg) -> bool:
    """The move's infantry have a tank each: as many blitzing units as infantry move together."""
    view = leg.view
    company = Counter({u: n for u, n in leg.company})
    infantry = sum(n for u, n in company.items() if view.unit(u, leg.stack.owner).has("infantry"))
    tanks = sum(n for u, n in company.items() if view.unit(u, leg.stack.owner).has("blitz"))
    return infantry <= tanks


def _mechanized(leg: Leg) -> bool:
    return leg.unit.has("infantry") and has_tech(leg.view.state, leg.stack.owner, MECH_INFANTRY)


def mech_pairing(leg: Leg) -> Violation | None:
    """Infantry move a second space only together with a tank each (AA50-RESEARCH-mechanized-infantry)."""
    if not _mechanized(leg) or leg.stack.moved + leg.cost <= leg.unit.move or _paired(leg):
        return None
    reason = f"{leg.where}: infantry move {leg.unit.move + 1} spaces only with one tank each in the same move"
    return Violation(reason, R_MECH)


def _blitzing(check: Check) -> Check:
    """The land-passage check, judging paired mechanized infantry as the armour they blitz with."""

    def land_passage(leg: Leg) -> Violation | None:
        if leg.combat and _mechanized(leg) and _paired(leg):
            blitzing = Leg(leg.view, leg.combat, leg.stack, leg.path, leg.raid, leg.others, leg.company)
            blitzing.__dict__["unit"] = replace(leg.unit, tags=leg.unit.tags | {"blitz"})
            return check(blitzing)
        return check(leg)

    return land_passage


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    """Paired mechanized infantry blitz with their tanks; the pairing is judged before the passage."""
    out: list[Check] = []
    for check in checks:
        if getattr(check, "__name__", "") == land_passage.__name__:
            out += [mech_pairing, _blitzing(check)]
        else:
            out.append(check)
    return out if mech_pairing in out else [*out, mech_pairing]


def _holds(tech: str) -> Callable[[Context], bool]:
    def requires(context: Context) -> bool:
        return has_tech(context.get("state"), str(context.get("power", "")), tech)

    return requires


EFFECTS = (
    Effect("movement", "infantry", "add", 1, R_MECH, "Improved Mechanized Infantry (with a tank)",
           _holds(MECH_INFANTRY)),
    *(Effect("cost", unit, "set", cost, R_SHIPYARDS, "Improved Shipyards", _holds(SHIPYARDS))
      for unit, cost in SHIPYARD_COSTS.items()),
)

MODULE = register_module(
    RuleModule(
        id="aa50_research",
        title="Research & development",
        rule_ids=(R_BUY, R_ROLL, R_DISCARD, R_PER_SIX, "AA50-RESEARCH-effective-immediately",
                  "AA50-PURCHASE-research-tokens", R_WAR_BONDS, R_MECH, R_SHIPYARDS,
                  "AA50-RESEARCH-long-range-aircraft", "AA50-RESEARCH-paratroopers"),
        hooks={"phase_actions": _phase_actions, "nation_records": _records, "move_checks": _move_checks},
        effects=EFFECTS,
        options=(
            OptionSpec(
                key=ONE_PER_TURN,
                type=bool,
                default=False,
                help="a research roll gives one technology however many 6s it shows (off: one per 6)",
                rule_id=R_PER_SIX,
            ),
        ),
    )
)
