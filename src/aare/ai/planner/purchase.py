"""Purchase: candidate mixes of land units, each judged with the exact odds of a cheap turn simulation.

The candidates mix the cheapest land unit with one other land unit in shares of 0, 1/4, 1/2 and all, filling
what the power's complexes can place with what it can pay (repairs first when offered). Each mix is judged
twice: as the capital's extra defenders against what the threat map says the enemy can bring there (their
chance to hold it, weighted by what the capital is worth, when the capital is in danger), and as an attacking
army against the strongest enemy stack near the power's land (what it may expect to destroy minus what it may
expect to lose). The best sum wins; ties go to the mix with more units."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.actions import Purchase, Repair
from aare.ai.greedy import Bulk, enemy_units
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.threat import defenders_at
from aare.ai.planner.value import territory_worth, units_value
from aare.board.notation import format_units, parse_units
from aare.economy.pool import pool
from aare.economy.production import producers
from aare.movement.graph import graph_of
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]
SHARES = (0.0, 0.25, 0.5, 1.0)
DANGER = 0.2  # the capital is in danger when the threat would take it with more than this chance


def fill(cheap: Any, other: Any, share: float, room: int, bank: int) -> Units:
    """Units bought: `other` for `share` of them, the rest `cheap`, while room and money last."""
    counts: Units = {}
    while room > 0 and bank >= cheap.cost:
        bought = sum(counts.values())
        unit = other if (bought + 1) * share >= counts.get(other.id, 0) + 1 and other.cost <= bank else cheap
        counts[unit.id] = counts.get(unit.id, 0) + 1
        bank -= unit.cost
        room -= 1
    return counts


def candidates(legal: list[Any], state: GameState, ruleset: Ruleset, me: str) -> list[Units]:
    """The mixes the planner considers (distinct, in a fixed order)."""
    offered = {u for a in legal if isinstance(a, Purchase) for u in parse_units(a.units, ruleset.units)}
    land = sorted((ruleset.units[u] for u in offered if ruleset.units[u].domain == "land"
                   and ruleset.units[u].cost > 0 and ruleset.units[u].defense > 0), key=lambda u: (u.cost, u.id))
    if not land:
        return []
    cheap = min(land, key=lambda u: (u.cost, -u.defense, u.id))
    room = sum(producers(state, ruleset, me).values()) - sum(pool(state, me).values())
    bank = state.banks.get(me, 0)
    mixes: list[Units] = []
    for other in land:
        for share in SHARES:
            mix = fill(cheap, other, share, room, bank)
            if mix and mix not in mixes:
                mixes.append(mix)
    return mixes


def reference_stack(state: GameState, ruleset: Ruleset, me: str) -> Units:
    """The strongest enemy land stack (by value) on land next to the power's territories."""
    board = ruleset.board
    graph = graph_of(board)
    side = board.side_of(me)
    near = {n for t, o in state.owners.items() if o == me and t in graph.land for n in graph.land_nbrs[t]}
    best: tuple[float, str, Units] = (0.0, "", {})
    for space in sorted(near):
        units = {u: n for u, n in enemy_units(state, board, side, space, ruleset).items()
                 if ruleset.units[u].domain == "land"}
        value = units_value(units, ruleset)
        if value > best[0]:
            best = (value, space, units)
    return best[2]


def mix_score(mix: Units, state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
              oracle: Oracle, reference: Units) -> float:
    """What a mix is worth in IPCs: the capital held against the threat (when in danger), the exchange
    against the reference stack."""
    score = 0.0
    capital = ruleset.board.capital_of(me)
    if capital is not None and state.owners.get(capital) == me and threat.get(capital):
        defenders = defenders_at(state, ruleset, ruleset.board.side_of(me), capital)
        if oracle.capture(threat[capital], defenders) > DANGER:
            merged = {u: defenders.get(u, 0) + mix.get(u, 0) for u in {*defenders, *mix}}
            score += (1 - oracle.capture(threat[capital], merged)) * (territory_worth(ruleset, capital)
                                                                      + units_value(merged, ruleset))
    if reference:
        found = oracle.battle(mix, reference)
        if found is not None:
            score += found.defender_ipc_lost - found.attacker_ipc_lost
    return score


def plan_purchase(legal: list[Any], state: GameState, ruleset: Ruleset, me: str, threat: Mapping[str, Units],
                  oracle: Oracle) -> list[Any]:
    """The purchase plan: a repair if one is offered, then the best candidate mix."""
    plan: list[Any] = sorted((a for a in legal if isinstance(a, Repair)), key=lambda a: -a.points)[:1]
    mixes = candidates(legal, state, ruleset, me)
    if not mixes:
        return plan
    reference = reference_stack(state, ruleset, me)
    best = max(mixes, key=lambda m: (mix_score(m, state, ruleset, me, threat, oracle, reference)
                                     if oracle.budget.left() else 0.0, sum(m.values())))
    for unit_id, count in sorted(best.items()):
        plan.append(Bulk(Purchase(units=format_units({unit_id: count}, ruleset.units)),
                         Purchase(units=format_units({unit_id: 1}, ruleset.units)), count))
    return plan
