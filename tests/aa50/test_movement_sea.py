"""Anniversary sea movement: enemy transports and submarines alone block nothing, submarines pass warships
without a destroyer, the two canals, the open Black Sea, and non-combat moves beside enemy ships."""

from __future__ import annotations

import pytest

from aare.movement.battles import pending_battles
from tests.aa50.test_movement import RULESETS, at
from tests.movement.helpers import legal, move, mv, rejected, stacks_of, to_phase, turn_began_with


@pytest.mark.rule("AA50-SEAMOVE-basic")
@pytest.mark.parametrize("rules", RULESETS)
def test_ships_move_two_sea_zones(rules: str) -> None:
    game = at(rules, "United States", "non-combat-move", {"SZ 10": "United States: 1 carrier, 1 destroyer"})
    rejected(game, mv("1 carrier", "SZ 10", "SZ 19", "SZ 20", "SZ 21"), "AA50-SEAMOVE-basic", "2 movement left")
    rejected(game, mv("1 carrier", "SZ 10", "Panama"), "AA50-SEAMOVE-basic", "cannot enter Panama")
    move(game, "1 carrier", "SZ 10", "SZ 19", "SZ 20")
    move(game, "1 destroyer", "SZ 10", "SZ 19")
    move(game, "1 destroyer", "SZ 19", "SZ 20")
    rejected(game, mv("1 destroyer", "SZ 20", "SZ 21"), "AA50-SEAMOVE-basic", "0 movement left")


@pytest.mark.rule("AA50-COMBATMOVE-sea-zone-combat")
def test_an_enemy_warship_stops_ships_and_a_sea_battle_follows() -> None:
    game = at("aa50-1941", "United Kingdom", "combat-move", {
        "SZ 13": "United Kingdom: 1 cruiser", "SZ 14": "Italy: 1 destroyer", "SZ 15": "Italy: 1 transport"})
    rejected(game, mv("1 cruiser", "SZ 13", "SZ 14", "SZ 15"), "AA50-COMBATMOVE-sea-zone-combat", "must stop there")
    move(game, "1 cruiser", "SZ 13", "SZ 14")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.retreat_to) == ("SZ 14", "sea", ("SZ 13",))
    assert {o: [s.unit for s in st] for o, st in site.defenders.items()} == {"Italy": ["destroyer"]}


@pytest.mark.rule("AA50-SEAMOVE-subs-transports-no-block", "AA50-COMBATMOVE-sea-zone-combat",
                  "AA50-NAVALCOMBAT-sub-not-blocking-control")
@pytest.mark.parametrize("rules", RULESETS)
def test_enemy_transports_and_submarines_alone_do_not_stop_ships(rules: str) -> None:
    units = {"SZ 12": "United Kingdom: 1 cruiser, 1 transport", "SZ 13": "Germany: 1 submarine, 1 transport",
             "SZ 14": "Italy: 1 destroyer"}
    game = at(rules, "United Kingdom", "combat-move", units)
    move(game, "1 cruiser", "SZ 12", "SZ 13", "SZ 14")  # through the sub and transport to the destroyer
    [site] = pending_battles(game.state, game.ruleset)
    assert site.space == "SZ 14"
    ncm = at(rules, "United Kingdom", "non-combat-move", {**units, "SZ 14": ""})
    move(ncm, "1 transport", "SZ 12", "SZ 13", "SZ 14")  # a transport group passes without stopping or fighting
    assert [s.unit for s in stacks_of(ncm, "SZ 14", "transport")] == ["transport"]
    move(ncm, "1 cruiser", "SZ 12", "SZ 13")  # a warship may end its non-combat move among them, no battle follows
    ncm.apply({"type": "end_phase"})
    assert stacks_of(ncm, "SZ 13", "cruiser") and ncm.state.phase == "mobilize"
    attack = at(rules, "United Kingdom", "combat-move", units)
    move(attack, "1 cruiser", "SZ 12", "SZ 13")  # ending among them is an attack on them
    [site] = pending_battles(attack.state, attack.ruleset)
    assert site.space == "SZ 13" and sorted(s.unit for s in site.defenders["Germany"]) == ["submarine", "transport"]


@pytest.mark.rule("AA50-SEAMOVE-subs-pass-through")
def test_a_submarine_passes_enemy_warships_unless_a_destroyer_is_there() -> None:
    units = {"SZ 14": "Germany: 1 submarine", "SZ 13": "United Kingdom: 1 battleship",
             "SZ 12": "United Kingdom: 1 transport"}
    game = at("aa50-1942", "Germany", "combat-move", units)
    move(game, "1 submarine", "SZ 14", "SZ 13", "SZ 12")
    assert [s.space for s in pending_battles(game.state, game.ruleset)] == ["SZ 12"]
    guarded = at("aa50-1942", "Germany", "combat-move", {**units, "SZ 13": "United Kingdom: 1 battleship, 1 destroyer"})
    rejected(guarded, mv("1 submarine", "SZ 14", "SZ 13", "SZ 12"), "AA50-SEAMOVE-subs-pass-through",
             "destroyer in SZ 13")
    move(guarded, "1 submarine", "SZ 14", "SZ 13")  # it may stop there and attack
    ncm = at("aa50-1942", "Germany", "non-combat-move", {**units, "SZ 12": ""})
    move(ncm, "1 submarine", "SZ 14", "SZ 13", "SZ 12")


@pytest.mark.rule("AA50-SEAMOVE-ncm-not-into-enemy", "AA50-SEAMOVE-basic")
@pytest.mark.parametrize("rules", RULESETS)
def test_noncombat_ships_avoid_enemy_warships_but_submarines_may_stay_among_them(rules: str) -> None:
    game = at(rules, "United Kingdom", "non-combat-move", {
        "SZ 6": "United Kingdom: 1 transport, 1 submarine, 1 destroyer", "SZ 5": "Germany: 1 cruiser",
        "SZ 7": "Germany: 1 submarine, 1 transport"})
    rejected(game, mv("1 transport", "SZ 6", "SZ 5"), "AA50-SEAMOVE-ncm-not-into-enemy", "cannot end there")
    rejected(game, mv("1 destroyer", "SZ 6", "SZ 5"), "AA50-SEAMOVE-ncm-not-into-enemy", "cannot end there")
    move(game, "1 submarine", "SZ 6", "SZ 5")
    move(game, "1 destroyer", "SZ 6", "SZ 7")  # only a submarine and a transport there
    passing = at(rules, "United Kingdom", "non-combat-move", {
        "SZ 3": "United Kingdom: 1 transport", "SZ 6": "Germany: 1 cruiser"})
    rejected(passing, mv("1 transport", "SZ 3", "SZ 6", "SZ 7"), "AA50-SEAMOVE-ncm-not-into-enemy", "pass through")


@pytest.mark.rule("AA50-COMBATMOVE-start-in-hostile-sea")
def test_ships_that_start_beside_enemy_ships_may_leave_or_stay_and_fight() -> None:
    units = {"SZ 10": "United States: 1 destroyer; Germany: 1 submarine"}
    leave = at("aa50-1941", "United States", "combat-move", units)
    move(leave, "1 destroyer", "SZ 10", "SZ 9")
    assert pending_battles(leave.state, leave.ruleset) == []
    rejected(to_phase(leave, "non-combat-move"), mv("1 destroyer", "SZ 9", "SZ 1"), "AA50-PHASES-ncm-unmoved-only")
    stay = at("aa50-1941", "United States", "combat-move", units)
    [site] = pending_battles(stay.state, stay.ruleset)
    assert (site.space, site.kind, site.attacker) == ("SZ 10", "sea", "United States")
    assert [s.unit for s in site.attackers] == ["destroyer"]


@pytest.mark.rule("AA50-SEAMOVE-suez")
@pytest.mark.parametrize("rules", RULESETS)
def test_suez_needs_egypt_and_trans_jordan_held_since_the_turn_began(rules: str) -> None:
    uk = at(rules, "United Kingdom", "non-combat-move", {"SZ 15": "United Kingdom: 1 destroyer"})
    move(uk, "1 destroyer", "SZ 15", "SZ 34")
    half = at(rules, "Italy", "non-combat-move", {"SZ 15": "Italy: 1 cruiser"}, owners={"Egypt": "Italy"})
    rejected(half, mv("1 cruiser", "SZ 15", "SZ 34"), "AA50-SEAMOVE-suez", "Egypt and Trans-Jordan")
    both = at(rules, "Italy", "non-combat-move", {"SZ 15": "Italy: 1 cruiser"},
              owners={"Egypt": "Italy", "Trans-Jordan": "Germany"})
    assert legal(both, mv("1 cruiser", "SZ 15", "SZ 34"))
    just_taken = turn_began_with(both, {"Trans-Jordan": "United Kingdom"})
    rejected(just_taken, mv("1 cruiser", "SZ 15", "SZ 34"), "AA50-SEAMOVE-suez")
    shut = at(rules, "United Kingdom", "combat-move", {"SZ 15": "United Kingdom: 1 destroyer",
                                                       "SZ 34": "Italy: 1 transport"}, owners={"Egypt": "Italy"})
    rejected(shut, mv("1 destroyer", "SZ 15", "SZ 34"), "AA50-SEAMOVE-suez")


@pytest.mark.rule("AA50-SEAMOVE-panama")
@pytest.mark.parametrize("rules", RULESETS)
def test_panama_needs_panama_held_since_the_turn_began(rules: str) -> None:
    us = at(rules, "United States", "non-combat-move", {"SZ 20": "United States: 1 carrier"})
    move(us, "1 carrier", "SZ 20", "SZ 19")
    lost = at(rules, "United States", "non-combat-move", {"SZ 20": "United States: 1 carrier"},
              owners={"Panama": "Japan"})
    rejected(lost, mv("1 carrier", "SZ 20", "SZ 19"), "AA50-SEAMOVE-panama", "Panama Canal is closed")
    japan = at(rules, "Japan", "non-combat-move", {"SZ 20": "Japan: 1 destroyer"})
    rejected(japan, mv("1 destroyer", "SZ 20", "SZ 19"), "AA50-SEAMOVE-panama")
    held = at(rules, "Japan", "non-combat-move", {"SZ 20": "Japan: 1 destroyer"}, owners={"Panama": "Japan"})
    move(held, "1 destroyer", "SZ 20", "SZ 19")


@pytest.mark.rule("AA50-SEAMOVE-black-sea-open")
@pytest.mark.parametrize("rules", RULESETS)
def test_the_black_sea_is_open_to_both_sides(rules: str) -> None:
    game = at(rules, "Germany", "non-combat-move", {"SZ 16": "Germany: 2 transports"},
              owners={"Bulgaria Romania": "Soviet Union", "Ukraine": "Soviet Union"})
    move(game, "1 transport", "SZ 16", "SZ 15")
    move(game, "1 transport", "SZ 16", "SZ 14")
    assert sorted(tuple(c.seas) for c in game.ruleset.board.canals) == [("SZ 15", "SZ 34"), ("SZ 19", "SZ 20")]
    soviet = at(rules, "Soviet Union", "non-combat-move", {"SZ 16": "Soviet Union: 1 destroyer"})
    move(soviet, "1 destroyer", "SZ 16", "SZ 15", "SZ 14")
