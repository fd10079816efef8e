"""Conduct combat: AA guns fire at aircraft that flew over them, then the attacker fights every battle and raid
its combat move set up, one at a time, in the order it chooses (`fight`), and may launch rockets (`rocket`).
A battle runs through the combat engine until it ends or needs a decision; the decision waits in
`state.pending` for its answer (`choose_casualties`, `press`, `retreat`, `submerge`), which may belong to the
defender.

A battle in progress is kept in ``state.extra["combat"]["current"]`` as the dice rolled in it and the answers
given so far: replaying them through the engine gives the battle back exactly. The map changes only when a
battle ends.
"""

from __future__ import annotations

import itertools
import os
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any, TypeVar

from aare.actions import Choose, ChooseCasualties, DeclareTargets, Fight, Press, Retreat, Rocket, Submerge, parse_action
from aare.board.notation import format_units, parse_units
from aare.combat import casualties as cas
from aare.combat import decisions as dec
from aare.combat.battle_state import Side, UnitKey
from aare.combat.board_battle import (
    Routes,
    battle_begins,
    battle_inputs,
    begun_battle,
    build_battle,
    combat_setup,
    deciding_power,
    frozen_inputs,
    outcome,
    units_text,
    withdraw_key,
)
from aare.combat.engine import advance, apply_answer, casualties_from_types, flyover_fire
from aare.combat.events import DiceRolled as EngineDiceRolled
from aare.combat.policy import DEFAULT_POLICY
from aare.combat.setup import Battle
from aare.dice import ScriptedDice, SeededDice, SystemDice, game_dice
from aare.economy.damage import bombing_damage_events
from aare.economy.turn import turn_start_owners
from aare.errors import AareError, IllegalAction
from aare.events import DecisionPending, DiceRolled, ExtraSet, UnitsChanged, UnitsRemoved
from aare.identity_cache import ByIdentity, Worked
from aare.movement import flags
from aare.movement.battles import BattleSite, battles_at, pending_battles
from aare.movement.graph import graph_of
from aare.movement.situation import situation
from aare.phases.base import PhaseHandler, TurnContext, phase_handler, register_phase
from aare.state.game_state import GameState

KEY = "combat"
ORDER_RULE = "LHTR-COMBAT-battle-order"
TEAM_RULE = "AARHE-ORDER-team-concurrency"
ROCKETS = "rockets"
ROCKET_RANGE = 3


# ---------------------------------------------------------------- the phase record


def combat_record(state: GameState) -> dict[str, Any]:
    """This turn's record: the spaces fought and the battle in progress."""
    return dict(_record(state))


def _record(state: GameState) -> Mapping[str, Any]:
    """This turn's record as the state holds it (not to be changed)."""
    record = state.extra.get(KEY)
    if (type(record) is dict or isinstance(record, Mapping)) and record.get("round") == state.round \
            and record.get("nation") == state.nation:
        return record
    return {"round": state.round, "nation": state.nation, "fought": [], "current": None, "rockets": {}}


def _record_event(state: GameState, **changes: Any) -> ExtraSet:
    return ExtraSet(KEY, {**_record(state), **changes}, ORDER_RULE)


def open_battles(state: GameState, ruleset: Any) -> list[BattleSite]:
    """The battles and raids still to fight this turn (flyovers not included)."""
    fought = set(_record(state)["fought"])
    return [s for s in pending_battles(state, ruleset) if s.kind != "flyover" and _fought_key(s) not in fought]


def open_battles_at(state: GameState, ruleset: Any, space: str) -> list[BattleSite]:
    """The battles and raid still to fight in `space` this turn (as `open_battles` gives them)."""
    fought = set(_record(state)["fought"])
    return [s for s in battles_at(state, ruleset, space) if _fought_key(s) not in fought]


def _fought_key(site: BattleSite) -> str:
    """Raids are recorded apart from the battle they may share a territory with."""
    return site.space + "|" + site.kind if site.kind == "bombing" else site.space


def _fought_spaces(state: GameState) -> list[str]:
    return [f for f in _record(state)["fought"] if "|" not in f]


# ---------------------------------------------------------------- rockets


def rocket_launchers(state: GameState, ruleset: Any) -> list[str]:
    """Territories from which the power to move may still launch a rocket this turn: it has Rockets and an AA
    gun there that has not moved, in a territory it held when the turn began, one launch per territory
    (LHTR-TECH-rockets-launchers). Worked out once per state (the listing asks, and the check of each rocket)."""
    power = state.nation
    if ROCKETS not in state.techs.get(power, ()):
        return []
    view = situation(state, ruleset)
    found: list[str] | None = view.cache.get("rocket_launchers")
    if found is None:
        used = _record(state).get("rockets", {})
        start = turn_start_owners(state)
        found = view.cache["rocket_launchers"] = []
        for space in sorted(view.own_spaces):  # every space with a unit of the power
            if space in used or state.owners.get(space) != power or start.get(space) != power:
                continue
            if any(s.owner == power and ruleset.units[s.unit].has("aa") and not s.moved and not flags.turn_flags(s)
                   for s in state.stacks(space)):
                found.append(space)
    return list(found)


def rocket_targets(state: GameState, ruleset: Any, launcher: str) -> list[str]:
    """Enemy territories with an industrial complex within three spaces of `launcher`, over land and sea but
    not through neutrals, not yet targeted this turn (LHTR-TECH-rockets-target). Worked out once per state."""
    view = situation(state, ruleset)
    key = ("rocket_targets", launcher)
    found: list[str] | None = view.cache.get(key)
    if found is None:
        board = ruleset.board
        side = board.side_of(state.nation)
        hit = set(_record(state).get("rockets", {}).values())
        found = view.cache[key] = [
            t for t in _in_range(board, launcher) if t not in hit and state.owners.get(t) is not None
            and board.side_of(state.owners[t]) != side
            and any(ruleset.units[s.unit].has("bombing_target") for s in state.stacks(t))]
    return list(found)


def _in_range(board: Any, launcher: str) -> tuple[str, ...]:
    """The spaces within rocket range of `launcher`, sorted (worked out once per board)."""
    graph = graph_of(board)
    key = ("rocket_range", launcher)
    found = graph.derived.get(key)
    if found is None:
        found = graph.derived[key] = tuple(sorted(graph.ball(launcher, ROCKET_RANGE)))
    return found  # type: ignore[return-value]


def _rocket(ctx: TurnContext, action: Rocket) -> None:
    board = ctx.ruleset.board
    launcher, target = board.resolve(action.launcher), board.resolve(action.target)
    if ROCKETS not in ctx.state.techs.get(ctx.power, ()):
        raise IllegalAction(f"{ctx.power} has not developed Rockets", "LHTR-TECH-rockets-launchers")
    if launcher not in rocket_launchers(ctx.state, ctx.ruleset):
        reason = f"{launcher} cannot launch a rocket: it needs an unmoved AA gun of {ctx.power} in a territory "
        reason += "held since the turn began, and one launch per territory"
        raise IllegalAction(reason, "LHTR-TECH-rockets-launchers")
    if target not in rocket_targets(ctx.state, ctx.ruleset, launcher):
        reason = f"{target} is no rocket target from {launcher}: an enemy industrial complex within 3 spaces, "
        raise IllegalAction(reason + "attacked by one rocket a turn", "LHTR-TECH-rockets-target")
    gun = next(s for s in ctx.state.stacks(launcher) if s.owner == ctx.power and ctx.ruleset.units[s.unit].has("aa")
               and not s.moved and not flags.turn_flags(s))
    downed = _rocket_downed(ctx, launcher, target)
    if not downed:
        [roll] = ctx.roll(1, f"rocket from {launcher} at {target}")
        ctx.emit(*bombing_damage_events(ctx.state, ctx.ruleset, target, roll, "rocket"))
    fired = flags.with_flags(gun.with_count(1), [flags.COMBAT])  # the launcher may not move this turn
    ctx.emit(UnitsChanged(launcher, gun.with_count(1), fired))
    record = combat_record(ctx.state)
    rockets = {**record.get("rockets", {}), launcher: target}
    if downed:
        record = {**record, "downed": {**record.get("downed", {}), launcher: downed}}
    ctx.emit(ExtraSet(KEY, {**record, "rockets": rockets}, downed or "LHTR-TECH-rockets-target"))


def _rocket_downed(ctx: TurnContext, launcher: str, target: str) -> str:
    """The rule under which the target's defenders destroy an incoming rocket (the ``rocket_defence`` hook: each
    (purpose, dice, hit on, rule) is rolled in turn until one die hits), or "" when it strikes."""
    defence = ctx.ruleset.modify("rocket_defence", [], state=ctx.state, power=ctx.power, launcher=launcher,
                                 target=target)
    for purpose, dice, hit_on, rule in defence:
        if dice and min(ctx.roll(dice, purpose)) <= hit_on:
            return str(rule)
    return ""


# ---------------------------------------------------------------- dice


class _BattleDice:
    """The turn's dice for a battle: every roll is kept for the battle's replay and logged as a game event
    named after the combat step that rolled it (`flush`, once the engine has said what each roll was for)."""

    def __init__(self, ctx: TurnContext, where: str, kept: list[int], sides: Mapping[str, str] | None = None) -> None:
        self.ctx, self.where, self.kept, self.sides = ctx, where, kept, dict(sides or {})
        self.source = ctx.dice if ctx.dice is not None else game_dice(ctx.state.dice)
        self.counter = ctx.state.dice.counter
        self.rolls: list[tuple[tuple[int, ...], int, int]] = []

    def roll(self, n: int, sides: int = 6) -> tuple[int, ...]:
        values = self.source.roll(n, sides)
        self.counter = self.source.counter if isinstance(self.source, SeededDice | SystemDice) else self.counter + n
        self.rolls.append((values, sides, self.counter))
        self.kept.extend(values)
        return values

    def plan_roll(self, request: object) -> None:
        """Pass a battle's roll request on to a source that plans whole requests (`aare.dice`)."""
        plan = getattr(self.source, "plan_roll", None)
        if plan is not None:
            plan(request)

    def flush(self, engine_events: Iterable[object]) -> None:
        labels = [_roll_label(e, self.sides) for e in engine_events if isinstance(e, EngineDiceRolled)]
        for i, (values, sides, counter) in enumerate(self.rolls):
            label = labels[i] if i < len(labels) else "dice"
            self.ctx.emit(DiceRolled(f"{self.where}: {label}", values, sides, counter))
        self.rolls = []


def _roll_label(event: EngineDiceRolled, sides: Mapping[str, str]) -> str:
    what = f"{sides.get(event.side, event.side)} {event.count} {event.unit}"
    if event.target == "damage":
        return f"{event.step}: {what}, damage {event.hits}"
    best = f", best of {event.per_unit}" if event.per_unit > 1 else ""
    hits = f"{event.hits} hit" + ("" if event.hits == 1 else "s")
    return f"{event.step}: {what} at {event.hit_on}{best}, {hits}"


# ---------------------------------------------------------------- answers


def _casualties(ctx: TurnContext, battle: Battle, side: Side, text: str) -> dec.Casualties:
    """Unit text (``2 infantry``), or per owner (``<power>: 1 fighter; <other power>: 1 infantry``)."""
    if ":" not in text:
        return casualties_from_types(battle, side, text)
    board, units = ctx.ruleset.board, ctx.ruleset.units
    hits: list[tuple[UnitKey, int]] = []
    for part in text.split(";"):
        if not part.strip():
            continue
        owner_text, _, unit_text = part.partition(":")
        owner = board.resolve_power(owner_text.strip())
        mine = tuple((k, n) for k, n in battle.state.units(side) if k.owner == owner)
        if not mine:
            raise IllegalAction(f"{owner} has no units in this battle", "LHTR-COMBAT-owner-chooses-casualties")
        view = battle.with_state(battle.state.with_units(side, mine))
        hits += casualties_from_types(view, side, parse_units(unit_text, units)).hits
    return dec.Casualties(tuple(sorted(hits)))


def _answer(ctx: TurnContext, site: BattleSite, battle: Battle, action: Any,
            routes: Mapping[str, Routes] | None = None) -> tuple[dec.Answer, str | None, Routes | None]:
    """The engine's answer to the pending decision, where a retreat goes and, where the ruleset routes the
    retreating units (the `retreat_routes` hook), where each goes; `routes`: those of the answers so far."""
    decision = battle.state.pending
    if isinstance(action, Retreat):
        if not isinstance(decision, dec.PressOrRetreat):
            raise IllegalAction("there is no retreat to make now", _rule(decision))
        return _retreat(ctx, site, battle, decision, action)
    answer, to = _plain_answer(ctx, battle, action)
    if isinstance(action, Submerge) and isinstance(decision, dec.ChooseSubmerge):
        earlier = (routes or {}).get(withdraw_key(decision.side), ())
        return answer, None, _withdrawal(ctx, site, battle, decision, action, earlier)
    return answer, to, None


def _withdrawal(ctx: TurnContext, site: BattleSite, battle: Battle, decision: dec.ChooseSubmerge, action: Submerge,
                earlier: Routes = ()) -> Routes | None:
    """Where submarines that leave the battle go, when the rules make submerging a withdrawal into another sea
    zone (`ChooseSubmerge.destinations`): the zone the answer names (the only one, when there is one), the
    ruleset's `retreat_routes` hook checking it (called with `withdrawing` and the `earlier` withdrawals' routes
    of the side)."""
    wanted = dict(parse_units(action.units, ctx.ruleset.units)) if action.units else {}
    if not decision.destinations:
        if action.to:
            raise IllegalAction("submarines that submerge stay in the battle's sea zone", decision.rule)
        return None
    if not sum(wanted.values()):
        return None
    to = ctx.ruleset.board.resolve(action.to) if action.to else None
    if to is None and len(decision.destinations) == 1:
        to = decision.destinations[0]
    if to not in decision.destinations:
        raise IllegalAction(f"withdrawing submarines go to one of {', '.join(decision.destinations)}", decision.rule)
    routes: Routes | None = ctx.ruleset.modify("retreat_routes", None, state=ctx.state, site=site, battle=battle,
                                               side=decision.side, to=to, split={to: wanted}, withdrawing=True,
                                               earlier=earlier)
    return routes if routes is not None else tuple((to, u, n) for u, n in sorted(wanted.items()))


def _add_routes(routes: Mapping[str, Routes], side: str, action: Any, routed: Routes | None) -> dict[str, Routes]:
    """The routes of each side's retreats, with those of an answer: a retreat's add to the side's (a partial
    retreat may come in several cycles), a withdrawal's to the side's withdrawals (`withdraw_key`)."""
    out = dict(routes)
    if routed is None:
        return out
    key = withdraw_key(side) if isinstance(action, Submerge) else side
    out[key] = (*out.get(key, ()), *routed)  # partial retreats add up over the cycles
    return out


def _retreat(ctx: TurnContext, site: BattleSite, battle: Battle, decision: dec.PressOrRetreat, action: Retreat
             ) -> tuple[dec.Answer, str | None, Routes | None]:
    board = ctx.ruleset.board
    to = board.resolve(action.to) if action.to else None
    split = {board.resolve(place): dict(parse_units(text, ctx.ruleset.units)) for place, text in action.split.items()}
    air_only = decision.can_retreat_air and not decision.can_retreat_all
    if to is None and split:
        to = sorted(split)[0]
    if to is None and len(decision.destinations) == 1 and not air_only:
        to = decision.destinations[0]
    routes: Routes | None = ctx.ruleset.modify("retreat_routes", None, state=ctx.state, site=site, battle=battle,
                                               side=decision.side, to=to, split=split)
    for place in [*([to] if to is not None else []), *split]:
        if place not in decision.destinations:
            raise IllegalAction(f"retreat must go to one of {', '.join(decision.destinations) or 'nowhere'}",
                                "LHTR-COMBAT-retreat-destination")
    if routes is None and len(split) > 1:
        raise IllegalAction("the retreating units go to one place", "LHTR-COMBAT-retreat-destination")
    units: dict[str, int] = {}
    if decision.partial:  # the units the split names retreat, the rest fight on
        for parts in split.values():
            for unit, n in parts.items():
                units[unit] = units.get(unit, 0) + n
    return dec.Retreat(to, air_only, tuple(sorted(units.items()))), to, routes


def _plain_answer(ctx: TurnContext, battle: Battle, action: Any) -> tuple[dec.Answer, str | None]:
    """The engine's answer to a decision other than a retreat."""
    decision = battle.state.pending
    if isinstance(action, ChooseCasualties):
        if not isinstance(decision, dec.ChooseCasualties):
            raise IllegalAction("no casualties are to be chosen now", _rule(decision))
        return _casualties(ctx, battle, decision.side, action.units), None
    if isinstance(action, Press):
        if not isinstance(decision, dec.PressOrRetreat):
            raise IllegalAction("there is no attack to press now", _rule(decision))
        return dec.Press(), None
    if isinstance(action, Submerge):
        if not isinstance(decision, dec.ChooseSubmerge):
            raise IllegalAction("no submarine may submerge now", _rule(decision))
        wanted = parse_units(action.units, ctx.ruleset.units) if action.units else {}
        if set(wanted) - {u for u in wanted if ctx.ruleset.units[u].has("submerge")}:
            raise IllegalAction("only submarines submerge", decision.rule)
        return dec.Submerge(sum(wanted.values())), None
    if isinstance(action, DeclareTargets):
        if not isinstance(decision, dec.ChooseTargets):
            raise IllegalAction("no targets are to be declared now", _rule(decision))
        return _targets(ctx, decision, action.targets), None
    if isinstance(action, Choose):
        if not isinstance(decision, dec.ChooseOption):
            raise IllegalAction("there is nothing to choose now", _rule(decision))
        return dec.Option(action.option.strip().lower()), None
    raise IllegalAction(f"{action.type} does not answer this decision", _rule(decision))


def _targets(ctx: TurnContext, decision: dec.ChooseTargets, text: str) -> dec.Targets:
    """``"carrier, battleship"`` or with owners ``"<power>:carrier, <other power>:destroyer"``, in order."""
    out = []
    for item in text.split(","):
        if not item.strip():
            continue
        owner, sep, unit = item.rpartition(":")
        try:
            power = ctx.ruleset.board.resolve_power(owner.strip()) if sep else ""
            found = (power, ctx.ruleset.units.resolve(unit.strip()))
        except AareError as exc:
            raise IllegalAction(str(exc), decision.rule) from None
        out.append(found)
    return dec.Targets(tuple(out))


def _targets_text(targets: Iterable[tuple[str, str]]) -> str:
    return ", ".join(f"{o}:{t}" if o else t for o, t in targets)


def _rule(decision: object) -> str:
    return str(getattr(decision, "rule", "LHTR-COMBAT-land-sequence"))


def _hits_text(ctx: TurnContext, hits: Iterable[tuple[UnitKey, int]], joint: bool = False) -> str:
    """Casualty text; `joint` (several powers on the side) names the owner of each group."""
    per: dict[str, dict[str, int]] = {}
    for key, n in hits:
        per.setdefault(key.owner, {})
        per[key.owner][key.type] = per[key.owner].get(key.type, 0) + n
    units = ctx.ruleset.units
    if len(per) == 1 and not joint:
        return format_units(next(iter(per.values())), units)
    return "; ".join(f"{owner}: {format_units(c, units)}" for owner, c in sorted(per.items()))


def decision_candidates(ctx: TurnContext, battle: Battle) -> list[Any]:
    """A handful of answers to the pending decision: every retreat, press, each number of submarines, and the
    casualty choices that put the losses on each eligible unit type first. Worked out once per battle value (the
    decision's view lists them, and so does the listing of the next state, from the battle kept in memory)."""
    known = _ANSWERS.get(battle)
    if known is None or known[0] is not ctx.ruleset:
        known = _ANSWERS.put(battle, (ctx.ruleset, _candidates_of(ctx, battle)))
    return list(known[1])


_ANSWERS: ByIdentity[tuple[Any, tuple[Any, ...]]] = ByIdentity(4_096)

# decisions whose answers read of the battle only the decision, and for casualties the side's units, the
# catalogue and the units that are lost last
_PLAIN_DECISIONS = (dec.ChooseCasualties, dec.PressOrRetreat, dec.ChooseSubmerge, dec.ChooseOption)


def _candidates_of(ctx: TurnContext, battle: Battle) -> tuple[Any, ...]:
    """`_decision_candidates`, kept per ruleset by all they read (the same decision recurs in other battles and
    games) for the decisions `_PLAIN_DECISIONS` names."""
    decision = battle.state.pending
    if type(decision) not in _PLAIN_DECISIONS:
        return tuple(_decision_candidates(ctx, battle))
    setup = battle.setup
    stacks = battle.state.units(decision.side) if isinstance(decision, dec.ChooseCasualties) else None
    key = (decision, stacks, setup.catalogue, setup.rules.last_casualty_tags)
    table = _BY_DECISION.get(ctx.ruleset)
    if table is None:
        table = _BY_DECISION.put(ctx.ruleset, Worked(4_096))
    return table.find(key, lambda: tuple(_decision_candidates(ctx, battle)))


_BY_DECISION: ByIdentity[Worked[tuple[Any, ...], tuple[Any, ...]]] = ByIdentity(64)


def _decision_candidates(ctx: TurnContext, battle: Battle) -> list[Any]:
    decision = battle.state.pending
    if isinstance(decision, dec.PressOrRetreat):
        out: list[Any] = [] if decision.forced else [_action(Press)]
        if decision.can_retreat_all and decision.destinations:
            out += [_action(Retreat, to=d) for d in decision.destinations]
        elif decision.can_retreat_all or decision.can_retreat_air:
            out.append(_action(Retreat))
        return out
    if isinstance(decision, dec.ChooseSubmerge):
        places = decision.destinations or ("",)
        return [_action(Submerge), *(_action(Submerge, units=f"{n} submarine", to=d)
                                     for n in range(1, decision.available + 1) for d in places)]
    if isinstance(decision, dec.ChooseTargets):
        from aare.combat.policy import default_targets

        first = default_targets(battle, decision).targets
        orders = dict.fromkeys([first, *itertools.islice(itertools.permutations(first), 24)])
        found = [DeclareTargets(targets=_targets_text(t)) for t in list(orders)[:12]]
        return [*found, DeclareTargets(targets="")] if decision.up_to and first else found
    if isinstance(decision, dec.ChooseOption):
        return [_action(Choose, option=o) for o in decision.options]
    if isinstance(decision, dec.ChooseCasualties):
        cat = battle.setup.catalogue
        stacks = battle.state.units(decision.side)
        types = sorted({k.type for k, _ in stacks if any(cas.eligible(cat, k, b.target) for b in decision.batches)})
        joint = len({k.owner for k, _ in stacks if not cat[k.type].has("not_casualty")}) > 1
        seen: list[str] = []
        for order in [None, *([t] for t in types)]:
            rank = cas.order_rank(cat, decision.side, order, battle.setup.rules.last_casualty_tags)
            text = _hits_text(ctx, cas.choose_by_order(cat, stacks, decision.batches, rank), joint)
            if text not in seen:
                seen.append(text)
        return [_action(ChooseCasualties, units=t) for t in seen]
    return []


_A = TypeVar("_A")


def _action(kind: type[_A], **fields: str) -> _A:
    """`kind(**fields)`, made once per kind and fields (actions are frozen values: the same answers recur in every
    battle)."""
    found: _A = _ACTIONS.find((kind, *sorted(fields.items())), lambda: kind(**fields))
    return found


_ACTIONS: Worked[tuple[Any, ...], Any] = Worked(4_096)


def decision_view(ctx: TurnContext, site: BattleSite, battle: Battle) -> dict[str, Any]:
    """What `state.pending` shows: who decides what, and the battle as it stands."""
    decision = battle.state.pending
    units = ctx.ruleset.units
    view: dict[str, Any] = {
        "space": site.space,
        "battle": site.kind,
        "cycle": battle.state.cycle,
        "attacker": units_text(battle.state.attacker, units),
        "defender": units_text(battle.state.defender, units),
        "rule": _rule(decision),
    }
    side: Side = getattr(decision, "side", "attacker")
    who = {"side": side, "power": deciding_power(ctx.state, ctx.ruleset, site, side)}
    if isinstance(decision, dec.ChooseCasualties):
        view |= {
            "kind": "choose_casualties",
            **who,
            "hits": decision.required,
            "eligible": sorted({b.target.describe() for b in decision.batches}),
        }
    elif isinstance(decision, dec.PressOrRetreat):
        view |= {
            "kind": "press_or_retreat",
            **who,
            "destinations": list(decision.destinations),
            "aircraft_only": decision.can_retreat_air and not decision.can_retreat_all,
        }
        view |= {k: True for k, on in (("partial", decision.partial), ("forced", decision.forced)) if on}
    elif isinstance(decision, dec.ChooseOption):
        view |= {"kind": "choose_option", **who, "choices": list(decision.options)}
    elif isinstance(decision, dec.ChooseTargets):
        view |= {
            "kind": "choose_targets",
            **who,
            "count": decision.count,
            "eligible": [f"{o}:{t} ({h} hit{'s' if h > 1 else ''})" for o, t, h in decision.eligible],
        }
        if decision.up_to:
            view["up_to"] = True
    elif isinstance(decision, dec.ChooseSubmerge):
        view |= {"kind": "submerge", **who, "available": decision.available}
        if decision.destinations:
            view["destinations"] = list(decision.destinations)
    view["options"] = [a.to_json() for a in decision_candidates(ctx, battle)]
    return view


# ---------------------------------------------------------------- the phase


class ConductCombat(PhaseHandler):
    name = "conduct-combat"
    title = "Conduct combat"

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if ctx.state.pending is not None:
            current = _record(ctx.state)["current"]
            if current is None:
                return []
            _site, battle, _to, _routes = self._replay(ctx, current)
            return decision_candidates(ctx, battle)
        out: list[Any] = [Fight(space=s) for s in self._fightable(ctx, space)]
        for launcher in rocket_launchers(ctx.state, ctx.ruleset):
            out += [Rocket(launcher=launcher, target=t) for t in rocket_targets(ctx.state, ctx.ruleset, launcher)
                    if space in (None, launcher, t)]
        return out

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        record = _record(ctx.state)
        if isinstance(action, Fight):
            if record["current"] is not None:
                raise IllegalAction(f"the battle in {record['current']['space']} is not over", ORDER_RULE)
            site = self._choose(ctx, action.space)
            fought = _fought_spaces(ctx.state)
            current: dict[str, Any] = {"space": site.space, "kind": site.kind, "dice": [], "answers": []}
            if ctx.state.members:  # teammates play on while it is fought: its surroundings are fixed now
                current["inputs"] = frozen_inputs(battle_inputs(ctx.state, ctx.ruleset, site, fought))
            self._run(ctx, site, begun_battle(ctx.state, ctx.ruleset, site, fought), current)
            return
        if action.type in ("choose_casualties", "press", "retreat", "submerge", "declare_targets", "choose"):
            current = record["current"]
            if current is None:
                raise IllegalAction("no battle is waiting for an answer", ORDER_RULE)
            site, battle, earlier, routes = self._replay(ctx, current)
            side = getattr(battle.state.pending, "side", "attacker")
            answer, to, routed = _answer(ctx, site, battle, action, routes)
            battle, _ = apply_answer(battle, answer)
            current = {**current, "answers": [*current["answers"], action.to_json()]}
            routes = _add_routes(routes, side, action, routed)
            self._run(ctx, site, battle, current, to or earlier, routes)
            return
        if isinstance(action, Rocket):
            if record["current"] is not None:
                raise IllegalAction(f"the battle in {record['current']['space']} is not over", ORDER_RULE)
            _rocket(ctx, action)
            return
        super().events_for(ctx, action)

    def can_end(self, ctx: TurnContext) -> None:
        left = [s for s in open_battles(ctx.state, ctx.ruleset) if not s.optional and self._can_start(ctx, s)]
        if left:
            where = ", ".join(sorted({s.space for s in left}))
            raise IllegalAction(f"every battle must be fought before combat ends: {where}", ORDER_RULE)

    def on_enter(self, ctx: TurnContext) -> None:
        fresh = {"round": ctx.state.round, "nation": ctx.state.nation, "fought": [], "current": None, "rockets": {}}
        ctx.emit(ExtraSet(KEY, fresh, ORDER_RULE))
        self._flyovers(ctx)

    # ------------------------------------------------------------ internals

    def _can_start(self, ctx: TurnContext, site: BattleSite) -> bool:
        """A battle the rules refuse to start (e.g. aircraft left alone against submarines after their ship
        moved on) is not fought: the units stay and move on in non-combat move (docs/rulings.md). Worked out once per
        state (the candidates and the end of the phase both ask)."""
        view = situation(ctx.state, ctx.ruleset)
        key = ("battle_starts", site.space, site.kind)
        found: bool | None = view.cache.get(key)
        if found is None:
            found = view.cache[key] = battle_begins(ctx.state, ctx.ruleset, site, _fought_spaces(ctx.state))
        return found

    def _fightable(self, ctx: TurnContext, space: str | None) -> list[str]:
        """The spaces (`space` only, when given) whose battle may be fought now as `events_for` judges a fight
        before fighting it (`_choose`): no battle in progress, none of a teammate's in the space, its turn in the
        order of battles, and the rules letting it begin; in the order of the open battles."""
        state = ctx.state
        if _record(state)["current"] is not None:
            return []
        here: dict[str, list[BattleSite]] = {}
        for site in open_battles(state, ctx.ruleset):
            if space in (None, site.space):
                here.setdefault(site.space, []).append(site)
        busy = set()  # a team turn: one battle at a time in a space
        for member, place in state.members.items():
            current = (place.get("extra", {}).get(KEY) or {}).get("current")
            if member != state.nation and current:
                busy.add(current.get("space"))
        fought = set(_fought_spaces(state))
        out = []
        for where, sites in here.items():
            site = next((s for s in sites if s.kind == "bombing"), sites[0])  # the raid first
            if where in busy or (site.kind != "bombing" and any(z not in fought for z in site.fight_after)):
                continue
            if self._can_start(ctx, site):
                out.append(where)
        return out

    def _choose(self, ctx: TurnContext, space: str) -> BattleSite:
        space = ctx.ruleset.board.resolve(space)
        for member, place in ctx.state.members.items():  # a team turn: one battle at a time in a space
            current = (place.get("extra", {}).get(KEY) or {}).get("current")
            if member != ctx.state.nation and current and current.get("space") == space:
                raise IllegalAction(f"{member}'s battle in {space} is not over", TEAM_RULE)
        here = open_battles_at(ctx.state, ctx.ruleset, space)
        if not here:
            raise IllegalAction(f"there is no battle to fight in {space}", ORDER_RULE)
        raid = next((s for s in here if s.kind == "bombing"), None)
        if raid is not None:
            return raid  # LHTR-SBR-and-normal-attack-same-territory: the raid first
        site = here[0]
        fought = set(_fought_spaces(ctx.state))
        first = [z for z in site.fight_after if z not in fought]
        if first:
            raise IllegalAction(f"the sea battle in {first[0]} comes before the landing in {space}", ORDER_RULE)
        return site

    def _site(self, ctx: TurnContext, current: Mapping[str, Any]) -> BattleSite:
        for site in open_battles_at(ctx.state, ctx.ruleset, current["space"]):
            if site.kind == current["kind"]:
                return site
        raise IllegalAction(f"the battle in {current['space']} can no longer be found", ORDER_RULE)

    def _replay(self, ctx: TurnContext, current: Mapping[str, Any]
                ) -> tuple[BattleSite, Battle, str | None, dict[str, Routes]]:
        """The battle in progress, rebuilt from its dice and answers, where units retreated to so far (the
        overland units of an assault retreat while those landed from the sea fight on) and the routes of
        each side's retreat."""
        known = _in_progress(ctx.state, ctx.ruleset, current)
        if known is not None and not CHECK_REPLAY:
            return known
        found = self._rebuild(ctx, current)
        if known is not None and known != found:
            raise AssertionError(f"the battle in {current['space']} kept in memory differs from its replay")
        return found

    def _rebuild(self, ctx: TurnContext, current: Mapping[str, Any]
                 ) -> tuple[BattleSite, Battle, str | None, dict[str, Routes]]:
        site = self._site(ctx, current)
        battle = build_battle(ctx.state, ctx.ruleset, site, _fought_spaces(ctx.state), current.get("inputs"))
        dice = ScriptedDice(list(current["dice"]))
        battle, _ = advance(battle, dice)
        retreated: str | None = None
        routes: dict[str, Routes] = {}
        for raw in current["answers"]:
            side = getattr(battle.state.pending, "side", "attacker")
            action = parse_action(raw)
            answer, to, routed = _answer(ctx, site, battle, action, routes)
            retreated = to or retreated
            routes = _add_routes(routes, side, action, routed)
            battle, _ = apply_answer(battle, answer)
            battle, _ = advance(battle, dice)
        return site, battle, retreated, routes

    def _run(self, ctx: TurnContext, site: BattleSite, battle: Battle, current: dict[str, Any],
             to: str | None = None, routes: Mapping[str, Routes] | None = None) -> None:
        kept = list(current["dice"])
        dice = _BattleDice(ctx, f"{site.kind} battle in {site.space}", kept)
        battle, engine_events = advance(battle, dice)
        if dice.rolls:  # the rolls are logged under the names of the powers that rolled them
            dice.sides = {"attacker": site.attacker,
                          "defender": deciding_power(ctx.state, ctx.ruleset, site, "defender")}
        dice.flush(engine_events)
        if battle.state.pending is not None:
            kept_current = {**current, "dice": kept}
            ctx.emit(_record_event(ctx.state, current=kept_current))
            ctx.emit(DecisionPending(decision_view(ctx, site, battle)))
            _remember(ctx.state, ctx.ruleset, kept_current, (site, battle, to, dict(routes or {})))
            return
        fought = _fought_spaces(ctx.state)
        before = ctx.state
        events, after = outcome(before, ctx.ruleset, site, battle, to, fought, routes)
        ctx.emit_applied(before, events, after)
        done = [*_record(ctx.state)["fought"], _fought_key(site)]
        # how each battle ended and in which cycle (e.g. AARE-NA-GER-pb-bonus-move reads it)
        ended = {**(_record(ctx.state).get("ended") or {}),
                 _fought_key(site): {"result": battle.state.result, "cycle": battle.state.cycle}}
        ctx.emit(_record_event(ctx.state, fought=done, current=None, ended=ended))
        if ctx.state.pending is not None:
            ctx.emit(DecisionPending(None))

    def _flyovers(self, ctx: TurnContext) -> None:
        """LHTR-AA-flyover: each AA gun overflown in combat move fires one die per aircraft that passed."""
        rules, _ = combat_setup(ctx.ruleset, "land")
        while True:
            site = next((s for s in pending_battles(ctx.state, ctx.ruleset) if s.kind == "flyover"), None)
            if site is None:
                return
            mark = f"{flags.FLYOVER}={site.space}"
            rule = situation(ctx.state, ctx.ruleset).flyover_aa.get(site.space, "LHTR-AA-flyover")
            for space, stack in site.overflying:
                holder = ctx.state.owners.get(site.space, "defender")
                battle = ctx.ruleset.modify("flyover_battle", None, state=ctx.state, site=site, stack=stack)
                label = f"AA gun in {site.space}" if battle is None else f"overflight fire in {site.space}"
                dice = _BattleDice(ctx, label, [], {"defender": holder})
                repelled = 0
                if battle is None:
                    techs = frozenset(ctx.state.techs.get(stack.owner, ()))
                    left, engine_events = flyover_fire({stack.unit: stack.count}, dice, ctx.ruleset.units, rules,
                                                       techs)
                    alive = left.get(stack.unit, 0)
                else:  # the ruleset's own fire: a battle the overflying aircraft survive, or leave repelled
                    battle, engine_events = advance(battle, dice, DEFAULT_POLICY)
                    alive = sum(n for k, n in battle.state.attacker if not k.marked and k.present)
                    repelled = sum(n for k, n in battle.state.attacker if not k.marked and not k.present)
                dice.flush(engine_events)
                if stack.count - alive - repelled:
                    ctx.emit(UnitsRemoved(space, stack.with_count(stack.count - alive - repelled), rule))
                after = replace(stack, flags=tuple(f for f in stack.flags if f != mark))
                if alive:
                    ctx.emit(UnitsChanged(space, stack.with_count(alive), after.with_count(alive)))
                if repelled:  # it aborts its mission: no battle this turn, it lands in non-combat move
                    aborted = flags.with_flags(replace(after, flags=tuple(f for f in after.flags
                                                                          if f != flags.COMBAT)), [flags.RETREATED])
                    ctx.emit(UnitsChanged(space, stack.with_count(repelled), aborted.with_count(repelled)))


def battle_in_progress(ctx: TurnContext) -> tuple[BattleSite, Battle] | None:
    """The battle waiting for an answer, rebuilt from its record (None: no battle in progress)."""
    current = _record(ctx.state)["current"]
    if current is None:
        return None
    handler = phase_handler(ctx.state.phase)
    site, battle, _, _ = (handler if isinstance(handler, ConductCombat) else ConductCombat())._replay(ctx, current)
    return site, battle


register_phase(ConductCombat())


# ---------------------------------------------------------------- the battle in progress, kept in memory

# A battle waiting for an answer is rebuilt from its dice and answers (`_replay`). The process keeps the battle it
# left waiting, keyed by its record's `current` value (by identity), and reuses it when the next action finds
# the same record in a state equal in every other part a battle reads (all but the record's `current`, the
# pending decision, the dice, the version, and the other members' records). AARE_CHECK_REPLAY=1 (the tests)
# rebuilds it anyway and compares.
CHECK_REPLAY = os.environ.get("AARE_CHECK_REPLAY") == "1"
_Replayed = tuple[BattleSite, Battle, "str | None", dict[str, Routes]]
_IN_PROGRESS: dict[int, tuple[Mapping[str, Any], tuple[Any, ...], Any, _Replayed]] = {}


def _context(state: GameState) -> tuple[Any, ...]:
    record = state.extra.get(KEY)
    rest = {k: v for k, v in record.items() if k != "current"} if isinstance(record, Mapping) else record
    # of the other members of a team turn only where each stands (their records and pending decisions are theirs)
    members = tuple(sorted((p, m.get("status"), m.get("phase")) for p, m in state.members.items() if p != state.nation))
    return (state.units, state.owners, state.techs, state.banks, state.options, members, state.round,
            state.nation, state.phase, state.winner, rest, *sorted((k, v) for k, v in state.extra.items() if k != KEY))


def _same(a: tuple[Any, ...], b: tuple[Any, ...]) -> bool:
    return len(a) == len(b) and all(x is y or x == y for x, y in zip(a, b, strict=True))


def _remember(state: GameState, ruleset: Any, current: Mapping[str, Any], found: _Replayed) -> None:
    if len(_IN_PROGRESS) >= 4096:
        _IN_PROGRESS.clear()
    _IN_PROGRESS[id(current)] = (current, _context(state), ruleset, found)


def _in_progress(state: GameState, ruleset: Any, current: Mapping[str, Any]) -> _Replayed | None:
    known = _IN_PROGRESS.get(id(current))
    if known is None or known[0] is not current or known[2] is not ruleset or not _same(known[1], _context(state)):
        return None
    return known[3]
