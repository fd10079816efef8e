"""Classic mobilisation: new units at the power's own complexes held since the turn began, starting complexes
without limit and new or captured ones up to the territory's value, new complexes, new fighters on land only, new
ships beside the complex in sea zones free of enemy ships."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.pool import pool
from aare.economy.turn import start_turn_event
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import apply_events
from aare.game_log import GameLog
from aare.rulesets.classic.production import starting_complexes
from aare.scenario import scenario

RULES = "classic-2e"


def mobilize(power: str, waiting: dict[str, int], **kw: Any) -> Game:
    """`power`'s mobilize phase with the units `waiting` to be placed."""
    return scenario(RULES, nation=power, phase="mobilize", extra={"purchased": {power: waiting}}, **kw)


def refused(game: Game, units: str, space: str, rule: str, match: str | None = None) -> None:
    """Placing `units` in `space` is refused under `rule` and changes nothing."""
    before = game.state
    with pytest.raises(IllegalAction, match=match) as info:
        game.apply({"type": "place", "units": units, "space": space})
    assert info.value.rule_id == rule and game.state == before


def places(game: Game, space: str) -> list[str]:
    return [a.units for a in game.legal_actions() if a.type == "place" and a.space == space]


def captured_this_turn(game: Game, **owners: str) -> Game:
    """The position with the turn's record made first, then `owners` changed (captures of this turn)."""
    event = start_turn_event(game.state)
    assert event is not None
    state = apply_events(game.state, [event])
    state = replace(state, owners={**state.owners, **{k.replace("_", " "): v for k, v in owners.items()}})
    return Game(GameLog(state))


@pytest.mark.rule("CL-MOBILIZE-at-own-complex")
def test_new_units_go_to_own_complexes_held_since_the_turn_began() -> None:
    game = mobilize("Germany", {"infantry": 3}, clear=["Karelia S.S.R."],
                    units={"Karelia S.S.R.": "Germany: 1 infantry, 1 factory"})
    game = captured_this_turn(game, **{"Karelia S.S.R.": "Germany"})
    refused(game, "1 infantry", "Karelia S.S.R.", "CL-MOBILIZE-at-own-complex", "captured this turn")
    refused(game, "1 infantry", "East Europe", "CL-MOBILIZE-at-own-complex", "no industrial complex")
    refused(game, "1 infantry", "Russia", "CL-MOBILIZE-at-own-complex", "does not control")
    assert not places(game, "Karelia S.S.R.") and places(game, "Germany") == ["1 infantry"]
    game.apply({"type": "place", "units": "3 infantry", "space": "South Europe"})
    assert pool(game.state, "Germany") == {}


@pytest.mark.rule("CL-TURN-no-shared-economy", "CL-MOBILIZE-at-own-complex")
def test_no_power_places_units_at_an_allys_complex() -> None:
    game = mobilize("United States", {"infantry": 1})
    refused(game, "1 infantry", "United Kingdom", "CL-MOBILIZE-at-own-complex", "does not control")
    game = mobilize("United States", {"infantry": 1}, units={"West US": "United Kingdom: 1 factory"},
                    clear=["West US"])
    refused(game, "1 infantry", "West US", "CL-TURN-no-shared-economy", "another power's complex")


@pytest.mark.rule("CL-MOBILIZE-production-limits")
def test_starting_complexes_place_any_number() -> None:
    assert starting_complexes(scenario(RULES).ruleset.board) == {
        "East US", "West US", "Germany", "South Europe", "United Kingdom", "Japan", "Russia", "Karelia S.S.R."}
    game = mobilize("Germany", {"infantry": 15, "transport": 12})
    game.apply({"type": "place", "units": "15 infantry", "space": "Germany"})
    game.apply({"type": "place", "units": "12 transport", "space": "Baltic Sea Zone"})
    assert pool(game.state, "Germany") == {}
    game = mobilize("Russia", {"infantry": 9}, banks={"Russia": 30})
    game.apply({"type": "place", "units": "9 infantry", "space": "Karelia S.S.R."})  # worth 3, but a starting one
    assert pool(game.state, "Russia") == {}
    game = mobilize("Russia", {"infantry": 9}, options={"starting_complexes_unlimited": False})
    refused(game, "9 infantry", "Russia", "CL-MOBILIZE-production-limits", "cannot take 9 more units")
    game.apply({"type": "place", "units": "8 infantry", "space": "Russia"})


@pytest.mark.rule("CL-MOBILIZE-production-limits")
def test_new_and_captured_complexes_place_up_to_the_territorys_value() -> None:
    game = mobilize("United Kingdom", {"infantry": 4}, units={"India": "United Kingdom: 1 factory"})
    refused(game, "4 infantry", "India", "CL-MOBILIZE-production-limits", "cannot take 4 more units")
    game.apply({"type": "place", "units": "3 infantry", "space": "India"})
    refused(game, "1 infantry", "India", "CL-MOBILIZE-production-limits")
    game = mobilize("Germany", {"infantry": 4}, owners={"Karelia S.S.R.": "Germany"},
                    clear=["Karelia S.S.R."], units={"Karelia S.S.R.": "Germany: 1 factory"})
    refused(game, "4 infantry", "Karelia S.S.R.", "CL-MOBILIZE-production-limits")
    game.apply({"type": "place", "units": "3 infantry", "space": "Karelia S.S.R."})
    # back with its original owner, a starting complex places any number again
    game = mobilize("Russia", {"infantry": 6}, owners={"Karelia S.S.R.": "Russia"})
    game.apply({"type": "place", "units": "6 infantry", "space": "Karelia S.S.R."})


@pytest.mark.rule("CL-MOBILIZE-build-complex")
def test_a_new_complex_goes_to_a_territory_worth_1_or_more_and_produces_next_turn() -> None:
    game = mobilize("United Kingdom", {"factory": 1, "infantry": 1})
    refused(game, "1 factory", "Gibraltar", "CL-MOBILIZE-build-complex", "cannot place a complex in Gibraltar")
    refused(game, "1 factory", "Spain", "CL-MOBILIZE-build-complex")  # neutral
    refused(game, "1 factory", "United Kingdom", "CL-MOBILIZE-build-complex", "already has")
    assert "Gibraltar" not in [a.space for a in game.legal_actions() if a.type == "place"]
    game.apply({"type": "place", "units": "1 factory", "space": "India"})
    refused(game, "1 infantry", "India", "CL-MOBILIZE-build-complex", "placed this turn")
    game = mobilize("United Kingdom", {"factory": 1}, options={"complex_needs_ipc": False})
    game.apply({"type": "place", "units": "1 factory", "space": "Gibraltar"})


@pytest.mark.rule("CL-MOBILIZE-build-complex")
def test_no_new_complex_in_a_territory_captured_this_turn() -> None:
    game = mobilize("Germany", {"factory": 1}, units={"Caucasus": "Germany: 1 armour"}, clear=["Caucasus"])
    game = captured_this_turn(game, Caucasus="Germany")
    refused(game, "1 factory", "Caucasus", "CL-MOBILIZE-build-complex")
    game.apply({"type": "place", "units": "1 factory", "space": "East Europe"})


@pytest.mark.rule("CL-MOBILIZE-new-fighters-not-on-carriers")
def test_new_fighters_are_placed_on_land_not_on_carriers() -> None:
    game = mobilize("Japan", {"carrier": 1, "fighter": 2}, units={"Japan Sea Zone": "Japan: 1 carrier"})
    game.apply({"type": "place", "units": "1 carrier", "space": "Japan Sea Zone"})
    refused(game, "1 fighter", "Japan Sea Zone", "CL-MOBILIZE-new-fighters-not-on-carriers", "not at sea")
    refused(game, "1 carrier, 1 fighter", "Japan Sea Zone", "CL-MOBILIZE-new-fighters-not-on-carriers")
    assert not places(game, "Japan Sea Zone")
    game.apply({"type": "place", "units": "2 fighter", "space": "Japan"})
    assert pool(game.state, "Japan") == {}


@pytest.mark.rule("CL-MOBILIZE-new-fighters-not-on-carriers")
def test_existing_fighters_do_not_move_onto_new_carriers() -> None:
    game = mobilize("Japan", {"carrier": 1})
    game.apply({"type": "place", "units": "1 carrier", "space": "Japan Sea Zone"})
    before = game.state
    with pytest.raises(IllegalAction) as info:
        game.apply({"type": "move", "units": "1 fighter", "path": ["Japan", "Japan Sea Zone"]})
    assert info.value.rule_id == "CL-MOBILIZE-new-fighters-not-on-carriers" and game.state == before


@pytest.mark.rule("CL-MOBILIZE-new-fighters-not-on-carriers")
def test_fighters_do_not_wait_at_sea_for_a_carrier_bought_this_turn() -> None:
    waiting = {"purchased": {"Japan": {"carrier": 1}}}
    units = {"Japan": "Japan: 1 factory, 1 fighter", "Manchuria": "Japan: 1 fighter",
             "Japan Sea Zone": "Japan: 1 transport"}
    game = scenario(RULES, nation="Japan", phase="non-combat-move", clear=True, units=units, extra=waiting)
    before = game.state
    with pytest.raises(IllegalAction, match="carrier bought this turn") as info:
        game.apply({"type": "move", "units": "1 fighter", "path": ["Japan", "Japan Sea Zone"]})
    assert info.value.rule_id == "CL-MOBILIZE-new-fighters-not-on-carriers" and game.state == before
    assert not [a for a in game.legal_actions() if a.type == "move" and a.path[-1] == "Japan Sea Zone"
                and "fighter" in a.units]
    # with no carrier bought the core's landing rule answers; a carrier already there takes the fighter
    plain = scenario(RULES, nation="Japan", phase="non-combat-move", clear=True, units=units)
    with pytest.raises(IllegalAction) as info:
        plain.apply({"type": "move", "units": "1 fighter", "path": ["Japan", "Japan Sea Zone"]})
    assert info.value.rule_id == "CL-AIRMOVE-carrier-landing"
    decked = scenario(RULES, nation="Japan", phase="non-combat-move", clear=True, extra=waiting,
                      units={**units, "Japan Sea Zone": "Japan: 1 carrier"})
    decked.apply({"type": "move", "units": "1 fighter", "path": ["Japan", "Japan Sea Zone"]})
    assert {s.unit for s in decked.state.stacks("Japan Sea Zone")} == {"carrier", "fighter"}


@pytest.mark.rule("CL-MOBILIZE-new-fighters-not-on-carriers", "CL-COMBATMOVE-air-landing-plan")
def test_no_attack_counts_on_landing_on_a_carrier_bought_this_turn() -> None:
    units = {"East Indies": "Japan: 1 fighter", "Japan": "Japan: 1 factory",
             "Philippines Sea Zone": "United States: 1 transport"}
    path = ["East Indies", "East Indies Sea Zone", "Borneo Sea Zone", "Philippines Sea Zone"]
    for bought, rule in (({"carrier": 1}, "CL-MOBILIZE-new-fighters-not-on-carriers"),
                         ({}, "CL-COMBATMOVE-air-landing-plan")):
        game = scenario(RULES, nation="Japan", phase="combat-move", clear=True, units=units,
                        owners={"Philippines": "United States"}, extra={"purchased": {"Japan": bought}})
        before = game.state
        with pytest.raises(IllegalAction) as info:  # 1 move left: only Japan Sea Zone, next to Japan's complex
            game.apply({"type": "move", "units": "1 fighter", "path": path})
        assert info.value.rule_id == rule and game.state == before


@pytest.mark.rule("CL-MOBILIZE-naval-adjacent")
def test_new_ships_go_next_to_the_complex_and_not_among_enemy_ships() -> None:
    game = mobilize("United Kingdom", {"battleship": 2})
    refused(game, "1 battleship", "East Canada Sea Zone", "CL-MOBILIZE-naval-adjacent", "not next to a complex")
    refused(game, "1 battleship", "United Kingdom", "CL-MOBILIZE-naval-adjacent")
    game.apply({"type": "place", "units": "1 battleship", "space": "North Sea Zone"})
    game = mobilize("United Kingdom", {"battleship": 1}, units={"North Sea Zone": "Germany: 1 submarine"})
    refused(game, "1 battleship", "North Sea Zone", "CL-MOBILIZE-naval-adjacent", "holds enemy ships")
    assert not places(game, "North Sea Zone")


@pytest.mark.rule("CL-MOBILIZE-naval-adjacent", "CL-TURN-printed-optional-rules")
def test_the_optional_rule_lets_new_ships_in_among_enemy_ships() -> None:
    game = mobilize("United Kingdom", {"battleship": 1}, units={"North Sea Zone": "Germany: 1 submarine"},
                    options={"naval_placement_in_enemy_zones": True})
    game.apply({"type": "place", "units": "1 battleship", "space": "North Sea Zone"})
    assert pool(game.state, "United Kingdom") == {}
