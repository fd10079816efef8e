"""Damage on industrial complexes: how raids and rockets hurt under a ruleset (`DamageRules`, the
`damage_rules` hook), the damage points standing on a complex, their cap and their repair.

By default (LHTR) raids and rockets take IPCs out of the owner's treasury (`aare.economy.damage`). With
`DamageRules.on_complex` they put damage points on the complex instead (`Stack.damage` of its stack): the
points standing on a complex never exceed `cap_factor` times its territory's value, each lowers the units the
complex mobilises by one (`aare.economy.production`), and its owner may repair them in the purchase phase
(`repair_events`; a `repair_points` effect says how many points one IPC removes). Damage stays with the complex
when its territory changes hands.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from aare.errors import IllegalAction
from aare.events import BankChanged, Event, UnitDamaged
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack


@dataclass(frozen=True)
class DamageRules:
    """How raids and rockets hurt; the defaults are LHTR's economic damage. Each rule id names the rule an
    event follows: the damage of a raid or a rocket, a repair.

    With `on_complex`, `income_loss` makes the points on a complex income its owner loses rather than lost
    production: they are taken off the owner's next income and then cleared (`loss_rule`), never lower what the
    complex mobilises and cannot be repaired. `cleared_on_capture`: a complex changing hands loses its points.
    `capital_excess_rule` (when set): in a capital, the damage the complex has no room for is taken from the
    treasury of the territory's owner at once, as far as it holds IPCs."""

    on_complex: bool = False
    cap_factor: int = 2
    raid_rule: str = "LHTR-SBR-damage-roll"
    rocket_rule: str = "LHTR-TECH-rockets-damage"
    repair_rule: str = "LHTR-ECON-economic-damage-from-treasury"  # LHTR: nothing stays to repair
    income_loss: bool = False
    loss_rule: str = ""
    cleared_on_capture: bool = False
    # damage beyond the room left on a complex in a capital comes out of the territory owner's treasury at once
    capital_excess_rule: str = ""


def damage_rules(ruleset: Ruleset, state: GameState | None = None) -> DamageRules:
    """The ruleset's damage rules (the `damage_rules` hook)."""
    rules: DamageRules = ruleset.modify("damage_rules", DamageRules(), state=state)
    return rules


def complex_stack(state: GameState, ruleset: Ruleset, territory: str) -> Stack | None:
    """The industrial complex (a bombing target) in `territory`, the most damaged first, as one unit."""
    found = [s for s in state.stacks(territory) if ruleset.units[s.unit].has("bombing_target")]
    return max(found, key=lambda s: (s.damage, s)).with_count(1) if found else None


def complex_damage(state: GameState, ruleset: Ruleset, territory: str) -> int:
    """The damage points standing on the complex in `territory` (0 without one)."""
    stack = complex_stack(state, ruleset, territory)
    return stack.damage if stack is not None else 0


def complex_cap(ruleset: Ruleset, territory: str, rules: DamageRules) -> int:
    """The most damage a complex in `territory` may carry."""
    return rules.cap_factor * ruleset.board.spaces[territory].ipc


def complex_room(state: GameState, ruleset: Ruleset, territory: str, rules: DamageRules) -> int:
    """How many more damage points the complex in `territory` may take."""
    return max(0, complex_cap(ruleset, territory, rules) - complex_damage(state, ruleset, territory))


def complex_damage_events(
    state: GameState, ruleset: Ruleset, territory: str, rolled: int, rule_id: str, rules: DamageRules
) -> list[Event]:
    """`rolled` damage points on the complex in `territory`, as many as its cap leaves room for; in a capital,
    under `DamageRules.capital_excess_rule`, the rest out of the owner's treasury."""
    stack = complex_stack(state, ruleset, territory)
    if stack is None:
        return []
    points = max(0, min(rolled, complex_room(state, ruleset, territory, rules)))
    events: list[Event] = [UnitDamaged(territory, stack, points, rule_id)] if points else []
    owner = state.owners.get(territory)
    if rules.capital_excess_rule and owner is not None and territory in ruleset.board.capitals():
        loss = min(rolled - points, state.banks.get(owner, 0))
        if loss > 0:
            events.append(BankChanged(owner, -loss, "economic damage", rules.capital_excess_rule))
    return events


def repair_cost(state: GameState, ruleset: Ruleset, power: str, points: int) -> int:
    """IPCs `power` pays to remove `points` damage points: one IPC removes `repair_points` (1 unless an effect
    changes it; an odd remainder costs a whole IPC)."""
    rules = damage_rules(ruleset, state)
    per_ipc = ruleset.value("repair_points", power, 1, rules.repair_rule, power=power, state=state).value
    return math.ceil(points / max(per_ipc, 1))


def damaged_complexes(state: GameState, ruleset: Ruleset, power: str) -> dict[str, int]:
    """Territory -> damage of each damaged complex of `power`."""
    out: dict[str, int] = {}
    for space in sorted(state.units):
        stack = complex_stack(state, ruleset, space)
        if stack is not None and stack.owner == power and stack.damage:
            out[space] = stack.damage
    return out


def repair_events(state: GameState, ruleset: Ruleset, power: str, territory: str, points: int) -> list[Event]:
    """`power` pays to remove `points` damage from its complex in `territory`; IllegalAction when there is
    nothing (or less) to repair, or the treasury is short."""
    rules = damage_rules(ruleset, state)
    territory = ruleset.board.resolve(territory)
    if rules.income_loss:
        raise IllegalAction("bombing losses come off the next income; complexes are not repaired", rules.repair_rule)
    stack = complex_stack(state, ruleset, territory)
    if stack is None or stack.owner != power or not stack.damage:
        raise IllegalAction(f"{power} has no damaged industrial complex in {territory} to repair", rules.repair_rule)
    if points < 1 or points > stack.damage:
        raise IllegalAction(f"the complex in {territory} has {stack.damage} damage; repair 1 to {stack.damage} "
                            f"points, not {points}", rules.repair_rule)
    cost = repair_cost(state, ruleset, power, points)
    bank = state.banks.get(power, 0)
    if cost > bank:
        raise IllegalAction(f"repairing {points} damage in {territory} costs {cost} IPCs; {power} has {bank}",
                            rules.repair_rule)
    return [BankChanged(power, -cost, "repair", rules.repair_rule), UnitDamaged(territory, stack, -points,
                                                                                rules.repair_rule)]


def damage_view(state: GameState, ruleset: Ruleset, territory: str) -> dict[str, Any] | None:
    """What players see of the complex's damage in `territory`: points and cap, or None when undamaged."""
    damage = complex_damage(state, ruleset, territory)
    if not damage:
        return None
    return {"damage": damage, "cap": complex_cap(ruleset, territory, damage_rules(ruleset, state))}


def income_loss_events(state: GameState, ruleset: Ruleset, power: str, income: int) -> tuple[int, list[Event]]:
    """Under `DamageRules.income_loss`: `income` less the points standing on `power`'s complexes (never below
    0), and the events clearing those points; otherwise `income` unchanged and no events."""
    rules = damage_rules(ruleset, state)
    if not (rules.on_complex and rules.income_loss):
        return income, []
    events: list[Event] = []
    lost = 0
    for space in sorted(state.units):
        for stack in state.units[space]:
            if stack.owner == power and stack.damage and ruleset.units[stack.unit].has("bombing_target"):
                for _ in range(stack.count):
                    lost += stack.damage
                    events.append(UnitDamaged(space, stack.with_count(1), -stack.damage, rules.loss_rule))
    return max(0, income - lost), events
