"""AARHE Phase 1 rockets (module `aarhep1_rockets`, AARHEP1-OPT-rockets-*), for a nation that developed Rockets
(`rocket_launchers`): rockets (a unit of the catalogue never put on the board) are bought in purchase at 2 IPCs
each (`buy 3 rockets`) into the nation's stock, ready from its next turn on; in conduct combat each rocket is
fired on its own (`rocket FROM -> TO`) from a territory the nation has held since the turn began and that a chain
of its side's land territories joins to its capital, at an enemy industrial complex at most 2 spaces away
(counted as aircraft fly). Its damage is the higher of two dice, as economic damage (LHTR's: IPCs out of the
owner's treasury), at most the territory's value a turn for all raids and rockets together; nothing defends
against it.

State: ``extra["aarhep1_rockets"][power] = {"ready": rockets to fire, "new": bought in round "round"}``."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from aare.actions import Rocket
from aare.board.units import UnitCatalogue, UnitType
from aare.economy.damage import bombing_damage_events, damage_cap_remaining
from aare.economy.turn import held_since_turn_start
from aare.errors import IllegalAction
from aare.events import BankChanged, Event, ExtraSet
from aare.movement.graph import graph_of
from aare.phases.base import PhaseExtension, TurnContext
from aare.phases.conduct_combat import combat_record
from aare.phases.purchase import check_capital
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.production import connected

R_PURCHASE = "AARHEP1-OPT-rockets-purchase"
R_LAUNCH = "AARHEP1-OPT-rockets-launch-sites"
R_RANGE = "AARHEP1-OPT-rockets-range"
R_DAMAGE = "AARHEP1-OPT-rockets-damage"
R_CAP = "AARHEP1-OPT-rockets-cap"

ROCKETS = "rocket_launchers"  # the technology's id (`aarhep1_research`)
STOCK = "aarhep1_rockets"
PRICE = 2
RANGE = 2
ROCKET = "rocket"
UNIT = UnitType(ROCKET, "building", cost=PRICE, move=0, attack=0, defense=0, name="rocket", plural="rockets",
                aliases=("rockets",), tags=frozenset({ROCKET}), rule=R_PURCHASE)


def split_order(units: Mapping[str, int]) -> tuple[int, dict[str, int]]:
    """The rockets of an order and its other units."""
    return units.get(ROCKET, 0), {u: n for u, n in units.items() if u != ROCKET}


def stock(state: Any, power: str) -> dict[str, int]:
    """`power`'s rockets: those `ready` to fire and those bought this round (`new`), ready from its next turn."""
    found = (state.extra.get(STOCK) or {}).get(power) or {}
    ready, new = int(found.get("ready", 0)), int(found.get("new", 0))
    if found.get("round") != state.round:
        ready, new = ready + new, 0
    return {"ready": ready, "new": new, "round": state.round}


def _stock_event(state: Any, power: str, rule_id: str, **changes: int) -> ExtraSet:
    table = dict(state.extra.get(STOCK) or {})
    table[power] = {**stock(state, power), **changes}
    return ExtraSet(STOCK, dict(sorted(table.items())), rule_id)


def has_rockets(state: Any, power: str) -> bool:
    return ROCKETS in state.techs.get(power, ())


def purchase_events(state: Any, ruleset: Any, power: str, n: int) -> list[Event]:
    """Buying `n` rockets at 2 IPCs each (AARHEP1-OPT-rockets-purchase)."""
    if not has_rockets(state, power):
        raise IllegalAction(f"{power} has not developed Rockets", R_PURCHASE)
    if n < 1:
        raise IllegalAction("buy at least one rocket", R_PURCHASE)
    check_capital(state, ruleset, power)
    cost, bank = PRICE * n, state.banks.get(power, 0)
    if cost > bank:
        raise IllegalAction(f"{n} rockets cost {cost} IPCs; {power} has {bank}", R_PURCHASE)
    return [BankChanged(power, -cost, f"rule: {n} rockets bought", R_PURCHASE),
            _stock_event(state, power, R_PURCHASE, new=stock(state, power)["new"] + n)]


def launch_sites(state: Any, ruleset: Any, power: str) -> list[str]:
    """The territories `power` may fire rockets from: held since the turn began and joined to its capital by its
    side's land territories (AARHEP1-OPT-rockets-launch-sites)."""
    return [t for t, owner in sorted(state.owners.items())
            if owner == power and held_since_turn_start(state, power, t) and connected(state, ruleset, power, t)]


def targets(state: Any, ruleset: Any, launcher: str) -> list[str]:
    """Enemy territories with an industrial complex at most 2 spaces from `launcher` (AARHEP1-OPT-rockets-range)."""
    board = ruleset.board
    side = board.side_of(state.nation)
    near = graph_of(board).ball(launcher, RANGE)
    return [t for t in sorted(near) if state.owners.get(t) is not None and board.side_of(state.owners[t]) != side
            and any(ruleset.units[s.unit].has("bombing_target") for s in state.stacks(t))]


def damage(rolls: Iterable[int]) -> int:
    """A rocket's damage: the higher of its two dice (AARHEP1-OPT-rockets-damage)."""
    return max(rolls)


def _units(catalogue: UnitCatalogue, **_: Any) -> UnitCatalogue:
    """The rocket joins the catalogue: the purchase phase offers it (to a nation with Rockets, as its order is
    refused otherwise); it is never placed."""
    return catalogue if ROCKET in catalogue else UnitCatalogue([*catalogue, UNIT])


class RocketFire(PhaseExtension):
    """Conduct combat: one rocket from a launch site at an enemy complex within 2 spaces."""

    name = "conduct-combat"
    action_types = frozenset({"rocket"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if not has_rockets(state, power) or not stock(state, power)["ready"] or state.pending is not None:
            return
        aimed: set[str] = set()
        for launcher in launch_sites(state, ruleset, power):
            for target in targets(state, ruleset, launcher):
                if target in aimed or space not in (None, launcher, target):
                    continue
                if damage_cap_remaining(state, ruleset, target) and state.banks.get(state.owners[target], 0):
                    aimed.add(target)
                    yield Rocket(launcher=launcher, target=target)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if not isinstance(action, Rocket):
            raise IllegalAction(f"{action.type} is not a rocket", R_LAUNCH)
        current = combat_record(state)["current"]
        if current is not None:
            raise IllegalAction(f"the battle in {current['space']} is not over", "LHTR-COMBAT-battle-order")
        if not has_rockets(state, power):
            raise IllegalAction(f"{power} has not developed Rockets", R_PURCHASE)
        mine = stock(state, power)
        if not mine["ready"]:
            waiting = f" ({mine['new']} bought this turn fire from the next)" if mine["new"] else ""
            raise IllegalAction(f"{power} has no rocket ready to fire{waiting}", R_PURCHASE)
        launcher, target = ruleset.board.resolve(action.launcher), ruleset.board.resolve(action.target)
        if launcher not in launch_sites(state, ruleset, power):
            raise IllegalAction(f"{launcher} is no launch site of {power}: a territory it has held since the turn "
                                "began, joined to its capital by its side's land territories", R_LAUNCH)
        if target not in targets(state, ruleset, launcher):
            raise IllegalAction(f"{target} is no rocket target from {launcher}: an enemy industrial complex at "
                                f"most {RANGE} spaces away", R_RANGE)
        rolls = ctx.roll(2, f"rocket from {launcher} at {target} (the higher of two dice)")
        ctx.emit(_stock_event(state, power, R_DAMAGE, ready=mine["ready"] - 1))
        ctx.emit(*bombing_damage_events(ctx.state, ruleset, target, damage(rolls), "rocket"))


def _nation_records(records: dict[str, Any], state: Any, power: str, **_: Any) -> dict[str, Any]:
    """The rockets of a nation with Rockets, e.g. ``3 (1 ready next turn)``."""
    if state is None or not power or not has_rockets(state, power):
        return records
    mine = stock(state, power)
    return {**records, "rockets": f"{mine['ready']}" + (f" ({mine['new']} ready next turn)" if mine["new"] else "")}


AARHEP1_ROCKETS = register_module(
    RuleModule(
        id="aarhep1_rockets",
        title="AARHE Phase 1 rockets: bought at 2 IPCs, fired from territories joined to the capital, 2 spaces",
        rule_ids=(R_PURCHASE, R_LAUNCH, R_RANGE, R_DAMAGE, R_CAP),
        hooks={"phase_actions": by_phase(RocketFire()), "nation_records": _nation_records,
               "unit_catalogue": _units},
        requires=("aarhep1_research",),
    )
)
