"""What the threat map may be expected to take: a territory's expected loss, the ships' exposure at sea."""

from __future__ import annotations

from collections.abc import Mapping

from aare.ai.planner.oracle import Oracle
from aare.ai.planner.threat import defenders_at
from aare.ai.planner.value import territory_worth
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

Units = dict[str, int]


def expected_loss(oracle: Oracle, ruleset: Ruleset, space: str, threat: Units, defenders: Units) -> float:
    """What the threat may expect to win by attacking `space`: the defenders' expected IPC loss plus its chance
    to take the territory times the territory's worth, less its own expected loss; never below 0 (an enemy
    does not attack at a loss)."""
    if not threat:
        return 0.0
    if not any(n for n in defenders.values()):
        return oracle.capture(threat, defenders) * territory_worth(ruleset, space)
    found = oracle.battle(threat, defenders)
    if found is None:
        return 0.0
    return max(0.0, found.defender_ipc_lost + found.capture * territory_worth(ruleset, space)
               - found.attacker_ipc_lost)


def exposure(oracle: Oracle, ruleset: Ruleset, state: GameState, side: str, zone: str, threat: Mapping[str, Units],
             extra: Units) -> float:
    """What an attack on `side`'s ships in `zone` (with `extra` added) would win the threat next turn: their
    expected IPC loss less its own, never below 0 (escorts that make the attack cost more than it wins make the
    zone safe)."""
    danger = threat.get(zone)
    ships = {u: n for u, n in defenders_at(state, ruleset, side, zone).items() if ruleset.units[u].domain == "sea"}
    for unit, n in extra.items():
        ships[unit] = ships.get(unit, 0) + n
    if not danger or not ships or not oracle.budget.left():
        return 0.0
    found = oracle.battle(danger, ships, kind="sea")
    if found is None:
        return 0.0
    return max(0.0, found.defender_ipc_lost - found.attacker_ipc_lost)
