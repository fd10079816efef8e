"""Battle decisions by expected value with the exact odds of the battle as it stands.

- **Casualties**: the cheapest choice offered, except that an attacker in a land battle never loses its last
  land unit while another choice keeps one (a land unit must be left to take the territory).
- **Press or retreat**: the attacker presses on while pressing is worth at least nothing: what the defenders
  may expect to lose plus the chance to take the territory times its worth, minus what the attackers may
  expect to lose (a sea battle: the chance to win counts for the attackers' remaining worth).
- **Submerge**: submarines submerge when their side's chance to win the battle as it stands is under one half.
- Any other decision: the first option offered."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from aare.ai.greedy import side_units
from aare.ai.planner.oracle import Oracle
from aare.ai.planner.value import territory_worth, units_value
from aare.board.notation import parse_units
from aare.errors import AareError
from aare.rules.ruleset import Ruleset

Units = dict[str, int]


def sides(pending: Mapping[str, Any], ruleset: Ruleset) -> tuple[Units, Units] | None:
    """(attackers, defenders) of the battle as the decision shows it; None if it cannot be read."""
    try:
        return side_units(pending.get("attacker"), ruleset), side_units(pending.get("defender"), ruleset)
    except AareError:
        return None


def casualty_key(action: Any, left: Units | None, ruleset: Ruleset) -> tuple[int, int, str]:
    """Order of preference of a casualty choice: keeps a land unit (when `left` is the attacking land units),
    then cost."""
    text = getattr(action, "units", "")
    try:
        lost = parse_units(text, ruleset.units)
    except AareError:
        return (1, 1 << 30, text)
    cost = int(units_value(lost, ruleset))
    if left is None:
        return (0, cost, text)
    keeps = any(n - lost.get(u, 0) > 0 for u, n in left.items())
    return (0 if keeps else 1, cost, text)


def press_value(oracle: Oracle, pending: Mapping[str, Any], ruleset: Ruleset) -> float:
    """The attacker's expected gain in IPCs from pressing on (0 when it cannot be judged)."""
    found_sides = sides(pending, ruleset)
    if found_sides is None or not found_sides[1]:
        return 0.0
    attackers, defenders = found_sides
    land = pending.get("battle") == "land"
    found = oracle.battle(attackers, defenders, "land" if land else "sea")
    if found is None:
        return 0.0
    space = str(pending.get("space", ""))
    worth = territory_worth(ruleset, space) if land and space in ruleset.board.spaces else 0.0
    gain = found.capture * worth if land else 0.0
    return float(found.defender_ipc_lost + gain - found.attacker_ipc_lost)


def decide(legal: list[Any], pending: Mapping[str, Any], ruleset: Ruleset, oracle: Oracle) -> Any:
    """The planner's answer to a battle decision."""
    kind = pending.get("kind")
    if kind == "choose_casualties":
        left: Units | None = None
        found_sides = sides(pending, ruleset)
        if pending.get("side") == "attacker" and pending.get("battle") == "land" and found_sides is not None:
            left = {u: n for u, n in found_sides[0].items() if ruleset.units[u].domain == "land"}
        return min(legal, key=lambda a: casualty_key(a, left, ruleset))
    if kind == "press_or_retreat":
        press = [a for a in legal if a.type == "press"]
        retreat = [a for a in legal if a.type == "retreat"]
        if press and retreat and pending.get("side", "attacker") == "attacker":
            return press[0] if press_value(oracle, pending, ruleset) >= 0 else retreat[0]
        return (press or legal)[0]
    if kind == "submerge":
        submerge = [a for a in legal if a.type == "submerge" and getattr(a, "units", "")]
        stay = [a for a in legal if a not in submerge]
        if submerge and stay and side_chance(oracle, pending, ruleset) >= 0.5:
            return stay[0]
        return (submerge or legal)[0]
    return legal[0]


def side_chance(oracle: Oracle, pending: Mapping[str, Any], ruleset: Ruleset) -> float:
    """The deciding side's chance to win the battle as it stands (0 when it cannot be judged)."""
    found_sides = sides(pending, ruleset)
    if found_sides is None:
        return 0.0
    found = oracle.battle(found_sides[0], found_sides[1], "land" if pending.get("battle") == "land" else "sea")
    if found is None:
        return 0.0
    return float(found.attacker_win if pending.get("side") == "attacker" else found.defender_win)
