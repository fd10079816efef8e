"""A joint invasion declared by one power and carried out on an ally's turn (the D-Day of AARe and of Anniversary
Enhanced), for rulesets that name its powers, targets and rules in an `Invasion`.

Once a game, at the start of the declarer's turn (its first phase), the declarer may declare it
(`declare_d_day`); every eligible unit of the declarer is flagged (`FLAG`, "d-day"). The declarer plays its turn
normally: the units it moves, loads or fights with lose the flag when its turn ends, those it buys never get it. On
the executor's turn of the round the executor's player commands the flagged units (the `co_movers` hook) with his
own: land units only into the targets (from the assault zone, or overland from the `overland` territories),
aircraft only to attack them, transports and warships only into the assault zone. The battles there are joint
attacks (`start_battle(joint_attack=True)`, each nation's techs its own, AA fire per nation). The invasion may be
irrevocable (it cannot be called off while an attack on a target can be made); it is lost once the declarer's
side holds a target first.

The record is `state.extra["d_day"]`: `status` ("available"; "declared"; then "done" once a target's battle is
fought, "lapsed" when the executor's turn passed without it, or "lost"), `round` of the declaration,
`start_closed` (the round whose declarer turn start is over) and, under `Invasion.clear_key`, whether the assault
zone held no enemy unit when the executor's turn began.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from aare.actions import DeclareDDay, Load, Move
from aare.board.units import UnitType
from aare.combat.rules import CombatRules
from aare.errors import AareError, IllegalAction
from aare.events import Event, ExtraSet, UnitsChanged, UnitsLoaded, UnitsUnloaded
from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.movement.candidates import move_candidates
from aare.movement.move_checks import Leg, Violation, assault_cargo
from aare.movement.moves import load_action_events, move_action_events
from aare.movement.pathing import remaining, sea_reach
from aare.movement.situation import Situation, situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

KEY = "d_day"
FLAG = "d-day"
AVAILABLE, DECLARED, DONE, LAPSED, LOST = "available", "declared", "done", "lapsed", "lost"


@dataclass(frozen=True)
class InvasionRules:
    """The ledger id of each rule of the invasion, as the ruleset names it."""

    once: str
    declare: str
    executor_turn: str
    target: str
    zone: str
    overland: str
    targets_only: str
    bombard: str
    irrevocable: str
    lost: str


@dataclass(frozen=True)
class Invasion:
    """Who declares and who carries out the invasion, where, and under which rules. `bombard_needs_clear_zone`:
    the declarer's warships bombard only if the assault zone held no enemy unit when the executor's turn began;
    `lost_once_declared`: a target the side holds after the declaration still loses the invasion; `irrevocable`: the
    executor's combat move cannot end while an attack on a target can still be made."""

    declarer: str
    executor: str
    targets: tuple[str, ...]
    zone: str
    overland: tuple[str, ...]
    rules: InvasionRules
    bombard_needs_clear_zone: bool = True
    lost_once_declared: bool = True
    irrevocable: bool = True
    clear_key: str = "zone_clear"  # the record's key for the assault zone held no enemy unit

    @property
    def named(self) -> str:
        return " or ".join(self.targets)

    # ---------------------------------------------------------------- the record

    def record(self, state: GameState) -> dict[str, Any]:
        raw = state.extra.get(KEY)
        base: dict[str, Any] = {"status": AVAILABLE, "round": None, "start_closed": None, self.clear_key: None}
        return {**base, **raw} if isinstance(raw, Mapping) else base

    def executing(self, state: GameState) -> bool:
        """Whether this is the executor's turn of a declared invasion, before its first battle."""
        rec = self.record(state)
        return rec["status"] == DECLARED and rec["round"] == state.round and state.nation == self.executor

    def turn(self, state: GameState) -> bool:
        """The executor's turn of a declared invasion, before and after its battles."""
        rec = self.record(state)
        return rec["status"] in (DECLARED, DONE) and rec["round"] == state.round and state.nation == self.executor

    # ---------------------------------------------------------------- units

    def unflag_events(self, state: GameState, keep: Callable[[Stack], bool] = lambda s: False) -> list[Event]:
        """Drop the flag from every flagged stack of the declarer that `keep` rejects (by default: all)."""
        out: list[Event] = []
        for space, stacks in sorted(state.units.items()):
            for stack in stacks:
                if stack.owner == self.declarer and FLAG in stack.flags and not keep(stack):
                    out.append(UnitsChanged(space, stack, flags.with_flags(stack, drop=[FLAG])))
        return out

    def flag_events(self, state: GameState, ruleset: Ruleset) -> list[Event]:
        """Flag the declarer's eligible units at the declaration."""
        out: list[Event] = []
        for space, stacks in sorted(state.units.items()):
            for stack in stacks:
                if stack.owner == self.declarer and FLAG not in stack.flags and eligible(ruleset.units[stack.unit]):
                    out.append(UnitsChanged(space, stack, flags.with_flags(stack, [FLAG])))
        return out

    def side_holds_target(self, state: GameState, ruleset: Ruleset) -> bool:
        side = ruleset.board.side_of(self.declarer)
        return any(state.owners.get(t) is not None and ruleset.board.side_of(state.owners[t]) == side
                   for t in self.targets)

    def zone_clear(self, state: GameState, ruleset: Ruleset) -> bool:
        """No enemy unit in the assault zone."""
        side = ruleset.board.side_of(self.declarer)
        return all(ruleset.board.side_of(s.owner) == side for s in state.stacks(self.zone))

    # ---------------------------------------------------------------- the declaration and the attack

    def refusal(self, state: GameState, ruleset: Ruleset) -> IllegalAction | None:
        """Why the invasion cannot be declared now, or None."""
        rec = self.record(state)
        if rec["status"] == LOST or (rec["status"] == AVAILABLE and self.side_holds_target(state, ruleset)):
            reason = f"the Allies have held {self.named}: D-Day can no longer be conducted"
            return IllegalAction(reason, self.rules.lost)
        if rec["status"] != AVAILABLE:
            return IllegalAction("D-Day is declared once a game", self.rules.once)
        if state.nation != self.declarer or state.phase != first_phase(ruleset) or rec["start_closed"] == state.round:
            return IllegalAction(f"D-Day is declared at the start of the {self.declarer}'s turn, before anything else",
                                 self.rules.declare)
        return None

    def attack_made(self, state: GameState, ruleset: Ruleset) -> bool:
        return any(s.space in self.targets and s.kind != "flyover" for s in pending_battles(state, ruleset))

    def attack_possible(self, state: GameState, ruleset: Ruleset) -> bool:
        """Whether one more combat move could still start an attack on a target: a land unit or aircraft moving
        in, an unload from the assault zone, a load there, or a loaded transport reaching it."""
        view = situation(state, ruleset)
        spaces = {self.zone, *self.overland}
        for space, stacks in state.units.items():
            for stack in stacks:
                unit = view.unit(stack)
                if view.commands(stack) and (unit.domain == "air" or (unit.has("transport") and flags.cargo(stack))):
                    spaces.add(space)
        for space in sorted(spaces):
            for action in move_candidates(view, True, space):
                useful = (isinstance(action, Move) and action.path[-1] in (*self.targets, self.zone)) or (
                    isinstance(action, Load) and action.sea_zone == self.zone)
                if useful and _legal(state, ruleset, action):
                    return True
        return False

    def assault_allowed(self, view: Situation, sea: str, left: int, targets_only: bool = False) -> bool:
        """From `sea` with `left` moves a transport can reach a zone next to an enemy territory it may assault on
        the invasion turn: a target only from the assault zone (`targets_only`: the cargo is the declarer's, which
        goes ashore only in a target)."""
        zones = sea_reach(view, sea, left, end_hostile=True) if left else frozenset({sea})
        return any(view.enemy_land(t) and (t not in self.targets or z == self.zone)
                   and (t in self.targets or not targets_only) for z in zones for t in view.graph.coast[z])


def first_phase(ruleset: Ruleset) -> str:
    return str(ruleset.phase_table()[0].name)


def warship(unit: UnitType) -> bool:
    return unit.domain == "sea" and not unit.has("transport")


def eligible(unit: UnitType) -> bool:
    """Units that can take part: land units and aircraft that fight, transports, bombarding ships, destroyers."""
    if unit.domain in ("land", "air"):
        return not unit.has("not_casualty")
    return unit.domain == "sea" and (unit.has("transport") or unit.has("bombard") or unit.has("destroyer"))


def used(stack: Stack) -> bool:
    """A unit that moved, loaded or fought this turn (the core marks such units `turn:`)."""
    return stack.moved > 0 or bool(flags.turn_flags(stack))


def _legal(state: GameState, ruleset: Ruleset, action: Any) -> bool:
    view = situation(state, ruleset)
    try:
        if isinstance(action, Load):
            load_action_events(view, action, True)
        else:
            move_action_events(view, action, True)
    except AareError:
        return False
    return True


class JointInvasion(PhaseExtension):
    """The declaration, the turns' bookkeeping and the executor's turn's restrictions."""

    name = "d-day"
    action_types = frozenset({"declare_d_day"})

    def __init__(self, spec: Invasion) -> None:
        self.spec = spec

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None and self.spec.refusal(ctx.state, ctx.ruleset) is None:
            yield DeclareDDay()

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        spec = self.spec
        refused = spec.refusal(ctx.state, ctx.ruleset)
        if refused is not None:
            raise refused
        rec = spec.record(ctx.state)
        ctx.emit(ExtraSet(KEY, {**rec, "status": DECLARED, "round": ctx.state.round}, spec.rules.declare))
        ctx.emit(*spec.flag_events(ctx.state, ctx.ruleset))

    def before(self, ctx: TurnContext, action: Any) -> None:
        spec, state = self.spec, ctx.state
        rec = spec.record(state)
        if (state.nation == spec.declarer and state.phase == first_phase(ctx.ruleset) and rec["status"] == AVAILABLE
                and rec["start_closed"] != state.round):
            ctx.emit(ExtraSet(KEY, {**rec, "start_closed": state.round}, spec.rules.declare))
        if spec.executing(state) and state.phase == "combat-move" and isinstance(action, Move):
            path = [ctx.ruleset.board.resolve(p) for p in action.path]
            landing = len(path) == 2 and path[1] in spec.targets and ctx.ruleset.board.spaces[path[0]].is_sea
            if landing and path[0] != spec.zone:
                raise IllegalAction(f"D-Day lands in {path[1]} from {spec.zone} only, not from {path[0]}",
                                    spec.rules.zone)

    def after(self, ctx: TurnContext, action: Any) -> None:
        spec, state = self.spec, ctx.state
        if spec.turn(state):
            self._executor_events(ctx)
        rec = spec.record(state)
        if rec["status"] == DECLARED and state.phase == "conduct-combat" and spec.executing(state):
            from aare.phases.conduct_combat import combat_record

            if any(t in combat_record(state)["fought"] for t in spec.targets):
                ctx.emit(ExtraSet(KEY, {**rec, "status": DONE}, spec.rules.executor_turn))
                return
        losing = (AVAILABLE, DECLARED) if spec.lost_once_declared else (AVAILABLE,)
        if rec["status"] in losing and spec.side_holds_target(state, ctx.ruleset):
            ctx.emit(ExtraSet(KEY, {**rec, "status": LOST}, spec.rules.lost))
            ctx.emit(*spec.unflag_events(ctx.state))

    def _executor_events(self, ctx: TurnContext) -> None:
        """The declarer's units go ashore only in a target; loads reach the assault zone."""
        spec, state = self.spec, ctx.state
        for event in ctx.events:
            mine = isinstance(event, UnitsUnloaded | UnitsLoaded) and event.units.owner == spec.declarer
            if isinstance(event, UnitsUnloaded) and mine and event.territory not in spec.targets:
                raise IllegalAction(f"{spec.declarer} units go ashore on the {spec.executor} turn only in "
                                    f"{spec.named}", spec.rules.targets_only)
            if isinstance(event, UnitsLoaded) and mine and state.phase != "combat-move":
                raise IllegalAction(f"{spec.declarer} units move on the {spec.executor} turn only to attack "
                                    f"{spec.named}", spec.rules.targets_only)
            if isinstance(event, UnitsLoaded) and state.phase == "combat-move":
                view = situation(state, ctx.ruleset)
                left = remaining(view, event.after)
                if not spec.assault_allowed(view, event.sea_zone, left):
                    raise IllegalAction(f"units loaded in {event.sea_zone} could only land in {spec.named}, which "
                                        f"D-Day assaults from {spec.zone} only", spec.rules.zone)
                reach = sea_reach(view, event.sea_zone, left, end_hostile=True)
                if mine and spec.zone not in reach:
                    raise IllegalAction(f"{spec.declarer} units loaded on the {spec.executor} turn must land in "
                                        f"{spec.named} from {spec.zone}, out of reach from {event.sea_zone}",
                                        spec.rules.targets_only)
                if event.after.owner == spec.declarer and spec.zone not in reach | {event.sea_zone}:
                    raise IllegalAction(f"a {spec.declarer} transport goes only to {spec.zone} on the "
                                        f"{spec.executor} turn, out of reach from {event.sea_zone}: its cargo "
                                        f"could not go ashore", spec.rules.zone)

    def can_end(self, ctx: TurnContext) -> None:
        spec, state = self.spec, ctx.state
        pending = spec.irrevocable and spec.executing(state) and state.phase == "combat-move" \
            and not spec.attack_made(state, ctx.ruleset)
        if pending and spec.attack_possible(state, ctx.ruleset):
            raise IllegalAction(f"D-Day cannot be called off: attack {spec.named}", spec.rules.irrevocable)

    def on_enter(self, ctx: TurnContext) -> None:
        spec, state = self.spec, ctx.state
        rec = spec.record(state)
        if rec["status"] != DECLARED or rec["round"] != state.round:
            if spec.turn(state) and state.phase == "collect-income":
                ctx.emit(*spec.unflag_events(state))
            return
        if state.nation == spec.declarer and state.phase == "collect-income":
            ctx.emit(*spec.unflag_events(state, lambda s: not used(s)))  # units used on the declarer's turn
        elif state.nation == spec.executor and state.phase == first_phase(ctx.ruleset):
            clear = spec.zone_clear(state, ctx.ruleset)
            ctx.emit(ExtraSet(KEY, {**rec, spec.clear_key: clear}, spec.rules.bombard))
            if spec.bombard_needs_clear_zone and not clear:
                ctx.emit(*spec.unflag_events(ctx.state, lambda s: not warship(ctx.ruleset.units[s.unit])))
        elif state.nation == spec.executor and state.phase == "collect-income":
            ctx.emit(*spec.unflag_events(state))

    def on_exit(self, ctx: TurnContext) -> None:
        spec, state = self.spec, ctx.state
        if spec.executing(state) and state.phase == "combat-move" and not spec.attack_made(state, ctx.ruleset):
            ctx.emit(ExtraSet(KEY, {**spec.record(state), "status": LAPSED}, spec.rules.irrevocable))
            ctx.emit(*spec.unflag_events(ctx.state))


@dataclass(frozen=True)
class InvasionHooks:
    """The hooks a rule module gives for an `Invasion` (see `hooks`)."""

    spec: Invasion

    @property
    def extension(self) -> JointInvasion:
        return JointInvasion(self.spec)

    def hooks(self) -> dict[str, Callable[..., Any]]:
        extension = self.extension
        spec = self.spec

        def phase_actions(found: list[Any], state: Any, **_: Any) -> list[Any]:
            return found if state is None else [*found, extension]

        def initial(state: Any, **_: Any) -> Any:
            """The invasion is available at the start (shown by `aare show`)."""
            return replace(state, extra={**state.extra, KEY: spec.record(state)})

        def co_movers(found: dict[str, str], state: Any, power: str, **_: Any) -> dict[str, str]:
            """On the executor's turn its player commands the flagged units of the declarer."""
            return {**found, spec.declarer: FLAG} if power == spec.executor and spec.turn(state) else found

        def move_checks(checks: list[Any], **_: Any) -> list[Any]:
            return [*checks, self.leg_check]

        def battle_inputs(inputs: dict[str, Any], state: Any, site: Any, **_: Any) -> dict[str, Any]:
            """The invasion's battles are joint attacks; each nation's techs stay its own."""
            owners = {s.owner for s in site.attackers}
            if not spec.turn(state) or len(owners) < 2:
                return inputs
            techs = {owner: frozenset(state.techs.get(owner, ())) for owner in sorted(owners)}
            return {**inputs, "joint_attack": True, "owner_techs": {**inputs.get("owner_techs", {}), **techs}}

        def combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
            """AA fire is rolled per nation when several attack together."""
            return replace(rules, aa_per_owner=True)

        def summary_records(keys: list[str], **_: Any) -> list[str]:
            return [*keys, KEY]

        return {"initial_state": initial, "phase_actions": phase_actions, "co_movers": co_movers,
                "move_checks": move_checks, "battle_inputs": battle_inputs, "combat_rules": combat_rules,
                "summary_records": summary_records}

    def leg_check(self, leg: Leg) -> Violation | None:
        """Where units may go on the executor's turn."""
        spec, view = self.spec, leg.view
        if view.power != spec.executor or not spec.turn(view.state):
            return None
        stack, end = leg.stack, leg.end
        rules = spec.rules
        declarer_cargo = any(o == spec.declarer for o, _ in flags.cargo_list(stack, flags.BOARDED))
        if stack.owner == spec.declarer:
            if not leg.combat:
                if leg.domain == "air" and flags.has(stack, flags.COMBAT):
                    return None
                return Violation(f"{spec.declarer} units move on the {spec.executor} turn only to fight in "
                                 f"{spec.named}", rules.targets_only)
            if leg.domain in ("land", "air") and end not in spec.targets:
                return Violation(f"on D-Day the {spec.declarer}'s {leg.name} attack {spec.named} only", rules.target)
            if leg.domain == "sea" and end != spec.zone:
                return Violation(f"on D-Day the {spec.declarer}'s ships go to {spec.zone} only", rules.zone)
        elif declarer_cargo and leg.domain == "sea" and end != spec.zone:
            return Violation(f"{spec.declarer} units aboard go ashore in {spec.named} from {spec.zone} only",
                             rules.targets_only)
        cargo = assault_cargo(view, stack) if leg.combat and leg.unit.has("transport") else ()
        boarded = any(view.moves_for(o) for o, _ in flags.cargo_list(stack, flags.BOARDED))
        fights = view.hostile(end)  # a transport that moves into a battle stays there; cargo boarded must land
        left = 0 if fights else remaining(view, stack) - leg.cost
        declarers = all(o == spec.declarer for o, _ in cargo)
        if cargo and (boarded or not fights) and not spec.assault_allowed(view, end, left, declarers):
            reason = f"from {end} the cargo could only land in {spec.named}, which D-Day assaults from {spec.zone} only"
            return Violation(reason, rules.zone)
        if leg.combat and leg.domain == "land" and end in spec.targets and leg.start not in spec.overland:
            reason = (f"on D-Day land units attack {end} from {spec.zone}, or overland from "
                      f"{' or '.join(spec.overland)}")
            return Violation(reason, rules.overland)
        return None
