"""Damage from raids and rockets. Under LHTR (the default `DamageRules`) it is economic: IPCs leave the treasury
of the territory's owner at once, never more than it holds, and never more per territory and turn than the
territory's IPC value. A ruleset whose damage rules put it on the complex (`aare.economy.complex_damage`) goes
through the same two entries: `damage_cap_remaining` and `bombing_damage_events`."""

from __future__ import annotations

from typing import Literal

from aare.economy.complex_damage import complex_damage_events, complex_room, damage_rules
from aare.economy.turn import turn_record, turn_update
from aare.events import BankChanged, Event
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

CAP_RULE = "LHTR-ECON-damage-cap-per-turn"


def damage_cap_remaining(state: GameState, ruleset: Ruleset, territory: str) -> int:
    """How much more damage raids and rockets may do through `territory`: IPCs this turn, or the damage points
    the complex there may still take (in a capital under `DamageRules.capital_excess_rule`, with the owner's
    treasury)."""
    territory = ruleset.board.resolve(territory)
    rules = damage_rules(ruleset, state)
    if rules.on_complex:
        room = complex_room(state, ruleset, territory, rules)
        owner = state.owners.get(territory)
        if rules.capital_excess_rule and owner is not None and territory in ruleset.board.capitals():
            room += max(0, state.banks.get(owner, 0))  # the excess at a capital leaves the treasury
        return room
    ipc = ruleset.board.spaces[territory].ipc
    cap = ruleset.value("damage_cap", territory, ipc, CAP_RULE, state=state).value
    return max(0, cap - int(turn_record(state)["damage"].get(territory, 0)))


def bombing_damage_events(
    state: GameState, ruleset: Ruleset, territory: str, rolled: int, kind: Literal["raid", "rocket"]
) -> list[Event]:
    """The events of a raid's or a rocket's `rolled` damage on `territory`, as the ruleset's damage rules say."""
    rules = damage_rules(ruleset, state)
    rule_id = rules.raid_rule if kind == "raid" else rules.rocket_rule
    territory = ruleset.board.resolve(territory)
    if rules.on_complex:
        return complex_damage_events(state, ruleset, territory, rolled, rule_id, rules)
    return economic_damage_events(state, ruleset, territory, rolled, rule_id)


def economic_damage(state: GameState, ruleset: Ruleset, territory: str, rolled: int) -> int:
    """The IPCs actually lost when `rolled` damage is inflicted on `territory`."""
    owner = state.owners.get(ruleset.board.resolve(territory))
    if owner is None:
        return 0
    return max(0, min(rolled, damage_cap_remaining(state, ruleset, territory), state.banks.get(owner, 0)))


def economic_damage_events(
    state: GameState, ruleset: Ruleset, territory: str, rolled: int, rule_id: str
) -> list[Event]:
    """The owner of `territory` loses `rolled` IPCs, capped (LHTR-ECON-economic-damage-from-treasury,
    LHTR-ECON-damage-cap-per-turn); the loss counts toward the territory's cap for the rest of the turn."""
    territory = ruleset.board.resolve(territory)
    loss = economic_damage(state, ruleset, territory, rolled)
    owner = state.owners.get(territory)
    if not loss or owner is None:
        return []
    record = turn_record(state)
    damage = {**record["damage"], territory: int(record["damage"].get(territory, 0)) + loss}
    return [
        BankChanged(owner, -loss, "economic damage", rule_id),
        turn_update(state, CAP_RULE, damage=dict(sorted(damage.items()))),
    ]
