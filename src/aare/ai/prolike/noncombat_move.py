"""Non-combat move: a defender on every border territory, the prioritised territories held where they can
be, the rest towards the best strategic value."""

from __future__ import annotations

from aare.actions import Move
from aare.ai.prolike.combat_move import Reach, capital_superiority, prioritised
from aare.ai.prolike.odds import Judge
from aare.ai.prolike.reading import Units, friendly, strategic_values, threat, units_at
from aare.board.notation import format_units
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState


def own_units(state: GameState, me: str, space: str) -> Units:
    found: Units = {}
    for stack in state.units.get(space, ()):
        if stack.owner == me:
            found[stack.unit] = found.get(stack.unit, 0) + stack.count
    return found


def plan(judge: Judge, reach: Reach, state: GameState, ruleset: Ruleset, me: str, hold_at: float) -> list[Move]:
    """The non-combat moves, in the description's order (see the package docstring)."""
    board, units = ruleset.board, ruleset.units
    graph = graph_of(board)
    side = board.side_of(me)
    spare = {start: own_units(state, me, start) for _, start in reach}
    moves: list[Move] = []
    placed: dict[str, Units] = {}

    def send(unit: str, start: str, dest: str) -> None:
        spare[start][unit] -= 1
        placed.setdefault(dest, {})[unit] = placed.get(dest, {}).get(unit, 0) + 1
        moves.append(Move(units=format_units({unit: 1}, units), path=list(reach[unit, start][dest])))

    def land_options(dest: str) -> list[tuple[str, str]]:
        found = [(u, s) for (u, s), dests in sorted(reach.items())
                 if dest in dests and s != dest and units[u].domain == "land" and spare[s].get(u, 0) > 0]
        return sorted(found, key=lambda o: (-units[o[0]].defense / max(1, units[o[0]].cost), o[1], o[0]))

    def defenders(space: str) -> Units:
        found = units_at(state, ruleset, space, side, ours=True)
        for unit, n in placed.get(space, {}).items():
            found[unit] = found.get(unit, 0) + n
        return found

    # 1. one defender on every own territory that borders the enemy
    enemy = {t for t, o in state.owners.items() if t in graph.land and board.side_of(o) != side}
    border = sorted(t for t, o in state.owners.items()
                    if o == me and t in graph.land and any(n in enemy for n in graph.land_nbrs[t]))
    for space in border:
        if any(units[u].domain == "land" for u in defenders(space)):
            continue
        options = [o for o in land_options(space) if o[1] not in border or spare[o[1]][o[0]] > 1]
        if options:
            send(options[0][0], options[0][1], space)
    # 2. hold the prioritised territories (capital, complexes, victory cities) where they can be held
    capital = board.capital_of(me)
    kept = prioritised(state, ruleset, me)
    for space in kept:
        danger = threat(state, ruleset, side, space)
        if not danger:
            continue
        options = land_options(space)
        whole = defenders(space)
        for unit, start in options:
            whole[unit] = whole.get(unit, 0) + spare[start][unit]
        if space != capital and judge.hold(whole, danger, ruleset) < hold_at:
            continue  # cannot be held: not worth the units
        # 4. the capital lacking local superiority takes whatever can reach it
        wanted = 1.0 if space == capital and not capital_superiority(state, ruleset, me) else hold_at
        for unit, start in options:
            while spare[start].get(unit, 0) > 0 and judge.hold(defenders(space), danger, ruleset) < wanted:
                send(unit, start, space)
    # 3. the rest towards the best strategic value
    value = strategic_values(state, ruleset, side)
    home = graph.distances_from([capital]) if capital is not None else {}
    for (unit, start), dests in sorted(reach.items()):
        kind = units[unit]
        for _ in range(spare[start].get(unit, 0)):
            here = value.get(start, 0.0)
            if kind.domain == "air":
                landing = [d for d in dests if friendly(state, ruleset, side, d) or board.spaces[d].is_sea]
                if friendly(state, ruleset, side, start) or not landing:
                    break
                best = min(landing, key=lambda d: (home.get(d, 99), d))
            else:
                good = [d for d in dests if (kind.domain == "land" and friendly(state, ruleset, side, d))
                        or (kind.domain == "sea" and board.spaces[d].is_sea)]
                if not good:
                    break
                best = max(good, key=lambda d: (value.get(d, 0.0), d))
                if value.get(best, 0.0) <= here or (start in kept and sum(spare[start].values()) <= 1):
                    break
            send(unit, start, best)
    return moves

