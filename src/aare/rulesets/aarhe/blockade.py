"""AARHE blockade and convoys (module `aarhe_blockade`): a territory's income is stored when a passable path joins
it to a capital its power controls: overland (territories its side controls) it comes at once; a path that goes to
sea is a convoy, entering the sea at the territory or one next to it and sailing the fewest sea zones or one more;
it is recorded secretly at the collection and revealed at the power's next one, when every hostile warship (not a
transport) in its sea zones rolls a die and sinks 1 IPC on a 3 or less; what is left is then paid. Income with no
path is lost. Units are mobilised (and infantry bought) only where a passable path from the capital reaches
(AARHE-INCOME-*-path, AARHE-INCOME-forfeit, AARHE-CONVOY-*).

The convoy's route is the engine's: of the allowed lengths, the one past the fewest hostile warships now (then the
shortest). Without its capital a power stores at its complexes and victory cities."""

from __future__ import annotations

from collections.abc import Iterable
from itertools import pairwise
from typing import Any

from aare.actions import Place, Purchase
from aare.economy.production import has_complex
from aare.errors import IllegalAction
from aare.events import BankChanged, ExtraSet
from aare.phases.base import PhaseExtension, TurnContext
from aare.rules.hidden import Hidden
from aare.rules.rule_module import RuleModule, register_module
from aare.rulesets.aarhe.hooks import by_phase
from aare.rulesets.aarhe.income import interrupted
from aare.rulesets.aarhe.turn import contested
from aare.rulesets.aarhe.victory import points

R_STORE = "AARHE-INCOME-store-path"
R_SPEND = "AARHE-INCOME-spend-path"
R_PASSABLE = "AARHE-INCOME-passable-path"
R_FORFEIT = "AARHE-INCOME-forfeit"
R_CONVOY = "AARHE-CONVOY-definition"
R_ENTRY = "AARHE-CONVOY-entry"
R_LENGTH = "AARHE-CONVOY-length"
R_SECRET = "AARHE-CONVOY-record-reveal"
R_ATTACK = "AARHE-CONVOY-attack-roll"
R_ALLOCATION = "AARHE-CONVOY-loss-allocation"

CONVOYS = "aarhe_convoys"  # {power: [{"from", "ipc", "zones"}]}: at sea, seen by the power alone
REVEALED = "aarhe_convoys_revealed"  # {power: [{"from", "ipc", "zones", "lost"}]}: the last ones revealed
SINKS = 3  # a convoy attack roll of 3 or less sinks 1 IPC
LAND, CONVOY, FORFEIT = "land", "convoy", "forfeit"


def passable(state: Any, ruleset: Any, power: str, territory: str) -> bool:
    """Whether `power`'s land units may go through `territory`: land its side controls (AARHE-INCOME-passable-path)."""
    board = ruleset.board
    owner = state.owners.get(territory)
    return board.spaces[territory].is_land and owner is not None and board.side_of(owner) == board.side_of(power)


def land_reach(state: Any, ruleset: Any, power: str, starts: Iterable[str]) -> set[str]:
    """The territories joined to `starts` by passable land."""
    todo = [t for t in starts if passable(state, ruleset, power, t)]
    seen = set(todo)
    while todo:
        here = todo.pop()
        for near in ruleset.board.spaces[here].neighbors:
            if near not in seen and passable(state, ruleset, power, near):
                seen.add(near)
                todo.append(near)
    return seen


def seat(state: Any, ruleset: Any, power: str) -> set[str]:
    """Where `power` stores income: the land joined to its capital, or without it to its complexes and cities."""
    capital = ruleset.board.capital_of(power)
    if capital is not None and state.owners.get(capital) == power:
        return land_reach(state, ruleset, power, [capital])
    held = [t for t, o in state.owners.items()
            if o == power and (points(t, ruleset.board) or has_complex(state, ruleset, t, power))]
    return land_reach(state, ruleset, power, held)


def coast(ruleset: Any, territories: Iterable[str]) -> set[str]:
    spaces = ruleset.board.spaces
    return {n for t in territories for n in spaces[t].neighbors if spaces[n].is_sea}


def hostile_warships(state: Any, ruleset: Any, power: str, sea: str) -> int:
    """The enemy naval units other than transports in `sea`: each may roll against a convoy."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(power)
    return sum(s.count for s in state.stacks(sea) if board.side_of(s.owner) != side
               and units[s.unit].domain == "sea" and not units[s.unit].has("transport"))


def warship_map(state: Any, ruleset: Any, power: str) -> dict[str, int]:
    """Sea zone -> hostile warships there, for the zones that hold any."""
    spaces = ruleset.board.spaces
    found = {z: hostile_warships(state, ruleset, power, z) for z in state.units if spaces[z].is_sea}
    return {z: n for z, n in found.items() if n}


def entry_zones(state: Any, ruleset: Any, power: str, source: str) -> set[str]:
    """The sea zones a convoy from `source` may enter: next to it or to a passable territory next to it
    (AARHE-CONVOY-entry)."""
    near = [n for n in ruleset.board.spaces[source].neighbors if passable(state, ruleset, power, n)]
    return coast(ruleset, [source, *near])


def shortest(ruleset: Any, starts: set[str], ends: set[str]) -> int | None:
    """The fewest sea zones of a route from `starts` to `ends` (both counted), or None."""
    spaces = ruleset.board.spaces
    frontier, seen, length = set(starts), set(starts), 1
    while frontier:
        if frontier & ends:
            return length
        frontier = {n for z in frontier for n in spaces[z].neighbors if spaces[n].is_sea and n not in seen}
        seen |= frontier
        length += 1
    return None


def route_allowed(ruleset: Any, zones: list[str], starts: set[str], ends: set[str]) -> bool:
    """Whether `zones` is a convoy route: from an entry zone to a zone of the destination, each next to the one
    before, the fewest sea zones or one more (AARHE-CONVOY-length)."""
    least = shortest(ruleset, starts, ends)
    spaces = ruleset.board.spaces
    joined = all(b in spaces[a].neighbors for a, b in pairwise(zones))
    return (least is not None and bool(zones) and zones[0] in starts and zones[-1] in ends and joined
            and len(zones) in (least, least + 1))


def convoy_route(state: Any, ruleset: Any, power: str, source: str, goal: set[str],
                 warships: dict[str, int] | None = None) -> list[str] | None:
    """The convoy route from `source` to the coast of `goal`: of the allowed lengths, past the fewest hostile
    warships (`warships`, by zone, when known), then the shortest, then by name; None when there is none."""
    starts, ends = entry_zones(state, ruleset, power, source), coast(ruleset, goal)
    least = shortest(ruleset, starts, ends)
    if least is None:
        return None
    spaces = ruleset.board.spaces
    cost = warships if warships is not None else warship_map(state, ruleset, power)
    best: dict[str, tuple[int, list[str]]] = {z: (cost.get(z, 0), [z]) for z in sorted(starts)}
    found: list[tuple[int, int, list[str]]] = []
    for length in range(1, least + 2):
        found += [(c, length, path) for z, (c, path) in best.items() if z in ends and length >= least]
        step: dict[str, tuple[int, list[str]]] = {}
        for z, (c, path) in sorted(best.items()):
            for n in sorted(spaces[z].neighbors):
                if spaces[n].is_sea and (n not in step or c + cost.get(n, 0) < step[n][0]):
                    step[n] = (c + cost.get(n, 0), [*path, n])
        best = step
    return min(found, key=lambda f: (f[0], f[1], f[2]))[2] if found else None


def routes(state: Any, ruleset: Any, power: str) -> dict[str, tuple[str, list[str]]]:
    """How each income-bearing territory of `power` reaches its store: overland, by convoy (with its sea zones) or
    not at all (AARHE-INCOME-store-path, AARHE-CONVOY-definition)."""
    home = seat(state, ruleset, power)
    warships = warship_map(state, ruleset, power)
    out: dict[str, tuple[str, list[str]]] = {}
    for territory, owner in sorted(state.owners.items()):
        if owner != power or ruleset.board.spaces[territory].ipc <= 0:
            continue
        if territory in home:
            out[territory] = (LAND, [])
            continue
        zones = convoy_route(state, ruleset, power, territory, home, warships) if home else None
        out[territory] = (CONVOY, zones) if zones else (FORFEIT, [])
    return out


def yields(state: Any, ruleset: Any, power: str) -> dict[str, int]:
    """What each territory of `power` yields at a collection now: nothing while contested, less any production
    interruption."""
    lost, cut = contested(state, ruleset, power), interrupted(state, ruleset, power)
    spaces = ruleset.board.spaces
    return {t: 0 if t in lost else max(0, spaces[t].ipc - cut.get(t, 0))
            for t, o in state.owners.items() if o == power}


def _income(value: int, ruleset: Any, power: str, state: Any, **_: Any) -> int:
    """Only income that reaches the store overland is collected at once; convoys come at the next collection,
    the rest is lost (AARHE-INCOME-forfeit)."""
    found = yields(state, ruleset, power)
    away = sum(found.get(t, 0) for t, (how, _) in routes(state, ruleset, power).items() if how != LAND)
    return max(0, value - away)


def supplied(state: Any, ruleset: Any, power: str, territory: str) -> bool:
    """Whether IPCs from `power`'s store reach `territory` by a passable path (AARHE-INCOME-spend-path)."""
    home = seat(state, ruleset, power)
    if territory in home:
        return True
    return shortest(ruleset, entry_zones(state, ruleset, power, territory), coast(ruleset, home)) is not None


def allocate(losses: int, convoys: list[dict[str, Any]], indices: list[int], left: list[int]) -> None:
    """Sink `losses` IPCs among the convoys `indices` sailing one zone, the fullest first (AARHE-CONVOY-loss-
    allocation); `left` holds what each still carries."""
    for _ in range(losses):
        alive = [i for i in indices if left[i] > 0]
        if not alive:
            return
        fullest = max(alive, key=lambda i: (left[i], -i))
        left[fullest] -= 1


class Convoys(PhaseExtension):
    """Collect income: last turn's convoys are revealed, attacked and paid; this turn's are recorded."""

    name = "collect-income"

    def on_enter(self, ctx: TurnContext) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        sailing = list((state.extra.get(CONVOYS) or {}).get(power, []))
        if sailing:
            left = [int(c["ipc"]) for c in sailing]
            for zone in sorted({z for c in sailing for z in c["zones"]}):
                ships = hostile_warships(ctx.state, ruleset, power, zone)
                if not ships:
                    continue
                rolls = ctx.roll(ships, f"convoy attack in {zone}")
                here = [i for i, c in enumerate(sailing) if zone in c["zones"]]
                allocate(sum(1 for r in rolls if r <= SINKS), sailing, here, left)
            shown = [{**c, "lost": c["ipc"] - n} for c, n in zip(sailing, left, strict=True)]
            ctx.emit(ExtraSet(REVEALED, {**(ctx.state.extra.get(REVEALED) or {}), power: shown}, R_SECRET))
            if sum(left):
                ctx.emit(BankChanged(power, sum(left), "income: convoy", R_CONVOY))
        found = yields(ctx.state, ruleset, power)
        new = [{"from": t, "ipc": found[t], "zones": zones}
               for t, (how, zones) in routes(ctx.state, ruleset, power).items() if how == CONVOY and found.get(t)]
        table = {p: c for p, c in (ctx.state.extra.get(CONVOYS) or {}).items() if p != power}
        if new:
            table[power] = new
        if sailing or new:
            ctx.emit(ExtraSet(CONVOYS, dict(sorted(table.items())), R_SECRET))


class SupplyCheck(PhaseExtension):
    """Purchase and mobilize: units bought at a place, or placed, only where the store's IPCs reach."""

    def __init__(self, name: str) -> None:
        self.name = name

    def before(self, ctx: TurnContext, action: Any) -> None:
        state, ruleset, power = ctx.state, ctx.ruleset, ctx.power
        if isinstance(action, Purchase) and action.at:
            places = [ruleset.board.resolve(action.at)]
        elif isinstance(action, Place):
            space = ruleset.board.resolve(action.space)
            spaces = ruleset.board.spaces
            places = [space] if spaces[space].is_land else [
                t for t in spaces[space].neighbors if has_complex(state, ruleset, t, power)]
        else:
            return
        places = [t for t in places if state.owners.get(t) == power]  # elsewhere other rules refuse
        if places and not any(supplied(state, ruleset, power, t) for t in places):
            raise IllegalAction(f"no passable path carries {power}'s IPCs to {', '.join(places)}", R_SPEND)


def _hidden(found: list[Hidden], ruleset: Any, **_: Any) -> list[Hidden]:
    """Each power's convoys at sea are its own secret until revealed (AARHE-CONVOY-record-reveal)."""
    return [*found, *(Hidden(("extra", CONVOYS, p.name), frozenset({p.name}), R_SECRET) for p in ruleset.board.powers)]


AARHE_BLOCKADE = register_module(
    RuleModule(
        id="aarhe_blockade",
        title="AARHE blockade and convoys",
        rule_ids=(R_STORE, R_SPEND, R_PASSABLE, R_FORFEIT, R_CONVOY, R_ENTRY, R_LENGTH, R_SECRET, R_ATTACK,
                  R_ALLOCATION),
        hooks={"income": _income, "hidden_fields": _hidden,
               "phase_actions": by_phase(Convoys(), SupplyCheck("purchase"), SupplyCheck("mobilize"))},
    )
)
