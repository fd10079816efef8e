"""The combat-move plan: units assigned to target territories by the expected value of each attack, judged with
the exact outcome distributions of `aare.odds`.

For every enemy land territory the power's spare units can reach, forces are built up one unit at a time (land
units by attack per cost, then aircraft) and each is judged by its expected value: what the defenders may expect
to lose, plus the chance to take the territory (a land unit left) times its worth (`value.territory_worth`), minus
what the attackers may expect to lose, minus what the counter-attack the threat map foresees there may expect to
win (`counter_loss`, half of it: `COUNTER_SHARE`). The best force of the best target is committed, the others
are judged again with what is left, until no attack has a positive value or the budget is spent; the search then
tries each other chosen target first (up to `SEARCH_WIDTH`), completed the same way, and keeps the plan of
greatest total value. An attack below `MIN_CAPTURE` chance is never made. Then enemy ships at sea are attacked
where the exact sea battle pays (`plan_strikes`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from aare.actions import Move
from aare.ai.greedy import enemy_units
from aare.ai.planner.budget import Budget
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.value import territory_worth
from aare.board.notation import format_units
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
Option = tuple[str, str, list[str]]  # (unit, from, path)
Reach = Mapping[tuple[str, str], Mapping[str, list[str]]]

MIN_CAPTURE = 0.55
MAX_FORCE = 16  # units added one by one to one attack
SEARCH_WIDTH = 4  # other first targets tried in the search over assignments
COUNTER_SHARE = 0.5  # the threat map counts the same enemy units against every target: it can strike few of them


def flies_back(state: GameState, ruleset: Ruleset, side: str) -> Callable[[str, list[str]], bool]:
    """A test of (unit, path): True for a unit that is no aircraft, or an aircraft that after moving along `path`
    has the moves left to reach land its side holds now, other than where it attacks (somewhere to land after
    the battle)."""
    board = ruleset.board
    graph = graph_of(board)
    held = {t for t, o in state.owners.items() if t in graph.land and board.side_of(o) == side}
    nearest: dict[str, int] = {}

    def test(unit: str, path: list[str]) -> bool:
        kind = ruleset.units[unit]
        if kind.domain != "air":
            return True
        target = path[-1]
        if target not in nearest:
            far = graph.distances_from([target])
            nearest[target] = min((d for t, d in far.items() if t in held and t != target), default=99)
        return nearest[target] <= kind.move - (len(path) - 1)

    return test


def counter_loss(oracle: Oracle, survivors: Units, threat: Units, worth: float, ruleset: Ruleset) -> float:
    """What the enemy's counter-attack on a taken territory may be expected to win: the land units left there
    lost, its chance to retake the territory times its worth, less what the counter-attack itself may expect to
    lose. An enemy does not counter-attack at a loss, so this is never below 0."""
    land = {u: n for u, n in survivors.items() if ruleset.units[u].domain == "land" and n > 0}
    if not threat or not land:
        return 0.0
    found = oracle.battle(threat, land)
    if found is None:
        return 0.0
    return max(0.0, found.defender_ipc_lost + found.capture * worth - found.attacker_ipc_lost)


def mean_survivors(found: Any) -> Units:
    """The attackers' most likely survivors when they win."""
    best: tuple[float, Units] = (-1.0, {})
    for units, p in found.attacker_survivors:
        if units and p > best[0]:
            best = (p, dict(units))
    return best[1]


def attack_value(oracle: Oracle, force: Units, defenders: Units, worth: float, threat: Units,
                 ruleset: Ruleset) -> tuple[float, float]:
    """(expected value in IPCs, capture chance) of `force` attacking `defenders` on a territory worth `worth`."""
    found = oracle.battle(force, defenders)
    if found is None:
        return (float("-inf"), 0.0)
    value = found.defender_ipc_lost + found.capture * worth - found.attacker_ipc_lost
    value -= found.capture * COUNTER_SHARE * counter_loss(oracle, mean_survivors(found), threat, worth, ruleset)
    return (value, float(found.capture))


def best_force(oracle: Oracle, options: list[Option], spare: Mapping[str, Units], defenders: Units, worth: float,
               threat: Units, ruleset: Ruleset, budget: Budget) -> tuple[float, list[Option]]:
    """The force from `options` with the best expected value against `defenders` (capture at least
    MIN_CAPTURE); (0, []) when none is worth making."""
    units = ruleset.units
    pool: list[Option] = []
    for unit, start, path in options:
        pool += [(unit, start, path)] * spare[start].get(unit, 0)
    pool.sort(key=lambda o: (units[o[0]].domain != "land", -units[o[0]].attack / max(1, units[o[0]].cost),
                             units[o[0]].cost, o[1], o[0]))
    if not any(units[o[0]].domain == "land" for o in pool):
        return (0.0, [])
    best: tuple[float, list[Option]] = (0.0, [])
    force: Units = {}
    for size, option in enumerate(pool[:MAX_FORCE], start=1):
        force[option[0]] = force.get(option[0], 0) + 1
        if not budget.left():
            break
        value, capture = attack_value(oracle, force, defenders, worth, threat, ruleset)
        if capture >= MIN_CAPTURE and value > best[0]:
            best = (value, pool[:size])
    return best


def plan_attacks(moves: list[Move], reach: Reach, spare: dict[str, Units], state: GameState, ruleset: Ruleset,
                 me: str, threat: Mapping[str, Units], oracle: Oracle, budget: Budget) -> list[Any]:
    """The combat moves of `me`: undefended territories taken with one cheap land unit, then the attacks with a
    positive expected value, best first."""
    board = ruleset.board
    side = board.side_of(me)
    targets = sorted({dest for dests in reach.values() for dest in dests
                      if board.spaces[dest].is_land and state.owners.get(dest) is not None
                      and board.side_of(state.owners[dest]) != side})
    plan: list[Any] = []

    def send(chosen: list[Option]) -> None:
        for unit, start, path in chosen:
            spare[start][unit] -= 1
            plan.append(Move(units=format_units({unit: 1}, ruleset.units), path=path))

    back = flies_back(state, ruleset, side)

    def options_for(target: str) -> list[Option]:
        return [(unit, start, list(dests[target])) for (unit, start), dests in sorted(reach.items())
                if target in dests and spare.get(start, {}).get(unit, 0) > 0 and back(unit, list(dests[target]))]

    defended: dict[str, Units] = {}
    for target in sorted(targets, key=lambda t: (-territory_worth(ruleset, t), t)):
        defenders = enemy_units(state, board, side, target, ruleset)
        if defenders:
            defended[target] = defenders
            continue
        land = [o for o in options_for(target) if ruleset.units[o[0]].domain == "land"]
        if land:
            send([min(land, key=lambda o: (ruleset.units[o[0]].cost, -ruleset.units[o[0]].defense, o[1]))])
    def fill(pool: dict[str, Units], left: dict[str, Units], first: str | None) -> tuple[float, list[list[Option]]]:
        """The attacks chosen one at a time, best first (`first` forced to go first); their total value."""
        total, chosen_all = 0.0, []
        left = dict(left)
        while left and budget.left():
            scored = []
            for target, defenders in sorted(left.items()):
                if first is not None and target != first:
                    continue
                options = [(unit, start, list(dests[target])) for (unit, start), dests in sorted(reach.items())
                           if target in dests and pool.get(start, {}).get(unit, 0) > 0
                           and back(unit, list(dests[target]))]
                value, chosen = best_force(oracle, options, pool, defenders, territory_worth(ruleset, target),
                                           threat.get(target, {}), ruleset, budget)
                if chosen:
                    scored.append((value, target, chosen))
            first = None
            if not scored:
                break
            value, target, chosen = max(scored, key=lambda s: (s[0], s[1]))
            for unit, start, _ in chosen:
                pool[start][unit] -= 1
            total += value
            chosen_all.append(chosen)
            del left[target]
        return total, chosen_all

    def trial(first: str | None) -> tuple[float, list[list[Option]]]:
        return fill({start: dict(have) for start, have in spare.items()}, defended, first)

    best = trial(None)
    if best[1] and budget.left():  # the search: each other target that could go first, completed best-first
        for first in sorted({path[-1] for chosen in best[1][1:] for _, _, path in chosen[:1]})[:SEARCH_WIDTH]:
            found = trial(first)
            if found[0] > best[0] + 0.5:
                best = found
    for chosen in best[1]:
        send(chosen)
    for _zone, chosen in plan_strikes(reach, spare, state, ruleset, me, oracle, budget):
        send(chosen)
    return plan


def plan_strikes(reach: Reach, spare: Mapping[str, Units], state: GameState, ruleset: Ruleset, me: str,
                 oracle: Oracle, budget: Budget) -> list[tuple[str, list[Option]]]:
    """Attacks on enemy ships at sea: for each sea zone holding enemy units, the spare warships and the aircraft
    that can fly back from it (`flies_back`), added one at a time by attack per cost, judged by the
    exact sea battle: the defenders' expected IPC loss minus the attackers', made when that is positive and the
    attackers win with at least `MIN_CAPTURE`; the best first."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(me)
    zones = sorted({dest for dests in reach.values() for dest in dests if not board.spaces[dest].is_land
                    and enemy_units(state, board, side, dest, ruleset)})
    back = flies_back(state, ruleset, side)
    left = {start: dict(have) for start, have in spare.items()}
    found: list[tuple[str, list[Option]]] = []
    for zone in zones:
        defenders = enemy_units(state, board, side, zone, ruleset)
        pool: list[Option] = []
        for (unit, start), dests in sorted(reach.items()):
            kind = units[unit]
            path = dests.get(zone)
            if path is None or kind.attack <= 0 or kind.domain == "land":
                continue
            if not back(unit, list(path)):
                continue
            pool += [(unit, start, list(path))] * left.get(start, {}).get(unit, 0)
        pool.sort(key=lambda o: (-units[o[0]].attack / max(1, units[o[0]].cost), o[1], o[0]))
        best: tuple[float, int] = (0.0, 0)
        force: Units = {}
        for size, (unit, _, _) in enumerate(pool[:MAX_FORCE], start=1):
            if not budget.left():
                break
            force[unit] = force.get(unit, 0) + 1
            result = oracle.battle(force, defenders, kind="sea")
            if result is None:
                continue
            value = result.defender_ipc_lost - result.attacker_ipc_lost
            if result.attacker_win >= MIN_CAPTURE and value > best[0]:
                best = (value, size)
        if best[1]:
            chosen = pool[:best[1]]
            for unit, start, _ in chosen:
                left[start][unit] -= 1
            found.append((zone, chosen))
    return found

