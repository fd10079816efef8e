"""The Anniversary Edition core module `aa50`: its phases, turn order (China with the United States), victory
levels, income, technologies and combat switches. Further AA50 rules live in their own modules beside it."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.economy.bids import BID, bid_funds, bidders
from aare.phases.setup_bid import PHASE as BID_PHASE
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec, Turn, TurnOrder
from aare.rules.victory import city_victory

PHASE_RULE = "AA50-PHASES-sequence"
AA50_PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("develop-weapons", PHASE_RULE, "Research & development"),
    PhaseSpec("purchase", PHASE_RULE, "Purchase units"),
    PhaseSpec("combat-move", PHASE_RULE, "Combat move"),
    PhaseSpec("conduct-combat", PHASE_RULE, "Conduct combat"),
    PhaseSpec("non-combat-move", PHASE_RULE, "Noncombat move"),
    PhaseSpec("mobilize", PHASE_RULE, "Mobilize new units"),
    PhaseSpec("collect-income", PHASE_RULE, "Collect income"),
)

# AA50-RESEARCH-chart-1 and -2, in chart order (die 1 to 6).
CHART_1 = ("advanced_artillery", "rockets", "paratroopers", "increased_factory_production", "war_bonds",
           "improved_mechanized_infantry")
CHART_2 = ("super_submarines", "jet_fighters", "improved_shipyards", "radar", "long_range_aircraft",
           "heavy_bombers")


def _phase_table(phases: list[PhaseSpec], ruleset: Any, **_: Any) -> list[PhaseSpec]:
    """The seven phases (AA50-PHASES-sequence); research is left out when played without it
    (AA50-OPTIONS-research)."""
    table = list(phases) or list(AA50_PHASES)
    if not ruleset.options.get("research", True):
        table = [p for p in table if p.name != "develop-weapons"]
    return table


def _turn_order(order: TurnOrder, ruleset: Any, **_: Any) -> TurnOrder:
    """A power played by another power's player takes its turn together with that power, as a team turn
    (AA50-CHINA-turn-with-us); the others keep their own turns in the scenario's order."""
    board = ruleset.board
    guests: dict[str, list[str]] = {}
    for power in board.powers:
        if power.played_by:
            guests.setdefault(power.played_by, []).append(power.name)
    turns = []
    for turn in order.turns:
        powers = [p for p in turn.powers if not board.power(p).played_by]
        if powers:
            turns.append(Turn(tuple(p for host in powers for p in (host, *guests.get(host, ())))))
    return TurnOrder(tuple(turns))


def _victory_thresholds(needed: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Every side needs the chosen victory level (AA50-VICTORY-levels, AA50-OPTIONS-victory-level)."""
    level = int(ruleset.options.get("victory_cities", 13))
    return {**needed, **{p.side: level for p in ruleset.board.powers}}


def _victory(winner: str | None, ruleset: Any, state: Any, **_: Any) -> str | None:
    """Checked at the end of a round (AA50-VICTORY-check-timing)."""
    return winner if winner is not None else city_victory(ruleset, state)


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """No income while the capital is held by the enemy (AA50-ECON-capital-captured); a power with no capital
    (China) never collects IPCs (AA50-CHINA-no-ipcs)."""
    if ruleset.board.capital_of(power) is None or not ruleset.board.holds_capital(power, state.owners):
        return 0
    return value


def _concession(rule: str | None, **_: Any) -> str | None:
    """A side may concede at any time; the other side wins (AA50-VICTORY-concession)."""
    return rule or "AA50-VICTORY-concession"


def _bid_funds(funds: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Each side's bid: the options `bid_axis` and `bid_allies` (AA50-OPTIONS-bid)."""
    chosen = {"Axis": int(ruleset.options.get("bid_axis", 0)), "Allies": int(ruleset.options.get("bid_allies", 0))}
    return {**funds, **{side: n for side, n in chosen.items() if n > 0}}


def _bid_start(state: Any, ruleset: Any, **_: Any) -> Any:
    """With a bid, play starts in the bid placement of round 0 with the first bidder in turn order
    (AA50-OPTIONS-bid); `extra["bid"]` holds each side's unspent bid."""
    order = bidders(ruleset)
    if not order:
        return state
    return replace(state, round=0, nation=order[0], phase=BID_PHASE, extra={**state.extra, BID: bid_funds(ruleset)})


def _technologies(techs: tuple[str, ...], ruleset: Any, **_: Any) -> tuple[str, ...]:
    """The twelve technologies of the two breakthrough charts (AA50-RESEARCH-chart-1, -chart-2)."""
    return (*techs, *(t for t in (*CHART_1, *CHART_2) if t not in techs))


AA50 = register_module(
    RuleModule(
        id="aa50",
        title="Axis & Allies Anniversary Edition",
        rule_ids=(
            "AA50-PHASES-sequence",
            "AA50-TURN-order-1941",
            "AA50-TURN-order-1942",
            "AA50-CHINA-turn-with-us",
            "AA50-VICTORY-levels",
            "AA50-VICTORY-check-timing",
            "AA50-ECON-capital-captured",
            "AA50-CHINA-no-ipcs",
            "AA50-RESEARCH-chart-1",
            "AA50-RESEARCH-chart-2",
            "AA50-VICTORY-concession",
            "AA50-OPTIONS-bid",
        ),
        hooks={
            "phase_table": _phase_table,
            "turn_order": _turn_order,
            "victory": _victory,
            "victory_thresholds": _victory_thresholds,
            "income": _income,
            "technologies": _technologies,
            "concession": _concession,
            "bid_funds": _bid_funds,
            "initial_state": _bid_start,
        },
        options=(
            OptionSpec(
                key="victory_cities",
                type=int,
                default=13,
                choices=(13, 15, 18),
                help="victory cities a side must hold at the end of a round to win "
                "(13 Projection of Power, 15 Honorable Surrender, 18 Total Victory)",
                rule_id="AA50-OPTIONS-victory-level",
            ),
            OptionSpec(
                key="research",
                type=bool,
                default=True,
                help="whether powers may buy research tokens (off: the research phase is skipped)",
                rule_id="AA50-OPTIONS-research",
            ),
            *(
                OptionSpec(
                    key=f"bid_{side.lower()}",
                    type=int,
                    default=0,
                    minimum=0,
                    help=f"IPCs the {side} powers spend on extra units placed before round 1, each in turn order "
                    "(China takes no part)",
                    rule_id="AA50-OPTIONS-bid",
                )
                for side in ("Axis", "Allies")
            ),
            OptionSpec(
                key="bid_needs_own_unit",
                type=bool,
                default=False,
                help="club rule: bid units only go where the power already has a unit",
                rule_id="AA50-OPTIONS-bid",
            ),
        ),
    )
)
