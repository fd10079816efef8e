"""AARHE Phase 1 weapons development (module `aarhep1_research`), in place of LHTR's: in develop weapons a nation
declares a technology and buys rolls for it at 5 IPCs each (`research 2 super_subs`), spending at most half the
IPCs it held as the phase began; a nation that bought no roll in its previous turn pays a 5 IPC restart fee with
its first roll. A die equal to the technology's target number develops it; one equal to 7 minus the target is a
breakthrough, each worth a free die whenever rolls are bought for that technology (AARHEP1-TECH-*,
AARHEP1-OPT-target-table).

The six technologies are the proposal's optional rules, in force for the nation that develops them. Four keep
the core's ids, so the core's mechanisms apply: Super Subs (`super_submarines`: attack and defence 3), Long-range
Aircraft (`long_range_aircraft`: fighters move 6), Jet Fighters (`jet_fighters`: fighters defend at 5, AA guns
hit on 2), Heavy Bombers (`heavy_bombers`: the higher of two dice, in battle and in raids); submarines (Super
Subs) move 3 and bombers (Long-range aircraft) 8 in non-combat move when they did not move in combat move. Radar
(`radar`), the jets' and heavy bombers' stealth: `air_defence.py`, `sub_detection.py`; Rockets
(`rocket_launchers`): `rockets.py`; the bombers' bail-out: `bailout.py`. Super Subs' interdiction has no effect
(the proposal has no commerce rule).

State: ``extra["aarhep1_research"][power] = {"last": the round of its last roll bought, "breakthroughs": {tech:
n}}``, ``extra["aarhep1_research_turn"] = {"round", "power", "bank" (held as the phase began), "spent", "free"
(techs whose free dice were rolled)}``."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import Any, NamedTuple

from aare.actions import Research
from aare.combat.rules import CombatRules, TechBonus
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet, TechGained
from aare.movement import flags
from aare.movement.situation import Situation
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.state.unit_stacks import Stack

R_TABLE = "AARHEP1-OPT-target-table"
R_COST = "AARHEP1-TECH-roll-cost"
R_FEE = "AARHEP1-TECH-restart-fee"
R_HALF = "AARHEP1-TECH-spend-cap"
R_DECLARE = "AARHEP1-TECH-declare"
R_DEVELOP = "AARHEP1-TECH-develop"
R_BREAKTHROUGH = "AARHEP1-TECH-breakthrough"
R_FREE = "AARHEP1-TECH-breakthrough-free-dice"
R_BOUND = "AARHEP1-TECH-breakthrough-bound"
R_SUPER_SUBS = "AARHEP1-OPT-super-subs-combat"
R_LONG_RANGE = "AARHEP1-OPT-lra-fighters"
R_JET_DEFENCE = "AARHEP1-OPT-jet-defence"
R_HEAVY_DAMAGE = "AARHEP1-OPT-heavy-bomber-damage"
R_SUBS_MOVE = "AARHEP1-OPT-super-subs-move"
R_LRA_BOMBERS = "AARHEP1-OPT-lra-bombers"
R_JET_AA = "AARHEP1-OPT-jet-aa"

ROLL_COST = 5
RESTART_FEE = 5
PROGRESS, TURN = "aarhep1_research", "aarhep1_research_turn"


class Tech(NamedTuple):
    title: str
    target: int

    @property
    def breakthrough(self) -> int:
        """The roll that is a breakthrough: 7 minus the target number (AARHEP1-TECH-breakthrough)."""
        return 7 - self.target


# the technologies and their target numbers, by the numbering of the optional rules (AARHEP1-OPT-target-table)
TECHS: dict[str, Tech] = {
    "radar": Tech("Radar", 1),
    "rocket_launchers": Tech("Rockets", 2),
    "super_submarines": Tech("Super Subs", 3),
    "long_range_aircraft": Tech("Long-range aircraft", 4),
    "jet_fighters": Tech("Jet Fighters", 5),
    "heavy_bombers": Tech("Heavy Bombers", 6),
}


def tech_id(name: str) -> str:
    """A technology from its id or title; IllegalAction when there is none."""
    key = "_".join(name.lower().replace("-", " ").split())
    for tech, spec in TECHS.items():
        if key in (tech, "_".join(spec.title.lower().replace("-", " ").split())):
            return tech
    known = ", ".join(spec.title for spec in TECHS.values())
    raise IllegalAction(f"{name or 'no technology'} is not a technology of this game (choose from {known})", R_DECLARE)


def progress(state: Any, power: str) -> dict[str, Any]:
    found = (state.extra.get(PROGRESS) or {}).get(power) or {}
    return {"last": 0, "breakthroughs": {}, **found}


def breakthroughs(state: Any, power: str, tech: str) -> int:
    return int(progress(state, power)["breakthroughs"].get(tech, 0))


def this_turn(state: Any) -> dict[str, Any]:
    found = state.extra.get(TURN) or {}
    if found.get("round") != state.round or found.get("power") != state.nation:
        return {"round": state.round, "power": state.nation, "bank": state.banks.get(state.nation, 0), "spent": 0,
                "free": []}
    return dict(found)


def restart_fee(state: Any, power: str) -> int:
    """The fee due with `power`'s next roll: 5 after a turn of its own without one (AARHEP1-TECH-restart-fee);
    none in round 1, before any turn of its own, nor once a roll was bought this turn."""
    last = int(progress(state, power)["last"])
    return 0 if state.round == 1 or last >= state.round - 1 else RESTART_FEE


def cost(state: Any, power: str, dice: int) -> int:
    """What `dice` more rolls cost now: 5 IPCs each (AARHEP1-TECH-roll-cost) and the restart fee if due."""
    return ROLL_COST * dice + restart_fee(state, power)


def spend_room(state: Any, power: str) -> int:
    """IPCs `power` may still spend on research this turn: half those it held as the phase began (rounded down),
    less what it spent (AARHEP1-TECH-spend-cap)."""
    turn = this_turn(state)
    return int(turn["bank"]) // 2 - int(turn["spent"])


class Developing(PhaseExtension):
    """Develop weapons: `research N TECH` buys N rolls for TECH and rolls them with its breakthroughs' free dice."""

    name = "develop-weapons"
    action_types = frozenset({"research"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state, power = ctx.state, ctx.power
        if space is not None or cost(state, power, 1) > min(spend_room(state, power), state.banks.get(power, 0)):
            return
        for tech in TECHS:
            if tech not in state.techs.get(power, ()):
                yield Research(dice=1, tech=tech)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, power = ctx.state, ctx.power
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", R_DECLARE)
        if not action.tech:
            raise IllegalAction("declare the technology before rolling: 'research N TECH'", R_DECLARE)
        tech = tech_id(action.tech)
        spec = TECHS[tech]
        if tech in state.techs.get(power, ()):
            raise IllegalAction(f"{power} already has {spec.title}", R_DEVELOP)
        price, fee = cost(state, power, action.dice), restart_fee(state, power)
        room = spend_room(state, power)
        if price > room:
            raise IllegalAction(f"{action.dice} rolls cost {price} IPCs{' with the restart fee' if fee else ''}; "
                                f"{power} may spend {max(room, 0)} more on research this turn (half its IPCs)", R_HALF)
        if price > state.banks.get(power, 0):
            raise IllegalAction(f"{action.dice} rolls cost {price} IPCs; {power} has {state.banks.get(power, 0)}",
                                R_COST)
        turn = this_turn(state)
        free = 0 if tech in turn["free"] else breakthroughs(state, power, tech)
        if fee:
            ctx.emit(BankChanged(power, -fee, "research", R_FEE))
        ctx.emit(BankChanged(power, -ROLL_COST * action.dice, "research", R_COST))
        ctx.emit(ExtraSet(TURN, {**turn, "spent": int(turn["spent"]) + price,
                                 "free": sorted({*turn["free"], tech})}, R_HALF))
        rolls = ctx.roll(action.dice + free, f"research {spec.title}" + (f" ({free} free)" if free else ""))
        mine = progress(state, power)
        gained = rolls.count(spec.breakthrough) if spec.breakthrough != spec.target else 0
        table = dict(state.extra.get(PROGRESS) or {})
        table[power] = {"last": state.round, "breakthroughs": dict(sorted(
            {**mine["breakthroughs"], tech: int(mine["breakthroughs"].get(tech, 0)) + gained}.items()))}
        ctx.emit(ExtraSet(PROGRESS, dict(sorted(table.items())), R_BREAKTHROUGH if gained else R_FREE))
        if spec.target in rolls:
            ctx.emit(TechGained(power, tech, R_DEVELOP))

    def on_enter(self, ctx: TurnContext) -> None:
        ctx.emit(ExtraSet(TURN, this_turn(ctx.state), R_HALF))


def _technologies(techs: tuple[str, ...], **_: Any) -> tuple[str, ...]:
    """The proposal's six technologies replace LHTR's."""
    return tuple(TECHS)


def _combat_rules(rules: CombatRules, **_: Any) -> CombatRules:
    """Heavy Bombers: a raid's damage is the higher of two dice, nothing added (AARHEP1-OPT-heavy-bomber-damage).
    Jet Fighters: the nation's AA guns hit on 1 or 2 (AARHEP1-OPT-jet-aa)."""
    jets = TechBonus("jet_fighters", "aa", "aa", 1, R_JET_AA)
    return replace(rules, heavy_bomber_sbr_bonus=0, tech_bonuses=(*rules.tech_bonuses, jets))


def _movement_left(left: int, view: Situation, stack: Stack, **_: Any) -> int:
    """Long-range aircraft: bombers fly 8 (the core's +2) only in non-combat move, and only if they did not move in
    combat move (AARHEP1-OPT-lra-bombers). Super Subs: a submarine that did not move in combat move moves 3 in
    non-combat move (AARHEP1-OPT-super-subs-move)."""
    unit, techs = view.unit(stack), view.state.techs.get(stack.owner, ())
    idle = view.state.phase == "non-combat-move" and not flags.has(stack, flags.COMBAT) \
        and not flags.has(stack, flags.RETREATED)  # repelled or saved (`bailout.py`): it flew in combat move
    if unit.has("bomber") and "long_range_aircraft" in techs and not idle:
        return max(0, left - 2)
    if unit.has("submarine") and "super_submarines" in techs and idle:
        return left + 1
    return left


def _nation_records(records: dict[str, Any], state: Any, power: str, **_: Any) -> dict[str, Any]:
    """The breakthroughs of each technology, e.g. ``Super Subs 2``."""
    if state is None or not power:
        return records
    found = progress(state, power)["breakthroughs"]
    shown = [f"{TECHS[t].title} {n}" for t, n in found.items() if n]
    return {**records, "breakthroughs": ", ".join(shown) or "none"}


AARHEP1_RESEARCH = register_module(
    RuleModule(
        id="aarhep1_research",
        title="AARHE Phase 1 weapons development: target numbers, breakthroughs, the restart fee",
        rule_ids=(R_TABLE, R_COST, R_FEE, R_HALF, R_DECLARE, R_DEVELOP, R_BREAKTHROUGH, R_FREE, R_BOUND,
                  R_SUPER_SUBS, R_LONG_RANGE, R_JET_DEFENCE, R_HEAVY_DAMAGE, R_SUBS_MOVE, R_LRA_BOMBERS, R_JET_AA),
        hooks={"technologies": _technologies, "phase_actions": by_phase(Developing()),
               "nation_records": _nation_records, "combat_rules": _combat_rules, "movement_left": _movement_left},
    )
)
