"""China (module `aa50_china`): China's reinforcements and their placement, its movement area, who controls what
it captures, no purchases and no research, and the order of combat in its team turn with the United States.

China is a power of its own played by the United States' player (`played_by` in the board file; the `aa50`
module's turn order gives them one team turn). The numbers of its reinforcement rule are parameters
(`ChinaRules`) so that a variant that rounds up or lifts the placement cap only changes them."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from aare.actions import Place
from aare.board.notation import parse_units
from aare.economy.pool import pool, pool_event
from aare.economy.turn import turn_record, turn_start_owners, turn_update
from aare.errors import IllegalAction
from aare.events import UnitsAdded
from aare.movement import flags
from aare.movement.move_checks import Check, Leg, Violation
from aare.movement.pathing import remaining
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.options import OptionSpec
from aare.rules.rule_module import RuleModule, register_module
from aare.rules.turns import PhaseSpec
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

CHINA = "China"
# AA50-CHINA-movement-area: the only spaces Chinese units may enter.
AREA = frozenset({"Chinghai", "Ningxia", "Sikang", "Yunnan", "Hupeh", "Fukien", "Suiyuan", "Manchuria", "Kiangsu",
                  "Kwangtung"})
REINFORCEMENTS = "AA50-CHINA-reinforcements"
PLACEMENT = "AA50-CHINA-placement"
AREA_RULE = "AA50-CHINA-movement-area"
NO_IPCS = "AA50-CHINA-no-ipcs"
NO_RESEARCH = "AA50-RESEARCH-china-none"
TURN_RULE = "AA50-CHINA-turn-with-us"
SEPARATE = "AA50-CHINA-separate-power-us-player"
CONTROL = "AA50-CHINA-capture-control"
# AA50-CHINA-placement: the `china_placement` option's readings of the cap of three.
BELOW_THREE = "fewer-than-three"
THREE_PER_TERRITORY = "three-per-territory"


@dataclass(frozen=True)
class ChinaRules:
    """The numbers of China's reinforcements: one `unit` per `per_territories` Chinese territories held at the
    start of the turn (rounded down unless `round_up`); a territory takes new units while it held fewer than
    `cap` Chinese units before placement began (`cap_counts_placed`: at most `cap` new units there instead;
    `cap` None: no limit)."""

    unit: str = "infantry"
    per_territories: int = 2
    round_up: bool = False
    cap: int | None = 3
    cap_counts_placed: bool = False


def china_rules(options: Mapping[str, Any]) -> ChinaRules:
    """The rules a game's options choose (AA50-CHINA-placement: the cap read either way). The options
    `china_round_up` and `china_uncapped` are declared by no base module: they are where a variant that rounds
    China's count up or lifts its cap of three (Anniversary Enhanced's Chinese advantages) plugs in."""
    return ChinaRules(
        round_up=bool(options.get("china_round_up", False)),
        cap=None if options.get("china_uncapped", False) else 3,
        cap_counts_placed=options.get("china_placement", BELOW_THREE) == THREE_PER_TERRITORY,
    )


def reinforcement_rules(ruleset: Any) -> ChinaRules:
    """The game's rules of China's reinforcements: its options, as later modules change them (the
    `reinforcement_rules` hook, e.g. a national advantage)."""
    rules: ChinaRules = ruleset.modify("reinforcement_rules", china_rules(ruleset.options), power=CHINA)
    return rules


def reinforcement_count(territories: int, rules: ChinaRules) -> int:
    """New units for `territories` Chinese territories (AA50-CHINA-reinforcements)."""
    whole, part = divmod(territories, rules.per_territories)
    return whole + (1 if rules.round_up and part else 0)


def chinese_territories(owners: Mapping[str, str]) -> list[str]:
    return sorted(t for t, owner in owners.items() if owner == CHINA)


# --- movement ---------------------------------------------------------------------------------------------------


def in_area(leg: Leg) -> Violation | None:
    """Chinese units enter no space outside China's area, by land, air or sea (AA50-CHINA-movement-area,
    AA50-CHINA-fighter)."""
    if leg.stack.owner != CHINA:
        return None
    outside = next((s for s in leg.path[1:] if s not in AREA), None)
    if outside is None:
        return None
    return Violation(f"Chinese units stay in China: {leg.unit.display_plural} cannot enter {outside}", AREA_RULE)


def lands_in_area(leg: Leg) -> Violation | None:
    """In combat move a Chinese aircraft must keep a landing spot it can reach through China's area: a friendly
    territory there held since the turn began (AA50-CHINA-fighter)."""
    if leg.stack.owner != CHINA or leg.domain != "air" or not leg.combat:
        return None
    view = leg.view
    reach, frontier = {leg.end}, {leg.end}
    for _ in range(max(0, remaining(view, leg.stack) - leg.cost)):
        frontier = {n for s in frontier for n in view.board.spaces[s].neighbors if n in AREA} - reach
        reach |= frontier
    if any(view.held_since_start(s) for s in reach):
        return None
    return Violation(f"{leg.where} could land nowhere in China after {leg.end}", "AA50-CHINA-fighter")


def _move_checks(checks: list[Check], **_: Any) -> list[Check]:
    return [in_area, lands_in_area, *checks]


# --- control ----------------------------------------------------------------------------------------------------


def _capture_controller(found: tuple[str, str], ruleset: Any, territory: str, capturer: str,
                        **_: Any) -> tuple[str, str]:
    """China controls only originally Chinese territories (Manchuria and Kiangsu included): one it takes that was
    another ally's goes to that ally (Kwangtung to the United Kingdom), even while the ally's capital is lost
    (AA50-CHINA-capture-control)."""
    board = ruleset.board
    original = board.spaces[territory].owner
    if capturer == CHINA and original and original != CHINA and board.side_of(original) == board.side_of(CHINA):
        return original, CONTROL
    return found


# --- the phases -------------------------------------------------------------------------------------------------


class NoResearch(PhaseExtension):
    """China buys no research and gains no technology (AA50-RESEARCH-china-none)."""

    def before(self, ctx: TurnContext, action: Any) -> None:
        raise IllegalAction("China has no IPCs and does no research", NO_RESEARCH)


class Reinforcements(PhaseExtension):
    """China's purchase: it buys nothing (AA50-CHINA-no-ipcs) and receives one infantry per two territories it
    held when its turn began (AA50-CHINA-reinforcements), into its pool of units waiting for mobilize."""

    def before(self, ctx: TurnContext, action: Any) -> None:
        raise IllegalAction("China has no IPCs and cannot buy units: it receives infantry instead", NO_IPCS)

    def on_enter(self, ctx: TurnContext) -> None:
        state = ctx.state
        rules = reinforcement_rules(ctx.ruleset)
        count = reinforcement_count(len(chinese_territories(turn_start_owners(state))), rules)
        if count:
            have = pool(state, CHINA)
            have[rules.unit] = have.get(rules.unit, 0) + count
            ctx.emit(pool_event(state, CHINA, have, REINFORCEMENTS))


def placement_room(state: GameState, space: str, rules: ChinaRules) -> int | None:
    """How many more new Chinese units `space` takes (None: any number), or 0 (AA50-CHINA-placement)."""
    if state.owners.get(space) != CHINA:
        return 0
    placed = int(turn_record(state)["placed"].get(space, 0))
    if rules.cap is None:
        return None
    if rules.cap_counts_placed:
        return max(0, rules.cap - placed)
    before = sum(s.count for s in state.stacks(space) if s.owner == CHINA) - placed
    return None if before < rules.cap else 0


class ChinesePlacement(PhaseExtension):
    """China's mobilize: its units go to Chinese territories that held fewer than three Chinese units when
    placement began, no complex needed (AA50-CHINA-placement)."""

    action_types = frozenset({"place"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        state = ctx.state
        rules = reinforcement_rules(ctx.ruleset)
        board = ctx.ruleset.board
        for unit in sorted(pool(state, CHINA)):
            for where in chinese_territories(state.owners):
                if (space is None or board.resolve(space) == where) and placement_room(state, where, rules) != 0:
                    yield Place(units=f"1 {ctx.ruleset.units[unit].display}", space=where)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset = ctx.state, ctx.ruleset
        rules = reinforcement_rules(ctx.ruleset)
        space = ruleset.board.resolve(action.space)
        units = parse_units(action.units, ruleset.units)
        have = pool(state, CHINA)
        for unit, n in units.items():
            if n < 1 or have.get(unit, 0) < n:
                raise IllegalAction(f"China has {have.get(unit, 0)} {unit} waiting to be placed, not {n}",
                                    "LHTR-PURCHASE-units-wait-for-mobilize")
            have[unit] -= n
        total = sum(units.values())
        if not total:
            raise IllegalAction("place at least one unit", "LHTR-PURCHASE-units-wait-for-mobilize")
        if state.owners.get(space) != CHINA:
            raise IllegalAction(f"new Chinese units go to Chinese territories; {space} is not one", PLACEMENT)
        room = placement_room(state, space, rules)
        if room is not None and total > room:
            if rules.cap_counts_placed:
                reason = f"{space} takes at most {rules.cap} new Chinese units a turn ({room} more)"
            else:
                reason = f"{space} held {rules.cap} or more Chinese units before placement began"
            raise IllegalAction(reason, PLACEMENT)
        placed = turn_record(state)["placed"]
        ctx.emit(
            *(UnitsAdded(space, Stack(CHINA, unit, n), PLACEMENT) for unit, n in sorted(units.items())),
            pool_event(state, CHINA, have, "LHTR-PURCHASE-units-wait-for-mobilize"),
            turn_update(state, PLACEMENT, placed=dict(sorted({**placed, space: placed.get(space, 0) + total}.items()))),
        )


class NoTransports(PhaseExtension):
    """Chinese units never board transports (AA50-CHINA-movement-area)."""

    def before(self, ctx: TurnContext, action: Any) -> None:
        if action.type == "load":
            raise IllegalAction("Chinese units never board transports", AREA_RULE)


def open_combat(state: GameState, member: str) -> bool:
    """Whether `member` of the team turn is in the middle of its combat: it moved or loaded units in combat move
    (its marks of the turn, cleared when its combat move began) and has not yet ended conduct-combat."""
    phase = state.members.get(member, {}).get("phase")
    if phase not in ("combat-move", "conduct-combat"):
        return False
    return any(s.owner == member and (s.moved or flags.turn_flags(s)) for stacks in state.units.values()
               for s in stacks)


class CombatInTurn(PhaseExtension):
    """In the US/China team turn one power makes its combat moves and fights, then the other, in either order:
    their units never attack together (AA50-CHINA-turn-with-us, AA50-CHINA-separate-power-us-player)."""

    def before(self, ctx: TurnContext, action: Any) -> None:
        state = ctx.state
        busy = next((m for m in state.members if m != state.nation and open_combat(state, m)), None)
        if busy is None:
            return
        end = ctx.ruleset.board.resolve(action.path[-1]) if action.type == "move" else None
        if end is not None and any(s.owner == busy and flags.has(s, flags.COMBAT) for s in state.stacks(end)):
            raise IllegalAction(f"{busy}'s units attack {end}: {state.nation} never attacks together with them",
                                SEPARATE)
        raise IllegalAction(f"{busy} is making its combat moves and fighting: {state.nation} makes its own before "
                            f"or after, never at the same time", TURN_RULE)


def _phase_actions(found: list[PhaseExtension], phase: str, state: GameState, **_: Any) -> list[PhaseExtension]:
    china = state.nation == CHINA
    if phase == "develop-weapons" and china:
        return [*found, NoResearch()]
    if phase == "purchase" and china:
        return [*found, Reinforcements()]
    if phase == "mobilize" and china:
        return [*found, ChinesePlacement()]
    added: list[PhaseExtension] = []
    if phase == "combat-move" and len(state.members) > 1:
        added.append(CombatInTurn())
    if phase in ("combat-move", "non-combat-move") and china:
        added.append(NoTransports())
    return [*found, *added]


def _placement_rules(rules: set[str], **_: Any) -> set[str]:
    return {*rules, PLACEMENT}


def _free_pool_rules(rules: set[str], **_: Any) -> set[str]:
    return {*rules, REINFORCEMENTS}


def _phase_table(phases: list[PhaseSpec], **_: Any) -> list[PhaseSpec]:
    """Non-combat move is made by the US and China together, once both have fought (AA50-CHINA-turn-with-us)."""
    return [replace(p, joint=True) if p.name == "non-combat-move" else p for p in phases]


MODULE = register_module(
    RuleModule(
        id="aa50_china",
        title="China",
        rule_ids=(
            "AA50-CHINA-separate-power-us-player",
            "AA50-CHINA-turn-with-us",
            "AA50-CHINA-no-ipcs",
            "AA50-CHINA-reinforcements",
            "AA50-CHINA-placement",
            "AA50-CHINA-movement-area",
            "AA50-CHINA-fighter",
            "AA50-CHINA-capture-control",
            "AA50-CHINA-allied-units-in-china",
            "AA50-CHINA-burma-road",
            "AA50-RESEARCH-china-none",
        ),
        hooks={
            "move_checks": _move_checks,
            "capture_controller": _capture_controller,
            "phase_actions": _phase_actions,
            "phase_table": _phase_table,
            "placement_rules": _placement_rules,
            "free_pool_rules": _free_pool_rules,
        },
        options=(
            OptionSpec(
                key="china_placement",
                type=str,
                default=BELOW_THREE,
                choices=(BELOW_THREE, THREE_PER_TERRITORY),
                help="new Chinese infantry go to a territory that held fewer than 3 Chinese units before placement, "
                "any number there (fewer-than-three), or at most 3 new ones per territory (three-per-territory)",
                rule_id=PLACEMENT,
            ),
        ),
    )
)
