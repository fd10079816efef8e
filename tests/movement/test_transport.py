"""Transports: capacity, loading and unloading, one territory per turn, cargo loaded in combat move,
amphibious assaults, allied transports, AA guns as cargo."""

from __future__ import annotations

import pytest

from aare.events import UnitsChanged, UnitsRemoved
from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.state.unit_stacks import Stack
from tests.movement.helpers import (
    boat,
    end,
    ld,
    legal,
    load,
    move,
    mv,
    position,
    rejected,
    stacks_of,
    to_phase,
    turn_began_with,
    units_in,
    with_owner,
)

UK_INF = "United Kingdom:infantry"


@pytest.mark.rule("LHTR-TRANSPORT-capacity")
def test_a_transport_carries_one_infantry_and_one_other_or_two_infantry() -> None:
    units = {"United Kingdom": "United Kingdom: 3 infantry, 1 armour, 1 artillery, 1 fighter",
             "SZ 7": "United Kingdom: 1 transport"}
    game = position("United Kingdom", "non-combat-move", units)
    load(game, "1 armour, 1 infantry", "United Kingdom", "SZ 7")
    [loaded] = stacks_of(game, "SZ 7", "transport")
    assert flags.cargo(loaded) == (("United Kingdom", "armour"), ("United Kingdom", "infantry"))
    assert units_in(game, "United Kingdom") == {"infantry": 2, "artillery": 1, "fighter": 1}
    other = position("United Kingdom", "non-combat-move", units)
    rejected(other, ld("1 armour, 1 artillery", "United Kingdom", "SZ 7"), "LHTR-TRANSPORT-capacity", "no room")
    rejected(other, ld("3 infantry", "United Kingdom", "SZ 7"), "LHTR-TRANSPORT-capacity")
    rejected(other, ld("1 fighter", "United Kingdom", "SZ 7"), "LHTR-TRANSPORT-capacity", "cannot board")
    load(other, "2 infantry", "United Kingdom", "SZ 7")


@pytest.mark.rule("LHTR-TRANSPORT-capacity")
def test_loading_spreads_infantry_so_each_transport_keeps_room_for_armour() -> None:
    game = position("United Kingdom", "non-combat-move", {
        "United Kingdom": "United Kingdom: 2 infantry, 2 armour", "SZ 7": "United Kingdom: 2 transports"})
    load(game, "1 infantry", "United Kingdom", "SZ 7")
    load(game, "1 infantry", "United Kingdom", "SZ 7")
    load(game, "2 armour", "United Kingdom", "SZ 7")
    [both] = stacks_of(game, "SZ 7", "transport")
    assert both.count == 2 and flags.cargo(both) == (("United Kingdom", "armour"), ("United Kingdom", "infantry"))


@pytest.mark.rule("LHTR-TRANSPORT-capacity")
def test_the_units_of_one_load_board_one_transport_together() -> None:
    game = position("United Kingdom", "non-combat-move", {
        "United Kingdom": "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 2 transports"})
    load(game, "2 infantry", "United Kingdom", "SZ 7")
    cargo = sorted(len(flags.cargo(s)) for s in stacks_of(game, "SZ 7", "transport") for _ in range(s.count))
    assert cargo == [0, 2]
    move(game, "2 infantry, 1 transport", "SZ 7", "SZ 6")
    assert [flags.cargo(s) for s in stacks_of(game, "SZ 6", "transport")] == [(("United Kingdom", "infantry"),) * 2]


@pytest.mark.rule("LHTR-TRANSPORT-load-from-adjacent")
def test_units_load_unmoved_from_a_territory_next_to_the_transport() -> None:
    game = position("Russia", "non-combat-move", {"Archangel": "Russia: 2 infantry", "Russia": "Russia: 1 infantry",
                                                  "SZ 4": "Russia: 1 transport"})
    move(game, "1 infantry", "Archangel", "Karelia S.S.R.")
    rejected(game, ld("1 infantry", "Karelia S.S.R.", "SZ 4"), "LHTR-TRANSPORT-load-from-adjacent", "not moved")
    rejected(game, ld("1 infantry", "Russia", "SZ 4"), "LHTR-TRANSPORT-load-from-adjacent", "not a territory next")
    load(game, "1 infantry", "Archangel", "SZ 4")
    rejected(game, mv("1 infantry", "Karelia S.S.R.", "Archangel"), "LHTR-LANDMOVE-movement-allowance")


@pytest.mark.rule("LHTR-TRANSPORT-no-load-in-hostile")
def test_no_loading_or_unloading_beside_enemy_ships() -> None:
    units = {"United Kingdom": "United Kingdom: 1 infantry", "SZ 7": "Germany: 1 submarine",
             "Western Europe": "Germany: 1 infantry"}
    stacks = [("SZ 7", boat("United Kingdom", UK_INF))]
    game = position("United Kingdom", "combat-move", units, stacks=stacks)
    rejected(game, ld("1 infantry", "United Kingdom", "SZ 7"), "LHTR-TRANSPORT-no-load-in-hostile")
    rejected(game, mv("1 infantry", "SZ 7", "Western Europe"), "LHTR-TRANSPORT-no-load-in-hostile", "unless you attack")
    ncm = position("United Kingdom", "non-combat-move", units, stacks=stacks)
    rejected(ncm, mv("1 infantry", "SZ 7", "United Kingdom"), "LHTR-TRANSPORT-no-load-in-hostile")
    move(ncm, "1 transport, 1 infantry", "SZ 7", "SZ 8")  # it may move away first
    move(ncm, "1 infantry", "SZ 8", "United Kingdom")


@pytest.mark.rule("LHTR-TRANSPORT-pickup-along-route")
def test_a_transport_loads_moves_loads_again_and_moves_on() -> None:
    game = position("Japan", "non-combat-move", {"Japan": "Japan: 2 infantry", "Kwangtung": "Japan: 1 infantry",
                                                 "SZ 60": "Japan: 1 transport"})
    load(game, "1 infantry", "Japan", "SZ 60")
    move(game, "1 transport, 1 infantry", "SZ 60", "SZ 59")
    load(game, "1 infantry", "Kwangtung", "SZ 59")
    move(game, "1 transport, 2 infantry", "SZ 59", "SZ 36")
    [full] = stacks_of(game, "SZ 36", "transport")
    assert full.moved == 2 and flags.cargo(full) == (("Japan", "infantry"), ("Japan", "infantry"))
    rejected(game, mv("1 transport, 2 infantry", "SZ 36", "SZ 35"), "LHTR-SEAMOVE-allowance")


@pytest.mark.rule("LHTR-TRANSPORT-bridging", "LHTR-TRANSPORT-unload-ends-activity")
def test_bridging_loads_and_unloads_in_place_then_the_transport_is_done() -> None:
    game = position("Japan", "non-combat-move", {"Japan": "Japan: 3 infantry", "SZ 61": "Japan: 1 transport"})
    load(game, "2 infantry", "Japan", "SZ 61")
    move(game, "2 infantry", "SZ 61", "Manchuria")
    assert units_in(game, "Manchuria") == {"infantry": 2}
    rejected(game, ld("1 infantry", "Japan", "SZ 61"), "LHTR-TRANSPORT-unload-ends-activity")
    rejected(game, mv("1 transport", "SZ 61", "SZ 60"), "LHTR-TRANSPORT-unload-ends-activity")
    guarded = position("Japan", "non-combat-move", {"Japan": "Japan: 2 infantry",
                                                    "SZ 61": "Japan: 1 transport; United States: 1 destroyer"})
    rejected(guarded, ld("2 infantry", "Japan", "SZ 61"), "LHTR-TRANSPORT-no-load-in-hostile")


@pytest.mark.rule("LHTR-TRANSPORT-unload-one-territory")
def test_a_transport_unloads_into_one_territory_per_turn() -> None:
    game = position("Germany", "non-combat-move", {},
                    stacks=[("SZ 5", boat("Germany", "Germany:infantry", "Germany:infantry"))])
    move(game, "1 infantry", "SZ 5", "Norway")
    rejected(game, mv("1 infantry", "SZ 5", "Germany"), "LHTR-TRANSPORT-unload-one-territory", "Norway")
    move(game, "1 infantry", "SZ 5", "Norway")
    assert units_in(game, "Norway") == {"infantry": 2}


@pytest.mark.rule("LHTR-TRANSPORT-unload-ends-activity", "LHTR-TRANSPORT-unload-one-territory")
def test_a_transport_that_unloaded_in_combat_move_does_nothing_more() -> None:
    game = position("Germany", "combat-move", {"Karelia S.S.R.": "Russia: 1 infantry"},
                    stacks=[("SZ 5", boat("Germany", "Germany:infantry", "Germany:infantry"))])
    move(game, "1 infantry", "SZ 5", "Karelia S.S.R.")
    end(game)  # cargo loaded on an earlier turn may stay aboard
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 infantry", "SZ 5", "Norway"), "LHTR-TRANSPORT-unload-one-territory")
    rejected(ncm, mv("1 infantry", "SZ 5", "Karelia S.S.R."), "LHTR-LANDMOVE-noncombat-friendly-only")
    rejected(ncm, mv("1 transport, 1 infantry", "SZ 5", "SZ 6"), "LHTR-TRANSPORT-unload-ends-activity")
    taken = with_owner(ncm, "Karelia S.S.R.", "Germany")
    rejected(taken, mv("1 infantry", "SZ 5", "Karelia S.S.R."), "LHTR-TRANSPORT-unload-ends-activity")


@pytest.mark.rule("LHTR-TRANSPORT-offloaded-units-stop")
def test_units_put_ashore_stop_there() -> None:
    game = position("United Kingdom", "combat-move", {"Western Europe": "Germany: 1 infantry"},
                    stacks=[("SZ 7", boat("United Kingdom", "United Kingdom:armour"))])
    move(game, "1 armour", "SZ 7", "Western Europe")
    [armour] = stacks_of(game, "Western Europe", "armour")
    assert flags.value(armour, flags.AMPHIBIOUS) == "SZ 7" and armour.moved == 0
    rejected(game, mv("1 armour", "Western Europe", "Germany"), "LHTR-TRANSPORT-offloaded-units-stop")
    rejected(to_phase(game, "non-combat-move"), mv("1 armour", "Western Europe", "Southern Europe"),
             "LHTR-TRANSPORT-offloaded-units-stop")
    us = position("United States", "non-combat-move", {},
                  stacks=[("SZ 1", boat("United States", "United States:infantry"))])
    move(us, "1 infantry", "SZ 1", "Eastern Canada")
    rejected(us, mv("1 infantry", "Eastern Canada", "Western Canada"), "LHTR-TRANSPORT-offloaded-units-stop")
    rejected(us, ld("1 infantry", "Eastern Canada", "SZ 1"), "LHTR-TRANSPORT-load-from-adjacent")


@pytest.mark.rule("LHTR-TRANSPORT-cm-load-must-assault")
def test_units_loaded_in_combat_move_must_go_ashore_in_the_assault() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 1 transport",
        "Western Europe": "Germany: 1 infantry", "SZ 8": "United States: 1 transport"})
    rejected(game, ld("1 infantry", "United Kingdom", "SZ 8"), "LHTR-TRANSPORT-cm-load-must-assault", "ally")
    load(game, "2 infantry", "United Kingdom", "SZ 7")
    move(game, "1 infantry", "SZ 7", "Western Europe")
    rejected(game, {"type": "end_phase"}, "LHTR-TRANSPORT-cm-load-must-assault")
    move(game, "1 infantry", "SZ 7", "Western Europe")
    end(game)


@pytest.mark.rule("LHTR-TRANSPORT-combat-transport-no-ncm-unload")
def test_a_transport_that_fought_cannot_unload_or_load_in_noncombat_move() -> None:
    game = position("Germany", "combat-move", {"SZ 6": "Germany: 1 destroyer", "SZ 5": "United Kingdom: 1 destroyer",
                                               "Germany": "Germany: 1 infantry"},
                    stacks=[("SZ 6", boat("Germany", "Germany:infantry", "Germany:infantry"))])
    move(game, "1 destroyer, 1 transport, 2 infantry", "SZ 6", "SZ 5")
    ncm = to_phase(game, "non-combat-move")
    ncm.log.state = ncm.state.with_stacks("SZ 5", tuple(s for s in ncm.state.stacks("SZ 5") if s.owner == "Germany"))
    rejected(ncm, mv("2 infantry", "SZ 5", "Germany"), "LHTR-TRANSPORT-combat-transport-no-ncm-unload")
    rejected(ncm, ld("1 infantry", "Germany", "SZ 5"), "LHTR-TRANSPORT-combat-transport-no-ncm-unload")


@pytest.mark.rule("LHTR-TRANSPORT-no-friendly-unload-in-cm")
def test_unloading_into_friendly_territory_waits_for_noncombat_move() -> None:
    stacks = [("SZ 1", boat("United Kingdom", UK_INF))]
    game = position("United Kingdom", "combat-move", {}, stacks=stacks)
    rejected(game, mv("1 infantry", "SZ 1", "Eastern Canada"), "LHTR-TRANSPORT-no-friendly-unload-in-cm")
    move(position("United Kingdom", "non-combat-move", {}, stacks=stacks), "1 infantry", "SZ 1", "Eastern Canada")


@pytest.mark.rule("LHTR-TRANSPORT-amphibious-assault", "LHTR-COMBAT-battle-order", "LHTR-BOMBARD-no-sea-battle",
                  "LHTR-LANDCOMBAT-no-retreat-amphibious")
def test_an_assault_from_a_hostile_zone_waits_for_the_sea_battle() -> None:
    loaded = boat("United States", "United States:armour", "United States:infantry", count=2)
    game = position("United States", "combat-move", {
        "SZ 8": "United States: 1 destroyer, 1 battleship", "SZ 7": "Germany: 1 submarine",
        "Western Europe": "Germany: 2 infantry"}, stacks=[("SZ 8", loaded)])
    move(game, "1 battleship, 1 destroyer, 2 transports, 2 infantry, 2 armour", "SZ 8", "SZ 7")
    move(game, "2 infantry, 2 armour", "SZ 7", "Western Europe")
    sea, land = pending_battles(game.state, game.ruleset)
    assert (sea.space, sea.kind, sea.retreat_to) == ("SZ 7", "sea", ("SZ 8",))
    assert (land.space, land.kind, land.amphibious_from, land.fight_after) == (
        "Western Europe", "amphibious", ("SZ 7",), ("SZ 7",))
    assert land.bombard == () and land.retreat_to == () and land.can_capture
    [boats] = stacks_of(game, "SZ 7", "transport")
    assert flags.value(boats, flags.UNLOADED) == "Western Europe" and flags.cargo(boats) == ()
    assert flags.cargo_list(boats, flags.DROPPED) == (("United States", "armour"), ("United States", "infantry"))
    assert boats.count == 2


@pytest.mark.rule("LHTR-BOMBARD-who-and-when", "LHTR-TURN-combat-move-attack-only")
def test_battleships_may_join_an_assault_to_bombard() -> None:
    game = position("United Kingdom", "combat-move", {
        "SZ 13": "United Kingdom: 1 battleship", "SZ 6": "United Kingdom: 1 destroyer",
        "Western Europe": "Germany: 1 infantry"}, stacks=[("SZ 7", boat("United Kingdom", UK_INF))])
    rejected(game, mv("1 battleship", "SZ 13", "SZ 12", "SZ 7"), "LHTR-TURN-combat-move-attack-only",
             "no amphibious assault")
    move(game, "1 infantry", "SZ 7", "Western Europe")
    move(game, "1 battleship", "SZ 13", "SZ 12", "SZ 7")
    move(game, "1 destroyer", "SZ 6", "SZ 7")  # an escort; destroyers bombard only with Combined Bombardment
    [site] = pending_battles(game.state, game.ruleset)
    assert [(z, s.unit) for z, s in site.bombard] == [("SZ 7", "battleship")]
    end(game)


@pytest.mark.rule("LHTR-TURN-combat-move-attack-only", "LHTR-TRANSPORT-cm-load-must-assault")
def test_a_transport_moves_in_combat_move_only_to_attack_or_to_land_its_cargo() -> None:
    game = position("United Kingdom", "combat-move", {
        "SZ 7": "United Kingdom: 1 transport", "United Kingdom": "United Kingdom: 1 infantry",
        "Western Europe": "Germany: 1 infantry", "SZ 8": "Germany: 1 submarine"})
    rejected(game, mv("1 transport", "SZ 7", "SZ 6"), "LHTR-TURN-combat-move-attack-only", "no amphibious assault")
    load(game, "1 infantry", "United Kingdom", "SZ 7")
    rejected(game, mv("1 transport, 1 infantry", "SZ 7", "SZ 8"), "LHTR-TRANSPORT-cm-load-must-assault")
    move(game, "1 transport, 1 infantry", "SZ 7", "SZ 6")
    rejected(game, {"type": "end_phase"}, "LHTR-TRANSPORT-cm-load-must-assault")
    move(game, "1 infantry", "SZ 6", "Western Europe")
    end(game)


@pytest.mark.rule("LHTR-TRANSPORT-sea-battle-lost")
def test_cargo_rides_with_its_transport_and_sinks_with_it() -> None:
    game = position("Germany", "conduct-combat", {},
                    stacks=[("SZ 5", boat("United Kingdom", "United Kingdom:armour", UK_INF))])
    [loaded] = game.state.stacks("SZ 5")
    retreated = UnitsChanged("SZ 5", loaded, loaded, "SZ 6").apply(game.state)
    assert flags.cargo(retreated.stacks("SZ 6")[0]) == (("United Kingdom", "armour"), ("United Kingdom", "infantry"))
    sunk = UnitsRemoved("SZ 5", loaded, "LHTR-NAVALCOMBAT-transports-in-battle").apply(game.state)
    assert not any(s.owner == "United Kingdom" for stacks in sunk.units.values() for s in stacks)


@pytest.mark.rule("LHTR-TRANSPORT-allied-transports")
def test_allied_transports_load_move_and_unload_on_three_turns() -> None:
    game = position("United Kingdom", "non-combat-move", {
        "United Kingdom": "United Kingdom: 1 infantry", "SZ 8": "United States: 1 transport",
        "Western Europe": "Germany: 1 infantry"})
    load(game, "1 infantry", "United Kingdom", "SZ 8")
    rejected(game, mv("1 infantry", "SZ 8", "United Kingdom"), "LHTR-TRANSPORT-allied-transports")
    rejected(game, mv("1 transport, 1 infantry", "SZ 8", "SZ 7"), "LHTR-SEAMOVE-allowance", "no transports")
    us = to_phase(game, "purchase", "United States")
    end(us)  # entering combat move drops the marks of the UK's turn
    us = to_phase(us, "non-combat-move")
    move(us, "1 transport, 1 infantry", "SZ 8", "SZ 7")
    uk = to_phase(us, "combat-move", "United Kingdom")
    move(uk, "1 infantry", "SZ 7", "Western Europe")
    [site] = pending_battles(uk.state, uk.ruleset)
    assert site.kind == "amphibious" and site.amphibious_from == ("SZ 7",)


@pytest.mark.rule("LHTR-TRANSPORT-aa-gun-cargo")
def test_aa_guns_load_and_unload_only_in_noncombat_move() -> None:
    units = {"United Kingdom": "United Kingdom: 1 aa gun, 1 infantry", "SZ 7": "United Kingdom: 1 transport",
             "Western Europe": "Germany: 1 infantry"}
    rejected(position("United Kingdom", "combat-move", units), ld("1 aa gun", "United Kingdom", "SZ 7"),
             "LHTR-TRANSPORT-aa-gun-cargo")
    aa_aboard = [("SZ 6", boat("United Kingdom", "United Kingdom:aa_gun"))]
    rejected(position("United Kingdom", "combat-move", units, stacks=aa_aboard),
             mv("1 aa gun", "SZ 6", "Western Europe"), "LHTR-TRANSPORT-aa-gun-cargo")
    ncm = position("United Kingdom", "non-combat-move", units)
    load(ncm, "1 aa gun, 1 infantry", "United Kingdom", "SZ 7")
    move(ncm, "1 transport, 1 aa gun, 1 infantry", "SZ 7", "SZ 6")


@pytest.mark.rule("LHTR-TRANSPORT-ncm-unload-captured")
def test_noncombat_unloading_into_a_territory_taken_this_turn() -> None:
    game = turn_began_with(position("Germany", "non-combat-move", {"Karelia S.S.R.": "Germany: 1 armour"},
                                    owners={"Karelia S.S.R.": "Germany"},
                                    stacks=[("SZ 5", boat("Germany", "Germany:infantry"))]),
                           {"Karelia S.S.R.": "Russia"})
    move(game, "1 infantry", "SZ 5", "Karelia S.S.R.")
    assert units_in(game, "Karelia S.S.R.") == {"infantry": 1, "armour": 1}
    assert legal(game, mv("1 infantry", "SZ 5", "Karelia S.S.R.")) is False


@pytest.mark.rule("LHTR-TRANSPORT-cm-load-must-assault")
def test_cargo_stays_aboard_when_other_moves_took_every_coast_it_could_reach() -> None:
    aboard = Stack("Germany", "transport", 1, moved=2, flags=(
        "cargo=Germany:infantry", "turn:boarded=Germany:infantry", "turn:combat"))
    game = position("Germany", "combat-move", {"Archangel": "Russia: 1 infantry"}, stacks=[("SZ 5", aboard)],
                    owners={"Karelia S.S.R.": "Germany"})
    end(game)  # every coast of SZ 5 is friendly (Karelia was blitzed): the load stands, the cargo stays aboard
    [boat_] = [s for s in game.state.stacks("SZ 5") if s.unit == "transport"]
    assert flags.cargo(boat_) == (("Germany", "infantry"),)
    russian = position("Germany", "combat-move", {"Karelia S.S.R.": "Russia: 1 infantry"}, stacks=[("SZ 5", aboard)])
    rejected(russian, {"type": "end_phase"}, "LHTR-TRANSPORT-cm-load-must-assault")


@pytest.mark.rule("LHTR-TRANSPORT-cm-load-must-assault", "LHTR-SEAMOVE-start-in-hostile")
def test_a_transport_that_withdrew_loads_in_combat_move_only_next_to_an_enemy_coast() -> None:
    withdrawn = Stack("United Kingdom", "transport", 1, moved=1, flags=("turn:combat", "turn:from=SZ 1",
                                                                         "turn:withdrew"))
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 infantry", "Western Europe": "Germany: 1 infantry"},
        stacks=[("SZ 8", withdrawn)])
    # SZ 8 touches no enemy coast and the transport may not move again: loading would strand the cargo
    rejected(game, {"type": "load", "units": "1 infantry", "territory": "United Kingdom", "sea_zone": "SZ 8"},
             "LHTR-TRANSPORT-cm-load-must-assault")
