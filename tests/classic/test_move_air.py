"""Classic aircraft movement on the Classic board: one movement budget for both phases, flying over anything,
landing only where the side held the territory since the turn began or on a friendly carrier, no landing in
combat movement, a landing plan for every attack, and fighters and carriers."""

from __future__ import annotations

import pytest
from tests.classic.test_move_land import at, fight_all
from tests.movement.helpers import end, move, mv, rejected, to_phase, units_in, with_owner, without

from aare.engine import Game
from aare.movement import flags
from aare.state.unit_stacks import Stack


@pytest.mark.rule("CL-AIRMOVE-range-per-turn")
def test_the_points_flown_to_attack_are_gone_for_the_flight_home() -> None:
    game = at("Germany", "combat-move", {"Germany": "Germany: 1 fighter", "Karelia S.S.R.": "Russia: 1 infantry"})
    rejected(game, mv("1 fighter", "Germany", "East Europe", "Karelia S.S.R.", "Caucasus", "Persia", "India"),
             "CL-AIRMOVE-range-per-turn", "4 movement left")
    move(game, "1 fighter", "Germany", "East Europe", "Ukraine S.S.R.", "Karelia S.S.R.")  # 3 of 4
    ncm = to_phase(without(game, "Karelia S.S.R.", "Russia"), "non-combat-move")
    rejected(ncm, mv("1 fighter", "Karelia S.S.R.", "East Europe", "Germany"), "CL-AIRMOVE-range-per-turn",
             "1 movement left")
    move(ncm, "1 fighter", "Karelia S.S.R.", "East Europe")
    idle = at("Germany", "non-combat-move", {"Germany": "Germany: 1 bomber"})
    move(idle, "1 bomber", "Germany", "South Europe", "Central Mediterranean Sea Zone", "Libya")
    assert units_in(idle, "Libya") == {"bomber": 1}


@pytest.mark.rule("CL-AIRMOVE-fly-over-anything")
def test_aircraft_fly_over_enemy_land_and_enemy_fleets() -> None:
    game = at("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber, 1 fighter", "Germany": "Germany: 1 infantry",
        "North Sea Zone": "Germany: 1 battleship", "West Europe": "Germany: 1 infantry",
    })
    move(game, "1 bomber", "United Kingdom", "North Sea Zone", "West Europe", "Germany")
    move(game, "1 fighter", "United Kingdom", "North Sea Zone", "West Europe")
    assert units_in(game, "Germany", "United Kingdom") == {"bomber": 1}
    assert units_in(game, "West Europe", "United Kingdom") == {"fighter": 1}


@pytest.mark.rule("CL-AIRMOVE-land-friendly", "CL-AIRMOVE-aircraft-cannot-capture")
def test_aircraft_land_only_where_their_side_held_the_territory_when_the_turn_began() -> None:
    game = at("Germany", "combat-move", {"East Europe": "Germany: 1 infantry, 2 fighter",
                                         "Karelia S.S.R.": "Russia: 1 infantry"})
    move(game, "1 infantry", "East Europe", "Karelia S.S.R.")
    move(game, "2 fighter", "East Europe", "Karelia S.S.R.")
    ncm = to_phase(with_owner(without(game, "Karelia S.S.R.", "Russia"), "Karelia S.S.R.", "Germany"),
                   "non-combat-move")
    rejected(ncm, mv("1 fighter", "Karelia S.S.R.", "Caucasus", "Karelia S.S.R."), "CL-AIRMOVE-range-per-turn")
    rejected(ncm, mv("1 fighter", "Karelia S.S.R.", "Russia"), "CL-AIRMOVE-land-friendly", "not been friendly")
    move(ncm, "2 fighter", "Karelia S.S.R.", "East Europe")
    # fighters that stayed in the captured territory are lost when non-combat movement ends
    stay = to_phase(with_owner(without(game, "Karelia S.S.R.", "Russia"), "Karelia S.S.R.", "Germany"),
                    "non-combat-move")
    end(stay)
    assert units_in(stay, "Karelia S.S.R.", "Germany") == {"infantry": 1}
    # aircraft alone cannot take a territory: with no defenders there is nothing for them to do
    alone = at("Germany", "combat-move", {"East Europe": "Germany: 1 fighter"})
    rejected(alone, mv("1 fighter", "East Europe", "Karelia S.S.R."), "CL-AIRMOVE-aircraft-cannot-capture",
             "cannot take a territory")


@pytest.mark.rule("CL-AIRMOVE-aircraft-cannot-capture")
def test_aircraft_that_destroy_every_defender_do_not_take_the_territory() -> None:
    game = at("Germany", "combat-move", {"East Europe": "Germany: 2 fighter", "Karelia S.S.R.": "Russia: 1 infantry"},
              dice=[1, 1, 6])
    move(game, "2 fighter", "East Europe", "Karelia S.S.R.")
    fight_all(game)
    assert game.state.phase == "non-combat-move"
    assert units_in(game, "Karelia S.S.R.", "Russia") == {}
    assert game.state.owners["Karelia S.S.R."] == "Russia"
    move(game, "2 fighter", "Karelia S.S.R.", "East Europe")


@pytest.mark.rule("CL-AIRMOVE-no-landing-in-combat")
def test_aircraft_that_attacked_at_sea_must_fly_to_land_or_be_lost() -> None:
    attacked = Stack("Germany", "fighter", 1, moved=2, flags=(flags.COMBAT,))
    game = at("Germany", "non-combat-move", {}, stacks=[("North Sea Zone", attacked)])
    lost = to_phase(game, "non-combat-move")
    events = end(lost)
    assert any(e.type == "units_removed" and e.space == "North Sea Zone" for e in events)
    assert units_in(lost, "North Sea Zone") == {}
    move(game, "1 fighter", "North Sea Zone", "West Europe")
    end(game)
    assert units_in(game, "West Europe") == {"fighter": 1}


@pytest.mark.rule("CL-COMBATMOVE-air-landing-plan")
def test_an_attack_needs_a_reachable_landing_space() -> None:
    game = at("Germany", "combat-move", {"Germany": "Germany: 1 bomber", "Persia": "United Kingdom: 1 infantry",
                                         "Kazakh S.S.R.": "Russia: 1 infantry"})
    # Kazakh S.S.R. is 5 spaces away; from there no German or Japanese territory is within 1
    rejected(game, mv("1 bomber", "Germany", "East Europe", "Ukraine S.S.R.", "Caucasus", "Persia",
                      "Kazakh S.S.R."), "CL-COMBATMOVE-air-landing-plan", "no place to land")
    move(game, "1 bomber", "Germany", "East Europe", "Ukraine S.S.R.", "Caucasus", "Persia")  # 2 left, home is 3
    assert units_in(game, "Persia", "Germany") == {"bomber": 1}


@pytest.mark.rule("CL-COMBATMOVE-air-landing-plan")
def test_a_landing_plan_may_count_on_a_carrier_moving_there() -> None:
    game = at("Japan", "combat-move", {"Japan": "Japan: 1 fighter", "Japan Sea Zone": "Japan: 1 carrier",
                                       "Wake Island Sea Zone": "United States: 1 transport"})
    # Japan -> Japan Sea Zone -> Wake Island Sea Zone: 2 flown, 2 left to reach the carrier
    move(game, "1 fighter", "Japan", "Japan Sea Zone", "Wake Island Sea Zone")
    assert units_in(game, "Wake Island Sea Zone", "Japan") == {"fighter": 1}


@pytest.mark.rule("CL-AIRMOVE-carrier-landing", "CL-AIRMOVE-any-fighter-any-carrier")
def test_fighters_land_on_own_or_allied_carriers_with_room_and_bombers_never() -> None:
    game = at("United Kingdom", "non-combat-move", {
        "Hawaiian Islands": "United Kingdom: 3 fighter, 1 bomber", "Hawaii Sea Zone": "United States: 1 carrier",
    }, owners={"Hawaiian Islands": "United Kingdom"})
    rejected(game, mv("1 bomber", "Hawaiian Islands", "Hawaii Sea Zone"), "CL-AIRMOVE-carrier-landing",
             "cannot land at sea")
    move(game, "2 fighter", "Hawaiian Islands", "Hawaii Sea Zone")
    rejected(game, mv("1 fighter", "Hawaiian Islands", "Hawaii Sea Zone"), "CL-AIRMOVE-carrier-landing",
             "no friendly carrier has room")
    assert units_in(game, "Hawaii Sea Zone", "United Kingdom") == {"fighter": 2}


@pytest.mark.rule("CL-AIRMOVE-any-fighter-any-carrier", "CL-AIRMOVE-carrier-launch")
def test_a_land_based_fighter_lands_on_any_carrier_and_carrier_fighters_launch_with_full_movement() -> None:
    game = at("Japan", "combat-move", {"Philippines": "Japan: 1 fighter",
                                       "Caroline Islands Sea Zone": "Japan: 1 carrier",
                                       "Borneo Sea Zone": "United Kingdom: 1 transport"})
    move(game, "1 fighter", "Philippines", "Philippines Sea Zone", "Borneo Sea Zone")
    ncm = to_phase(without(game, "Borneo Sea Zone", "United Kingdom"), "non-combat-move")
    move(ncm, "1 fighter", "Borneo Sea Zone", "Caroline Islands Sea Zone")
    assert units_in(ncm, "Caroline Islands Sea Zone") == {"carrier": 1, "fighter": 1}
    launch = at("United States", "combat-move", {"Hawaii Sea Zone": "United States: 1 carrier, 1 fighter",
                                                 "Japan Sea Zone": "Japan: 1 transport"})
    move(launch, "1 fighter", "Hawaii Sea Zone", "Wake Island Sea Zone", "Japan Sea Zone")
    [fighter] = [s for s in launch.state.stacks("Japan Sea Zone") if s.unit == "fighter"]
    assert fighter.moved == 2  # 2 of its 4 points left to come back to a carrier or land


@pytest.mark.rule("CL-AIRMOVE-carrier-fighters-move-with-carrier")
def test_fighters_aboard_ride_the_carrier_at_no_cost_or_take_off_first() -> None:
    game = at("United States", "non-combat-move", {
        "Hawaii Sea Zone": "United States: 1 carrier, 1 fighter; United Kingdom: 1 fighter"})
    move(game, "1 carrier", "Hawaii Sea Zone", "Midway Sea Zone", "North Pacific Sea Zone")
    assert units_in(game, "North Pacific Sea Zone", "United States") == {"carrier": 1, "fighter": 1}
    [ours] = [s for s in game.state.stacks("North Pacific Sea Zone")
              if s.unit == "fighter" and s.owner == "United States"]
    assert ours.moved == 0  # its 4 points are still there
    move(game, "1 fighter", "North Pacific Sea Zone", "Midway Sea Zone", "Hawaii Sea Zone", "Hawaiian Islands")
    # the British fighter aboard stays aboard as cargo: it flies only in its own power's turn
    [theirs] = [s for s in game.state.stacks("North Pacific Sea Zone") if s.unit == "fighter"]
    assert theirs.owner == "United Kingdom" and theirs.moved == 0
    rejected(game, mv("1 fighter", "North Pacific Sea Zone", "Midway Sea Zone"), "CL-AIRMOVE-range-per-turn",
             "that can make this move")
    # a fighter that takes off before the carrier moves flies on its own
    off = at("United States", "combat-move", {"Hawaii Sea Zone": "United States: 1 carrier, 1 fighter",
                                              "Japan Sea Zone": "Japan: 1 transport",
                                              "Midway Sea Zone": "Japan: 1 submarine"})
    move(off, "1 fighter", "Hawaii Sea Zone", "Wake Island Sea Zone", "Japan Sea Zone")
    move(off, "1 carrier", "Hawaii Sea Zone", "Midway Sea Zone")
    assert units_in(off, "Midway Sea Zone", "United States") == {"carrier": 1}
    assert units_in(off, "Japan Sea Zone", "United States") == {"fighter": 1}


def _sink_the_carrier(zone: str, path: list[str]) -> Game:
    """The US battleship sinks the Japanese carrier in `zone` (its fighter survives) and breaks off."""
    game = at("United States", "combat-move", {path[0]: "United States: 1 battleship",
                                               zone: "Japan: 1 carrier, 1 fighter"}, dice=[1, 6, 6])
    move(game, "1 battleship", *path)
    end(game)
    game.apply({"type": "fight", "space": zone})
    assert game.state.pending["kind"] == "choose_casualties"
    game.apply({"type": "choose_casualties", "units": "1 carrier"})
    assert game.state.pending["kind"] == "press_or_retreat"
    game.apply({"type": "retreat", "to": path[-2]})
    assert game.state.pending is None
    return game


@pytest.mark.rule("CL-AIRMOVE-defend-on-carrier")
def test_fighters_of_a_sunk_carrier_land_on_an_island_of_its_zone_or_are_lost() -> None:
    island = _sink_the_carrier("Caroline Islands Sea Zone", ["Wake Island Sea Zone", "Caroline Islands Sea Zone"])
    assert units_in(island, "Caroline Islands Sea Zone") == {}
    assert units_in(island, "Caroline Islands") == {"fighter": 1}
    # Kwangtung Sea Zone has only a coast (Kwangtung), no island: the fighter is lost
    coast = _sink_the_carrier("Kwangtung Sea Zone", ["Wake Island Sea Zone", "Japan Sea Zone", "Kwangtung Sea Zone"])
    assert units_in(coast, "Kwangtung Sea Zone") == {} and units_in(coast, "Kwangtung") == {}
    assert not any(s.owner == "Japan" and s.unit == "fighter" for st in coast.state.units.values() for s in st)
