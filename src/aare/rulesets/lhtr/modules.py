"""The LHTR 1.3 core module: the options and phase table every Revised-based ruleset starts from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from aare.movement.rules import MovementRules
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec
from aare.rules.victory import city_victory

LHTR_PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("develop-weapons", "LHTR-TURN-phase-sequence", "Develop weapons"),
    PhaseSpec("purchase", "LHTR-TURN-phase-sequence", "Purchase units"),
    PhaseSpec("combat-move", "LHTR-TURN-phase-sequence", "Combat move"),
    PhaseSpec("conduct-combat", "LHTR-TURN-phase-sequence", "Conduct combat"),
    PhaseSpec("non-combat-move", "LHTR-TURN-phase-sequence", "Non-combat move"),
    PhaseSpec("mobilize", "LHTR-TURN-phase-sequence", "Mobilize new units"),
    PhaseSpec("collect-income", "LHTR-TURN-phase-sequence", "Collect income"),
)


def _phase_table(phases: list[PhaseSpec], ruleset: Any, **_: Any) -> list[PhaseSpec]:
    """LHTR's seven phases; develop-weapons is dropped when the game is played without research."""
    table = list(phases) or list(LHTR_PHASES)
    if not ruleset.options.get("weapons_development", True):
        table = [p for p in table if p.name != "develop-weapons"]
    return table


def _victory_thresholds(needed: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Every alliance needs the chosen victory level (LHTR-VICTORY-levels)."""
    level = int(ruleset.options.get("victory_cities", 9))
    return {**needed, **{p.side: level for p in ruleset.board.powers}}


def _concession(rule: str | None, **_: Any) -> str | None:
    """Only the victory cities decide, but the players may concede: a side concedes at any time and the other
    side wins (LHTR-VICTORY-no-capital-rule)."""
    return rule or "LHTR-VICTORY-no-capital-rule"


def _victory(winner: str | None, ruleset: Any, state: Any, **_: Any) -> str | None:
    """At the end of a round, the alliance holding its number of victory cities wins (`victory_thresholds`)."""
    return winner if winner is not None else city_victory(ruleset, state)


TECHNOLOGIES = (
    "jet_fighters",
    "rockets",
    "super_submarines",
    "long_range_aircraft",
    "combined_bombardment",
    "heavy_bombers",
)
BID_PHASE = "setup-bid"


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """No income at all while the power's capital is held by someone else (LHTR-ECON-no-income-capital-lost)."""
    if not ruleset.board.holds_capital(power, state.owners):
        return 0
    return value


def _technologies(techs: tuple[str, ...], **_: Any) -> tuple[str, ...]:
    """The six Revised technologies (LHTR-TECH-list); no Industrial Technology."""
    return (*techs, *(t for t in TECHNOLOGIES if t not in techs))


def _bid_funds(funds: dict[str, int], ruleset: Any, **_: Any) -> dict[str, int]:
    """Each side's bid: the options `bid_axis` and `bid_allies` (LHTR-SETUP-bid-placement)."""
    options = {"Axis": int(ruleset.options.get("bid_axis", 0)), "Allies": int(ruleset.options.get("bid_allies", 0))}
    return {**funds, **{side: n for side, n in options.items() if n > 0}}


def _bid_start(state: Any, ruleset: Any, **_: Any) -> Any:
    """With a bid, play starts in the setup-bid phase of round 0, with the first power of a bidding side
    in turn order; `extra["bid"]` holds each side's unspent bid (LHTR-SETUP-bid-placement)."""
    funds = _bid_funds({}, ruleset)
    bidders = [p.name for p in ruleset.board.powers if funds.get(p.side, 0) > 0]
    if not bidders:
        return state
    extra = {**state.extra, "bid": {side: n for side, n in funds.items() if n > 0}}
    return replace(state, round=0, nation=bidders[0], phase=BID_PHASE, extra=extra)


LHTR = register_module(
    RuleModule(
        id="lhtr",
        title="Axis & Allies Revised with Larry Harris Tournament Rules 1.3",
        rule_ids=(
            "LHTR-TURN-power-order",
            "LHTR-TURN-phase-sequence",
            "LHTR-TURN-alliances",
            "LHTR-TURN-research-optional-phase",
            "LHTR-VICTORY-levels",
            "LHTR-VICTORY-check-end-of-round",
            "LHTR-ECON-no-income-capital-lost",
            "LHTR-TECH-list",
            "LHTR-SETUP-bid-placement",
        ),
        hooks={
            "phase_table": _phase_table,
            "victory": _victory,
            "concession": _concession,
            "victory_thresholds": _victory_thresholds,
            "income": _income,
            "technologies": _technologies,
            "initial_state": _bid_start,
            "bid_funds": _bid_funds,
        },
        options=(
            OptionSpec(
                key="victory_cities",
                type=int,
                default=9,
                choices=(8, 9, 10, 12),
                help="victory cities an alliance must hold at the end of a round to win "
                "(8 minor, 9 moderate, 10 major, 12 total)",
                rule_id="LHTR-VICTORY-levels",
            ),
            OptionSpec(
                key="weapons_development",
                type=bool,
                default=True,
                help="whether powers may buy research dice (off: the develop-weapons phase is skipped)",
                rule_id="LHTR-TURN-research-optional-phase",
            ),
            OptionSpec(
                key="bid_axis",
                type=int,
                default=0,
                minimum=0,
                help="IPCs the Axis powers spend on extra units before round 1 (Germany, then Japan)",
                rule_id="LHTR-SETUP-bid-placement",
            ),
            OptionSpec(
                key="bid_allies",
                type=int,
                default=0,
                minimum=0,
                help="IPCs the Allied powers spend on extra units before round 1 (USSR, then UK, then US)",
                rule_id="LHTR-SETUP-bid-placement",
            ),
            OptionSpec(
                key="bid_needs_own_unit",
                type=bool,
                default=False,
                help="club rule: bid units only go where the power already has a unit",
                rule_id="LHTR-SETUP-bid-placement",
            ),
            OptionSpec(
                key="complex_needs_ipc",
                type=bool,
                default=False,
                help="a new industrial complex needs a territory worth at least 1 IPC",
                rule_id="LHTR-MOBILIZE-new-complex-zero-value",
            ),
        ),
    )
)


# per phase, the action types whose candidates its handler lists only where `apply` accepts them, or lists with the
# question the listing leaves open asked by the handler's `admits` (cheaper than a dry run; the candidates themselves
# stay as they were, which bots sample from): moves (their candidates come from the same leg checks `apply` runs);
# loads (onto the transports without a `load_violation`, what `load_events` asks of each; in combat move `admits`
# asks `may_board`: one able to reach an assault); research (a technology the power lacks; `admits`: a die within
# its bank); purchases (one unit within the bank; `admits`: no `purchase_refusal`); placements (one unit of the
# pool where it could go; `admits`: `one_placeable`, the complexes can supply one more unit there and aircraft at
# sea find carrier room); the start of a battle (listed only where `apply` would start it; the battle itself refuses
# nothing); and `end_phase` (the phase's end conditions decide it: leaving the phase and entering the next refuse
# nothing in LHTR)
TRUSTED = {
    "develop-weapons": frozenset({"research", "end_phase"}),
    "purchase": frozenset({"purchase", "end_phase"}),
    "combat-move": frozenset({"move", "load", "end_phase"}),
    "conduct-combat": frozenset({"fight", "end_phase"}),
    "non-combat-move": frozenset({"move", "load", "end_phase"}),
    "mobilize": frozenset({"place", "end_phase"}),
    "collect-income": frozenset({"end_phase"}),
}
# per kind of battle decision, its answers that the battle lists (every one the battle accepts)
TRUSTED_ANSWERS = {
    "choose_casualties": frozenset({"choose_casualties"}),
    "press_or_retreat": frozenset({"press", "retreat"}),
    "submerge": frozenset({"submerge"}),
}


def _trusted_candidates(kinds: frozenset[str], phase: str, pending: str | None = None, **_: Any) -> frozenset[str]:
    """The action types of `phase` (while a decision of kind `pending` waits: its answers) whose candidates are
    legal by construction."""
    if pending is not None:
        return kinds | TRUSTED_ANSWERS.get(pending, frozenset()) if phase == "conduct-combat" else kinds
    return kinds | TRUSTED.get(phase, frozenset())


def _local_moves(rules: MovementRules, **_: Any) -> MovementRules:
    """LHTR's leg checks read only the units within a stack's reach: its move candidates may be kept."""
    return replace(rules, moves_local=True)


# Only the bare LHTR ruleset lists it: a ruleset whose modules add checks of their own to moves or battles leaves
# their candidates judged twice, and listed afresh at every state.
LHTR_TRUSTED = register_module(
    RuleModule(
        id="lhtr_trusted",
        title="LHTR move and battle candidates legal by construction, moves kept while their reach is unchanged",
        hooks={"trusted_candidates": _trusted_candidates, "movement_rules": _local_moves},
    )
)
