"""AARHE research (module `aarhe_research`), in place of LHTR's: the twelve technologies with their progress boxes
and the boxes each nation starts with ticked (AARHE-RESEARCH-progress-table); research dice bought in the
purchase phase within the nation's capacity, 5 IPCs each, and rolled with its free dice in develop weapons for
one declared technology at a time, each 1 ticking a box (AARHE-RESEARCH-roll, -capacity); a technology is
gained, in force at once, when its last box is ticked (AARHE-RESEARCH-complete, AARHE-TECHDEPLOY-immediate); one
minor technology may be given once each way between the US and the UK and between Germany and Italy, in force
from the beginning of the receiver's next turn (AARHE-TECHDEPLOY-transfer, -transfer-timing).

Technologies that LHTR also has keep LHTR's ids, so the core's mechanisms for them apply: Jet Plane
(`jet_fighters`), Long Range Aircraft, Heavy Bomber (`heavy_bombers`), Rockets and Advanced Submarine
(`super_submarines`).

State: ``extra["aarhe_research"] = {power: {tech: boxes ticked by rolls}}`` (the starting ticks are added from the
table), ``extra["aarhe_research_dice"] = {power: dice bought this turn}``, ``extra["aarhe_research_rolled"] =
{power: dice rolled this turn}``, ``extra["aarhe_tech_given"] = {"giver>receiver": tech}`` and
``extra["aarhe_tech_incoming"] = {power: [[tech, round given], ...]}``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from aare.actions import GiveTech, Research
from aare.economy.tech import held, held_event
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet, TechGained
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.ruleset import Ruleset
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.turn import R_SKIP, capital_lost_at_start
from aare.state.game_state import GameState

R_ROLL = "AARHE-RESEARCH-roll"
R_COMPLETE = "AARHE-RESEARCH-complete"
R_PROGRESS = "AARHE-RESEARCH-progress-table"
R_CAPACITY_TABLE = "AARHE-RESEARCH-capacity-table"
R_CAPACITY = "AARHE-RESEARCH-capacity"
R_IMMEDIATE = "AARHE-TECHDEPLOY-immediate"
R_TRANSFER = "AARHE-TECHDEPLOY-transfer"
R_TRANSFER_TIMING = "AARHE-TECHDEPLOY-transfer-timing"

GER, ITA, JAP, RUS, UK, US = "Germany", "Italy", "Japan", "Russia", "United Kingdom", "United States"

JET_PLANE, LONG_RANGE, HEAVY_BOMBER, ROCKETS = "jet_fighters", "long_range_aircraft", "heavy_bombers", "rockets"
HEAVY_ARTILLERY, HEAVY_TANK, ADVANCED_SUB = "heavy_artillery", "heavy_tank", "super_submarines"
ADVANCED_ASW, ATOMIC, RADAR = "advanced_asw", "atomic_weaponry", "advanced_radar"
UNDERGROUND, PRODUCTION = "underground_factory", "advanced_production"

DIE_COST = 5
PROGRESS, DICE, ROLLED = "aarhe_research", "aarhe_research_dice", "aarhe_research_rolled"
GIVEN, INCOMING = "aarhe_tech_given", "aarhe_tech_incoming"


@dataclass(frozen=True)
class Tech:
    """A technology of the list: its title, progress boxes and the boxes each nation starts with ticked."""

    title: str
    boxes: int
    start: dict[str, int] = field(default_factory=dict)
    aliases: tuple[str, ...] = ()

    @property
    def minor(self) -> bool:
        """A minor technology has 3 boxes (AARHE-TECHDEPLOY-transfer)."""
        return self.boxes == 3


TECHS: dict[str, Tech] = {
    JET_PLANE: Tech("Jet Plane", 4, {GER: 1}, ("jet plane", "jets", "jet")),
    LONG_RANGE: Tech("Long Range Aircraft", 3, {US: 1}, ("lra",)),
    HEAVY_BOMBER: Tech("Heavy Bomber", 3, {US: 1}, ("heavy bomber",)),
    ROCKETS: Tech("Rockets", 3, {GER: 1}, ("rocket",)),
    HEAVY_ARTILLERY: Tech("Heavy Artillery", 3, {GER: 1, RUS: 1}, ("h.art",)),
    HEAVY_TANK: Tech("Heavy Tank", 4, {GER: 1}, ("heavy tanks", "h.arm")),
    ADVANCED_SUB: Tech("Advanced Submarine", 3, {GER: 1}, ("advanced submarines", "advanced sub")),
    ADVANCED_ASW: Tech("Advanced ASW", 3, {UK: 1}, ("asw",)),
    ATOMIC: Tech("Atomic Weaponry", 10, {GER: 2, US: 3, RUS: 1}, ("atomic bomb", "atomic")),
    RADAR: Tech("Advanced Radar", 3, {UK: 1}, ("radar",)),
    UNDERGROUND: Tech("Underground Factory", 3, {GER: 1}, ("underground factories",)),
    PRODUCTION: Tech("Advanced Production", 4, {}, ()),
}

# AARHE-RESEARCH-capacity-table: (free dice, dice that may be bought) each turn
CAPACITY: dict[str, tuple[int, int]] = {GER: (2, 3), ITA: (1, 1), JAP: (1, 2), RUS: (1, 2), UK: (1, 1), US: (2, 4)}

# AARHE-TECHDEPLOY-transfer: who may give one minor technology to whom
TRANSFERS: dict[str, str] = {US: UK, UK: US, GER: ITA, ITA: GER}


def _key(name: str) -> str:
    return " ".join(name.lower().replace("_", " ").replace("-", " ").split())


def tech_id(name: str) -> str:
    """A technology id from its id, title or a short name (`"advanced submarine"`); IllegalAction otherwise."""
    key = _key(name)
    for tech, spec in TECHS.items():
        if key in (_key(tech), _key(spec.title), *(_key(a) for a in spec.aliases)):
            return tech
    known = ", ".join(t.title for t in TECHS.values())
    raise IllegalAction(f"{name or 'no technology'} is not a technology of this game (choose from {known})", R_ROLL)


def has_tech(state: GameState | None, power: str, tech: str) -> bool:
    """Whether `power` has `tech` in force."""
    return state is not None and tech in state.techs.get(power, ())


def progress(state: GameState, power: str, tech: str) -> int:
    """The boxes of `tech` ticked for `power`: those it started with and those its rolls ticked."""
    rolled = int(((state.extra.get(PROGRESS) or {}).get(power) or {}).get(tech, 0))
    spec = TECHS[tech]
    if has_tech(state, power, tech):
        return spec.boxes
    return min(spec.boxes, spec.start.get(power, 0) + rolled)


def capacity(power: str) -> tuple[int, int]:
    """`power`'s free research dice and the most it may buy in a turn."""
    return CAPACITY.get(power, (0, 0))


def dice_left(state: GameState, power: str) -> int:
    """Research dice `power` may still roll this turn: its free dice and those bought, less those rolled."""
    return capacity(power)[0] + held(state, DICE, power) - held(state, ROLLED, power)


def researching(state: GameState, power: str) -> list[str]:
    """The technologies `power` may still research."""
    return [t for t in TECHS if not has_tech(state, power, t)]


def _progress_event(state: GameState, power: str, tech: str, ticked: int) -> ExtraSet:
    table = {p: dict(t) for p, t in (state.extra.get(PROGRESS) or {}).items()}
    mine = table.setdefault(power, {})
    mine[tech] = int(mine.get(tech, 0)) + ticked
    return ExtraSet(PROGRESS, {p: dict(sorted(t.items())) for p, t in sorted(table.items())}, R_ROLL)


class BuyResearchDice(PhaseExtension):
    """Purchase units and developments: `research N` buys N research dice at 5 IPCs each, at most the nation's
    purchasable number a turn (AARHE-RESEARCH-roll, AARHE-RESEARCH-capacity)."""

    name = "purchase"
    action_types = frozenset({"research"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None and held(ctx.state, DICE, ctx.power) < capacity(ctx.power)[1] \
                and researching(ctx.state, ctx.power):
            yield Research(dice=1)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, power = ctx.state, ctx.power
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", R_ROLL)
        if action.tech:
            raise IllegalAction("research dice are bought now and rolled for a technology in develop weapons: "
                                "'research N'", R_ROLL)
        if capital_lost_at_start(state, ctx.ruleset, power):
            raise IllegalAction(f"{power} skips develop weapons this turn: its capital was enemy-held", R_SKIP)
        bought, most = held(state, DICE, power), capacity(power)[1]
        if bought + action.dice > most:
            raise IllegalAction(f"{power} may buy at most {most} research dice a turn (has {bought})", R_CAPACITY)
        cost = DIE_COST * action.dice
        bank = state.banks.get(power, 0)
        if cost > bank:
            raise IllegalAction(f"{action.dice} research dice cost {cost} IPCs; {power} has {bank}", R_ROLL)
        ctx.emit(BankChanged(power, -cost, "research", R_ROLL))
        ctx.emit(held_event(state, DICE, power, bought + action.dice, R_ROLL))


class RollResearch(PhaseExtension):
    """Develop weapons: `research N TECH` rolls N of the turn's research dice for TECH; each 1 ticks a box, the
    tech is gained when its boxes are all ticked (surplus lost); `give TECH to ALLY` transfers a minor tech. Dice
    not rolled when the phase ends are lost."""

    name = "develop-weapons"
    action_types = frozenset({"research", "give_tech"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is not None:
            return
        state, power = ctx.state, ctx.power
        left = dice_left(state, power)
        if left > 0:
            for tech in researching(state, power):
                yield Research(dice=left, tech=tech)
        to = TRANSFERS.get(power)
        if to is not None and to in {p.name for p in ctx.ruleset.board.powers}:
            for tech in state.techs.get(power, ()):
                if tech in TECHS:
                    yield GiveTech(tech=tech, to=to)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, GiveTech):
            self._give(ctx, action)
            return
        if not isinstance(action, Research):
            raise IllegalAction(f"{action.type} is not research", R_ROLL)
        state, power = ctx.state, ctx.power
        if not action.tech:
            raise IllegalAction("name the technology the dice are rolled for: 'research N TECH'", R_ROLL)
        tech = tech_id(action.tech)
        if has_tech(state, power, tech):
            raise IllegalAction(f"{power} already has {TECHS[tech].title}", R_COMPLETE)
        left = dice_left(state, power)
        if action.dice > left:
            free, most = capacity(power)
            raise IllegalAction(f"{power} has {left} research dice left this turn ({free} free, up to {most} bought "
                                "in the purchase phase)", R_CAPACITY)
        ctx.emit(held_event(state, ROLLED, power, held(state, ROLLED, power) + action.dice, R_CAPACITY))
        ones = ctx.roll(action.dice, f"research {TECHS[tech].title}").count(1)
        before = progress(ctx.state, power, tech)
        ticked = min(ones, TECHS[tech].boxes - before)
        if ticked:
            ctx.emit(_progress_event(ctx.state, power, tech, ticked))
        if before + ticked >= TECHS[tech].boxes:
            ctx.emit(TechGained(power, tech, R_COMPLETE))

    def _give(self, ctx: TurnContext, action: GiveTech) -> None:
        state, power = ctx.state, ctx.power
        tech = tech_id(action.tech)
        to = ctx.ruleset.board.resolve_power(action.to)
        if TRANSFERS.get(power) != to:
            raise IllegalAction(f"{power} cannot give technology to {to}", R_TRANSFER)
        if not TECHS[tech].minor:
            raise IllegalAction(f"{TECHS[tech].title} is a major technology: only minor (3-box) ones are given",
                                R_TRANSFER)
        if not has_tech(state, power, tech):
            raise IllegalAction(f"{power} does not have {TECHS[tech].title}", R_TRANSFER)
        given = dict(state.extra.get(GIVEN) or {})
        if f"{power}>{to}" in given:
            raise IllegalAction(f"{power} has already given {to} a technology", R_TRANSFER)
        waiting = {p: [list(x) for x in v] for p, v in (state.extra.get(INCOMING) or {}).items()}
        if has_tech(state, to, tech) or any(t == tech for t, _ in waiting.get(to, [])):
            raise IllegalAction(f"{to} already has {TECHS[tech].title}", R_TRANSFER)
        ctx.emit(ExtraSet(GIVEN, dict(sorted({**given, f"{power}>{to}": tech}.items())), R_TRANSFER))
        waiting.setdefault(to, []).append([tech, state.round])
        ctx.emit(ExtraSet(INCOMING, dict(sorted(waiting.items())), R_TRANSFER_TIMING))

    def on_exit(self, ctx: TurnContext) -> None:
        for key in (DICE, ROLLED):
            if held(ctx.state, key, ctx.power):
                ctx.emit(held_event(ctx.state, key, ctx.power, 0, R_CAPACITY))


class ReceiveTech(PhaseExtension):
    """As the receiver's next turn begins (its purchase phase), a technology given to it comes in force
    (AARHE-TECHDEPLOY-transfer-timing)."""

    name = "purchase"

    def on_enter(self, ctx: TurnContext) -> None:
        state, power = ctx.state, ctx.power
        waiting = {p: [list(x) for x in v] for p, v in (state.extra.get(INCOMING) or {}).items()}
        mine = waiting.get(power, [])
        due = [t for t, given in mine if int(given) < state.round]
        if not due:
            return
        for tech in due:
            ctx.emit(TechGained(power, str(tech), R_TRANSFER_TIMING))
        rest = [x for x in mine if x[0] not in due]
        if rest:
            waiting[power] = rest
        else:
            waiting.pop(power)
        ctx.emit(ExtraSet(INCOMING, dict(sorted(waiting.items())), R_TRANSFER_TIMING))


def _technologies(techs: tuple[str, ...], **_: Any) -> tuple[str, ...]:
    """AARHE's technology list replaces LHTR's (AARHE-RESEARCH-roll)."""
    return tuple(TECHS)


def _nation_records(records: dict[str, Any], state: Any, power: str, **_: Any) -> dict[str, Any]:
    """The research progress of each technology, e.g. ``Jet Plane 1/4``."""
    if state is None or not power:
        return records
    shown = [f"{t.title} {progress(state, power, k)}/{t.boxes}" for k, t in TECHS.items()]
    return {**records, "research": ", ".join(shown)}


def _rule_ids(names: dict[str, str], **_: Any) -> dict[str, str]:
    return {**names, "LHTR-TECH-list": R_ROLL, "LHTR-TECH-choose-target": R_ROLL}


def research_on(ruleset: Ruleset) -> bool:
    """Whether the game is played with weapons development (the develop-weapons phase)."""
    return bool(ruleset.options.get("weapons_development", True))


AARHE_RESEARCH = register_module(
    RuleModule(
        id="aarhe_research",
        title="AARHE research: progress boxes, research capacity, technology deployment",
        rule_ids=(R_ROLL, R_COMPLETE, R_PROGRESS, R_CAPACITY_TABLE, R_CAPACITY, R_IMMEDIATE, R_TRANSFER,
                  R_TRANSFER_TIMING),
        hooks={
            "technologies": _technologies,
            "phase_actions": by_phase(BuyResearchDice(), ReceiveTech(), RollResearch()),
            "nation_records": _nation_records,
            "rule_ids": _rule_ids,
        },
        requires=("aarhe_turn",),
    )
)
