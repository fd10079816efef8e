"""AARHE land retreats (AARHE-LANDRETREAT-*): at the end of a cycle a side left without land units against enemy
land units must retreat; the attacker may retreat some or all of its units, then the defender too; attacking
tanks in excess of the defender's roll capture dice on its retreating infantry and artillery; units that
retreated into a territory their side no longer holds at the end of the combat phase are lost.

Attacking land units retreat to a territory attacking units came from (LHTR-COMBAT-retreat-destination);
defending land units to an adjacent friendly territory, defending aircraft to a friendly territory within two
spaces. Destinations are computed when the battle is built (`battle_inputs`), each retreating unit routed when the
retreat is answered (`retreat_routes`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from aare.combat import steps as s
from aare.combat.battle_state import DiceGroup, Side, Target, make_stacks
from aare.combat.decisions import PressOrRetreat
from aare.combat.events import Retreated, UnitsRemoved
from aare.combat.setup import Battle
from aare.combat.steps import Step, StepResult, combat_units, end_check, roll
from aare.combat.values import present
from aare.errors import IllegalAction
from aare.events import ExtraSet
from aare.events import UnitsRemoved as MapUnitsRemoved
from aare.movement import flags
from aare.movement.battles import BattleSite
from aare.movement.graph import graph_of
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe.combat_values import TANK
from aare.state.game_state import GameState

R_FORCED = "AARHE-LANDRETREAT-forced"
R_ATTACKER = "AARHE-LANDRETREAT-attacker"
R_DEFENDER = "AARHE-LANDRETREAT-defender-choice"
R_DESTINATIONS = "AARHE-LANDRETREAT-defender-destinations"
R_LOST = "AARHE-LANDRETREAT-lost-destination"
R_CAPTURE = "AARHE-LANDRETREAT-capture"

AIR_RETREAT = 2  # defending aircraft retreat to a friendly territory within two spaces
ESCAPED = "escaped"  # a retreated defender the capture dice can no longer reach


# ---------------------------------------------------------------- battle steps


def _land(battle: Battle, side: Side) -> int:
    return sum(n for k, n in present(battle, side)
               if battle.setup.unit(k).domain == "land" and not battle.setup.unit(k).has("not_casualty"))


def _forced_applies(battle: Battle) -> bool:
    a, d = _land(battle, "attacker"), _land(battle, "defender")
    return (not a and d > 0 and combat_units(battle, "attacker") > 0) or (
        not d and a > 0 and combat_units(battle, "defender") > 0)


def forced_retreat(battle: Battle) -> StepResult:
    """AARHE-LANDRETREAT-forced: an attacker left without land units against defending land units retreats (its
    aircraft fly off to land as after any retreat); a defender left with aircraft only against attacking land
    units must retreat them: those with nowhere to go (`BattleSetup.defender_stays`) are destroyed, the others
    go where the defender chooses."""
    st = battle.state
    if not _land(battle, "defender"):
        doomed = {k for k, _ in present(battle, "defender") if k.type in battle.setup.defender_stays
                  and not battle.setup.unit(k).has("not_casualty")}
        events: list[Any] = []
        if doomed:
            gone: Counter[str] = Counter()
            for k, n in st.defender:
                if k in doomed:
                    gone[k.type] += n
            st = st.evolve(defender=make_stacks((k, n) for k, n in st.defender if k not in doomed))
            events.append(UnitsRemoved("defender", dict(gone), "no friendly territory within reach"))
            st2, more = end_check(battle.with_state(st))
            if st2.ended:
                return st2, events + more
        decision = PressOrRetreat(battle.setup.defender_retreat_to, True, False, side="defender", rule=R_FORCED,
                                    forced=True)
        return st.evolve(pending=decision), events
    return attacker_withdraws(battle)


def attacker_withdraws(battle: Battle) -> StepResult:
    """Every attacking unit still in the battle retreats (aircraft fly off in non-combat move)."""
    st = battle.state
    moved: Counter[str] = Counter()
    kept = []
    for key, n in st.attacker:
        if key.present:
            moved[key.type] += n
            key = key.with_flag("retreated")
        kept.append((key, n))
    battle = battle.with_state(st.evolve(attacker=make_stacks(kept)))
    st2, more = end_check(battle)
    return st2, [Retreated(dict(moved), None, "attacker"), *more]


def attacker_retreat(battle: Battle) -> StepResult:
    """AARHE-LANDRETREAT-attacker: press on, or retreat some or all units (LHTR's destinations)."""
    decision = s.retreat_options(battle)
    if decision is None:
        return battle.state, []
    return battle.state.evolve(pending=replace(decision, partial=True, rule=R_ATTACKER)), []


def defender_retreat(battle: Battle) -> StepResult:
    """AARHE-LANDRETREAT-defender-choice: the defender may then retreat some or all of its units."""
    decision = s.defender_retreat_options(battle, R_DEFENDER)
    if decision is None:
        return battle.state, []
    return battle.state.evolve(pending=replace(decision, partial=True)), []


def _tanks(battle: Battle, side: Side, staying: bool) -> int:
    return sum(n for k, n in battle.state.units(side) if battle.setup.unit(k).has(TANK) and not k.marked
               and (k.present or not staying))


def _capture_applies(battle: Battle) -> bool:
    return "cycle:retreated:defender" in battle.state.notes


def capture_dice(battle: Battle) -> StepResult:
    """AARHE-LANDRETREAT-capture: each attacking tank that stays, in excess of the defender's tanks in the battle,
    rolls a die; each 1 destroys a retreating infantry or artillery of the defender's choice."""
    dice = _tanks(battle, "attacker", True) - _tanks(battle, "defender", False)
    if dice <= 0:
        return battle.state, []
    tank = next(k.type for k, _ in present(battle, "attacker") if battle.setup.unit(k).has(TANK))
    target = Target(tags=("infantry", "artillery"), flags=("retreated",), exclude_flags=(ESCAPED,), rule=R_CAPTURE)
    return roll(battle, "capture dice", [DiceGroup("attacker", tank, dice, 1, target, "now")])


def _escaped(battle: Battle) -> StepResult:
    """The defender's units that retreated are out of reach of later capture dice; the battle ends if the
    defender has nothing left in it."""
    st = battle.state
    marked = [(k.with_flag(ESCAPED) if k.has("retreated") else k, n) for k, n in st.defender]
    return end_check(battle.with_state(st.evolve(defender=make_stacks(marked))))


FORCED_RETREAT = Step("forced retreat", forced_retreat, _forced_applies, rule=R_FORCED)
ATTACKER_RETREAT = Step("press or retreat", attacker_retreat, rule=R_ATTACKER)
DEFENDER_RETREAT = Step("defender retreat", defender_retreat, rule=R_DEFENDER,
                        declined_by_calculator="the defender never retreats")
CAPTURE_DICE = Step("capture dice", capture_dice, _capture_applies, rule=R_CAPTURE)
ESCAPED_STEP = Step("retreat ends", _escaped, _capture_applies, rule=R_CAPTURE)
STEPS = (FORCED_RETREAT, ATTACKER_RETREAT, DEFENDER_RETREAT, CAPTURE_DICE, ESCAPED_STEP)


# ---------------------------------------------------------------- destinations and routes


COMBAT_OWNERS = "aarhe_combat_owners"  # extra: who held each territory as the side's combat phase began


def combat_owners(state: GameState) -> Mapping[str, str]:
    """The owners when the combat phase of the turn being played began (the current ones outside it): a retreat's
    destinations do not change while the battles of a team turn are fought one after another (a destination lost
    meanwhile costs the units that went there, AARHE-LANDRETREAT-lost-destination)."""
    record = state.extra.get(COMBAT_OWNERS) or {}
    return record.get("owners") or state.owners if record.get("round") == state.round else state.owners


def _friendly(ruleset: Ruleset, owners: Mapping[str, str], power: str, space: str) -> bool:
    owner = owners.get(space)
    return owner is not None and ruleset.board.side_of(owner) == ruleset.board.side_of(power)


def land_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    """Adjacent friendly territories (AARHE-LANDRETREAT-defender-destinations)."""
    graph, owners = graph_of(ruleset.board), combat_owners(state)
    return tuple(sorted(t for t in graph.land_nbrs.get(site.space, ()) if _friendly(ruleset, owners, power, t)))


def air_destinations(state: GameState, ruleset: Ruleset, site: BattleSite, power: str) -> tuple[str, ...]:
    """Friendly territories within two spaces (AARHE-LANDRETREAT-defender-destinations)."""
    graph, owners = graph_of(ruleset.board), combat_owners(state)
    reach = graph.ball(site.space, AIR_RETREAT)
    return tuple(sorted(t for t in reach if t != site.space and t in graph.land
                        and _friendly(ruleset, owners, power, t)))


def defender_power(state: GameState, ruleset: Ruleset, site: BattleSite) -> str:
    """The power that decides for the defender of the battle at `site`."""
    from aare.combat.board_battle import deciding_power

    return deciding_power(state, ruleset, site, "defender")


def battle_inputs(inputs: dict[str, Any], ruleset: Ruleset, state: GameState, site: BattleSite, **_: Any
                  ) -> dict[str, Any]:
    """Where the defender's land units and aircraft may retreat; the types that cannot."""
    if site.kind not in ("land", "amphibious"):
        return inputs
    power = defender_power(state, ruleset, site)
    land = land_destinations(state, ruleset, site, power)
    air = air_destinations(state, ruleset, site, power)
    units = ruleset.units
    kinds = {st.unit for stacks in site.defenders.values() for st in stacks if not units[st.unit].has("not_casualty")}
    stays = {u for u in kinds if not (air if units[u].domain == "air" else land)}
    return {**inputs, "defender_retreat_to": tuple(sorted(set(land) | set(air))), "defender_stays": frozenset(stays),
            "rules": replace(inputs["rules"], mark_land_retreats=True)}


Routes = tuple[tuple[str, str, int], ...]


def _going(battle: Battle, side: Side) -> Counter[str]:
    out: Counter[str] = Counter()
    for key, n in present(battle, side):
        unit = battle.setup.unit(key)
        if not key.marked and not unit.has("not_casualty") and not key.has("amphibious"):
            out[key.type] += n
    return out


def retreat_routes(routes: Routes | None, ruleset: Ruleset, state: GameState, site: BattleSite, battle: Battle,
                   side: Side, to: str | None, split: Mapping[str, Mapping[str, int]], withdrawing: bool = False,
                   **_: Any) -> Routes | None:
    """Route each retreating unit: the `split` (some units, each to a place it may go), else every unit that can
    go to `to` (a defender's aircraft to the first place they may reach when `to` is not one). Attacking aircraft
    need no route: they fly off in non-combat move."""
    if site.kind not in ("land", "amphibious") or withdrawing:
        return routes
    units = ruleset.units
    going = _going(battle, side)
    free = not split
    wanted = {place: dict(parts) for place, parts in split.items()} if split else ({to: dict(going)} if to else {})
    named = sum((Counter(p) for p in wanted.values()), Counter())
    if any(named[u] > going[u] for u in named):
        raise IllegalAction(f"the {side} has not that many units able to retreat", R_ATTACKER if side == "attacker"
                            else R_DEFENDER)
    power = site.attacker if side == "attacker" else defender_power(state, ruleset, site)
    land_ok = tuple(site.retreat_to) if side == "attacker" else land_destinations(state, ruleset, site, power)
    air_ok = air_destinations(state, ruleset, site, power)
    out: list[tuple[str, str, int]] = []
    for place, parts in sorted(wanted.items()):
        for unit, n in sorted(parts.items()):
            if not n:
                continue
            aircraft = units[unit].domain == "air"
            if aircraft and side == "attacker":
                continue
            allowed = air_ok if aircraft else land_ok
            if place not in allowed:
                if aircraft and free and allowed:
                    out.append((allowed[0], unit, n))
                    continue
                rule = R_ATTACKER if side == "attacker" else R_DESTINATIONS
                raise IllegalAction(f"{units[unit].display_plural} cannot retreat to {place} (they may go to "
                                    f"{', '.join(allowed) or 'nowhere'})", rule)
            out.append((place, unit, n))
    return tuple(out)


class LostRetreats(PhaseExtension):
    """AARHE-LANDRETREAT-lost-destination: when a power's combat phase ends, units that retreated this turn into
    a territory their side no longer holds are lost. On entry the owners are recorded (`combat_owners`), once for
    the members of a team turn."""

    name = "conduct-combat"

    def on_enter(self, ctx: TurnContext) -> None:
        record = ctx.state.extra.get(COMBAT_OWNERS) or {}
        if record.get("round") != ctx.state.round or record.get("side") != ctx.ruleset.board.side_of(ctx.power):
            ctx.emit(ExtraSet(COMBAT_OWNERS, {"round": ctx.state.round, "side": ctx.ruleset.board.side_of(ctx.power),
                                              "owners": dict(ctx.state.owners)}, R_DESTINATIONS))

    def on_exit(self, ctx: TurnContext) -> None:
        state, ruleset = ctx.state, ctx.ruleset
        for space in sorted(graph_of(ruleset.board).land):
            for stack in state.stacks(space):
                if flags.has(stack, flags.RETREATED) and not _friendly(ruleset, state.owners, stack.owner, space):
                    ctx.emit(MapUnitsRemoved(space, stack, R_LOST))


LOST_RETREATS = LostRetreats()
