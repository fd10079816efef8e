"""AARHE game sequence (module `aarhe_turn`): the first round is the Soviet Union's alone, every later round an
Axis team turn then an Allied team turn; the eight phases, combat joint for the team; research and diplomacy
skipped while the capital is enemy-held, income and purchases going on without it; territories whose control
changed yield no income at the next collection.

Develop weapons plays LHTR research (the variant's research is a later rule module) and diplomacy has the rolls
of module `aarhe_diplomacy`; both are refused while the capital is enemy-held."""

from __future__ import annotations

from typing import Any

from aare.economy.income import end_of_turn_events
from aare.economy.summary import base_income
from aare.economy.turn import turn_start_owners
from aare.errors import IllegalAction
from aare.events import ExtraSet
from aare.phases.base import PhaseExtension, PhaseHandler, TurnContext, register_phase
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec, Turn, TurnOrder
from aare.rulesets.aarhe.hooks import by_phase

R_TABLE = "AARHE-ORDER-table"
R_ROUND_ONE = "AARHE-ORDER-round-one-soviet"
R_TEAMS = "AARHE-ORDER-team-turns"
R_JOINT = "AARHE-ORDER-team-concurrency"
R_SEQUENCE = "AARHE-TURN-sequence"
R_SKIP = "AARHE-TURN-capital-lost-skip"
R_EXILE = "AARHE-TURN-exile-continues"
R_CONTESTED = "AARHE-TURN-contested-no-income"

SOVIET_UNION = "Russia"  # the board's name of the Soviet Union
AXIS, ALLIES = "Axis", "Allies"
DIPLOMACY = "diplomacy"
SKIPPED_PHASES = ("develop-weapons", DIPLOMACY)

# round one: the Soviet Union alone (the proposed reading), or the Soviet Union, then the Axis team, then the
# other Allies (the alternative reading of AARHE-ORDER-round-one-soviet)
ROUND_ONE_ALONE = "soviet-alone"
ROUND_ONE_SOVIET_FIRST = "soviet-first"
# a territory yields no income at a collection: when its control changed since the collector's previous
# collection (proposed), or only while enemy units stand in it (the alternative reading)
CONTESTED_CHANGED = "changed"
CONTESTED_ENEMY = "enemy-present"

PHASES: tuple[PhaseSpec, ...] = (
    PhaseSpec("purchase", R_SEQUENCE, "Purchase units and developments"),
    PhaseSpec("collect-income", R_SEQUENCE, "Collect income"),
    PhaseSpec("combat-move", R_SEQUENCE, "Combat move"),
    PhaseSpec("conduct-combat", R_JOINT, "Conduct combat", joint=True),
    PhaseSpec("non-combat-move", R_SEQUENCE, "Non-combat move"),
    PhaseSpec("mobilize", R_SEQUENCE, "Mobilize new units"),
    PhaseSpec("develop-weapons", R_SEQUENCE, "Develop weapons"),
    PhaseSpec(DIPLOMACY, R_SEQUENCE, "Diplomacy"),
)

# state.extra: the control of territories as last seen, when each changed (a tick), the current tick, and the
# tick of each power's last collection
CONTROL = "aarhe_control"


def teams(ruleset: Any) -> dict[str, tuple[str, ...]]:
    """The powers of each side, in the board's order."""
    return {side: tuple(p.name for p in ruleset.board.powers if p.side == side) for side in (AXIS, ALLIES)}


def _turn_order(order: TurnOrder, ruleset: Any, round: int = 1, **_: Any) -> TurnOrder:
    """Round 1: the Soviet Union alone (AARHE-ORDER-round-one-soviet); later rounds: the Axis team, then the
    Allied team (AARHE-ORDER-team-turns). With `round_one = soviet-first` round 1 goes on with the Axis team
    and the other Allies."""
    sides = teams(ruleset)
    if round > 1:
        return TurnOrder((Turn(sides[AXIS]), Turn(sides[ALLIES])))
    soviet = Turn((SOVIET_UNION,))
    if ruleset.options.get("round_one", ROUND_ONE_ALONE) == ROUND_ONE_ALONE:
        return TurnOrder((soviet,))
    others = tuple(p for p in sides[ALLIES] if p != SOVIET_UNION)
    return TurnOrder((soviet, Turn(sides[AXIS]), Turn(others)))


def _phase_table(phases: list[PhaseSpec], **_: Any) -> list[PhaseSpec]:
    """The eight phases (AARHE-TURN-sequence); conduct combat is joint: it starts when every member of the team
    has ended its combat move (AARHE-ORDER-team-concurrency)."""
    return list(PHASES)


def capital_lost_at_start(state: Any, ruleset: Any, power: str) -> bool:
    """Whether `power`'s capital was under enemy control when its turn began."""
    capital = ruleset.board.capital_of(power)
    if capital is None:
        return False
    holder = turn_start_owners(state).get(capital)
    return holder is not None and ruleset.board.side_of(holder) != ruleset.board.side_of(power)


class CapitalLostSkip(PhaseExtension):
    """Develop weapons and diplomacy: no action while the capital was enemy-held at the start of the turn; the
    phase only ends (AARHE-TURN-capital-lost-skip)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def before(self, ctx: TurnContext, action: Any) -> None:
        if capital_lost_at_start(ctx.state, ctx.ruleset, ctx.power):
            capital = ctx.ruleset.board.capital_of(ctx.power)
            raise IllegalAction(f"{ctx.power} skips {self.name}: {capital} was held by the enemy when its turn began",
                                R_SKIP)


class DiplomacyPhase(PhaseHandler):
    """The last phase of an AARHE turn; leaving it ends the power's turn (marks cleared, battleships repaired)."""

    name = DIPLOMACY
    title = "Diplomacy"

    def on_exit(self, ctx: TurnContext) -> None:
        ctx.emit(*end_of_turn_events(ctx.state, ctx.ruleset))


DIPLOMACY_PHASE = register_phase(DiplomacyPhase())


def _control(state: Any) -> dict[str, Any]:
    record = state.extra.get(CONTROL)
    if isinstance(record, dict):
        return record
    return {"owners": dict(sorted(state.owners.items())), "changed": {}, "tick": 0, "collected": {}}


def control_update(state: Any) -> ExtraSet | None:
    """The control record brought up to date: each territory whose controller differs from the one last seen
    is stamped with a new tick."""
    record = _control(state)
    seen = record["owners"]
    moved = sorted(t for t in set(seen) | set(state.owners) if seen.get(t) != state.owners.get(t))
    if not moved and CONTROL in state.extra:
        return None
    tick = record["tick"] + (1 if moved else 0)
    changed = {**record["changed"], **dict.fromkeys(moved, tick)}
    value = {**record, "owners": dict(sorted(state.owners.items())), "changed": dict(sorted(changed.items())),
             "tick": tick}
    return ExtraSet(CONTROL, value, R_CONTESTED)


def contested(state: Any, ruleset: Any, power: str) -> set[str]:
    """The territories `power` controls that yield no income now (AARHE-TURN-contested-no-income): their
    control changed since its previous collection, or (option `contested_income = enemy-present`) enemy units
    stand in them."""
    held = {t for t, owner in state.owners.items() if owner == power}
    if ruleset.options.get("contested_income", CONTESTED_CHANGED) == CONTESTED_ENEMY:
        side = ruleset.board.side_of(power)
        return {t for t in held if any(ruleset.board.side_of(s.owner) != side for s in state.units.get(t, ()))}
    record = _control(state)
    last = record["collected"].get(power)
    if last is None:
        return set()
    return {t for t in held if record["changed"].get(t, 0) > last}


class ControlWatch(PhaseExtension):
    """Keeps the control record: brought up to date as a turn begins (purchase) and ends (diplomacy); at a
    collection, the collector's tick is recorded after it collected."""

    def __init__(self, name: str) -> None:
        self.name = name

    def on_enter(self, ctx: TurnContext) -> None:
        if self.name == "collect-income":
            record = _control(ctx.state)
            ctx.emit(ExtraSet(CONTROL, {**record, "collected": {**record["collected"], ctx.power: record["tick"]}},
                              R_CONTESTED))
            return
        event = control_update(ctx.state)
        if event is not None:
            ctx.emit(event)

    def on_exit(self, ctx: TurnContext) -> None:
        if self.name == DIPLOMACY:
            event = control_update(ctx.state)
            if event is not None:
                ctx.emit(event)


CONTROL_WATCH = {name: ControlWatch(name) for name in ("purchase", "collect-income", DIPLOMACY)}
SKIPS = {name: CapitalLostSkip(name) for name in SKIPPED_PHASES}


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """A power collects without its capital (AARHE-TURN-exile-continues, in place of LHTR's no income), less
    the value of its contested territories (AARHE-TURN-contested-no-income)."""
    board = ruleset.board
    lost: int = sum(board.spaces[t].ipc for t in contested(state, ruleset, power))
    return max(0, base_income(state, ruleset, power) - lost)


def _purchase_refusal(refusal: tuple[str, str] | None, **_: Any) -> tuple[str, str] | None:
    """A power buys without its capital (AARHE-TURN-exile-continues)."""
    if refusal is not None and refusal[1] == "LHTR-PURCHASE-needs-capital":
        return None
    return refusal


AARHE_TURN = register_module(
    RuleModule(
        id="aarhe_turn",
        title="AARHE game sequence: order of play, team turns and the eight phases",
        rule_ids=(R_TABLE, R_ROUND_ONE, R_TEAMS, R_JOINT, R_SEQUENCE, "AARHE-TURN-purchase-before-income",
                  R_CONTESTED, R_SKIP, R_EXILE, "AARHE-BASE-lhtr-foundation"),
        hooks={
            "turn_order": _turn_order,
            "phase_table": _phase_table,
            "phase_actions": by_phase(*CONTROL_WATCH.values(), *SKIPS.values()),
            "income": _income,
            "purchase_refusal": _purchase_refusal,
        },
        requires=("lhtr",),
        replaces_options=("weapons_development",),
        options=(
            OptionSpec(
                key="round_one",
                type=str,
                default=ROUND_ONE_ALONE,
                choices=(ROUND_ONE_ALONE, ROUND_ONE_SOVIET_FIRST),
                help="round 1: the Soviet Union alone, or the Soviet Union, then the Axis team, then the UK and US",
                rule_id=R_ROUND_ONE,
            ),
            OptionSpec(
                key="contested_income",
                type=str,
                default=CONTESTED_CHANGED,
                choices=(CONTESTED_CHANGED, CONTESTED_ENEMY),
                help="territories that yield no income: control changed since the collector's previous collection, "
                "or enemy units present",
                rule_id=R_CONTESTED,
            ),
        ),
    )
)
