"""Mobilize: where units may be placed, how many, new complexes, fighters on carriers, hovering fighters."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.capture import capture_territory_events
from aare.economy.production import producers
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import UnitsRemoved
from aare.scenario import scenario
from aare.state.unit_stacks import Stack
from tests.economy.helpers import act, end, pooled, with_stack


def mobilize(power: str, pool: dict[str, int], **kwargs: Any) -> Game:
    extra = {"purchased": {power: pool}, **kwargs.pop("extra", {})}
    return scenario(nation=power, phase="mobilize", extra=extra, **kwargs)


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def place(units: str, space: str) -> dict[str, str]:
    return {"type": "place", "units": units, "space": space}


def count(game: Game, space: str, power: str, unit: str) -> int:
    return sum(s.count for s in game.state.stacks(space) if s.owner == power and s.unit == unit)


@pytest.mark.rule("LHTR-MOBILIZE-at-owned-complex")
def test_land_units_go_to_own_complexes_only() -> None:
    game = mobilize("United Kingdom", {"infantry": 6})
    assert rule_of(game, place("3 infantry", "India")) == "LHTR-MOBILIZE-at-owned-complex"
    assert rule_of(game, place("3 infantry", "Germany")) == "LHTR-MOBILIZE-at-owned-complex"
    act(game, place("3 infantry", "United Kingdom"))
    assert pooled(game) == {"infantry": 3}
    spaces = {a.space for a in game.legal_actions() if a.type == "place"}
    assert spaces == {"United Kingdom"}


@pytest.mark.rule("LHTR-MOBILIZE-capacity-ipc-value")
def test_japan_places_eight_units_at_most() -> None:
    game = mobilize("Japan", {"infantry": 7, "destroyer": 2})
    act(game, place("6 infantry", "Japan"))
    act(game, place("2 destroyers", "SZ 60"))
    assert rule_of(game, place("1 infantry", "Japan")) == "LHTR-MOBILIZE-capacity-ipc-value"
    assert [a.type for a in game.legal_actions()] == ["end_phase"]


@pytest.mark.rule("LHTR-MOBILIZE-capacity-ipc-value")
def test_sea_placements_count_against_any_adjacent_complex() -> None:
    # SZ 5 borders Germany only (of German complexes); Germany's 10 are shared between land and SZ 5.
    game = mobilize("Germany", {"infantry": 12, "submarine": 2})
    act(game, place("2 submarines", "SZ 5"))
    assert rule_of(game, place("9 infantry", "Germany")) == "LHTR-MOBILIZE-capacity-ipc-value"
    act(game, place("8 infantry", "Germany"))
    act(game, place("4 infantry", "Southern Europe"))


@pytest.mark.rule("LHTR-MOBILIZE-not-captured-this-turn", "LHTR-ECON-infrastructure-captured")
def test_no_production_at_a_complex_captured_this_turn() -> None:
    game = scenario(nation="Germany", phase="develop-weapons", clear=["Caucasus"],
                    units={"Caucasus": "Russia: 1 factory, 1 aa gun"})
    end(game)  # purchase begins: the turn's start is recorded
    act(game, {"type": "purchase", "units": "2 infantry"})
    end(game, 2)
    game.log.append(None, capture_territory_events(game.state, game.ruleset, "Caucasus", "Germany"))
    assert game.state.owner("Caucasus") == "Germany"
    assert count(game, "Caucasus", "Germany", "factory") == count(game, "Caucasus", "Germany", "aa_gun") == 1
    end(game, 2)
    assert game.state.phase == "mobilize"
    assert rule_of(game, place("2 infantry", "Caucasus")) == "LHTR-MOBILIZE-not-captured-this-turn"
    assert "Caucasus" not in producers(game.state, game.ruleset, "Germany")


@pytest.mark.rule("LHTR-MOBILIZE-naval-adjacent-sz")
def test_ships_go_to_a_sea_zone_next_to_the_complex() -> None:
    game = mobilize("United Kingdom", {"destroyer": 6})
    spaces = {a.space for a in game.legal_actions() if a.type == "place"}
    assert spaces == {"SZ 2", "SZ 3", "SZ 6", "SZ 7", "SZ 8"}
    assert rule_of(game, place("1 destroyer", "United Kingdom")) == "LHTR-MOBILIZE-naval-adjacent-sz"
    assert rule_of(game, place("1 destroyer", "SZ 12")) == "LHTR-MOBILIZE-naval-adjacent-sz"
    act(game, place("1 destroyer", "SZ 6"))
    russia = mobilize("Russia", {"destroyer": 1, "infantry": 1})
    spaces = {a.space for a in russia.legal_actions() if a.type == "place" and "destroyer" in a.units}
    assert spaces == {"SZ 16"}  # Caucasus; Russia itself is landlocked
    act(russia, place("1 destroyer", "SZ 16"))


@pytest.mark.rule("LHTR-MOBILIZE-naval-into-hostile-sz")
def test_new_ships_may_join_enemy_ships_without_a_battle() -> None:
    game = mobilize("United Kingdom", {"battleship": 1}, units={"SZ 7": "Germany: 1 submarine"})
    events = act(game, place("1 battleship", "SZ 7"))
    assert not any(e.type == "dice_rolled" for e in events) and game.state.pending is None
    assert count(game, "SZ 7", "United Kingdom", "battleship") == 1


@pytest.mark.rule("LHTR-MOBILIZE-new-complex-placement")
def test_new_complex_where_none_stands_without_using_capacity() -> None:
    game = mobilize("United Kingdom", {"factory": 2, "infantry": 8})
    assert rule_of(game, place("1 factory", "United Kingdom")) == "LHTR-MOBILIZE-new-complex-placement"
    assert rule_of(game, place("1 factory", "Germany")) == "LHTR-MOBILIZE-new-complex-placement"
    act(game, place("1 factory", "India"))
    assert rule_of(game, place("1 factory", "India")) == "LHTR-MOBILIZE-new-complex-placement"
    act(game, place("8 infantry", "United Kingdom"))  # the complex took none of the 8


@pytest.mark.rule("LHTR-MOBILIZE-new-complex-idle-this-turn")
def test_new_complex_produces_from_the_next_turn() -> None:
    game = mobilize("United Kingdom", {"factory": 1, "infantry": 3})
    act(game, place("1 factory", "India"))
    assert rule_of(game, place("3 infantry", "India")) == "LHTR-MOBILIZE-new-complex-idle-this-turn"
    end(game, 2 + 7 * 4)  # mobilize, collect-income, then Japan, US, USSR and Germany
    assert (game.state.nation, game.state.phase) == ("United Kingdom", "develop-weapons")
    end(game)
    act(game, {"type": "purchase", "units": "4 infantry"})
    end(game, 4)
    act(game, place("3 infantry", "India"))
    assert rule_of(game, place("1 infantry", "India")) == "LHTR-MOBILIZE-capacity-ipc-value"


@pytest.mark.rule("LHTR-MOBILIZE-new-complex-zero-value")
def test_a_complex_in_a_zero_value_territory_never_produces() -> None:
    game = mobilize("United Kingdom", {"factory": 1})
    act(game, place("1 factory", "Gibraltar"))
    assert count(game, "Gibraltar", "United Kingdom", "factory") == 1
    later = mobilize("United Kingdom", {"infantry": 1}, units={"Gibraltar": "United Kingdom: 1 factory"})
    assert producers(later.state, later.ruleset, "United Kingdom")["Gibraltar"] == 0
    assert rule_of(later, place("1 infantry", "Gibraltar")) == "LHTR-MOBILIZE-capacity-ipc-value"
    strict = mobilize("United Kingdom", {"factory": 1}, options={"complex_needs_ipc": True})
    assert rule_of(strict, place("1 factory", "Gibraltar")) == "LHTR-MOBILIZE-new-complex-zero-value"


@pytest.mark.rule("LHTR-MOBILIZE-no-fighter-movement")
def test_fighters_on_the_board_do_not_move_in_mobilize() -> None:
    game = mobilize("United Kingdom", {"carrier": 1})
    act(game, place("1 carrier", "SZ 7"))
    move = {"type": "move", "units": "1 fighter", "path": ["United Kingdom", "SZ 7"]}
    assert rule_of(game, move) == "LHTR-MOBILIZE-no-fighter-movement"


@pytest.mark.rule("LHTR-MOBILIZE-fighters-on-new-carrier")
def test_new_fighters_on_a_new_carrier_count_against_the_complex() -> None:
    game = mobilize("Japan", {"carrier": 1, "fighter": 3, "infantry": 6})
    assert rule_of(game, place("1 fighter", "SZ 61")) == "LHTR-MOBILIZE-fighters-on-new-carrier"
    act(game, place("1 carrier, 2 fighters", "SZ 60"))
    assert game.state.extra["turn"]["placed"] == {"SZ 60": 3}
    assert rule_of(game, place("1 fighter", "SZ 60")) == "LHTR-MOBILIZE-fighters-on-new-carrier"
    act(game, place("5 infantry", "Japan"))
    assert rule_of(game, place("1 infantry", "Japan")) == "LHTR-MOBILIZE-capacity-ipc-value"


@pytest.mark.rule("LHTR-MOBILIZE-fighters-on-existing-carrier")
def test_new_fighters_on_own_existing_carriers_only() -> None:
    game = mobilize("United States", {"fighter": 2}, units={"SZ 55": "United States: 1 carrier, 1 fighter"})
    act(game, place("1 fighter", "SZ 55"))
    assert rule_of(game, place("1 fighter", "SZ 55")) == "LHTR-MOBILIZE-fighters-on-new-carrier"
    allied = mobilize("United States", {"fighter": 1}, units={"SZ 55": "United Kingdom: 1 carrier"})
    assert rule_of(allied, place("1 fighter", "SZ 55")) == "LHTR-MOBILIZE-fighters-on-new-carrier"


@pytest.mark.rule("LHTR-MOBILIZE-hover-for-new-carrier")
def test_a_hovering_fighter_lands_on_the_carrier_built_for_it() -> None:
    hover = Stack("Germany", "fighter", 1, flags=("turn:hover",))
    game = with_stack(mobilize("Germany", {"carrier": 1}), "SZ 5", hover)
    act(game, place("1 carrier", "SZ 5"))
    act(game, {"type": "end_phase"})
    assert [s for s in game.state.stacks("SZ 5") if s.unit == "fighter"] == [Stack("Germany", "fighter", 1)]


@pytest.mark.rule("LHTR-MOBILIZE-hover-without-carrier-lost", "LHTR-AIRMOVE-unlanded-destroyed")
def test_hovering_fighters_without_room_are_lost_at_the_end_of_mobilize() -> None:
    hover = Stack("Germany", "fighter", 3, flags=("turn:hover",))
    game = with_stack(mobilize("Germany", {"carrier": 1}), "SZ 5", hover)
    act(game, place("1 carrier", "SZ 5"))
    events = act(game, {"type": "end_phase"})
    assert count(game, "SZ 5", "Germany", "fighter") == 2
    lost = [e for e in events if isinstance(e, UnitsRemoved)]
    assert len(lost) == 1 and lost[0].stack.count == 1
    elsewhere = with_stack(mobilize("Germany", {"carrier": 1}), "SZ 5", hover)
    act(elsewhere, place("1 carrier", "SZ 14"))
    act(elsewhere, {"type": "end_phase"})
    assert count(elsewhere, "SZ 5", "Germany", "fighter") == 0


@pytest.mark.rule("LHTR-MOBILIZE-captured-complex-capacity")
def test_a_complex_captured_earlier_produces_at_its_value() -> None:
    game = mobilize("Japan", {"infantry": 4}, owners={"India": "Japan"}, units={"India": "Japan: 1 factory"})
    act(game, place("3 infantry", "India"))
    assert rule_of(game, place("1 infantry", "India")) == "LHTR-MOBILIZE-capacity-ipc-value"


@pytest.mark.rule("LHTR-MOBILIZE-aa-gun-stacking")
def test_aa_guns_stack_at_complexes_only() -> None:
    game = mobilize("Germany", {"aa_gun": 2})
    assert count(game, "Germany", "Germany", "aa_gun") == 1
    assert rule_of(game, place("1 aa gun", "Norway")) == "LHTR-MOBILIZE-at-owned-complex"
    act(game, place("1 aa gun", "Germany"))
    assert count(game, "Germany", "Germany", "aa_gun") == 2
    assert game.state.extra["turn"]["placed"] == {"Germany": 1}
