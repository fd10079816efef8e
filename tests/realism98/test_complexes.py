"""Enhanced Realism '98 industrial complexes: none bought, each places at most its territory's value, bombing
losses capped at that value and cleared when the complex is captured."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.capture import capture_territory_events
from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.damage import bombing_damage_events
from aare.events import UnitDamaged, apply_events
from tests.movement.helpers import legal, rejected, to_phase
from tests.realism98.common import CLASSIC, at


def buy(units: str) -> dict[str, Any]:
    return {"type": "purchase", "units": units}


def place(units: str, space: str) -> dict[str, Any]:
    return {"type": "place", "units": units, "space": space}


@pytest.mark.rule("REAL98-IC-no-new")
def test_no_industrial_complex_can_be_bought() -> None:
    game = at("United Kingdom", "purchase", {}, banks={"United Kingdom": 30}, clear=False)
    rejected(game, buy("1 industrial complex"), "REAL98-IC-no-new", "no new industrial complexes")
    rejected(game, buy("1 infantry, 1 industrial complex"), "REAL98-IC-no-new")
    assert not [a for a in game.legal_actions() if a.type == "purchase" and "complex" in a.units]
    game.apply(buy("2 infantry"))
    assert game.state.banks["United Kingdom"] == 24
    base = at("United Kingdom", "purchase", {}, banks={"United Kingdom": 30}, rules=CLASSIC, clear=False)
    base.apply(buy("1 industrial complex"))


@pytest.mark.rule("REAL98-IC-placement-limit")
@pytest.mark.parametrize(("power", "territory", "value"), [("United Kingdom", "India", 3), ("Germany", "Germany", 10)])
def test_every_complex_places_at_most_its_territory_value(power: str, territory: str, value: int) -> None:
    game = at(power, "purchase", {}, banks={power: 100}, clear=False)
    game.apply(buy(f"{value + 1} infantry"))
    game = to_phase(game, "mobilize")
    game.apply(place(f"{value} infantry", territory))
    rejected(game, place("1 infantry", territory), "REAL98-IC-placement-limit")
    # the base places any number at a complex of the starting set-up (Germany) or its value elsewhere (India)
    base = at(power, "purchase", {}, banks={power: 100}, clear=False, rules=CLASSIC)
    base.apply(buy(f"{value + 1} infantry"))
    base = to_phase(base, "mobilize")
    assert legal(base, place(f"{value + 1} infantry", territory)) == (territory == "Germany")


@pytest.mark.rule("REAL98-IC-bombing-cap")
def test_bombing_losses_on_a_complex_stop_at_its_territory_value() -> None:
    # three British bombers raid South Europe (value 6): AA misses, the damage dice total 14, 6 are recorded,
    # whatever Germany's (empty) treasury
    game = at("United Kingdom", "combat-move", {"West Europe": "United Kingdom: 3 bomber"},
              owners={"West Europe": "United Kingdom"}, banks={"Germany": 0}, clear=False,
              dice=[6, 6, 6, 5, 5, 4])
    game.apply({"type": "move", "units": "3 bomber", "path": ["West Europe", "South Europe"], "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "South Europe"})
    rolls = [e for e in game.log.entries[-1].events if e.type == "dice_rolled"]
    assert [e.values for e in rolls if "damage" in e.purpose] == [(5, 5, 4)]
    assert complex_damage(game.state, game.ruleset, "South Europe") == 6
    assert game.state.banks["Germany"] == 0
    # a second raid on a complex at its cap adds nothing
    assert bombing_damage_events(game.state, game.ruleset, "South Europe", 5, "raid") == []


@pytest.mark.rule("REAL98-IC-capture-clears-bombing")
def test_capturing_a_bombed_complex_clears_its_losses() -> None:
    game = at("Germany", "conduct-combat", {}, clear=False)
    state = game.state
    stack = complex_stack(state, game.ruleset, "Caucasus")
    assert stack is not None and stack.owner == "Russia"
    state = apply_events(state, [UnitDamaged("Caucasus", stack, 3, "test")])
    after = apply_events(state, capture_territory_events(state, game.ruleset, "Caucasus", "Germany"))
    taken = complex_stack(after, game.ruleset, "Caucasus")
    assert taken is not None and (taken.owner, taken.damage) == ("Germany", 0)
    # Russia loses nothing for it at its next count, Germany counts Caucasus at full value
    assert complex_damage(after, game.ruleset, "Caucasus") == 0
