"""Aircraft: range over both movement phases, landing spots (held since the turn began, carriers, hovering
for a new carrier), no kamikaze attacks, AA flyover marks, bombing raids."""

from __future__ import annotations

import pytest

from aare.events import UnitsRemoved
from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.movement.graph import graph_of
from aare.movement.landing import carrier_lost_spots
from aare.movement.pathing import air_routes
from aare.movement.situation import situation
from aare.state.unit_stacks import Stack
from tests.movement.helpers import (
    end,
    legal,
    move,
    mv,
    position,
    rejected,
    stacks_of,
    to_phase,
    turn_began_with,
    units_in,
    with_owner,
    without,
)


@pytest.mark.rule("LHTR-AIRMOVE-range")
def test_air_movement_covers_both_movement_phases() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 fighter", "Western Europe": "Germany: 1 infantry",
    })
    move(game, "1 fighter", "United Kingdom", "SZ 7", "Western Europe")
    [fighter] = stacks_of(game, "Western Europe", "fighter")
    assert fighter.moved == 2
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 fighter", "Western Europe", "SZ 6", "SZ 3", "United Kingdom"), "LHTR-AIRMOVE-range",
             "2 movement left")
    move(ncm, "1 fighter", "Western Europe", "SZ 7", "United Kingdom")


@pytest.mark.rule("LHTR-TECH-long-range-aircraft")
def test_long_range_aircraft_adds_two() -> None:
    units = {"Germany": "Germany: 1 fighter, 1 bomber"}
    plain = position("Germany", "non-combat-move", units)
    longer = position("Germany", "non-combat-move", units, techs={"Germany": ["long_range_aircraft"]})
    path = ["Germany", "Balkans", "Ukraine S.S.R.", "West Russia", "Belorussia", "Eastern Europe"]
    rejected(plain, mv("1 fighter", *path), "LHTR-AIRMOVE-range")
    assert legal(longer, mv("1 fighter", *path))
    long_way = ["Germany", "Balkans", "SZ 16", "SZ 15", "SZ 14", "SZ 13", "SZ 12", "Algeria"]
    rejected(plain, mv("1 bomber", *long_way), "LHTR-AIRMOVE-range", "6 movement left")
    move(longer, "1 bomber", *long_way)


@pytest.mark.rule("LHTR-AIRMOVE-land-friendly-since-start", "LHTR-LANDMOVE-blitz")
def test_aircraft_cannot_land_where_the_side_took_control_this_turn() -> None:
    game = position("Russia", "purchase", {"Russia": "Russia: 1 armour, 1 fighter"})
    end(game)  # entering combat move records who held what
    assert game.state.phase == "combat-move" and game.state.extra["turn"]["power"] == "Russia"
    move(game, "1 armour", "Russia", "West Russia", "Karelia S.S.R.")
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 fighter", "Russia", "West Russia"), "LHTR-AIRMOVE-land-friendly-since-start")
    move(ncm, "1 fighter", "Russia", "West Russia", "Karelia S.S.R.")
    sinkiang = turn_began_with(position("Russia", "non-combat-move", {"Novosibirsk": "Russia: 1 fighter"}),
                               {"Sinkiang": "Japan"})
    rejected(sinkiang, mv("1 fighter", "Novosibirsk", "Sinkiang"), "LHTR-AIRMOVE-land-friendly-since-start")


@pytest.mark.rule("LHTR-AIRMOVE-carrier-landing")
def test_fighters_land_on_allied_carriers_with_room_bombers_never_at_sea() -> None:
    game = position("United States", "non-combat-move", {
        "India": "United States: 2 fighters, 1 bomber", "SZ 35": "United Kingdom: 1 carrier, 1 fighter",
    })
    rejected(game, mv("1 bomber", "India", "SZ 35"), "LHTR-AIRMOVE-carrier-landing", "cannot land at sea")
    rejected(game, mv("2 fighters", "India", "SZ 35"), "LHTR-AIRMOVE-carrier-landing", "no friendly carrier has room")
    move(game, "1 fighter", "India", "SZ 35")
    rejected(game, mv("1 fighter", "India", "SZ 35"), "LHTR-AIRMOVE-carrier-landing")
    end(game)  # the fighter on the UK carrier is safe
    assert units_in(game, "SZ 35", "United States") == {"fighter": 1}


@pytest.mark.rule("LHTR-AIRMOVE-no-kamikaze")
def test_aircraft_may_attack_only_with_a_landing_spot_in_reach() -> None:
    game = position("Germany", "combat-move", {"Germany": "Germany: 2 bombers",
                                               "SZ 20": "United Kingdom: 1 transport",
                                               "SZ 15": "United Kingdom: 1 transport"})
    far = air_routes(situation(game.state, game.ruleset), "Germany", 6, True)["SZ 20"]
    assert len(far) == 7
    rejected(game, mv("1 bomber", *far), "LHTR-AIRMOVE-no-kamikaze", "0 movement left")
    move(game, "1 bomber", "Germany", "Balkans", "SZ 16", "SZ 15")


@pytest.mark.rule("LHTR-AIRMOVE-carrier-pickup-ncm", "LHTR-AIRMOVE-no-kamikaze")
def test_fighters_may_count_on_a_carrier_moving_in_noncombat_move() -> None:
    units = {"Japan": "Japan: 1 fighter", "SZ 53": "United States: 1 destroyer"}
    path = ["Japan", "SZ 60", "SZ 57", "SZ 52", "SZ 53"]
    rejected(position("Japan", "combat-move", units), mv("1 fighter", *path), "LHTR-AIRMOVE-no-kamikaze")
    game = position("Japan", "combat-move", {**units, "SZ 51": "Japan: 1 carrier"})
    move(game, "1 fighter", *path)
    ncm = without(to_phase(game, "non-combat-move"), "SZ 53", "United States")
    move(ncm, "1 carrier", "SZ 51", "SZ 52", "SZ 53")
    end(ncm)
    assert units_in(ncm, "SZ 53") == {"fighter": 1, "carrier": 1}


@pytest.mark.rule("LHTR-AIRMOVE-hover-over-battle", "LHTR-AIRMOVE-unlanded-destroyed")
def test_attacking_aircraft_stay_over_the_battle_then_must_land_elsewhere() -> None:
    game = turn_began_with(position("Germany", "combat-move", {
        "Eastern Europe": "Germany: 1 infantry", "Norway": "Germany: 1 fighter", "Karelia S.S.R.": "Russia: 1 infantry",
    }), {})
    move(game, "1 infantry", "Eastern Europe", "Karelia S.S.R.")
    move(game, "1 fighter", "Norway", "Karelia S.S.R.")
    # the attack succeeds: Karelia is German now, but was not when the turn began
    won = without(to_phase(game, "non-combat-move"), "Karelia S.S.R.", "Russia")
    won = with_owner(won, "Karelia S.S.R.", "Germany")
    rejected(won, mv("1 fighter", "Karelia S.S.R.", "Eastern Europe", "Karelia S.S.R."),
             "LHTR-AIRMOVE-range", "twice")
    stays = to_phase(won, "non-combat-move")
    events = end(stays)
    assert any(isinstance(e, UnitsRemoved) and e.stack.unit == "fighter" for e in events)
    assert units_in(stays, "Karelia S.S.R.") == {"infantry": 1}
    move(won, "1 fighter", "Karelia S.S.R.", "Eastern Europe")
    end(won)
    assert units_in(won, "Eastern Europe") == {"fighter": 1}


@pytest.mark.rule("LHTR-AIRMOVE-overfly-enemy", "LHTR-AA-no-noncombat-fire")
def test_aircraft_fly_over_enemy_spaces_and_noncombat_flights_draw_no_aa() -> None:
    game = position("Germany", "non-combat-move", {"Ukraine S.S.R.": "Germany: 1 fighter",
                                                   "Caucasus": "Russia: 1 aa gun, 1 infantry"})
    move(game, "1 fighter", "Ukraine S.S.R.", "Caucasus", "West Russia")
    [fighter] = stacks_of(game, "West Russia", "fighter")
    assert not flags.values(fighter, flags.FLYOVER) and fighter.moved == 2
    rejected(game, mv("1 fighter", "West Russia", "Caucasus", "Turkey"), "LHTR-LANDMOVE-neutrals-impassable")


@pytest.mark.rule("LHTR-AA-flyover", "LHTR-AIRMOVE-overfly-enemy")
def test_bombers_flying_over_an_aa_gun_in_combat_move_are_marked_not_shot() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber", "Western Europe": "Germany: 1 aa gun, 1 infantry",
        "Southern Europe": "Germany: 1 aa gun, 1 factory, 1 infantry",
    })
    events = move(game, "1 bomber", "United Kingdom", "SZ 7", "Western Europe", "Southern Europe")
    assert [e.type for e in events] == ["units_changed"]  # no dice in movement
    [bomber] = stacks_of(game, "Southern Europe", "bomber")
    assert flags.values(bomber, flags.FLYOVER) == ("Western Europe",)
    sites = pending_battles(game.state, game.ruleset)
    assert [(s.kind, s.space) for s in sites] == [("flyover", "Western Europe"), ("land", "Southern Europe")]
    assert sites[0].overflying == (("Southern Europe", bomber),)
    assert sites[1].can_capture is False  # LHTR-COMBAT-capture: aircraft alone take nothing


@pytest.mark.rule("LHTR-SBR-eligibility")
def test_only_bombers_raid_and_only_enemy_complexes() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber, 1 fighter", "Germany": "Germany: 1 factory, 1 aa gun, 2 infantry",
    })
    rejected(game, mv("1 bomber", "United Kingdom", "SZ 3", "Norway", raid=True), "LHTR-SBR-eligibility",
             "no enemy industrial complex")
    rejected(game, mv("1 fighter", "United Kingdom", "SZ 6", "Western Europe", "Germany", raid=True),
             "LHTR-SBR-eligibility", "only bombers")
    move(game, "1 bomber", "United Kingdom", "SZ 6", "Western Europe", "Germany", raid=True)
    [bomber] = stacks_of(game, "Germany", "bomber")
    assert flags.value(bomber, flags.SBR) == "Germany"
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.kind, site.space, site.attackers) == ("bombing", "Germany", (bomber,))
    assert {s.unit for s in site.defenders["Germany"]} == {"factory", "aa_gun", "infantry"}
    rejected(to_phase(game, "non-combat-move"), mv("1 bomber", "Germany", "Western Europe", raid=True),
             "LHTR-SBR-eligibility")


@pytest.mark.rule("LHTR-SBR-bombers-land")
def test_raiding_bombers_fly_home_in_noncombat_move() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber", "Germany": "Germany: 1 factory",
    })
    move(game, "1 bomber", "United Kingdom", "SZ 6", "Western Europe", "Germany", raid=True)
    ncm = to_phase(game, "non-combat-move")
    move(ncm, "1 bomber", "Germany", "Western Europe", "SZ 6", "United Kingdom")
    assert [s.moved for s in stacks_of(ncm, "United Kingdom", "bomber")] == [6]


@pytest.mark.rule("LHTR-AIRMOVE-carrier-fighters-launch", "LHTR-COMBAT-no-joint-attacks")
def test_own_fighters_take_off_allied_fighters_ride_as_cargo() -> None:
    game = position("United States", "combat-move", {
        "SZ 52": "United States: 1 carrier, 1 fighter; United Kingdom: 1 fighter", "SZ 53": "Japan: 1 destroyer",
    })
    move(game, "1 carrier", "SZ 52", "SZ 53")
    [uk] = [s for s in game.state.stacks("SZ 53") if s.owner == "United Kingdom"]
    assert (uk.moved, uk.flags) == (0, ())  # carried, not flying
    move(game, "1 fighter", "SZ 52", "SZ 53")
    [us] = [s for s in game.state.stacks("SZ 53") if s.owner == "United States" and s.unit == "fighter"]
    assert us.moved == 1 and flags.COMBAT in us.flags
    [site] = pending_battles(game.state, game.ruleset)
    assert sorted(s.unit for s in site.attackers) == ["carrier", "fighter"]
    assert site.allied == (uk,)


@pytest.mark.rule("LHTR-MOBILIZE-hover-for-new-carrier")
def test_fighters_may_hover_where_a_carrier_bought_this_turn_will_be_placed() -> None:
    units = {"Eastern Europe": "Germany: 1 fighter", "Germany": "Germany: 1 factory"}
    rejected(position("Germany", "non-combat-move", units), mv("1 fighter", "Eastern Europe", "SZ 5"),
             "LHTR-AIRMOVE-carrier-landing")
    game = position("Germany", "non-combat-move", units, extra={"purchased": {"Germany": {"carrier": 1}}})
    move(game, "1 fighter", "Eastern Europe", "SZ 5")
    end(game)
    [fighter] = stacks_of(game, "SZ 5", "fighter")
    assert flags.HOVER in fighter.flags and game.state.phase == "mobilize"


@pytest.mark.rule("LHTR-MOBILIZE-hover-without-carrier-lost", "LHTR-AIRMOVE-unlanded-destroyed")
def test_fighters_over_the_sea_without_carrier_room_are_lost() -> None:
    over = Stack("Germany", "fighter", 3, moved=3, flags=(flags.COMBAT,))
    game = position("Germany", "non-combat-move", {"Germany": "Germany: 1 factory", "SZ 5": "Germany: 1 carrier"},
                    stacks=[("SZ 5", over)])
    events = end(game)
    lost = [e for e in events if isinstance(e, UnitsRemoved)]
    assert [(e.space, e.stack.count, e.rule_id) for e in lost] == [("SZ 5", 1, "LHTR-AIRMOVE-unlanded-destroyed")]
    assert units_in(game, "SZ 5") == {"fighter": 2, "carrier": 1}


@pytest.mark.rule("LHTR-AIRMOVE-defending-carrier-lost")
def test_fighters_of_a_sunk_carrier_may_go_one_space() -> None:
    game = position("Japan", "conduct-combat", {"SZ 35": "United Kingdom: 1 fighter",
                                                "SZ 34": "United States: 1 carrier, 1 fighter",
                                                "SZ 36": "United Kingdom: 1 carrier, 2 fighters"})
    view = situation(game.state, game.ruleset, "United Kingdom")
    assert carrier_lost_spots(view, "SZ 35") == ("India", "SZ 34")
    taken = turn_began_with(position("Japan", "conduct-combat", {}, owners={"India": "Japan"}), {})
    assert carrier_lost_spots(situation(taken.state, taken.ruleset, "United Kingdom"), "SZ 35") == ()
    assert graph_of(game.ruleset.board).coast["SZ 35"] == ("India",)
