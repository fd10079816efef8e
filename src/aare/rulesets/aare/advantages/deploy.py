"""When NAs are declared (AARE-NA-DEPLOY-*) and how their free units are placed.

Round 1: every nation declares one NA at the start of its turn, before anything else. Round 2: Germany,
Japan and one Allied nation declare a second one at the start of their turn, or delay it to the Mobilize
phase of round 2 or of any later turn. "Start of turn" is the turn's first phase, before any other action
in it. Four NAs per side, each NA once, each nation from its own list.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from aare.actions import DeclareAdvantage, PlaceFree
from aare.board.notation import parse_units
from aare.economy.production import NEW, has_complex
from aare.errors import IllegalAction
from aare.events import Event, UnitsAdded
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.ruleset import Ruleset
from aare.rulesets.aare.advantages.base import (
    Advantage,
    FreeUnits,
    advantage,
    advantages_of,
    declarations,
    declared,
    record,
    record_event,
)
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

PER_SIDE = 4
MOBILIZE = "mobilize"
R_FOUR = "AARE-NA-DEPLOY-four-per-side"
R_OWN = "AARE-NA-DEPLOY-own-list"
R_ONCE = "AARE-NA-DEPLOY-no-repeat"
R_ROUND1 = "AARE-NA-DEPLOY-round1"
R_ROUND2 = "AARE-NA-DEPLOY-round2"
R_NOW = "AARE-NA-DEPLOY-immediate-effect"
R_DELAY = "AARE-NA-DEPLOY-delay-second"
R_DELAYED = "AARE-NA-DEPLOY-delayed-effects"
R_FREE = "AARE-NA-DEPLOY-free-unit-conditions"


def enabled(ruleset: Ruleset) -> bool:
    return bool(ruleset.options.get("national_advantages", True))


def first_phase(ruleset: Ruleset) -> str:
    return ruleset.phase_table()[0].name


def side_count(state: GameState, ruleset: Ruleset, side: str) -> int:
    return sum(len(declared(state, p.name)) for p in ruleset.board.powers if p.side == side)


def seconds_left(state: GameState, ruleset: Ruleset, side: str) -> int:
    """How many more nations of `side` may take a second NA: four per side less one per nation."""
    nations = [p.name for p in ruleset.board.powers if p.side == side]
    used = sum(1 for n in nations if len(declared(state, n)) >= 2)
    return max(0, PER_SIDE - len(nations)) - used


def start_open(state: GameState, ruleset: Ruleset) -> bool:
    """Whether this is still the start of the moving power's turn: its first phase, nothing else done yet."""
    closed = record(state)["start_closed"]
    return state.phase == first_phase(ruleset) and closed != {"round": state.round, "power": state.nation}


def must_declare(state: GameState, ruleset: Ruleset) -> bool:
    """Round 1: the moving power has no NA yet and must declare one before anything else."""
    return enabled(ruleset) and state.round == 1 and not declared(state, state.nation)


def check_declaration(state: GameState, ruleset: Ruleset, power: str, adv_id: str) -> Advantage:
    """The NA `power` may declare now, or IllegalAction naming the schedule rule that forbids it."""
    if not enabled(ruleset):
        raise IllegalAction("this game is played without national advantages", R_FOUR)
    adv = advantage(adv_id)
    if adv.nation != power:
        raise IllegalAction(f"{adv.title} is on {adv.nation}'s list, not {power}'s", R_OWN)
    if any(adv_id in declared(state, p.name) for p in ruleset.board.powers):
        raise IllegalAction(f"{adv.title} has already been declared", R_ONCE)
    have = len(declared(state, power))
    side = ruleset.board.side_of(power)
    if have == 1 and state.round >= 2 and seconds_left(state, ruleset, side) <= 0:
        raise IllegalAction(f"the {side}' second national advantage has been used", R_ROUND2)
    if side_count(state, ruleset, side) >= PER_SIDE:
        raise IllegalAction(f"the {side} have declared all {PER_SIDE} of their national advantages", R_FOUR)
    if state.phase == MOBILIZE:
        if state.round < 2 or have != 1:
            raise IllegalAction("only a second national advantage, from round 2 on, may be declared in Mobilize",
                                R_DELAY)
    elif not start_open(state, ruleset):
        rule = R_ROUND1 if state.round == 1 else R_DELAY
        raise IllegalAction("national advantages are declared at the start of a turn (or, delayed, in Mobilize)",
                            rule)
    elif state.round == 1:
        if have:
            raise IllegalAction(f"{power} declares one national advantage in round 1", R_ROUND1)
    elif state.round != 2 or have != 1:
        rule = R_ROUND2 if state.round == 2 else R_DELAY
        raise IllegalAction("a second national advantage is declared at the start of round 2 or, delayed, "
                            "in a Mobilize phase", rule)
    return adv


def spaces_of(grant: FreeUnits, ruleset: Ruleset) -> list[str]:
    names = list(grant.spaces)
    if grant.original_owner:
        names += [s.name for s in ruleset.board.land() if s.owner == grant.original_owner]
    return sorted(dict.fromkeys(ruleset.board.resolve(n) for n in names))


def owed_now(state: GameState, power: str) -> list[dict[str, Any]]:
    """The free-unit grants `power` may place in the current phase."""
    return [o for o in record(state)["owed"]
            if o["power"] == power and o["phase"] == state.phase and o["round"] == state.round]


def owe_events(
    state: GameState, power: str, adv: Advantage, phase: str, grants: Iterable[int], rule: str
) -> list[Event]:
    owed = list(record(state)["owed"])
    for index in grants:
        grant = adv.free_units[index]
        owed.append({"power": power, "advantage": adv.id, "grant": index, "units": dict(grant.units),
                     "phase": phase, "round": state.round, "space": None})
    return [record_event(state, rule, owed=owed)] if owed != record(state)["owed"] else []


def declare_events(ctx: TurnContext, adv: Advantage) -> None:
    """Record the declaration, owe its free units, run its own declaration effects."""
    state, power = ctx.state, ctx.power
    delayed = state.phase == MOBILIZE
    entry = {"id": adv.id, "round": state.round, "phase": state.phase, "delayed": delayed}
    table = {**record(state)["declared"], power: [*declarations(state, power), entry]}
    ctx.emit(record_event(state, R_DELAYED if delayed else R_NOW, declared=table))
    now = [i for i, g in enumerate(adv.free_units) if g.when == "declaration" or (delayed and g.when == MOBILIZE)]
    ctx.emit(*owe_events(ctx.state, power, adv, state.phase, now, R_DELAYED if delayed else R_NOW))
    if adv.on_declare is not None:
        adv.on_declare(ctx, adv)


def carrier_room(state: GameState, ruleset: Ruleset, power: str, zone: str) -> int:
    """Room left on `power`'s own carriers in `zone`, after the aircraft of its side there."""
    units, board = ruleset.units, ruleset.board
    side = board.side_of(power)
    mine = sum(units[s.unit].carrier_capacity * s.count for s in state.stacks(zone) if s.owner == power)
    ours = sum(units[s.unit].carrier_capacity * s.count for s in state.stacks(zone) if board.side_of(s.owner) == side)
    used = sum(units[s.unit].carrier_size * s.count for s in state.stacks(zone)
               if board.side_of(s.owner) == side and units[s.unit].domain == "air")
    return min(mine, ours - used)


def free_unit_events(state: GameState, ruleset: Ruleset, power: str, action: PlaceFree) -> list[Event]:
    """The events of placing free NA units; IllegalAction when the grant or the space does not allow it."""
    board = ruleset.board
    space = board.resolve(action.space)
    units = parse_units(action.units, ruleset.units)
    owed = list(record(state)["owed"])
    mine = [o for o in owed_now(state, power) if o["advantage"] == action.advantage]
    if not mine:
        raise IllegalAction(f"{power} has no free units of {action.advantage} to place now", R_FREE)
    entry = next((o for o in mine if all(o["units"].get(u, 0) >= n for u, n in units.items())), None)
    if entry is None or not units:
        raise IllegalAction(f"{action.advantage} does not give {power} {action.units} to place now", R_FREE)
    grant = advantage(action.advantage).free_units[entry["grant"]]
    where = board.spaces[space]
    if space not in spaces_of(grant, ruleset):
        raise IllegalAction(f"{action.advantage}'s free units go to {', '.join(spaces_of(grant, ruleset))}",
                            grant.rule_id)
    if grant.together and entry["space"] not in (None, space):
        raise IllegalAction(f"{action.advantage}'s free units all go to {entry['space']}", grant.rule_id)
    held = grant.coast.get(space, space if where.is_land else None)
    if held is not None and state.owners.get(held) != power:
        raise IllegalAction(f"{power} does not control {held}: the free units cannot be placed there", R_FREE)
    events: list[Event] = []
    for unit, n in units.items():
        kind = ruleset.units[unit]
        aboard = grant.on_carrier and where.is_sea and kind.domain == "air"
        if (kind.domain == "sea") != where.is_sea and not aboard:
            raise IllegalAction(f"{kind.display_plural} cannot be placed in {space}", grant.rule_id)
        if aboard and carrier_room(state, ruleset, power, space) < kind.carrier_size * n:
            raise IllegalAction(f"no carrier of {power}'s in {space} has room for {n} {kind.display_plural}",
                                grant.rule_id)
        flags: tuple[str, ...] = ()
        if kind.domain == "building":
            if has_complex(state, ruleset, space):
                raise IllegalAction(f"{space} already has an industrial complex", "LHTR-MOBILIZE-new-complex-placement")
            flags = (NEW,)
        events.append(UnitsAdded(space, Stack(power, unit, n, flags=flags), grant.rule_id))
    if where.is_sea and not grant.enemy_sea_ok:
        enemy = [s for s in state.stacks(space) if board.side_of(s.owner) != board.side_of(power)]
        if enemy:
            raise IllegalAction(f"{space} holds enemy units", R_FREE)
    left = {u: c - units.get(u, 0) for u, c in entry["units"].items() if c - units.get(u, 0) > 0}
    index = owed.index(entry)
    rest = owed[:index] + ([{**entry, "units": left, "space": space}] if left else []) + owed[index + 1:]
    events.append(record_event(state, grant.rule_id, owed=rest))
    return events


class StartOfTurn(PhaseExtension):
    """The turn's first phase: declarations before anything else; round 1 requires one (AARE-NA-DEPLOY-round1)."""

    name = "start-of-turn"
    action_types = frozenset({"declare_advantage"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None:
            yield from (DeclareAdvantage(advantage=a.id) for a in advantages_of(ctx.power))

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        declare_events(ctx, check_declaration(ctx.state, ctx.ruleset, ctx.power, action.advantage))

    def before(self, ctx: TurnContext, action: Any) -> None:
        if must_declare(ctx.state, ctx.ruleset):
            raise IllegalAction(f"{ctx.power} first declares its national advantage for round 1", R_ROUND1)
        if start_open(ctx.state, ctx.ruleset):
            ctx.emit(record_event(ctx.state, R_DELAY, start_closed={"round": ctx.state.round, "power": ctx.power}))

    def can_end(self, ctx: TurnContext) -> None:
        if must_declare(ctx.state, ctx.ruleset):
            raise IllegalAction(f"{ctx.power} must declare a national advantage in round 1", R_ROUND1)


class Mobilize(PhaseExtension):
    """Mobilize: delayed declarations (AARE-NA-DEPLOY-delay-second) and free NA units, owed on entry and
    forfeited on exit (AARE-NA-DEPLOY-free-unit-conditions); also when the capital is lost
    (AARE-NA-DEPLOY-capital-loss-mobilize)."""

    name = "mobilize"
    action_types = frozenset({"declare_advantage", "place_free"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        if space is None:
            yield from (DeclareAdvantage(advantage=a.id) for a in advantages_of(ctx.power))
        yield from free_candidates(ctx, space)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, PlaceFree):
            ctx.emit(*free_unit_events(ctx.state, ctx.ruleset, ctx.power, action))
            return
        declare_events(ctx, check_declaration(ctx.state, ctx.ruleset, ctx.power, action.advantage))

    def on_enter(self, ctx: TurnContext) -> None:
        state, power = ctx.state, ctx.power
        for adv_entry in declarations(state, power):
            adv = advantage(adv_entry["id"])
            this_turn = adv_entry["round"] == state.round and adv_entry["phase"] != MOBILIZE
            grants = [i for i, g in enumerate(adv.free_units)
                      if g.when == MOBILIZE and (g.every_turn or this_turn)]
            ctx.emit(*owe_events(ctx.state, power, adv, MOBILIZE, grants, grants_rule(adv, grants)))

    def on_exit(self, ctx: TurnContext) -> None:
        forfeit(ctx)


def free_candidates(ctx: TurnContext, space: str | None) -> Iterable[PlaceFree]:
    """One `place_free` per owed unit type and listed space (all of that type at once)."""
    ruleset = ctx.ruleset
    target = ruleset.board.resolve(space) if space is not None else None
    for entry in owed_now(ctx.state, ctx.power):
        grant = advantage(entry["advantage"]).free_units[entry["grant"]]
        for unit, n in entry["units"].items():
            for where in spaces_of(grant, ruleset):
                if target is None or target == where:
                    yield PlaceFree(advantage=entry["advantage"], units=f"{n} {ruleset.units[unit].display}",
                                    space=where)


def grants_rule(adv: Advantage, grants: list[int]) -> str:
    return adv.free_units[grants[0]].rule_id if grants else R_FREE


def forfeit(ctx: TurnContext) -> None:
    """Free units not placed in their phase are lost (AARE-NA-DEPLOY-free-unit-conditions)."""
    owed = record(ctx.state)["owed"]
    left = [o for o in owed if not (o["power"] == ctx.power and o["phase"] == ctx.state.phase)]
    if left != owed:
        ctx.emit(record_event(ctx.state, R_FREE, owed=left))


class OtherPhase(PhaseExtension):
    """Every other phase: free units owed at declaration are placed there (forfeited on exit); a declaration
    is refused with the schedule rule that forbids it."""

    name = "other-phase"
    action_types = frozenset({"place_free", "declare_advantage"})

    def candidates(self, ctx: TurnContext, space: str | None = None) -> Iterable[Any]:
        yield from free_candidates(ctx, space)

    def events_for(self, ctx: TurnContext, action: Any) -> None:
        if isinstance(action, PlaceFree):
            ctx.emit(*free_unit_events(ctx.state, ctx.ruleset, ctx.power, action))
            return
        declare_events(ctx, check_declaration(ctx.state, ctx.ruleset, ctx.power, action.advantage))

    def on_exit(self, ctx: TurnContext) -> None:
        forfeit(ctx)


START, MOBILIZE_EXT, OTHER_EXT = StartOfTurn(), Mobilize(), OtherPhase()


def extensions(phase: str, state: GameState, ruleset: Ruleset) -> list[PhaseExtension]:
    """The NA extensions of `phase`."""
    if not enabled(ruleset):
        return []
    found: list[PhaseExtension] = []
    if phase == first_phase(ruleset):
        found.append(START)
    found.append(MOBILIZE_EXT if phase == MOBILIZE else OTHER_EXT)
    return found
