"""Economic damage from raids and rockets: out of the treasury, capped per territory and turn."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.economy.complex_damage import complex_damage, damage_rules
from aare.economy.damage import bombing_damage_events, damage_cap_remaining, economic_damage_events
from aare.errors import IllegalAction
from aare.events import BankChanged, apply_events
from aare.scenario import scenario


@pytest.mark.rule("LHTR-ECON-economic-damage-from-treasury", "LHTR-SBR-damage-roll")
def test_damage_never_exceeds_the_treasury() -> None:
    game = scenario(nation="United States", phase="conduct-combat", banks={"Japan": 3})
    events = economic_damage_events(game.state, game.ruleset, "Japan", 5, "LHTR-SBR-damage-roll")
    state = apply_events(game.state, events)
    assert state.banks["Japan"] == 0 and [e.delta for e in events if isinstance(e, BankChanged)] == [-3]


@pytest.mark.rule("LHTR-ECON-damage-cap-per-turn", "LHTR-SBR-turn-cap")
def test_raids_and_rockets_together_take_at_most_the_territory_value_per_turn() -> None:
    game = scenario(nation="Germany", phase="conduct-combat", banks={"Russia": 30})
    state = apply_events(game.state, economic_damage_events(game.state, game.ruleset, "Caucasus", 3,
                                                            "LHTR-TECH-rockets-damage"))
    assert damage_cap_remaining(state, game.ruleset, "Caucasus") == 1
    state = apply_events(state, economic_damage_events(state, game.ruleset, "Caucasus", 5, "LHTR-SBR-damage-roll"))
    assert state.banks["Russia"] == 26 and damage_cap_remaining(state, game.ruleset, "Caucasus") == 0
    assert economic_damage_events(state, game.ruleset, "Caucasus", 2, "LHTR-SBR-damage-roll") == []
    next_turn = replace(state, nation="United Kingdom")
    assert damage_cap_remaining(next_turn, game.ruleset, "Caucasus") == 4
    raid = scenario(nation="United States", phase="conduct-combat")
    state = apply_events(raid.state, economic_damage_events(raid.state, raid.ruleset, "Southern Europe", 15,
                                                            "LHTR-SBR-damage-roll"))
    assert state.banks["Germany"] == 34


@pytest.mark.rule("LHTR-ECON-economic-damage-from-treasury")
def test_lhtr_damage_leaves_nothing_on_the_complex_to_repair() -> None:
    game = scenario(nation="United States", phase="conduct-combat")
    assert not damage_rules(game.ruleset, game.state).on_complex
    state = apply_events(game.state, bombing_damage_events(game.state, game.ruleset, "Germany", 4, "raid"))
    assert state.banks["Germany"] == game.state.banks["Germany"] - 4
    assert complex_damage(state, game.ruleset, "Germany") == 0
    buying = scenario(nation="Germany", phase="purchase")
    assert not [a for a in buying.legal_actions() if a.type == "repair"]
    with pytest.raises(IllegalAction, match="no damaged industrial complex") as refused:
        buying.apply({"type": "repair", "space": "Germany", "points": 1})
    assert refused.value.rule_id == "LHTR-ECON-economic-damage-from-treasury"
