"""Sea movement: allowance, hostile sea zones, submarine passage, canals, allied zones, and ships that
start the turn beside enemy ships."""

from __future__ import annotations

import pytest

from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.state.unit_stacks import Stack
from tests.movement.helpers import (
    legal,
    move,
    mv,
    position,
    rejected,
    stacks_of,
    to_phase,
    turn_began_with,
    without,
)


@pytest.mark.rule("LHTR-SEAMOVE-allowance")
def test_ships_move_up_to_two_sea_zones() -> None:
    game = position("United States", "non-combat-move", {"SZ 10": "United States: 2 destroyers"})
    assert legal(game, mv("1 destroyer", "SZ 10", "SZ 19"))
    assert legal(game, mv("1 destroyer", "SZ 10", "SZ 19", "SZ 20"))
    rejected(game, mv("1 destroyer", "SZ 10", "SZ 19", "SZ 20", "SZ 21"), "LHTR-SEAMOVE-allowance", "2 movement left")
    rejected(game, mv("1 destroyer", "SZ 10", "Panama"), "LHTR-SEAMOVE-allowance")
    move(game, "1 destroyer", "SZ 10", "SZ 19")
    move(game, "1 destroyer", "SZ 19", "SZ 20")  # the rest of its movement, later in the phase
    rejected(game, mv("1 destroyer", "SZ 20", "SZ 21"), "LHTR-SEAMOVE-allowance", "0 movement left")


@pytest.mark.rule("LHTR-SEAMOVE-hostile-sea-zone-stops")
def test_a_hostile_sea_zone_stops_ships() -> None:
    game = position("United Kingdom", "combat-move", {
        "SZ 13": "United Kingdom: 1 battleship", "SZ 14": "Germany: 1 transport", "SZ 15": "Germany: 1 destroyer",
    })
    rejected(game, mv("1 battleship", "SZ 13", "SZ 14", "SZ 15"), "LHTR-SEAMOVE-hostile-sea-zone-stops")
    move(game, "1 battleship", "SZ 13", "SZ 14")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.retreat_to) == ("SZ 14", "sea", ("SZ 13",))


@pytest.mark.rule("LHTR-SEAMOVE-noncombat-no-hostile")
def test_noncombat_sea_moves_avoid_hostile_zones() -> None:
    game = position("Germany", "non-combat-move", {
        "SZ 6": "Germany: 1 transport", "SZ 7": "United Kingdom: 1 battleship",
    })
    rejected(game, mv("1 transport", "SZ 6", "SZ 7"), "LHTR-SEAMOVE-noncombat-no-hostile", "cannot end")
    rejected(game, mv("1 transport", "SZ 6", "SZ 7", "SZ 8"), "LHTR-SEAMOVE-noncombat-no-hostile", "pass through")
    submerged = position("Germany", "non-combat-move", {"SZ 6": "Germany: 1 transport"},
                         stacks=[("SZ 7", Stack("United Kingdom", "submarine", 1, flags=("submerged",)))])
    move(submerged, "1 transport", "SZ 6", "SZ 7", "SZ 8")


@pytest.mark.rule("LHTR-SEAMOVE-sub-passage")
def test_submarines_pass_hostile_zones_without_an_enemy_destroyer() -> None:
    units = {"SZ 8": "Germany: 1 submarine", "SZ 7": "United Kingdom: 1 transport"}
    ncm = position("Germany", "non-combat-move", units)
    rejected(ncm, mv("1 submarine", "SZ 8", "SZ 7"), "LHTR-SEAMOVE-noncombat-no-hostile")
    move(ncm, "1 submarine", "SZ 8", "SZ 7", "SZ 6")
    combat = position("Germany", "combat-move", {**units, "SZ 6": "United Kingdom: 1 transport"})
    move(combat, "1 submarine", "SZ 8", "SZ 7", "SZ 6")
    guarded = position("Germany", "non-combat-move", {**units, "SZ 7": "United Kingdom: 1 destroyer"})
    rejected(guarded, mv("1 submarine", "SZ 8", "SZ 7", "SZ 6"), "LHTR-SEAMOVE-sub-passage")


@pytest.mark.rule("LHTR-SEAMOVE-one-phase-only")
def test_ships_that_moved_or_fought_in_combat_move_stay() -> None:
    game = position("United Kingdom", "combat-move", {"SZ 6": "United Kingdom: 1 destroyer",
                                                      "SZ 5": "Germany: 1 transport"})
    move(game, "1 destroyer", "SZ 6", "SZ 5")
    won = without(to_phase(game, "non-combat-move"), "SZ 5", "Germany")
    rejected(won, mv("1 destroyer", "SZ 5", "SZ 6"), "LHTR-SEAMOVE-one-phase-only")


@pytest.mark.rule("LHTR-SEAMOVE-start-in-hostile", "LHTR-COMBAT-shared-space-forces-battle")
def test_ships_that_start_beside_enemy_ships_leave_or_fight() -> None:
    units = {"SZ 7": "Germany: 1 submarine; United Kingdom: 1 battleship"}
    stay = position("Germany", "combat-move", units)
    [site] = pending_battles(stay.state, stay.ruleset)
    assert (site.space, site.kind, site.attacker) == ("SZ 7", "sea", "Germany")
    assert [s.unit for s in site.attackers] == ["submarine"] and list(site.defenders) == ["United Kingdom"]
    leave = position("Germany", "combat-move", units)
    move(leave, "1 submarine", "SZ 7", "SZ 6")  # leaving is legal in combat move ...
    [sub] = stacks_of(leave, "SZ 6", "submarine")
    assert flags.WITHDREW in sub.flags and pending_battles(leave.state, leave.ruleset) == []
    ncm = to_phase(leave, "non-combat-move")  # ... and is its move for the turn
    rejected(ncm, mv("1 submarine", "SZ 6", "SZ 5"), "LHTR-SEAMOVE-one-phase-only")


@pytest.mark.rule("LHTR-SEAMOVE-suez-canal")
def test_suez_needs_both_territories_held_since_the_turn_began() -> None:
    uk = position("United Kingdom", "non-combat-move", {"SZ 15": "United Kingdom: 1 destroyer"})
    move(uk, "1 destroyer", "SZ 15", "SZ 34")
    axis = position("Germany", "non-combat-move", {"SZ 15": "Germany: 1 destroyer"}, owners={"Anglo Egypt": "Germany"})
    rejected(axis, mv("1 destroyer", "SZ 15", "SZ 34"), "LHTR-SEAMOVE-suez-canal", "Trans-Jordan")
    both = position("Germany", "non-combat-move", {"SZ 15": "Germany: 1 destroyer"},
                    owners={"Anglo Egypt": "Germany", "Trans-Jordan": "Germany"})
    assert legal(both, mv("1 destroyer", "SZ 15", "SZ 34"))
    just_taken = turn_began_with(both, {"Anglo Egypt": "United Kingdom"})
    rejected(just_taken, mv("1 destroyer", "SZ 15", "SZ 34"), "LHTR-SEAMOVE-suez-canal")


@pytest.mark.rule("LHTR-SEAMOVE-panama-canal")
def test_panama_needs_panama_held_since_the_turn_began() -> None:
    us = position("United States", "non-combat-move", {"SZ 20": "United States: 1 destroyer"})
    move(us, "1 destroyer", "SZ 20", "SZ 19")
    japan = position("Japan", "non-combat-move", {"SZ 20": "Japan: 1 destroyer"})
    rejected(japan, mv("1 destroyer", "SZ 20", "SZ 19"), "LHTR-SEAMOVE-panama-canal")
    taken = turn_began_with(position("Japan", "non-combat-move", {"SZ 20": "Japan: 1 destroyer"},
                                     owners={"Panama": "Japan"}), {"Panama": "United States"})
    rejected(taken, mv("1 destroyer", "SZ 20", "SZ 19"), "LHTR-SEAMOVE-panama-canal")
    held = position("Japan", "non-combat-move", {"SZ 20": "Japan: 1 destroyer"}, owners={"Panama": "Japan"})
    move(held, "1 destroyer", "SZ 20", "SZ 19")


@pytest.mark.rule("LHTR-SEAMOVE-no-strait-control")
def test_no_straits_besides_the_two_canals() -> None:
    game = position("United Kingdom", "non-combat-move", {"SZ 15": "United Kingdom: 1 destroyer",
                                                          "SZ 12": "United Kingdom: 1 destroyer"},
                    owners={"Gibraltar": "Germany"})
    move(game, "1 destroyer", "SZ 15", "SZ 16")
    move(game, "1 destroyer", "SZ 12", "SZ 13")


@pytest.mark.rule("LHTR-SEAMOVE-allied-zones")
def test_allied_ships_neither_block_nor_are_moved() -> None:
    game = position("United States", "non-combat-move", {
        "SZ 1": "United States: 1 transport", "SZ 2": "United Kingdom: 1 battleship",
        "SZ 8": "United Kingdom: 1 destroyer",
    })
    move(game, "1 transport", "SZ 1", "SZ 8", "SZ 2")
    assert {s.owner for s in game.state.stacks("SZ 2")} == {"United States", "United Kingdom"}
    rejected(game, mv("1 destroyer", "SZ 8", "SZ 9"), "LHTR-SEAMOVE-allowance", "United States has 0 destroyers")
