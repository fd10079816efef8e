"""AARHE's atomic bomb (module `aarhe_atomic`), for a nation with Atomic Weaponry.

- Purchase: `atomic buy`, at most one a turn (AARHE-TECH-atomic-purchase), at the price of the option
  `atomic_bomb_cost`; it is ready from the nation's next turn, and another may be bought while one is being built
  (AARHE-TECH-atomic-build-time).
- Non-combat move: `atomic load in SPACE` arms one of the nation's bombers there with a ready bomb, only with Heavy
  Bomber (AARHE-TECH-atomic-loading). An armed bomber (stack flag `atomic`) moves in non-combat move only: it takes
  no part in an attack (AARHE-TECH-atomic-bomber-lockout).
- Conduct combat: `atomic strike TARGET from SPACE`: an armed bomber that has not moved this turn strikes a
  hostile territory within half its movement, no fire against it; one die permanently lowers the territory's
  income (never below 0; AARHE-TECH-atomic-attack-income). The territory's holder divides the enemy units there
  (not industrial complexes) into max(1, value // 3) groups (`atomic groups 2 infantry / 1 armour / none`,
  decision ``atomic_groups``), the attacker names one (`atomic group N`, decision ``atomic_target``) and each of
  its units is destroyed on a 5 or less (AARHE-TECH-atomic-attack-units). The bomber is disarmed and stays where
  it is this turn; it fights again from its next turn.

State: ``extra["aarhe_atomic"] = {power: {"bought": [rounds], "used": n}}`` and ``extra["aarhe_nuked"] =
{territory: IPCs of income lost for good}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import Atomic
from aare.board.notation import format_units, parse_units
from aare.errors import IllegalAction
from aare.events import BankChanged, DecisionPending, ExtraSet, UnitsChanged, UnitsRemoved
from aare.movement import flags
from aare.movement.graph import graph_of
from aare.movement.move_checks import Check, Leg, Violation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.research import ATOMIC, HEAVY_BOMBER, LONG_RANGE, has_tech
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

R_PURCHASE = "AARHE-TECH-atomic-purchase"
R_BUILD = "AARHE-TECH-atomic-build-time"
R_LOADING = "AARHE-TECH-atomic-loading"
R_LOCKOUT = "AARHE-TECH-atomic-bomber-lockout"
R_INCOME = "AARHE-TECH-atomic-attack-income"
R_UNITS = "AARHE-TECH-atomic-attack-units"

BOMBS, NUKED = "aarhe_atomic", "aarhe_nuked"
ARMED = "atomic"  # the stack flag of a bomber carrying an atomic bomb
DESTROYS_ON = 5
GROUP_VALUE = 3  # a territory's units make one group per 3 IPCs of its value
DEFAULT_COST = 20
GROUPS, TARGET = "atomic_groups", "atomic_target"  # the decisions of the struck holder and of the attacker


def _record(state: GameState, power: str) -> dict[str, Any]:
    found = (state.extra.get(BOMBS) or {}).get(power) or {}
    return {"bought": list(found.get("bought", [])), "used": int(found.get("used", 0))}


def _record_event(state: GameState, power: str, record: dict[str, Any], rule: str) -> ExtraSet:
    return ExtraSet(BOMBS, dict(sorted({**(state.extra.get(BOMBS) or {}), power: record}.items())), rule)


def ready_bombs(state: GameState, power: str) -> int:
    """Bombs `power` has built (bought in an earlier round) and not yet loaded."""
    record = _record(state, power)
    return sum(1 for r in record["bought"] if r < state.round) - int(record["used"])


def income_lost(state: GameState, territory: str) -> int:
    """The income `territory` has lost for good to nuclear attacks."""
    return int((state.extra.get(NUKED) or {}).get(territory, 0))


def armed(stack: Stack) -> bool:
    return ARMED in stack.flags


def struck(state: GameState, ruleset: Any, power: str, target: str) -> dict[str, int]:
    """{unit: count} of the units in `target` that `power`'s bomb strikes: the enemy's, complexes aside."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    out: dict[str, int] = {}
    for s in state.stacks(target):
        if board.side_of(s.owner) != side and not units[s.unit].has("bombing_target"):
            out[s.unit] = out.get(s.unit, 0) + s.count
    return out


def group_count(state: GameState, ruleset: Any, target: str) -> int:
    """The groups `target`'s units make: one per 3 IPCs of its value (before this strike), at least one."""
    value = int(ruleset.board.spaces[target].ipc) - income_lost(state, target)
    return max(1, max(0, value) // GROUP_VALUE)


def groups(state: GameState, ruleset: Any, power: str, target: str, count: int = 0) -> list[dict[str, int]]:
    """A plain division of the struck units into the territory's groups (`count`, default: as the territory's
    value stands): one at a time, dearest first, to each group in turn (what the defender is offered first)."""
    units = ruleset.units
    out: list[dict[str, int]] = [{} for _ in range(count or group_count(state, ruleset, target))]
    i = 0
    for unit, n in sorted(struck(state, ruleset, power, target).items(),
                          key=lambda kv: (-units[kv[0]].cost, units.order(kv[0]))):
        for _ in range(n):
            group = out[i % len(out)]
            group[unit] = group.get(unit, 0) + 1
            i += 1
    return out


def strike_range(state: GameState, ruleset: Any, power: str) -> int:
    """Half a bomber's movement (AARHE's combat flights)."""
    move = int(ruleset.units["bomber"].move) + (2 if has_tech(state, power, LONG_RANGE) else 0)
    return move // 2


class BuyBomb(PhaseExtension):
    name = "purchase"
    action_types = frozenset({"atomic"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None and has_tech(ctx.state, ctx.power, ATOMIC):
            yield Atomic(step="buy")

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, power = ctx.state, ctx.power
        if not isinstance(action, Atomic) or action.step != "buy":
            raise IllegalAction("atomic bombs are bought in the purchase phase: 'atomic buy'", R_PURCHASE)
        if not has_tech(state, power, ATOMIC):
            raise IllegalAction(f"{power} needs Atomic Weaponry to build atomic bombs", R_PURCHASE)
        record = _record(state, power)
        if state.round in record["bought"]:
            raise IllegalAction(f"{power} has bought its one atomic bomb this turn", R_PURCHASE)
        cost = int(ctx.ruleset.options.get("atomic_bomb_cost", DEFAULT_COST))
        bank = state.banks.get(power, 0)
        if cost > bank:
            raise IllegalAction(f"an atomic bomb costs {cost} IPCs; {power} has {bank}", R_PURCHASE)
        ctx.emit(BankChanged(power, -cost, "purchase: atomic bomb", R_PURCHASE))
        ctx.emit(_record_event(state, power, {**record, "bought": [*record["bought"], state.round]}, R_BUILD))


class LoadBomb(PhaseExtension):
    name = "non-combat-move"
    action_types = frozenset({"atomic"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, power = ctx.state, ctx.power
        if ready_bombs(state, power) <= 0 or not has_tech(state, power, HEAVY_BOMBER):
            return
        for where in sorted(state.units) if space is None else [space]:
            if any(s.owner == power and s.unit == "bomber" and not armed(s) for s in state.stacks(where)):
                yield Atomic(step="load", space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, power = ctx.state, ctx.power
        if not isinstance(action, Atomic) or action.step != "load":
            raise IllegalAction("an atomic bomb is loaded onto a bomber in non-combat move", R_LOADING)
        if not has_tech(state, power, HEAVY_BOMBER):
            raise IllegalAction(f"{power} needs Heavy Bomber to load an atomic bomb", R_LOADING)
        if ready_bombs(state, power) <= 0:
            raise IllegalAction(f"{power} has no atomic bomb ready", R_BUILD)
        space = ctx.ruleset.board.resolve(action.space)
        bomber = next((s for s in state.stacks(space) if s.owner == power and s.unit == "bomber" and not armed(s)),
                      None)
        if bomber is None:
            raise IllegalAction(f"{power} has no unarmed bomber in {space}", R_LOADING)
        one = bomber.with_count(1)
        ctx.emit(UnitsChanged(space, one, flags.with_flags(one, [ARMED])))
        record = _record(state, power)
        ctx.emit(_record_event(state, power, {**record, "used": record["used"] + 1}, R_LOADING))


def _refuse_armed(action: Any, rule: str) -> None:
    if isinstance(action, Atomic):
        raise IllegalAction("atomic bombs are bought in the purchase phase, loaded in non-combat move and dropped "
                            "in conduct combat", rule)


class BombLoadedOnlyInNonCombat(PhaseExtension):
    """Loading is refused in combat move (AARHE-TECH-atomic-loading)."""

    name = "combat-move"
    action_types = frozenset({"atomic"})

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        _refuse_armed(action, R_LOADING)


class Strike(PhaseExtension):
    """Conduct combat: the nuclear attack, the struck territory's holder dividing its units, the attacker naming
    the group (decisions ``atomic_groups`` and ``atomic_target``)."""

    name = "conduct-combat"
    action_types = frozenset({"atomic"})
    answers = frozenset({GROUPS, TARGET})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        pending = state.pending
        if space is not None:
            return
        if pending is not None and pending.get("kind") == GROUPS:
            attacker = str(pending["attacker"])
            plain = groups(state, ruleset, attacker, str(pending["space"]), int(pending["count"]))
            yield Atomic(step="groups", groups=" / ".join(format_units(g, ruleset.units) or "none" for g in plain))
            return
        if pending is not None and pending.get("kind") == TARGET:
            for i, _ in enumerate(pending["groups"]):
                yield Atomic(step="target", group=i + 1)
            return
        if pending is not None:
            return
        for where, stacks in sorted(state.units.items()):
            if any(s.owner == power and armed(s) and not flags.turn_flags(s) for s in stacks):
                for target in self.targets(state, ruleset, power, where):
                    yield Atomic(step="strike", space=where, target=target)

    @staticmethod
    def targets(state: GameState, ruleset: Any, power: str, origin: str) -> list[str]:
        board = ruleset.board
        side = board.side_of(power)
        near = graph_of(board).ball(origin, strike_range(state, ruleset, power))
        return [t for t in sorted(near) if board.spaces[t].is_land and state.owners.get(t) is not None
                and board.side_of(state.owners[t]) != side]

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Atomic) or action.step not in ("strike", "groups", "target"):
            _refuse_armed(action, R_INCOME)
            return
        pending = ctx.state.pending
        wanted = {"groups": GROUPS, "target": TARGET}.get(action.step)
        if (pending or {}).get("kind") != wanted:
            asked = f"'{(pending or {}).get('kind')}' is to be answered" if pending else "no atomic decision is pending"
            raise IllegalAction(f"atomic {action.step} now: {asked}", R_UNITS)
        if action.step == "strike":
            self._strike(ctx, action)
        elif action.step == "groups":
            self._divide(ctx, action)
        else:
            self._destroy(ctx, action)

    def _strike(self, ctx: TurnContext, action: Atomic) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        board = ruleset.board
        origin, target = board.resolve(action.space), board.resolve(action.target)
        bomber = next((s for s in state.stacks(origin) if s.owner == power and armed(s) and not flags.turn_flags(s)),
                      None)
        if bomber is None:
            raise IllegalAction(f"{power} has no armed bomber in {origin} that may strike this turn", R_INCOME)
        if target not in self.targets(state, ruleset, power, origin):
            raise IllegalAction(f"{target} is no target of a nuclear attack from {origin}: a hostile territory within "
                                f"{strike_range(state, ruleset, power)} spaces", R_INCOME)
        count = group_count(state, ruleset, target)
        hit = struck(state, ruleset, power, target)
        [lost] = ctx.roll(1, f"nuclear attack on {target}: income lost")
        table = {**(state.extra.get(NUKED) or {}), target: income_lost(state, target) + lost}
        ctx.emit(ExtraSet(NUKED, dict(sorted(table.items())), R_INCOME))
        one = bomber.with_count(1)
        ctx.emit(UnitsChanged(origin, one, flags.with_flags(one, [flags.COMBAT], [ARMED])))
        if not hit:
            return
        if count == 1:
            self._roll(ctx, target, hit, 1)
            return
        ctx.emit(DecisionPending({"kind": GROUPS, "power": state.owners[target], "space": target, "count": count,
                                  "attacker": power, "rule": R_UNITS}))

    def _divide(self, ctx: TurnContext, action: Atomic) -> None:
        state, ruleset = ctx.state, ctx.ruleset
        pending = dict(state.pending or {})
        target, count = str(pending["space"]), int(pending["count"])
        parts = [parse_units(part, ruleset.units) for part in action.groups.split("/")]
        if len(parts) != count:
            raise IllegalAction(f"{target}'s units make {count} groups, not {len(parts)} ('/' between groups)", R_UNITS)
        total: dict[str, int] = {}
        for part in parts:
            for unit, n in part.items():
                total[unit] = total.get(unit, 0) + n
        hit = struck(state, ruleset, str(pending["attacker"]), target)
        if {u: n for u, n in total.items() if n} != hit:
            raise IllegalAction(f"the groups must hold exactly the units struck in {target}: "
                                f"{format_units(hit, ruleset.units)}", R_UNITS)
        ctx.emit(DecisionPending({"kind": TARGET, "power": pending["attacker"], "space": target,
                                  "groups": [dict(p) for p in parts], "rule": R_UNITS}))

    def _destroy(self, ctx: TurnContext, action: Atomic) -> None:
        pending = dict(ctx.state.pending or {})
        chosen: list[dict[str, int]] = list(pending["groups"])
        if not 1 <= action.group <= len(chosen):
            raise IllegalAction(f"choose a group from 1 to {len(chosen)}", R_UNITS)
        ctx.emit(DecisionPending(None))
        self._roll(ctx, str(pending["space"]), chosen[action.group - 1], action.group)

    @staticmethod
    def _roll(ctx: TurnContext, target: str, group: dict[str, int], number: int) -> None:
        """A die for each unit of `group` in `target`: 5 or less destroys it."""
        size = sum(group.values())
        if not size:
            return
        rolled = iter(ctx.roll(size, f"nuclear attack on {target}: group {number}"))
        side = ctx.ruleset.board.side_of(ctx.state.owners.get(target, ""))
        for unit, n in group.items():
            lost = sum(1 for _ in range(n) if next(rolled) <= DESTROYS_ON)
            for stack in [s for s in ctx.state.stacks(target) if s.unit == unit
                          and ctx.ruleset.board.side_of(s.owner) == side]:
                if lost <= 0:
                    break
                take = min(lost, stack.count)
                ctx.emit(UnitsRemoved(target, stack.with_count(take), R_UNITS))
                lost -= take


def armed_stays(leg: Leg) -> Violation | None:
    """AARHE-TECH-atomic-bomber-lockout: an armed bomber takes no part in an attack."""
    if leg.combat and armed(leg.stack):
        return Violation(f"{leg.where}: a bomber carrying an atomic bomb takes no part in combat", R_LOCKOUT)
    return None


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    return [armed_stays, *checks]


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """AARHE-TECH-atomic-attack-income: the income nuclear attacks took for good from `power`'s territories."""
    if state is None:
        return value
    lost = sum(min(int(n), int(ruleset.board.spaces[t].ipc)) for t, n in (state.extra.get(NUKED) or {}).items()
               if state.owners.get(t) == power)
    return max(0, value - lost)


def _nation_records(records: dict[str, Any], state: Any, power: str, **_: Any) -> dict[str, Any]:
    if state is None or not power or not _record(state, power)["bought"]:
        return records
    building = sum(1 for r in _record(state, power)["bought"] if r >= state.round)
    return {**records, "atomic bombs": f"{ready_bombs(state, power)} ready, {building} being built"}


AARHE_ATOMIC = register_module(
    RuleModule(
        id="aarhe_atomic",
        title="AARHE atomic bomb: purchase, build time, loading, nuclear attacks",
        rule_ids=(R_PURCHASE, R_BUILD, R_LOADING, R_LOCKOUT, R_INCOME, R_UNITS),
        hooks={
            "phase_actions": by_phase(BuyBomb(), LoadBomb(), BombLoadedOnlyInNonCombat(), Strike()),
            "move_checks": _move_checks,
            "income": _income,
            "nation_records": _nation_records,
        },
        requires=("aarhe_research",),
        options=(
            OptionSpec(
                key="atomic_bomb_cost",
                type=int,
                default=DEFAULT_COST,
                minimum=0,
                help="IPCs an atomic bomb costs (the variant names no price)",
                rule_id=R_PURCHASE,
            ),
        ),
    )
)
