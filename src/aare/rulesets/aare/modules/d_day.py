"""AARe 5.0 D-Day (seed "BASE GAME" 6; the record and its pure rules are in `aare.rulesets.aare.d_day`).

Once a game, at the start of a UK turn (its first phase, before any research or purchase), the UK may
declare D-Day (`declare_d_day`). The UK plays its turn normally; its units that move, load or fight then, and
those it buys, are not eligible. On the US turn of the round the US player moves the eligible UK units with
his own (the `co_movers` hook), and the one joint attack of the game is fought in Western Europe: the combat
engine accepts both nations as attackers (`battle_inputs`: `joint_attack`), each nation keeps its own techs,
AA guns fire at each nation's aircraft apart, and the Allied player (or, with the option, the defender)
chooses the attackers' casualties. D-Day cannot be called off while the attack can be made; it is lost for
good once the Allies hold Western Europe before it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any

from aare.actions import DeclareDDay, Load, Move
from aare.combat.rules import CombatRules
from aare.errors import AareError, IllegalAction
from aare.events import ExtraSet, UnitsLoaded, UnitsUnloaded
from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.movement.candidates import move_candidates
from aare.movement.move_checks import Leg, Violation, assault_cargo
from aare.movement.moves import load_action_events, move_action_events
from aare.movement.pathing import remaining, sea_reach
from aare.movement.situation import Situation, situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aare.d_day import (
    ASSAULT_ZONE,
    DECLARED,
    DECLARER,
    DONE,
    EXECUTOR,
    FLAG,
    KEY,
    LAPSED,
    LOST,
    OVERLAND,
    R_AIR,
    R_CASUALTIES,
    R_COMMAND,
    R_DECLARE,
    R_IRREVOCABLE,
    R_LOST,
    R_ONCE,
    R_OVERLAND,
    R_SZ7,
    R_TARGET,
    R_US_TURN,
    R_USED,
    R_WEUR_ONLY,
    TARGET,
    allied_hold_target,
    executing,
    flag_events,
    record,
    sz7_clear,
    unflag_events,
    used,
    warship,
)
from aare.state.game_state import GameState


def d_day_turn(state: GameState) -> bool:
    """The US turn of a declared D-Day, before and after its battle."""
    rec = record(state)
    return rec["status"] in (DECLARED, DONE) and rec["round"] == state.round and state.nation == EXECUTOR


def first_phase(ruleset: Any) -> str:
    return str(ruleset.phase_table()[0].name)


def declaration_refusal(state: GameState, ruleset: Any) -> IllegalAction | None:
    """Why D-Day cannot be declared now, or None."""
    rec = record(state)
    if rec["status"] == LOST or (rec["status"] == "available" and allied_hold_target(state, ruleset)):
        return IllegalAction("the Allies have held Western Europe: D-Day can no longer be conducted", R_LOST)
    if rec["status"] != "available":
        return IllegalAction("D-Day is declared once a game", R_ONCE)
    if state.nation != DECLARER or state.phase != first_phase(ruleset) or rec["start_closed"] == state.round:
        return IllegalAction("D-Day is declared at the start of the United Kingdom's turn, before anything else",
                             R_DECLARE)
    return None


def attack_made(state: GameState, ruleset: Any) -> bool:
    return any(s.space == TARGET and s.kind != "flyover" for s in pending_battles(state, ruleset))


def attack_possible(state: GameState, ruleset: Any) -> bool:
    """Whether one more combat move could still start the Western Europe attack: a land unit or aircraft moving
    in, an unload from SZ 7, a load there, or a loaded transport reaching it."""
    view = situation(state, ruleset)
    spaces = {ASSAULT_ZONE, *OVERLAND}
    for space, stacks in state.units.items():
        for stack in stacks:
            unit = view.unit(stack)
            if view.commands(stack) and (unit.domain == "air" or (unit.has("transport") and flags.cargo(stack))):
                spaces.add(space)
    for space in sorted(spaces):
        for action in move_candidates(view, True, space):
            useful = (isinstance(action, Move) and action.path[-1] in (TARGET, ASSAULT_ZONE)) or (
                isinstance(action, Load) and action.sea_zone == ASSAULT_ZONE)
            if useful and _legal(state, ruleset, action):
                return True
    return False


def _legal(state: GameState, ruleset: Any, action: Any) -> bool:
    view = situation(state, ruleset)
    try:
        if isinstance(action, Load):
            load_action_events(view, action, True)
        else:
            move_action_events(view, action, True)
    except AareError:
        return False
    return True


class DDay(PhaseExtension):
    """The declaration, the turn's bookkeeping and the US turn's restrictions."""

    name = "d-day"
    action_types = frozenset({"declare_d_day"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None and declaration_refusal(ctx.state, ctx.ruleset) is None:
            yield DeclareDDay()

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        refused = declaration_refusal(ctx.state, ctx.ruleset)
        if refused is not None:
            raise refused
        rec = record(ctx.state)
        ctx.emit(ExtraSet(KEY, {**rec, "status": DECLARED, "round": ctx.state.round}, R_DECLARE))
        ctx.emit(*flag_events(ctx.state, ctx.ruleset))

    def before(self, ctx: TurnContext, action: Any) -> None:
        state, rec = ctx.state, record(ctx.state)
        if (state.nation == DECLARER and state.phase == first_phase(ctx.ruleset) and rec["status"] == "available"
                and rec["start_closed"] != state.round):
            ctx.emit(ExtraSet(KEY, {**rec, "start_closed": state.round}, R_DECLARE))
        if executing(state) and state.phase == "combat-move" and isinstance(action, Move):
            path = [ctx.ruleset.board.resolve(p) for p in action.path]
            landing = len(path) == 2 and path[1] == TARGET and ctx.ruleset.board.spaces[path[0]].is_sea
            if landing and path[0] != ASSAULT_ZONE:
                raise IllegalAction(f"D-Day lands in {TARGET} from {ASSAULT_ZONE} only, not from {path[0]}", R_SZ7)

    def after(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        if d_day_turn(state):
            for event in ctx.events:
                if isinstance(event, UnitsUnloaded) and event.units.owner == DECLARER and event.territory != TARGET:
                    raise IllegalAction(f"UK units go ashore on the US turn only in {TARGET}", R_WEUR_ONLY)
                if isinstance(event, UnitsLoaded) and event.units.owner == DECLARER and state.phase != "combat-move":
                    raise IllegalAction("UK units move on the US turn only to attack Western Europe", R_WEUR_ONLY)
                if isinstance(event, UnitsLoaded) and state.phase == "combat-move":
                    view = situation(state, ctx.ruleset)
                    left = remaining(view, event.after)
                    if not assault_allowed(view, event.sea_zone, left):
                        raise IllegalAction(f"units loaded in {event.sea_zone} could only land in {TARGET}, which "
                                            f"D-Day assaults from {ASSAULT_ZONE} only", R_SZ7)
                    reach = sea_reach(view, event.sea_zone, left, end_hostile=True)
                    if event.units.owner == DECLARER and ASSAULT_ZONE not in reach:
                        raise IllegalAction(f"UK units loaded on the US turn must land in {TARGET} from "
                                            f"{ASSAULT_ZONE}, out of reach from {event.sea_zone}", R_WEUR_ONLY)
        rec = record(state)
        if rec["status"] == DECLARED and state.phase == "conduct-combat" and executing(state):
            from aare.phases.conduct_combat import combat_record

            if TARGET in combat_record(state)["fought"]:
                ctx.emit(ExtraSet(KEY, {**rec, "status": DONE}, R_US_TURN))
                return
        if rec["status"] in ("available", DECLARED) and allied_hold_target(state, ctx.ruleset):
            ctx.emit(ExtraSet(KEY, {**rec, "status": LOST}, R_LOST))
            ctx.emit(*unflag_events(ctx.state))

    def can_end(self, ctx: TurnContext) -> None:
        state = ctx.state
        pending = executing(state) and state.phase == "combat-move" and not attack_made(state, ctx.ruleset)
        if pending and attack_possible(state, ctx.ruleset):
            raise IllegalAction("D-Day cannot be called off: attack Western Europe", R_IRREVOCABLE)

    def on_enter(self, ctx: TurnContext) -> None:
        state, rec = ctx.state, record(ctx.state)
        if rec["status"] != DECLARED or rec["round"] != state.round:
            if d_day_turn(state) and state.phase == "collect-income":
                ctx.emit(*unflag_events(state))
            return
        if state.nation == DECLARER and state.phase == "collect-income":
            ctx.emit(*unflag_events(state, lambda s: not used(s)))  # AARE-DDAY-uk-used-units-excluded
        elif state.nation == EXECUTOR and state.phase == first_phase(ctx.ruleset):
            clear = sz7_clear(state, ctx.ruleset)
            ctx.emit(ExtraSet(KEY, {**rec, "sz7_clear": clear}, "AARE-DDAY-uk-bombard-if-sz7-empty"))
            if not clear:
                ctx.emit(*unflag_events(ctx.state, lambda s: not warship(ctx.ruleset.units[s.unit])))
        elif state.nation == EXECUTOR and state.phase == "collect-income":
            ctx.emit(*unflag_events(state))

    def on_exit(self, ctx: TurnContext) -> None:
        state = ctx.state
        if executing(state) and state.phase == "combat-move" and not attack_made(state, ctx.ruleset):
            ctx.emit(ExtraSet(KEY, {**record(state), "status": LAPSED}, R_IRREVOCABLE))
            ctx.emit(*unflag_events(ctx.state))


D_DAY = DDay()


def _phase_actions(found: list[Any], state: Any, **_: Any) -> list[Any]:
    return found if state is None else [*found, D_DAY]


def _initial(state: Any, **_: Any) -> Any:
    """D-Day is available at the start (shown by `aare show`)."""
    return replace(state, extra={**state.extra, KEY: record(state)})


def _co_movers(found: dict[str, str], state: Any, power: str, **_: Any) -> dict[str, str]:
    """On the D-Day US turn the US player commands the flagged UK units (AARE-DDAY-us-moves-uk-units)."""
    if power == EXECUTOR and d_day_turn(state):
        return {**found, DECLARER: FLAG}
    return found


def assault_allowed(view: Situation, sea: str, left: int) -> bool:
    """From `sea` with `left` moves a transport can reach a zone next to an enemy territory it may assault on the
    D-Day turn: Western Europe only from SZ 7 (LHTR's `can_reach_assault` with that exception)."""
    zones = sea_reach(view, sea, left, end_hostile=True) if left else frozenset({sea})
    return any(view.enemy_land(t) and (t != TARGET or z == ASSAULT_ZONE) for z in zones for t in view.graph.coast[z])


def leg_check(leg: Leg) -> Violation | None:
    """Where units may go on the D-Day US turn (AARE-DDAY-target-weur, -amphib-from-sz7, -overland-exception,
    -air-any-origin, -uk-units-weur-only, -uk-loaded-trn-sz7)."""
    view = leg.view
    if view.power != EXECUTOR or not d_day_turn(view.state):
        return None
    stack, end = leg.stack, leg.end
    uk_cargo = any(o == DECLARER for o, _ in flags.cargo_list(stack, flags.BOARDED))  # loaded this turn
    if stack.owner == DECLARER:
        if not leg.combat:
            if leg.domain == "air" and flags.has(stack, flags.COMBAT):
                return None
            return Violation("UK units move on the US turn only to fight in Western Europe", R_WEUR_ONLY)
        if leg.domain in ("land", "air") and end != TARGET:
            return Violation(f"on D-Day the UK's {leg.name} attack {TARGET} only", R_TARGET)
        if leg.domain == "sea" and end != ASSAULT_ZONE:
            return Violation(f"on D-Day the UK's ships go to {ASSAULT_ZONE} only", R_SZ7)
    elif uk_cargo and leg.domain == "sea" and end != ASSAULT_ZONE:
        return Violation(f"UK units aboard go ashore in {TARGET} from {ASSAULT_ZONE} only", R_WEUR_ONLY)
    landing = leg.combat and leg.unit.has("transport") and assault_cargo(view, stack) and not view.hostile(end)
    if landing and not assault_allowed(view, end, remaining(view, stack) - leg.cost):
        reason = f"from {end} the cargo could only land in {TARGET}, which D-Day assaults from {ASSAULT_ZONE} only"
        return Violation(reason, R_SZ7)
    if leg.combat and leg.domain == "land" and end == TARGET and leg.start not in OVERLAND:
        reason = f"on D-Day land units attack {TARGET} from {ASSAULT_ZONE}, or overland from Germany or Southern Europe"
        return Violation(reason, R_OVERLAND)
    return None


def _move_checks(checks: list[Any], **_: Any) -> list[Any]:
    return [*checks, leg_check]


def _battle_inputs(inputs: dict[str, Any], state: Any, site: Any, **_: Any) -> dict[str, Any]:
    """The D-Day battles are joint attacks; each nation's techs and advantages stay its own
    (AARE-DDAY-resolved-on-us-turn, AARE-DDAY-bonuses-own-units)."""
    owners = {s.owner for s in site.attackers}
    if not d_day_turn(state) or len(owners) < 2:
        return inputs
    techs = {owner: frozenset(state.techs.get(owner, ())) for owner in sorted(owners)}
    return {**inputs, "joint_attack": True, "owner_techs": {**inputs.get("owner_techs", {}), **techs}}


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """AA fire is rolled per nation when several attack together (AARE-DDAY-aa-per-nation)."""
    return replace(rules, aa_per_owner=True)


def _battle_decider(power: str, state: Any, site: Any, side: str, ruleset: Any, **_: Any) -> str:
    """With `d_day_casualties=defender` the defender chooses the D-Day attackers' losses
    (AARE-DDAY-casualty-agreement); by default the US player chooses them for both nations."""
    if side != "attacker" or ruleset.options.get("d_day_casualties", "allies") != "defender":
        return power
    if not d_day_turn(state) or len({s.owner for s in site.attackers}) < 2:
        return power
    from aare.combat.board_battle import deciding_power

    return deciding_power(state, ruleset, site, "defender")


def _summary_records(keys: list[str], **_: Any) -> list[str]:
    """The D-Day record is shown in a game's summary."""
    return [*keys, KEY]


AARE_D_DAY = register_module(
    RuleModule(
        id="aare_d_day",
        title="AARe 5.0 D-Day",
        rule_ids=(
            "AARE-DDAY-once-per-game",
            R_DECLARE,
            R_US_TURN,
            R_TARGET,
            R_SZ7,
            R_OVERLAND,
            R_AIR,
            "AARE-DDAY-uk-turn-normal",
            R_USED,
            "AARE-DDAY-uk-new-units-excluded",
            R_COMMAND,
            "AARE-DDAY-cross-transport",
            R_WEUR_ONLY,
            "AARE-DDAY-uk-loaded-trn-sz7",
            "AARE-DDAY-uk-bombard-if-sz7-empty",
            R_CASUALTIES,
            "AARE-DDAY-aa-per-nation",
            "AARE-DDAY-bonuses-own-units",
            R_IRREVOCABLE,
            R_LOST,
        ),
        hooks={
            "initial_state": _initial,
            "phase_actions": _phase_actions,
            "co_movers": _co_movers,
            "move_checks": _move_checks,
            "battle_inputs": _battle_inputs,
            "combat_rules": _combat_rules,
            "battle_decider": _battle_decider,
            "summary_records": _summary_records,
        },
        requires=("lhtr",),
        options=(
            OptionSpec(
                key="d_day_casualties",
                type=str,
                default="allies",
                choices=("allies", "defender"),
                help="who chooses the D-Day attackers' casualties: the Allied player (UK and US agree) or the "
                "defender (they do not)",
                rule_id=R_CASUALTIES,
            ),
        ),
    )
)
