"""Capture of a land territory: control, plunder of a capital's treasury, liberation and the capital's
return, and the complexes and AA guns that change hands. Conduct-combat calls `capture_territory_events`
once it has decided that a territory falls."""

from __future__ import annotations

from dataclasses import replace

from aare.economy.complex_damage import damage_rules
from aare.errors import IllegalAction
from aare.events import BankChanged, ControlChanged, Event, UnitsChanged
from aare.rules.ruleset import Ruleset
from aare.state.game_state import GameState

PLUNDER = "LHTR-ECON-capital-capture-plunder"
INFRASTRUCTURE = "LHTR-ECON-infrastructure-captured"


def capture_territory_events(state: GameState, ruleset: Ruleset, territory: str, new_owner: str) -> list[Event]:
    """The events of `new_owner` taking `territory`.

    A territory that started the game with an ally of the capturer is liberated: it returns to that
    original owner while the owner holds its capital, and stays with the liberator otherwise. A capital
    always returns to its own power, and with it every territory of that power its allies hold. An enemy
    taking a capital takes its power's whole treasury. Complexes and AA guns pass to the new controller.
    """
    board = ruleset.board
    territory, new_owner = board.resolve(territory), board.resolve_power(new_owner)
    space = board.spaces[territory]
    if not space.is_land or space.neutral:
        raise IllegalAction(f"{territory} cannot be captured", "LHTR-COMBAT-capture")
    previous = state.owners.get(territory)
    side = board.side_of(new_owner)
    if previous == new_owner:
        return []
    if previous is not None and board.side_of(previous) == side:
        raise IllegalAction(f"{new_owner} cannot capture {territory} from its ally {previous}", "LHTR-TURN-alliances")
    original = space.owner
    capitals = board.capitals()
    controller, rule = new_owner, "LHTR-COMBAT-capture"
    if original is not None and original != new_owner and board.side_of(original) == side:
        if capitals.get(territory) == original:
            controller, rule = original, "LHTR-ECON-capital-liberation-reversion"
        elif board.holds_capital(original, state.owners):
            controller, rule = original, "LHTR-ECON-liberation-to-original-owner"
        else:
            rule = "LHTR-ECON-liberation-capital-lost"
    controller, rule = ruleset.modify("capture_controller", (controller, rule), state=state, territory=territory,
                                      capturer=new_owner)
    events: list[Event] = []
    whose = capitals.get(territory)
    if whose is not None and board.side_of(whose) != side:
        amount = state.banks.get(whose, 0)
        if amount:
            events.append(BankChanged(whose, -amount, "capture", PLUNDER))
            events.append(BankChanged(new_owner, amount, "capture", PLUNDER))
    events.append(ControlChanged(territory, controller, rule))
    events += ruleset.modify("capture_events", _hand_over(state, ruleset, territory, controller, enemies_only=True),
                             state=state, territory=territory, controller=controller)
    if whose is not None and whose == controller:
        for other, owner in sorted(state.owners.items()):
            if other == territory or board.spaces[other].owner != controller or owner == controller:
                continue
            if board.side_of(owner) == side:
                events.append(ControlChanged(other, controller, "LHTR-ECON-capital-liberation-reversion"))
                events += _hand_over(state, ruleset, other, controller, enemies_only=False)
    return events


def _hand_over(state: GameState, ruleset: Ruleset, territory: str, controller: str, enemies_only: bool) -> list[Event]:
    """Complexes and AA guns in `territory` change owner to `controller` (those of enemies, or of anyone); their
    damage goes with them unless the damage rules clear it on capture."""
    board, units = ruleset.board, ruleset.units
    side = board.side_of(controller)
    clear = damage_rules(ruleset, state).cleared_on_capture
    events: list[Event] = []
    for stack in state.stacks(territory):
        if stack.owner == controller or not units[stack.unit].has("captured"):
            continue
        if enemies_only and board.side_of(stack.owner) == side:
            continue
        after = replace(stack, owner=controller, damage=0 if clear else stack.damage)
        events.append(UnitsChanged(territory, stack, after))
    return events
