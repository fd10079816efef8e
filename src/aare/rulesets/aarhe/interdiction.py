"""AARHE air interdiction (AARHE-INTERDICT-*): the strike of the bombers on interdiction and the interdiction
dice against the enemy's moves.

When the declarations are in, each strike is resolved in turn: the IDs of a target territory fire once at the
bombers as at an overflight (AARHE-INTERDICT-id-fire; a destroyed bomber is lost, a repelled one aborts), then
each bomber left rolls its attack once; the hits are taken by the enemy's land and sea units there, chosen by
the target's holder (`choose_casualties`) unless every unit is hit. In the enemy's non-combat move every land or
sea unit moving into, out of or through an interdicted space rolls one die per bomber that struck it: a 1
destroys it, else a 2 stops it where it started (it moves no more this turn).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import ChooseCasualties, Move
from aare.board.notation import format_units, parse_units
from aare.combat.engine import advance
from aare.combat.policy import DEFAULT_POLICY
from aare.errors import AareError, IllegalAction
from aare.events import DecisionPending, Event, UnitsChanged, UnitsRemoved
from aare.movement.battles import BattleSite
from aare.phases.base import PhaseExtension, TurnContext
from aare.rulesets.aarhe import air_missions as am
from aare.rulesets.aarhe import overflight
from aare.state.unit_stacks import Stack

CASUALTIES = "interdiction_casualties"  # the pending choice of the units an interdiction strike hits
DESTROYED_ON, STOPPED_ON = 1, 2  # AARHE-INTERDICT-movement-rolls


class _Dice:
    """The turn's dice for the IDs' fire at a strike, each roll logged under `purpose`."""

    def __init__(self, ctx: TurnContext, purpose: str) -> None:
        self.ctx, self.purpose = ctx, purpose

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        return self.ctx.roll(n, self.purpose, sides)


def _bombers(ctx: TurnContext, entry: dict[str, Any]) -> list[Stack]:
    """The stacks of the strike's bombers (at home, flagged for the target)."""
    mark = f"{am.STRIKE}={entry['target']}"
    return [s for s in ctx.state.stacks(entry["home"]) if s.owner == entry["power"] and mark in s.flags]


def _id_fire(ctx: TurnContext, entry: dict[str, Any]) -> int:
    """AARHE-INTERDICT-id-fire: the target's IDs fire once at the bombers; how many may attack (neither
    destroyed nor repelled)."""
    target, power = entry["target"], entry["power"]
    ids, _ = overflight.defences(ctx.ruleset, ctx.state, target, power) if target in ctx.state.owners else (0, 0)
    alive = 0
    for stack in _bombers(ctx, entry):
        if not ids:
            alive += stack.count
            continue
        site = BattleSite(target, "flyover", power)
        battle = overflight.flyover_battle(None, ctx.ruleset, ctx.state, site, stack)
        assert battle is not None
        battle, _ = advance(battle, _Dice(ctx, f"IDs in {target} fire at the bombers on interdiction"),
                            DEFAULT_POLICY)
        left = sum(n for k, n in battle.state.attacker if not k.marked and k.present)
        repelled = sum(n for k, n in battle.state.attacker if not k.marked and not k.present)
        if stack.count - left - repelled:
            ctx.emit(UnitsRemoved(entry["home"], stack.with_count(stack.count - left - repelled), am.R_ID_FIRE))
        alive += left
    return alive


def _targets(ctx: TurnContext, target: str, striker: str) -> list[Stack]:
    """The units a strike of `striker` may hit: its enemy's land and sea units in `target`."""
    units, board = ctx.ruleset.units, ctx.ruleset.board
    side = board.side_of(striker)
    return [s for s in ctx.state.stacks(target) if board.side_of(s.owner) != side
            and units[s.unit].domain != "air" and not units[s.unit].has("not_casualty")]


def _hit_points(ctx: TurnContext, stacks: Iterable[Stack]) -> int:
    return sum(s.count * max(1, ctx.ruleset.units[s.unit].hits - s.damage) for s in stacks)


def _hit(ctx: TurnContext, space: str, stack: Stack) -> Event:
    """One unit of `stack` takes a hit: a unit with a hit to spare is damaged, any other destroyed."""
    one = stack.with_count(1)
    if ctx.ruleset.units[stack.unit].hits - stack.damage > 1:
        return UnitsChanged(space, one, replace(one, damage=one.damage + 1))
    return UnitsRemoved(space, one, am.R_MISSION)


def strike(ctx: TurnContext, entry: dict[str, Any]) -> dict[str, Any] | None:
    """Resolve one strike; the casualty decision it leaves to the target's holder, if any."""
    alive = _id_fire(ctx, entry)
    entry["bombers"] = alive
    targets = _targets(ctx, entry["target"], entry["power"])
    if not alive or not targets:
        return None
    unit = next(iter(entry["units"]))
    value = ctx.ruleset.units[unit].attack
    hits = sum(v <= value for v in ctx.roll(alive, f"{alive} bomber(s) of {entry['power']} strike "
                                                    f"{entry['target']} at {value}"))
    if not hits:
        return None
    if hits >= _hit_points(ctx, targets):
        for stack in targets:
            ctx.emit(UnitsRemoved(entry["target"], stack, am.R_MISSION))
        return None
    holder = ctx.state.owners.get(entry["target"]) or targets[0].owner
    return {"kind": CASUALTIES, "power": holder, "space": entry["target"], "hits": hits, "rule": am.R_MISSION,
            "striker": entry["power"],
            "units": {s.unit: sum(t.count for t in targets if t.unit == s.unit) for s in targets}}


def resolve(ctx: TurnContext) -> None:
    """Resolve the strikes still waiting, until one leaves a casualty decision."""
    rec = am.record(ctx.state)
    waiting = list(rec.get("strikes", []))
    while waiting:
        entry = dict(waiting.pop(0))
        decision = strike(ctx, entry)
        hit = dict(am.record(ctx.state).get("interdicted", {}))
        if entry["bombers"]:
            before = hit.get(entry["target"], {"power": entry["power"], "bombers": 0})
            hit[entry["target"]] = {**before, "bombers": before["bombers"] + entry["bombers"]}
        ctx.emit(am.record_event(ctx.state, am.R_MISSION, strikes=waiting, interdicted=dict(sorted(hit.items()))))
        if decision is not None:
            ctx.emit(DecisionPending(decision))
            return


def answer(ctx: TurnContext, action: ChooseCasualties) -> None:
    """The target's holder names the units the strike hit; then the next strikes."""
    pending = ctx.state.pending or {}
    try:
        chosen = parse_units(action.units, ctx.ruleset.units)
    except AareError as err:
        raise IllegalAction(str(err), am.R_MISSION) from None
    space, hits = str(pending["space"]), int(pending["hits"])
    if sum(chosen.values()) != hits:
        raise IllegalAction(f"name {hits} unit(s) hit in {space}", am.R_MISSION)
    stacks = sorted(_targets(ctx, space, str(pending["striker"])),
                    key=lambda s: (s.owner != pending["power"], -s.damage, s))
    for unit, n in chosen.items():
        have = sum(s.count for s in stacks if s.unit == unit)
        if n > have:
            raise IllegalAction(f"{space} holds {have} {unit} the strike can hit", am.R_MISSION)
        for stack in stacks:
            while n and stack.unit == unit and stack.count:
                ctx.emit(_hit(ctx, space, stack))
                stack, n = stack.with_count(stack.count - 1), n - 1
    ctx.emit(DecisionPending(None))
    resolve(ctx)


def candidates(ctx: TurnContext) -> list[ChooseCasualties]:
    """The cheapest units first."""
    pending = ctx.state.pending or {}
    units = ctx.ruleset.units
    pool = [u for u in sorted(pending.get("units", {}), key=lambda u: (units[u].cost, u))
            for _ in range(int(pending["units"][u]))]
    picked: dict[str, int] = {}
    for unit in pool[: int(pending.get("hits", 0))]:
        picked[unit] = picked.get(unit, 0) + 1
    return [ChooseCasualties(units=format_units(picked, units))] if picked else []


# ---------------------------------------------------------------- the enemy's moves


def _interdicted(ctx: TurnContext) -> dict[str, int]:
    """{space: bombers} struck this turn by the mover's enemies."""
    side = ctx.ruleset.board.side_of(ctx.power)
    found = am.record(ctx.state).get("interdicted", {})
    return {space: int(v["bombers"]) for space, v in found.items()
            if ctx.ruleset.board.side_of(v["power"]) != side and v["bombers"]}


class MoveDice(PhaseExtension):
    """Non-combat move: the interdiction dice of each land or sea unit moving into, out of or through an
    interdicted space, rolled as part of the move (AARHE-INTERDICT-movement-rolls)."""

    name = "non-combat-move"

    def after(self, ctx: TurnContext, action: Any) -> None:
        if not isinstance(action, Move):
            return
        struck = _interdicted(ctx)
        path = [ctx.ruleset.board.resolve(s) for s in action.path]
        dice = sum(struck.get(space, 0) for space in dict.fromkeys(path))
        if not dice:
            return
        units = ctx.ruleset.units
        moved = [e for e in ctx.events if isinstance(e, UnitsChanged) and e.to_space == path[-1]
                 and e.space == path[0] and e.after.owner == ctx.power and units[e.after.unit].domain != "air"]
        for event in moved:
            stack = event.after
            rolled = ctx.roll(stack.count * dice, f"interdiction dice: {stack.count} {stack.unit} of "
                                                  f"{ctx.power} moving {path[0]} -> {path[-1]}, {dice} each")
            lost = stopped = 0
            for i in range(stack.count):
                mine = rolled[i * dice:(i + 1) * dice]
                if DESTROYED_ON in mine:
                    lost += 1
                elif STOPPED_ON in mine:
                    stopped += 1
            if lost:
                ctx.emit(UnitsRemoved(path[-1], stack.with_count(lost), am.R_MOVEMENT))
            if stopped:
                back = replace(stack, moved=units[stack.unit].move).with_count(stopped)
                ctx.emit(UnitsChanged(path[-1], stack.with_count(stopped), back, to_space=path[0]))
