"""The Classic (2nd edition) core module `classic`: its phases, victory (capitals and the Axis economic level),
income and technologies. Further Classic rules live in their own modules beside it."""

from __future__ import annotations

from typing import Any

from aare.economy.summary import base_income
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec
from aare.rules.victory import victory_hooks
from aare.rulesets.classic.optional import (
    CAPITAL_INCOME,
    NO_NEW_COMPLEXES,
    R_BID,
    R_FIRST_ROUND,
    R_OPTIONAL,
    RESTRICTED_ATTACK,
    bid_start,
    classic_bid_funds,
    optional_actions,
)
from aare.rulesets.classic.production import (
    CLASSIC_PLACEMENT,
    EFFECTS,
    ENEMY_ZONES,
    R_FIGHTERS,
    R_LIMITS,
    R_NAVAL,
    UNLIMITED_START,
)

PHASE_RULE = "CL-TURN-phase-sequence"
CLASSIC_PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("develop-weapons", PHASE_RULE, "Develop weapons"),
    PhaseSpec("purchase", PHASE_RULE, "Purchase units"),
    PhaseSpec("combat-move", PHASE_RULE, "Combat movement"),
    PhaseSpec("conduct-combat", PHASE_RULE, "Combat"),
    PhaseSpec("non-combat-move", PHASE_RULE, "Non-combat movement"),
    PhaseSpec("mobilize", PHASE_RULE, "Place new units"),
    PhaseSpec("collect-income", PHASE_RULE, "Collect income"),
)

# CL-WEAPONS-six-succeeds: the weapons development chart, die 1 to 6.
CHART = ("jet_fighters", "rockets", "super_submarines", "long_range_aircraft", "industrial_technology",
         "heavy_bombers")


def _phase_table(phases: list[PhaseSpec], ruleset: Any, **_: Any) -> list[PhaseSpec]:
    """The seven phases (CL-TURN-phase-sequence); develop weapons is left out when played without it
    (CL-WEAPONS-optional-phase)."""
    table = list(phases) or list(CLASSIC_PHASES)
    if not ruleset.options.get("weapons_development", True):
        table = [p for p in table if p.name != "develop-weapons"]
    return table


def capitals_of(ruleset: Any, side: str) -> list[str]:
    """The capitals of `side`'s powers, in turn order."""
    board = ruleset.board
    found = (board.capital_of(p.name) for p in board.powers if p.side == side)
    return [c for c in found if c is not None]


def held_by(ruleset: Any, state: Any, capitals: list[str], side: str) -> list[str]:
    """Those of `capitals` that `side`'s powers control."""
    board = ruleset.board
    return [c for c in capitals if state.owners.get(c) is not None and board.side_of(state.owners[c]) == side]


def capitals_held(ruleset: Any, state: Any, side: str) -> int:
    """How many capitals of `side`'s powers that side's powers control."""
    return len(held_by(ruleset, state, capitals_of(ruleset, side), side))


def side_income(ruleset: Any, state: Any, side: str) -> int:
    """The combined income level of a side's powers: the IPC values of the territories they control."""
    return sum(base_income(state, ruleset, p.name) for p in ruleset.board.powers if p.side == side)


def _sides(ruleset: Any) -> list[str]:
    return list(dict.fromkeys(str(p.side) for p in ruleset.board.powers))


def capitals_needed(own: int) -> int:
    """Enemy capitals a side must hold to win: two of three, both of two (all but one of three or more)."""
    return own - 1 if own >= 3 else own


def economic_levels(ruleset: Any) -> dict[str, int]:
    """Each side's income level that wins at the end of a round (0: none)."""
    return {"Axis": int(ruleset.options.get("axis_economic_victory", 84)),
            "Allies": int(ruleset.options.get("allied_economic_victory", 0))}


def victory_by(ruleset: Any, state: Any) -> tuple[str, str, str] | None:
    """(side, reason, rule id) of a side that wins now, or None. A side holding all its own capitals and all but
    one of the enemy's (the Axis two of three, the Allies both) wins (CL-VICTORY-axis-military,
    CL-VICTORY-allied-military); the Axis also win at an income level of 84 (CL-VICTORY-axis-economic), the Allies
    at the option `allied_economic_victory` when it is set (CL-VICTORY-allied-economic-off)."""
    sides = _sides(ruleset)
    for side in sides:
        own = capitals_of(ruleset, side)
        if len(held_by(ruleset, state, own, side)) < len(own):
            continue
        for enemy in (s for s in sides if s != side):
            theirs = capitals_of(ruleset, enemy)
            taken = held_by(ruleset, state, theirs, side)
            needed = capitals_needed(len(theirs))
            if needed and len(taken) >= needed:
                rule = "CL-VICTORY-axis-military" if side == "Axis" else "CL-VICTORY-allied-military"
                return side, f"capitals: the {side} hold {', '.join(taken)} and their own", rule
    for side in sides:
        needed = economic_levels(ruleset).get(side, 0)
        level = side_income(ruleset, state, side)
        if needed and level >= needed:
            rule = "CL-VICTORY-axis-economic" if side == "Axis" else "CL-VICTORY-allied-economic-off"
            return side, f"economic victory: the {side} income level is {level} (needed {needed})", rule
    return None


def _victory_standing(found: list[dict[str, Any]], ruleset: Any, state: Any, **_: Any) -> list[dict[str, Any]]:
    """How victory stands: the capitals each side holds against the number that wins (CL-VICTORY-axis-military,
    CL-VICTORY-allied-military), and each economic level in play against the side's income level
    (CL-VICTORY-axis-economic, CL-VICTORY-allied-economic-off)."""
    sides = _sides(ruleset)
    held = {side: [c for s in sides for c in held_by(ruleset, state, capitals_of(ruleset, s), side)] for side in sides}
    needs = []
    for side in sides:
        for enemy in (s for s in sides if s != side):
            theirs = capitals_of(ruleset, enemy)
            count = capitals_needed(len(theirs))
            every = "both" if count == 2 else f"all {count}"
            part = every if count == len(theirs) else f"{count} of the {len(theirs)}"
            needs.append(f"the {side} win with {part} capitals of the {enemy}")
    text = "; ".join(f"{side} {len(cs)} ({', '.join(cs) or 'none'})" for side, cs in held.items())
    records: list[dict[str, Any]] = [{
        "kind": "capitals", "rule_id": "CL-VICTORY-axis-military", "held": held,
        "text": f"capitals held: {text} — {', '.join(needs)}, each holding its own",
    }]
    for side, needed in economic_levels(ruleset).items():
        if needed and side in sides:
            level = side_income(ruleset, state, side)
            rule = "CL-VICTORY-axis-economic" if side == "Axis" else "CL-VICTORY-allied-economic-off"
            records.append({"kind": "income", "rule_id": rule, "side": side, "level": level, "needed": needed,
                            "text": f"{side} income level: {level} of {needed}"})
    return [*found, *records]


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """No income while the capital is held by the enemy (CL-ECON-no-income-without-capital)."""
    if not ruleset.board.holds_capital(power, state.owners):
        return 0
    return value


# The core's turn, purchase, mobilize and capture rules under their Classic ids.
RULE_IDS = {
    "LHTR-TURN-phase-sequence": PHASE_RULE,
    "LHTR-TURN-alliances": "CL-TURN-alliances",
    "LHTR-TURN-no-shared-economy": "CL-TURN-no-shared-economy",
    "LHTR-PURCHASE-budget": "CL-PURCHASE-spend-treasury",
    "LHTR-PURCHASE-units-wait-for-mobilize": "CL-PURCHASE-spend-treasury",
    "LHTR-PURCHASE-unplaced-lost": "CL-PURCHASE-unplaced-lost",
    "LHTR-PURCHASE-needs-capital": "CL-ECON-no-income-without-capital",
    "LHTR-MOBILIZE-at-owned-complex": "CL-MOBILIZE-at-own-complex",
    "LHTR-MOBILIZE-not-captured-this-turn": "CL-MOBILIZE-at-own-complex",
    "LHTR-MOBILIZE-new-complex-placement": "CL-MOBILIZE-build-complex",
    "LHTR-MOBILIZE-new-complex-zero-value": "CL-MOBILIZE-build-complex",
    "LHTR-MOBILIZE-new-complex-idle-this-turn": "CL-MOBILIZE-build-complex",
    "LHTR-MOBILIZE-naval-adjacent-sz": R_NAVAL,
    "LHTR-MOBILIZE-fighters-on-new-carrier": R_FIGHTERS,
    "LHTR-MOBILIZE-fighters-on-existing-carrier": R_FIGHTERS,
    "LHTR-MOBILIZE-no-fighter-movement": R_FIGHTERS,
    "LHTR-MOBILIZE-capacity-ipc-value": R_LIMITS,
    "LHTR-ECON-capital-capture-plunder": "CL-ECON-capital-capture-treasury",
    "LHTR-ECON-liberation-to-original-owner": "CL-ECON-liberation",
    "LHTR-ECON-liberation-capital-lost": "CL-ECON-liberation",
    "LHTR-ECON-capital-liberation-reversion": "CL-ECON-capital-liberation",
    "LHTR-VICTORY-check-end-of-round": "CL-VICTORY-check-end-of-round",
    "LHTR-TURN-power-order": "CL-TURN-power-order",
    "LHTR-ECON-income-sum": "CL-ECON-collect-income",
    "LHTR-ECON-no-income-capital-lost": "CL-ECON-no-income-without-capital",
    "LHTR-ECON-infrastructure-captured": "CL-UNITS-factory",
    "LHTR-MOBILIZE-hover-without-carrier-lost": R_FIGHTERS,
    "LHTR-SETUP-bid-for-sides": R_BID,
    "LHTR-SETUP-bid-placement": R_BID,
}
# What the log names by another id than an illegal action does: a territory taken (an action refused under the
# core's capture rule is about aircraft, which cannot take one), blitzed or its aircraft lost for want of landing.
LOG_RULE_IDS = {
    "LHTR-COMBAT-capture": "CL-COMBAT-capture-on-win",
    "LHTR-LANDMOVE-blitz": "CL-LANDMOVE-blitz",
    "LHTR-AIRMOVE-unlanded-destroyed": "CL-AIRMOVE-land-friendly",
}


def _rule_ids(names: dict[str, str], **_: Any) -> dict[str, str]:
    return {**names, **RULE_IDS}


def _log_rule_ids(names: dict[str, str], ruleset: Any, **_: Any) -> dict[str, str]:
    """Events and pending decisions of a Classic game name the Classic ids: those of every module's `rule_ids`
    map, the log's own above them."""
    return {**ruleset.own_rule_ids, **names, **LOG_RULE_IDS}


def _phase_actions(found: list[Any], phase: str, ruleset: Any, **_: Any) -> list[Any]:
    """New units' placement (CL-MOBILIZE-new-fighters-not-on-carriers, CL-MOBILIZE-naval-adjacent) and the
    optional rules in play (CL-TURN-printed-optional-rules)."""
    added = [CLASSIC_PLACEMENT] if phase == "mobilize" else []
    return [*found, *added, *optional_actions(phase, ruleset)]


def _technologies(techs: tuple[str, ...], **_: Any) -> tuple[str, ...]:
    """The six developments of the Classic chart (CL-WEAPONS-six-succeeds)."""
    return (*techs, *(t for t in CHART if t not in techs))


CLASSIC = register_module(
    RuleModule(
        id="classic",
        title="Axis & Allies Classic (2nd edition)",
        rule_ids=(
            "CL-TURN-power-order",
            "CL-TURN-phase-sequence",
            "CL-VICTORY-axis-military",
            "CL-VICTORY-allied-military",
            "CL-VICTORY-axis-economic",
            "CL-VICTORY-check-end-of-round",
            "CL-VICTORY-no-elimination",
            "CL-VICTORY-allied-economic-off",
            "CL-TURN-alliances",
            "CL-TURN-no-shared-economy",
            "CL-TURN-low-luck-not-base",
            R_OPTIONAL,
            R_FIRST_ROUND,
            R_BID,
            "CL-PURCHASE-spend-treasury",
            "CL-PURCHASE-save-unspent",
            "CL-PURCHASE-unit-limits",
            "CL-PURCHASE-unplaced-lost",
            "CL-MOBILIZE-at-own-complex",
            R_NAVAL,
            R_LIMITS,
            "CL-MOBILIZE-build-complex",
            R_FIGHTERS,
            "CL-ECON-collect-income",
            "CL-ECON-income-level-changes",
            "CL-ECON-capital-capture-treasury",
            "CL-ECON-no-income-without-capital",
            "CL-ECON-liberation",
            "CL-ECON-capital-liberation",
            "CL-ECON-treasury-not-negative",
        ),
        hooks={
            "phase_table": _phase_table,
            **victory_hooks(victory_by),
            "victory_standing": _victory_standing,
            "income": _income,
            "technologies": _technologies,
            "rule_ids": _rule_ids,
            "log_rule_ids": _log_rule_ids,
            "phase_actions": _phase_actions,
            "bid_funds": classic_bid_funds,
            "initial_state": bid_start,
        },
        effects=EFFECTS,
        options=(
            OptionSpec(
                key="weapons_development",
                type=bool,
                default=True,
                help="whether powers may buy research dice (off: the develop-weapons phase is skipped)",
                rule_id="CL-WEAPONS-optional-phase",
            ),
            OptionSpec(
                key="axis_economic_victory",
                type=int,
                default=84,
                minimum=0,
                help="income level of Germany and Japan together that wins for the Axis at the end of a round "
                "(0: no economic victory)",
                rule_id="CL-VICTORY-axis-economic",
            ),
            OptionSpec(
                key="allied_economic_victory",
                type=int,
                default=0,
                minimum=0,
                help="income level of the Allies together that wins for them at the end of a round (0, the "
                "printed rules: none; house rules use 110 or 140)",
                rule_id="CL-VICTORY-allied-economic-off",
            ),
            OptionSpec(
                key="complex_needs_ipc",
                type=bool,
                default=True,
                help="a new industrial complex needs a territory worth at least 1 IPC (off: any territory held "
                "since the start of the turn)",
                rule_id="CL-MOBILIZE-build-complex",
            ),
            OptionSpec(
                key=UNLIMITED_START,
                type=bool,
                default=True,
                help="complexes of the starting set-up held by their original owner place any number of units (off: "
                "every complex places at most its territory's value)",
                rule_id=R_LIMITS,
            ),
            OptionSpec(
                key=ENEMY_ZONES,
                type=bool,
                default=False,
                help="printed optional rule: new ships may be placed in a sea zone holding enemy ships",
                rule_id=R_NAVAL,
            ),
            OptionSpec(
                key=RESTRICTED_ATTACK,
                type=bool,
                default=False,
                help="printed optional rule Restricted Attack: the first power (Russia) makes no combat movement "
                "in round 1",
                rule_id=R_OPTIONAL,
            ),
            OptionSpec(
                key=CAPITAL_INCOME,
                type=bool,
                default=False,
                help="the income of a power whose capital is enemy-held goes to the capital's holder (off: nobody "
                "collects it)",
                rule_id="CL-ECON-no-income-without-capital",
            ),
            OptionSpec(
                key=NO_NEW_COMPLEXES,
                type=bool,
                default=False,
                help="printed optional rule No New Complexes: industrial complexes cannot be bought",
                rule_id=R_OPTIONAL,
            ),
            *(
                OptionSpec(
                    key=f"bid_{side.lower()}",
                    type=int,
                    default=0,
                    minimum=0,
                    help=f"tournament bid, not in the printed rules: IPCs the {side} powers spend on extra units "
                    "placed before round 1, each in turn order",
                    rule_id=R_BID,
                )
                for side in ("Axis", "Allies")
            ),
        ),
    )
)
