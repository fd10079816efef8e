"""Non-combat moves: hold what the threat map says can be held, reinforce the capital first.

1. The capital, then the victory cities and complexes the power holds: land units that can reach one move in
   until the enemy the threat map foresees there would take it with at most `HOLD` chance (exact odds); a
   territory other than the capital that all of them would not hold (the threat's chance above `ABANDON`) is
   not reinforced.
2. Every other land unit moves to the reachable friendly territory nearest enemy land, nearer than where it
   stands, that the units gathered there can hold (the threat's chance to take it at most `SAFE`, or no threat
   at all). If there is none, it stays where it stands unless that cannot be held (the threat's chance above
   `SAFE`): then it falls back to the reachable friendly territory the threat is least likely to take (a kept
   territory, a bigger stack first), joining the others there rather than dying alone.
3. Aircraft fly to the kept territory (an allied capital among them) where they lower the expected loss to the
   threat most (`air_cover`); those the rules would lose where they are (`aare.ai.landing`) land on the legal spot
   nearest the capital."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.actions import Move
from aare.ai.landing import landing_moves, stranded
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.risk import expected_loss
from aare.ai.planner.threat import defenders_at
from aare.board.notation import format_units
from aare.movement.graph import graph_of
from aare.movement.situation import situation
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
Reach = Mapping[tuple[str, str], Mapping[str, list[str]]]
HOLD = 0.3
ABANDON = 0.7  # a kept territory the threat would still take with this chance is not reinforced
SAFE = 0.6


def reinforce(keep: str, reach: Reach, spare: dict[str, Units], state: GameState, ruleset: Ruleset, me: str,
              threat: Units, oracle: Oracle) -> list[Any]:
    """Moves of land units into `keep` until `threat` would take it with at most HOLD; none when all of them would
    not bring the threat's chance under ABANDON (the capital excepted)."""
    units = ruleset.units
    if not threat:
        return []
    defenders = defenders_at(state, ruleset, ruleset.board.side_of(me), keep)
    helpers = sorted(((unit, start, list(dests[keep])) for (unit, start), dests in reach.items()
                      if keep in dests and start != keep and units[unit].domain == "land"),
                     key=lambda o: (len(o[2]), -units[o[0]].defense / max(1, units[o[0]].cost), o[1], o[0]))
    plan: list[Any] = []
    if keep != ruleset.board.capital_of(me) and oracle.budget.left():
        everyone = dict(defenders)
        for unit, start, _ in helpers:
            everyone[unit] = everyone.get(unit, 0) + spare[start].get(unit, 0)
        if oracle.capture(threat, everyone) > ABANDON:
            return []  # not to be held with all that can come: the units are worth more elsewhere
    for unit, start, path in helpers:
        while spare[start].get(unit, 0) > 0 and oracle.budget.left() and oracle.capture(threat, defenders) > HOLD:
            spare[start][unit] -= 1
            defenders[unit] = defenders.get(unit, 0) + 1
            plan.append(Move(units=format_units({unit: 1}, units), path=path))
    return plan


def plan_noncombat(reach: Reach, spare: dict[str, Units], kept: list[str], front: Mapping[str, int],
                   state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
                   oracle: Oracle, ferries: Callable[[Callable[[str], Units]], list[Any]] | None = None) -> list[Any]:
    """The non-combat moves of `me` (see the module docstring); `ferries(here)` plans the sea lifts after the
    kept territories are reinforced (`here(space)`: the units gathered there so far)."""
    board = ruleset.board
    side = board.side_of(me)
    plan: list[Any] = []
    for keep in kept:
        plan += reinforce(keep, reach, spare, state, ruleset, me, threat.get(keep, {}), oracle)
    gathered: dict[str, Units] = {}

    def friendly(space: str) -> bool:
        owner = state.owners.get(space)
        return owner is not None and board.side_of(owner) == side

    def here(space: str) -> Units:
        return gathered.setdefault(space, defenders_at(state, ruleset, side, space))

    def chance(space: str, unit: str | None = None) -> float:
        """The threat's chance to take `space` from the units gathered there (and `unit` added)."""
        danger = threat.get(space)
        if not danger or not oracle.budget.left():
            return 0.0
        trial = dict(here(space))
        if unit is not None:
            trial[unit] = trial.get(unit, 0) + 1
        return oracle.capture(danger, trial)

    def move(unit: str, start: str, dest: str, path: list[str]) -> None:
        here(start)[unit] = here(start).get(unit, 0) - 1
        here(dest)[unit] = here(dest).get(unit, 0) + 1
        plan.append(Move(units=format_units({unit: 1}, ruleset.units), path=list(path)))

    if ferries is not None:
        plan += ferries(here)
    untenable = {start for _, start in reach if board.spaces[start].is_land and start not in kept
                 and chance(start) > SAFE}
    capital = board.capital_of(me)
    home = graph_of(board).distances_from([capital]) if capital is not None else {}
    for (unit, start), dests in sorted(reach.items()):
        if ruleset.units[unit].domain != "land":
            continue
        for _ in range(spare[start].get(unit, 0)):
            forward = sorted((d for d in dests if front.get(d, 99) < front.get(start, 99) and friendly(d)),
                             key=lambda d: (front.get(d, 99), d))
            dest = next((d for d in forward if chance(d, unit) <= SAFE), None)
            if dest is None and start in untenable:
                fallback = [d for d in dests if d != start and friendly(d) and board.spaces[d].is_land]
                scored = sorted((round(chance(d, unit), 2), d not in kept, -sum(here(d).values()), home.get(d, 99), d)
                                for d in fallback)
                if scored and scored[0][0] < chance(start):
                    dest = scored[0][-1]
            if dest is not None:
                move(unit, start, dest, dests[dest])
    plan += air_cover(reach, spare, kept, state, ruleset, me, threat, oracle, here)
    return plan + landing_moves(reach, state, ruleset, me, lambda d: home.get(d, 99))


def air_cover(reach: Reach, spare: dict[str, Units], kept: list[str], state: GameState, ruleset: Ruleset, me: str,
              threat: Mapping[str, Units], oracle: Oracle, here: Callable[[str], Units]) -> list[Any]:
    """Aircraft that can land where they are fly to the kept territory (held since the turn began) where they
    lower the expected loss to the threat most (`risk.expected_loss`), if that gain is worth it; those that can
    help nowhere now fly to the landing spot (held since the turn began) nearest the kept territory in most need,
    if it is nearer than where they are."""
    view = situation(state, ruleset, me)
    lost = stranded(state, ruleset, me)
    plan: list[Any] = []
    graph = graph_of(ruleset.board)
    need = max(((expected_loss(oracle, ruleset, k, threat[k], here(k)), k) for k in kept
                if threat.get(k) and oracle.budget.left()), default=(0.0, ""))
    towards = graph.distances_from([need[1]]) if need[0] > 0 else {}
    for (unit, start), dests in sorted(reach.items()):
        if ruleset.units[unit].domain != "air":
            continue
        for _ in range(spare[start].get(unit, 0) - lost.get(start, {}).get(unit, 0)):
            best, gain = None, 2.0
            for dest in kept:
                if dest == start or dest not in dests or not threat.get(dest) or not view.held_since_start(dest):
                    continue
                if not oracle.budget.left():
                    break
                now = here(dest)
                after = {**now, unit: now.get(unit, 0) + 1}
                delta = (expected_loss(oracle, ruleset, dest, threat[dest], now)
                         - expected_loss(oracle, ruleset, dest, threat[dest], after))
                if delta > gain:
                    best, gain = dest, delta
            if best is None and towards:  # nowhere to help now: a step nearer the territory in most need
                nearer = [d for d in dests if d != start and view.is_land(d) and view.held_since_start(d)
                          and towards.get(d, 99) < towards.get(start, 99)]
                best = min(nearer, key=lambda d: (towards.get(d, 99), d), default=None)
            if best is None:
                break
            here(start)[unit] = here(start).get(unit, 0) - 1
            here(best)[unit] = here(best).get(unit, 0) + 1
            plan.append(Move(units=format_units({unit: 1}, ruleset.units), path=list(dests[best])))
    return plan
