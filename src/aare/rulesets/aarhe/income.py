"""AARHE income losses (module `aarhe_income`): production interruption, a territory attacked for three combat
cycles or more since its controller's last collection yielding less by its printed value; desert upkeep, a power
paying 1 IPC at collect income for each of its units in a desert or removing them (AARHE-INCOME-interruption*,
AARHE-INCOME-desert-upkeep).

`extra["aarhe_attacked"]` counts the cycles of the land battles fought in each territory against its controller
(when the attacker's turn began), per controller, until that power's next collection."""

from __future__ import annotations

from typing import Any

from aare.actions import Designate
from aare.board.notation import parse_units
from aare.economy.turn import turn_start_owners
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet, UnitsRemoved
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conduct_combat import combat_record
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.research import UNDERGROUND, has_tech
from aare.rulesets.aarhe.turn import contested

R_TABLE = "AARHE-INCOME-interruption-table"
R_INTERRUPTION = "AARHE-INCOME-interruption"
R_DESERT = "AARHE-INCOME-desert-upkeep"

ATTACKED = "aarhe_attacked"
CYCLES = 3  # combat cycles that interrupt production
# (highest printed income, IPCs lost) (AARHE-INCOME-interruption-table); above the last: 4
LOSSES = ((3, 1), (6, 2), (9, 3))
MOST = 4
DESERTS = ("Sahara", "Saudi Arabia")
DISBAND = "disband"  # the `designate` purpose removing units from a desert instead of paying for them


def interruption_loss(printed: int) -> int:
    """IPCs lost by a territory of printed income `printed` whose production is interrupted (never more than it
    yields)."""
    loss = next((lost for top, lost in LOSSES if printed <= top), MOST)
    return min(loss, printed)


def attacked(state: Any, power: str) -> dict[str, int]:
    """Combat cycles fought against `power` in each territory since its last collection."""
    return dict((state.extra.get(ATTACKED) or {}).get(power, {}))


def interrupted(state: Any, ruleset: Any, power: str) -> dict[str, int]:
    """Territory -> IPCs lost to production interruption at `power`'s collection now (contested territories,
    yielding nothing anyway, left out)."""
    if has_tech(state, power, UNDERGROUND):
        return {}  # AARHE-TECH-underground-factory-interruption
    lost = contested(state, ruleset, power)
    spaces = ruleset.board.spaces
    return {t: interruption_loss(spaces[t].ipc) for t, n in sorted(attacked(state, power).items())
            if n >= CYCLES and state.owners.get(t) == power and t not in lost and spaces[t].ipc > 0}


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """Production interruption (AARHE-INCOME-interruption)."""
    return max(0, value - sum(interrupted(state, ruleset, power).values()))


class BattleCount(PhaseExtension):
    """Conduct combat: each land battle's cycles count against the territory's controller when the turn began."""

    name = "conduct-combat"

    def on_exit(self, ctx: TurnContext) -> None:
        state, board = ctx.state, ctx.ruleset.board
        record = combat_record(state)
        owners = turn_start_owners(state)
        table = {p: dict(c) for p, c in (state.extra.get(ATTACKED) or {}).items()}
        for key, end in sorted((record.get("ended") or {}).items()):
            space = key.partition("|")[0]
            if "|" in key or not board.spaces[space].is_land:
                continue  # raids and sea battles interrupt no production
            defender = owners.get(space)
            if defender is None or board.side_of(defender) == board.side_of(ctx.power):
                continue
            counts = table.setdefault(defender, {})
            counts[space] = counts.get(space, 0) + int(end.get("cycle", 1))
        if table != (state.extra.get(ATTACKED) or {}):
            ctx.emit(ExtraSet(ATTACKED, {p: dict(sorted(c.items())) for p, c in sorted(table.items()) if c},
                              R_INTERRUPTION))


class Collection(PhaseExtension):
    """Collect income: desert units are paid for or removed (`designate disband: 2 infantry in Sahara`) before
    the phase ends, and the collector's interruption counts start again."""

    name = "collect-income"
    action_types = frozenset({"designate"})


    def candidates(self, ctx: TurnContext, space: str | None = None) -> list[Any]:
        return [Designate(advantage=DISBAND, units=f"1 {ctx.ruleset.units[s.unit].display}", space=t)
                for t in DESERTS if space in (None, t) for s in ctx.state.stacks(t) if s.owner == ctx.power]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Designate) or action.advantage != DISBAND:
            raise IllegalAction("in collect income units are only removed from a desert", R_DESERT)
        space = ctx.ruleset.board.resolve(action.space)
        if space not in DESERTS:
            raise IllegalAction(f"{space} is not a desert", R_DESERT)
        events: list[Event] = []
        for unit, n in parse_units(action.units, ctx.ruleset.units).items():
            mine = [s for s in ctx.state.stacks(space) if s.owner == ctx.power and s.unit == unit]
            if sum(s.count for s in mine) < n:
                raise IllegalAction(f"{ctx.power} has fewer than {n} {unit} in {space}", R_DESERT)
            for stack in mine:
                take = min(n, stack.count)
                if take:
                    events.append(UnitsRemoved(space, stack.with_count(take), R_DESERT))
                n -= take
        ctx.emit(*events)

    def on_exit(self, ctx: TurnContext) -> None:
        table = dict(ctx.state.extra.get(ATTACKED) or {})
        if ctx.power in table:
            table.pop(ctx.power)
            ctx.emit(ExtraSet(ATTACKED, table, R_INTERRUPTION))
        ctx.emit(*upkeep_events(ctx.state, ctx.ruleset, ctx.power))


def upkeep_events(state: Any, ruleset: Any, power: str) -> list[Event]:
    """1 IPC for each of `power`'s units left in a desert; those it cannot pay for are removed, the cheapest
    first (AARHE-INCOME-desert-upkeep)."""
    stacks = sorted(((t, s) for t in DESERTS for s in state.stacks(t) if s.owner == power),
                    key=lambda ts: (ruleset.units[ts[1].unit].cost, ts[0], ts[1].unit))
    units = sum(s.count for _, s in stacks)
    if not units:
        return []
    bank = state.banks.get(power, 0)
    paid = min(units, bank)
    events: list[Event] = [BankChanged(power, -paid, "rule: desert upkeep", R_DESERT)] if paid else []
    unpaid = units - paid
    for space, stack in stacks:
        if unpaid <= 0:
            break
        take = min(unpaid, stack.count)
        events.append(UnitsRemoved(space, stack.with_count(take), R_DESERT))
        unpaid -= take
    return events


BATTLE_COUNT = BattleCount()
COLLECTION = Collection()



AARHE_INCOME = register_module(
    RuleModule(
        id="aarhe_income",
        title="AARHE income losses: production interruption, desert upkeep",
        rule_ids=(R_TABLE, R_INTERRUPTION, R_DESERT),
        hooks={"income": _income, "phase_actions": by_phase(BATTLE_COUNT, COLLECTION)},
    )
)
