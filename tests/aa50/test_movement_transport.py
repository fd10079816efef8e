"""Anniversary transports: capacity, loading and unloading, units put ashore stop, amphibious assaults, enemy
ships in the transport's zone, cargo lost with its transport, and allied cargo."""

from __future__ import annotations

import pytest

from aare.movement import flags
from aare.movement.battles import pending_battles
from tests.aa50.test_movement import RULESETS, at, fight, settle
from tests.movement.helpers import boat, end, ld, load, move, mv, rejected, stacks_of, to_phase, units_in


@pytest.mark.rule("AA50-TRANSPORT-capacity")
@pytest.mark.parametrize("rules", RULESETS)
def test_a_transport_carries_two_infantry_or_one_infantry_and_one_other(rules: str) -> None:
    units = {"United Kingdom": "United Kingdom: 2 infantry, 2 armour, 1 artillery",
             "SZ 7": "United Kingdom: 1 transport"}
    game = at(rules, "United Kingdom", "non-combat-move", units)
    rejected(game, ld("2 armour", "United Kingdom", "SZ 7"), "AA50-TRANSPORT-capacity", "no room")
    load(game, "1 infantry, 1 armour", "United Kingdom", "SZ 7")
    rejected(game, ld("1 infantry", "United Kingdom", "SZ 7"), "AA50-TRANSPORT-capacity", "no room")
    [loaded] = stacks_of(game, "SZ 7", "transport")
    assert sorted(u for _, u in flags.cargo(loaded)) == ["armour", "infantry"]
    pair = at(rules, "United Kingdom", "non-combat-move", units)
    load(pair, "2 infantry", "United Kingdom", "SZ 7")
    rejected(pair, ld("1 artillery", "United Kingdom", "SZ 7"), "AA50-TRANSPORT-capacity")
    assert units_in(pair, "United Kingdom") == {"armour": 2, "artillery": 1}


@pytest.mark.rule("AA50-TRANSPORT-load-unload")
def test_loading_from_the_coast_and_unloading_once_into_one_territory_ends_the_transports_move() -> None:
    game = at("aa50-1942", "Germany", "non-combat-move", {"Poland": "Germany: 1 infantry"},
              stacks=[("SZ 7", boat("Germany", "Germany:infantry", "Germany:infantry"))])
    rejected(game, ld("1 infantry", "Poland", "SZ 7"), "AA50-TRANSPORT-load-unload", "not a territory next to")
    move(game, "1 infantry", "SZ 7", "France")
    rejected(game, mv("1 infantry", "SZ 7", "Northwestern Europe"), "AA50-TRANSPORT-load-unload",
             "one territory per turn")
    move(game, "1 infantry", "SZ 7", "France")
    rejected(game, mv("1 transport", "SZ 7", "SZ 6"), "AA50-TRANSPORT-load-unload", "unloaded this turn")
    assert units_in(game, "France") == {"infantry": 2}
    sail = at("aa50-1942", "Germany", "non-combat-move", {"Northwestern Europe": "Germany: 1 infantry",
                                                          "SZ 6": "Germany: 1 transport"})
    load(sail, "1 infantry", "Northwestern Europe", "SZ 6")  # load, move and unload in one turn
    move(sail, "1 transport, 1 infantry", "SZ 6", "SZ 3")
    move(sail, "1 infantry", "SZ 3", "Norway")
    assert units_in(sail, "Norway") == {"infantry": 1}


@pytest.mark.rule("AA50-TRANSPORT-land-units-loaded-cant-attack-and-move", "AA50-TRANSPORT-amphibious-assault")
def test_units_put_ashore_stop_there() -> None:
    game = at("aa50-1941", "United Kingdom", "combat-move", {"Germany": "Germany: 1 infantry"},
              stacks=[("SZ 7", boat("United Kingdom", "United Kingdom:armour", "United Kingdom:infantry"))])
    move(game, "1 armour, 1 infantry", "SZ 7", "France")
    rejected(game, mv("1 armour", "France", "Germany"), "AA50-TRANSPORT-land-units-loaded-cant-attack-and-move",
             "put ashore")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.amphibious_from, site.retreat_to) == ("France", "amphibious", ("SZ 7",), ())


@pytest.mark.rule("AA50-TRANSPORT-amphibious-assault")
def test_the_landing_is_called_off_when_the_sea_battle_is_not_won() -> None:
    game = at("aa50-1941", "United States", "combat-move", {
        "SZ 8": "United States: 1 destroyer", "SZ 7": "Germany: 1 cruiser", "France": "Germany: 1 infantry",
    }, stacks=[("SZ 8", boat("United States", "United States:infantry", "United States:infantry"))],
        dice=[6, 6])
    move(game, "1 destroyer, 1 transport, 2 infantry", "SZ 8", "SZ 7")
    move(game, "2 infantry", "SZ 7", "France")
    end(game)
    fight(game, "SZ 7")  # both miss; the attacker withdraws
    assert game.state.pending["kind"] == "press_or_retreat"
    game.apply({"type": "retreat", "to": "SZ 8"})
    assert units_in(game, "France", "United States") == {}
    [transport] = stacks_of(game, "SZ 8", "transport")
    assert flags.cargo(transport) == (("United States", "infantry"), ("United States", "infantry"))
    end(game)


@pytest.mark.rule("AA50-TRANSPORT-unload-from-hostile-sea")
@pytest.mark.parametrize("rules", RULESETS)
def test_an_enemy_submarine_alone_does_not_stop_unloading_but_a_warship_does(rules: str) -> None:
    loaded = boat("United Kingdom", "United Kingdom:infantry")
    subs = at(rules, "United Kingdom", "non-combat-move", {"SZ 7": "Germany: 1 submarine"},
              stacks=[("SZ 8", loaded)])
    move(subs, "1 transport, 1 infantry", "SZ 8", "SZ 7")
    move(subs, "1 infantry", "SZ 7", "United Kingdom")
    assert units_in(subs, "United Kingdom") == {"infantry": 1}
    cruiser = at(rules, "United Kingdom", "non-combat-move", {"SZ 7": "Germany: 1 cruiser"}, stacks=[("SZ 7", loaded)])
    rejected(cruiser, mv("1 infantry", "SZ 7", "United Kingdom"), "AA50-TRANSPORT-unload-from-hostile-sea",
             "no unloading there")
    rejected(cruiser, ld("1 infantry", "United Kingdom", "SZ 7"), "AA50-TRANSPORT-unload-from-hostile-sea",
             "no loading there")


@pytest.mark.rule("AA50-TRANSPORT-lost-with-cargo")
def test_a_sunk_transport_takes_its_cargo_down() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {"SZ 6": "Germany: 1 destroyer"},
              stacks=[("SZ 7", boat("United Kingdom", "United Kingdom:infantry", "United Kingdom:infantry"))],
              dice=[1])
    move(game, "1 destroyer", "SZ 6", "SZ 7")
    end(game)
    fight(game, "SZ 7")
    settle(game)
    assert units_in(game, "SZ 7") == {"destroyer": 1}
    assert not [s for stacks in game.state.units.values() for s in stacks if s.owner == "United Kingdom"]


@pytest.mark.rule("AA50-TRANSPORT-allied-transport")
def test_allied_cargo_loads_and_unloads_on_its_owners_turns_and_sails_on_the_transports() -> None:
    game = at("aa50-1941", "United States", "non-combat-move", {
        "United Kingdom": "United States: 1 infantry", "SZ 7": "United Kingdom: 1 transport",
        "France": "Germany: 1 infantry"})
    load(game, "1 infantry", "United Kingdom", "SZ 7")
    rejected(game, mv("1 infantry", "SZ 7", "United Kingdom"), "AA50-TRANSPORT-allied-transport", "later turn")
    rejected(game, mv("1 transport, 1 infantry", "SZ 7", "SZ 8"), "AA50-SEAMOVE-basic", "no transports")
    uk = to_phase(game, "purchase", "United Kingdom")
    end(uk)  # entering combat move drops the marks of the US turn
    uk = to_phase(uk, "non-combat-move")
    move(uk, "1 transport, 1 infantry", "SZ 7", "SZ 8")
    us = to_phase(uk, "non-combat-move", "United States")
    move(us, "1 infantry", "SZ 8", "United Kingdom")
    assert units_in(us, "United Kingdom", "United States") == {"infantry": 1}
    assert [s.owner for s in stacks_of(us, "SZ 8", "transport")] == ["United Kingdom"]


@pytest.mark.rule("AA50-TRANSPORT-amphibious-no-retreat")
def test_only_the_units_that_came_overland_retreat_from_an_assault() -> None:
    # cycle 1: every die misses; the overland pair retreats; cycle 2: the two landed infantry miss and fall
    game = at("aa50-1942", "Germany", "combat-move", {
        "Northwestern Europe": "Germany: 2 infantry", "France": "United Kingdom: 3 infantry"},
        owners={"France": "United Kingdom"},
        stacks=[("SZ 7", boat("Germany", "Germany:infantry", "Germany:infantry"))],
        dice=[6, 6, 6, 6, 6, 6, 6, 6, 6, 1, 1, 1])
    move(game, "2 infantry", "SZ 7", "France")
    move(game, "2 infantry", "Northwestern Europe", "France")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.kind, site.retreat_to, site.overland_from) == ("amphibious", (), ("Northwestern Europe",))
    end(game)
    fight(game, "France")
    decision = game.state.pending
    assert decision["kind"] == "press_or_retreat" and decision["destinations"] == ["Northwestern Europe"]
    game.apply({"type": "retreat", "to": "Northwestern Europe"})  # the landed pair fights on alone
    settle(game)
    assert units_in(game, "Northwestern Europe", "Germany") == {"infantry": 2}
    assert units_in(game, "France") == {"infantry": 3}
    assert game.state.owners["France"] == "United Kingdom"


@pytest.mark.rule("AA50-TRANSPORT-amphibious-no-retreat")
def test_the_overland_units_reach_their_retreat_even_when_the_landed_units_fight_on_over_several_decisions() -> None:
    """The retreat is remembered past later casualty choices, and each map unit takes the fate of its kind of
    battle unit: the landed ones are lost, the overland ones retreat (self-play found them left in the territory)."""
    game = at("aa50-1942", "Germany", "combat-move", {
        "Northwestern Europe": "Germany: 2 infantry", "France": "United Kingdom: 3 infantry"},
        owners={"France": "United Kingdom"},
        stacks=[("SZ 7", boat("Germany", "Germany:infantry", "Germany:armour"))],
        dice=[6, 6, 6, 6, 6, 6, 6, 6, 6, 1, 6, 6, 6, 1, 6, 6])  # cycles 1, 2 and 3
    move(game, "1 infantry, 1 armour", "SZ 7", "France")
    move(game, "2 infantry", "Northwestern Europe", "France")
    end(game)
    fight(game, "France")
    game.apply({"type": "retreat", "to": "Northwestern Europe"})
    assert game.state.pending["kind"] == "choose_casualties"  # cycle 2: the landed pair takes a hit
    game.apply({"type": "choose_casualties", "units": "1 armour"})
    settle(game)
    assert units_in(game, "Northwestern Europe", "Germany") == {"infantry": 2}
    assert units_in(game, "France") == {"infantry": 3} and game.state.owners["France"] == "United Kingdom"


@pytest.mark.rule("AA50-TRANSPORT-amphibious-no-retreat")
def test_an_assault_from_the_sea_alone_has_no_retreat() -> None:
    # cycle 1: every die misses and no retreat is offered; cycle 2: one hit takes France
    game = at("aa50-1942", "Germany", "combat-move", {"France": "United Kingdom: 1 infantry"},
              owners={"France": "United Kingdom"},
              stacks=[("SZ 7", boat("Germany", "Germany:infantry", "Germany:infantry"))], dice=[6, 6, 6, 1, 6, 6])
    move(game, "2 infantry", "SZ 7", "France")
    end(game)
    fight(game, "France")
    assert game.state.pending is None
    assert game.state.owners["France"] == "Germany" and units_in(game, "France") == {"infantry": 2}


@pytest.mark.rule("AA50-TRANSPORT-amphibious-assault", "AA50-SEAMOVE-subs-transports-no-block")
def test_a_transport_that_moved_into_a_sea_battle_loads_nothing_it_cannot_land() -> None:
    """A transport that joined an attack on a lone submarine stays for that battle: cargo loaded there in combat
    move could go ashore nowhere, so loading is refused and combat move may still end (a dead end self-play found)."""
    units = {"United Kingdom": "United Kingdom: 1 infantry", "SZ 8": "Germany: 1 submarine",
             "SZ 1": "United Kingdom: 1 transport, 1 battleship"}
    game = at("aa50-1942", "United Kingdom", "combat-move", units)
    move(game, "1 transport, 1 battleship", "SZ 1", "SZ 8")
    rejected(game, ld("1 infantry", "United Kingdom", "SZ 8"), "LHTR-TRANSPORT-cm-load-must-assault", "no enemy coast")
    end(game)
    assert game.state.phase == "conduct-combat"
