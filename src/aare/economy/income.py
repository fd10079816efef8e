"""Income and the end of a turn: the moving power collects its territories' value; then the turn's marks
on units are cleared and damaged battleships are repaired."""

from __future__ import annotations

from dataclasses import replace

from aare.economy.complex_damage import income_loss_events
from aare.economy.summary import income_bonuses, territory_income
from aare.events import BankChanged, Event, UnitsChanged
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

TURN_FLAG = "turn:"


def income_events(state: GameState, ruleset: Ruleset, power: str) -> list[Event]:
    """`power` adds its income (LHTR-ECON-income-sum; rule modules adjust it through the `income` hook) less the
    bombing losses standing on its complexes where the damage rules make them income losses (which are then
    cleared), then each named bonus on its own, its reason `income: <title>` (the `income_bonuses` hook)."""
    amount, cleared = income_loss_events(state, ruleset, power, territory_income(state, ruleset, power))
    events: list[Event] = [BankChanged(power, amount, "income", "LHTR-ECON-income-sum")] if amount > 0 else []
    events += cleared
    for bonus in income_bonuses(state, ruleset, power):
        events.append(BankChanged(power, bonus.amount, f"income: {bonus.title}", bonus.rule_id))
    return events


def end_of_turn_events(state: GameState, ruleset: Ruleset) -> list[Event]:
    """Every unit's movement spent and `turn:` flags are cleared; units that repair (battleships) lose their
    damage (LHTR-NAVALCOMBAT-battleship-repair: every power's, at the end of each power's turn; in a team turn
    the units of the members still playing and of the enemy wait for the team turn's end)."""
    units = ruleset.units
    events: list[Event] = []
    for space in sorted(state.units):
        for stack in state.units[space]:
            if state.marks_kept(stack.owner):
                continue
            flags = tuple(f for f in stack.flags if not f.startswith(TURN_FLAG)) if stack.flags else ()
            damage = 0 if stack.damage and units[stack.unit].has("repairs") else stack.damage
            if stack.moved or flags != stack.flags or damage != stack.damage:
                events.append(UnitsChanged(space, stack, replace(stack, moved=0, flags=flags, damage=damage)))
    return events
