"""Classic transports on the Classic board: two infantry or one armour or one AA gun, loading and unloading, own
cargo only, amphibious assaults after the sea battle, no retreat, cargo lost with its transport, transports that
fought or retreated, and no blitz after landing."""

from __future__ import annotations

import pytest
from tests.classic.test_move_land import at
from tests.movement.helpers import boat, end, ld, load, move, mv, rejected, stacks_of, to_phase, units_in

from aare.movement import flags
from aare.movement.battles import pending_battles
from aare.state.unit_stacks import Stack


def cargo_of(game: object, space: str) -> list[list[str]]:
    return sorted(sorted(u for _, u in flags.cargo(s)) for s in stacks_of(game, space, "transport")  # type: ignore[arg-type]
                  for _ in range(s.count))


@pytest.mark.rule("CL-TRANSPORT-capacity")
def test_a_transport_carries_two_infantry_or_one_armour_or_one_aa_gun() -> None:
    units = {"West Canada": "United Kingdom: 3 infantry, 1 armour, 1 aa gun",
             "East Canada Sea Zone": "United Kingdom: 1 transport"}
    game = at("United Kingdom", "non-combat-move", units)
    load(game, "1 infantry", "West Canada", "East Canada Sea Zone")
    rejected(game, ld("1 armour", "West Canada", "East Canada Sea Zone"), "CL-TRANSPORT-capacity", "no room")
    rejected(game, ld("1 aa gun", "West Canada", "East Canada Sea Zone"), "CL-TRANSPORT-capacity", "no room")
    load(game, "1 infantry", "West Canada", "East Canada Sea Zone")
    rejected(game, ld("1 infantry", "West Canada", "East Canada Sea Zone"), "CL-TRANSPORT-capacity")
    assert cargo_of(game, "East Canada Sea Zone") == [["infantry", "infantry"]]
    for unit in ("armour", "aa gun"):
        one = at("United Kingdom", "non-combat-move", units)
        load(one, f"1 {unit}", "West Canada", "East Canada Sea Zone")
        rejected(one, ld("1 infantry", "West Canada", "East Canada Sea Zone"), "CL-TRANSPORT-capacity", "no room")
        assert cargo_of(one, "East Canada Sea Zone") == [[unit.replace(" ", "_")]]
    air = at("United Kingdom", "non-combat-move", {"West Canada": "United Kingdom: 1 fighter",
                                                   "East Canada Sea Zone": "United Kingdom: 1 transport"})
    rejected(air, ld("1 fighter", "West Canada", "East Canada Sea Zone"), "CL-TRANSPORT-capacity")


@pytest.mark.rule("CL-TRANSPORT-load-unload", "CL-TRANSPORT-amphibious-assault")
def test_load_move_and_unload_then_neither_moves_again() -> None:
    game = at("Germany", "combat-move", {"Germany": "Germany: 2 infantry", "Baltic Sea Zone": "Germany: 1 transport",
                                         "United Kingdom": "United Kingdom: 1 infantry"})
    rejected(game, ld("1 infantry", "Germany", "North Sea Zone"), "CL-TRANSPORT-load-unload", "not a territory next to")
    load(game, "2 infantry", "Germany", "Baltic Sea Zone")
    move(game, "1 transport, 2 infantry", "Baltic Sea Zone", "North Sea Zone")
    move(game, "2 infantry", "North Sea Zone", "United Kingdom")  # amphibious assault
    rejected(game, mv("1 transport", "North Sea Zone", "Baltic Sea Zone"), "CL-TRANSPORT-load-unload",
             "unloaded this turn")
    rejected(game, mv("1 infantry", "United Kingdom", "North Sea Zone"), "CL-TRANSPORT-no-blitz-after-landing")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.amphibious_from) == ("United Kingdom", "amphibious", ("North Sea Zone",))
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 transport", "North Sea Zone", "Baltic Sea Zone"), "CL-TRANSPORT-load-unload")
    rejected(ncm, mv("1 infantry", "United Kingdom", "North Sea Zone"), "CL-TRANSPORT-no-blitz-after-landing")


@pytest.mark.rule("CL-TRANSPORT-own-cargo")
def test_transports_carry_only_their_own_powers_units() -> None:
    units = {"East Canada": "United Kingdom: 1 armour", "East Canada Sea Zone": "United States: 1 transport"}
    game = at("United Kingdom", "non-combat-move", units)
    rejected(game, ld("1 armour", "East Canada", "East Canada Sea Zone"), "CL-TRANSPORT-own-cargo",
             "only its own power's units")
    assert not any(a.type == "load" for a in game.legal_actions())
    allowed = at("United Kingdom", "non-combat-move", units, options={"allied_transports": True})
    load(allowed, "1 armour", "East Canada", "East Canada Sea Zone")
    assert cargo_of(allowed, "East Canada Sea Zone") == [["armour"]]


@pytest.mark.rule("CL-TRANSPORT-amphibious-assault")
def test_the_sea_battle_comes_first_and_a_surviving_submarine_keeps_the_cargo_aboard() -> None:
    game = at("United States", "combat-move", {
        "Hawaii Sea Zone": "United States: 1 battleship", "Wake Island Sea Zone": "Japan: 1 submarine",
        "Wake Island": "Japan: 1 infantry",
    }, stacks=[("Hawaii Sea Zone", boat("United States", "United States:infantry", "United States:infantry"))],
        dice=[6] * 40)
    move(game, "1 battleship", "Hawaii Sea Zone", "Wake Island Sea Zone")
    move(game, "1 transport, 2 infantry", "Hawaii Sea Zone", "Wake Island Sea Zone")
    move(game, "2 infantry", "Wake Island Sea Zone", "Wake Island")
    sites = pending_battles(game.state, game.ruleset)
    assert [(s.space, s.kind) for s in sites] == [("Wake Island Sea Zone", "sea"), ("Wake Island", "amphibious")]
    assert sites[1].fight_after == ("Wake Island Sea Zone",)
    end(game)
    game.apply({"type": "fight", "space": "Wake Island Sea Zone"})
    while game.state.pending is not None:  # every die misses; the attacker breaks off
        options = game.legal_actions()
        game.apply(next((a for a in options if a.type == "retreat"), options[0]))
    assert units_in(game, "Wake Island Sea Zone", "Japan") == {"submarine": 1}
    assert units_in(game, "Wake Island", "United States") == {}
    assert cargo_of(game, next(
        s for s in game.state.units if stacks_of(game, s, "transport"))) == [["infantry", "infantry"]]


@pytest.mark.rule("CL-TRANSPORT-unloaded-units-no-retreat")
def test_no_attacker_retreats_from_an_amphibious_assault() -> None:
    # cycle 1: every die misses and no retreat is offered; cycle 2: the attackers hit and take India
    game = at("Japan", "combat-move", {"French Indo China": "Japan: 1 fighter", "India": "United Kingdom: 1 infantry"},
              stacks=[("Indian Ocean Sea Zone", boat("Japan", "Japan:infantry", "Japan:infantry"))],
              dice=[6, 6, 6, 6, 1, 1, 1, 6])
    move(game, "2 infantry", "Indian Ocean Sea Zone", "India")
    move(game, "1 fighter", "French Indo China", "India")
    [site] = pending_battles(game.state, game.ruleset)
    assert site.kind == "amphibious" and site.retreat_to == ()
    end(game)
    game.apply({"type": "fight", "space": "India"})
    while game.state.pending is not None:
        assert not any(a.type == "retreat" for a in game.legal_actions())
        game.apply(game.legal_actions()[0])
    assert game.state.owners["India"] == "Japan"
    optional = at("Japan", "combat-move", {"French Indo China": "Japan: 1 fighter",
                                           "India": "United Kingdom: 1 infantry"},
                  stacks=[("Indian Ocean Sea Zone", boat("Japan", "Japan:infantry", "Japan:infantry"))],
                  dice=[6] * 40, options={"amphibious_air_retreat": True})
    move(optional, "2 infantry", "Indian Ocean Sea Zone", "India")
    move(optional, "1 fighter", "French Indo China", "India")
    end(optional)
    optional.apply({"type": "fight", "space": "India"})
    assert optional.state.pending["kind"] == "press_or_retreat" and optional.state.pending["aircraft_only"]


@pytest.mark.rule("CL-TRANSPORT-cargo-lost-with-transport")
def test_cargo_sinks_with_its_transport() -> None:
    game = at("United Kingdom", "combat-move", {"North Sea Zone": "United Kingdom: 1 battleship"},
              stacks=[("Baltic Sea Zone", boat("Germany", "Germany:infantry", "Germany:infantry"))], dice=[1] * 10)
    move(game, "1 battleship", "North Sea Zone", "Baltic Sea Zone")
    end(game)
    game.apply({"type": "fight", "space": "Baltic Sea Zone"})
    while game.state.pending is not None:
        game.apply(game.legal_actions()[0])
    assert units_in(game, "Baltic Sea Zone", "Germany") == {}
    assert not any(s.owner == "Germany" and s.unit == "infantry" for st in game.state.units.values() for s in st)


@pytest.mark.rule("CL-TRANSPORT-retreated-no-unload", "CL-TRANSPORT-after-sea-battle")
def test_a_transport_that_fought_or_retreated_neither_moves_nor_loads_nor_unloads_in_non_combat_move() -> None:
    fought = Stack("United Kingdom", "transport", 1, moved=1,
                   flags=(flags.COMBAT, "cargo=United Kingdom:infantry,United Kingdom:infantry"))
    game = at("United Kingdom", "non-combat-move", {"Karelia S.S.R.": "United Kingdom: 1 infantry"},
              stacks=[("Karelia Sea Zone", fought)])
    rejected(game, mv("1 infantry", "Karelia Sea Zone", "Karelia S.S.R."), "CL-TRANSPORT-after-sea-battle",
             "moved or fought in combat move")
    rejected(game, mv("1 transport, 2 infantry", "Karelia Sea Zone", "North Sea Zone"),
             "CL-TURN-combat-move-then-noncombat")
    assert cargo_of(game, "Karelia Sea Zone") == [["infantry", "infantry"]]


@pytest.mark.rule("CL-TRANSPORT-retreated-no-unload")
def test_a_loaded_transport_that_retreats_keeps_its_cargo_aboard() -> None:
    game = at("United Kingdom", "combat-move", {"North Sea Zone": "United Kingdom: 1 battleship",
                                                "Baltic Sea Zone": "Germany: 1 submarine"},
              stacks=[("North Sea Zone", boat("United Kingdom", "United Kingdom:infantry"))], dice=[6] * 40)
    move(game, "1 battleship", "North Sea Zone", "Baltic Sea Zone")
    move(game, "1 transport, 1 infantry", "North Sea Zone", "Baltic Sea Zone")
    end(game)
    game.apply({"type": "fight", "space": "Baltic Sea Zone"})
    while game.state.pending is not None:
        options = game.legal_actions()
        game.apply(next((a for a in options if a.type == "retreat"), options[0]))
    end(game)
    assert game.state.phase == "non-combat-move"
    rejected(game, mv("1 infantry", "North Sea Zone", "United Kingdom"), "CL-TRANSPORT-after-sea-battle")
    assert cargo_of(game, "North Sea Zone") == [["infantry"]]


@pytest.mark.rule("CL-TRANSPORT-no-blitz-after-landing")
def test_armour_put_ashore_stops_there() -> None:
    game = at("United Kingdom", "combat-move", {"Germany": "Germany: 1 infantry"},
              stacks=[("North Sea Zone", boat("United Kingdom", "United Kingdom:armour"))])
    move(game, "1 armour", "North Sea Zone", "West Europe")
    rejected(game, mv("1 armour", "West Europe", "Germany"), "CL-TRANSPORT-no-blitz-after-landing", "put ashore")
    rejected(to_phase(game, "non-combat-move"), mv("1 armour", "West Europe", "Germany"),
             "CL-TRANSPORT-no-blitz-after-landing")


@pytest.mark.rule("CL-TRANSPORT-after-sea-battle", "CL-TRANSPORT-retreated-no-unload")
def test_unloading_after_a_won_sea_battle_is_an_option_and_never_after_a_retreat() -> None:
    cargo = "cargo=United Kingdom:infantry,United Kingdom:infantry"
    won = Stack("United Kingdom", "transport", 1, moved=1, flags=(flags.COMBAT, cargo, "turn:from=North Sea Zone"))
    retreated = Stack("United Kingdom", "transport", 1, moved=1,
                      flags=(flags.COMBAT, cargo, "turn:from=North Sea Zone"))
    for options, allowed in (({}, False), ({"unload_after_sea_battle": True}, True)):
        game = at("United Kingdom", "non-combat-move", {}, options=options,
                  stacks=[("Baltic Sea Zone", won), ("North Sea Zone", retreated)])
        rejected(game, mv("1 transport, 2 infantry", "Baltic Sea Zone", "North Sea Zone"),
                 "CL-TURN-combat-move-then-noncombat")
        if allowed:
            move(game, "2 infantry", "Baltic Sea Zone", "Karelia S.S.R.")
            assert units_in(game, "Karelia S.S.R.") == {"infantry": 2}
        else:
            rejected(game, mv("2 infantry", "Baltic Sea Zone", "Karelia S.S.R."), "CL-TRANSPORT-after-sea-battle")
        rejected(game, mv("2 infantry", "North Sea Zone", "United Kingdom"), "CL-TRANSPORT-after-sea-battle")


@pytest.mark.rule("CL-TURN-combat-move-purpose", "CL-TRANSPORT-amphibious-assault")
def test_cargo_left_aboard_when_its_one_landing_was_taken_by_a_blitz() -> None:
    """A transport that put one infantry ashore in an empty enemy territory may land nowhere else this turn;
    once armour blitzes through that territory it is friendly, and the second infantry stays aboard: combat
    move may end (self-play found this position)."""
    units = {"Ukraine S.S.R.": "Germany: 2 infantry, 1 armour", "Black Sea Zone": "Germany: 1 transport",
             "Russia": "Russia: 1 infantry"}
    game = at("Germany", "combat-move", units, owners={"Ukraine S.S.R.": "Germany"})
    game.apply({"type": "load", "units": "2 infantry", "territory": "Ukraine S.S.R.", "sea_zone": "Black Sea Zone"})
    move(game, "1 infantry", "Black Sea Zone", "Caucasus")
    move(game, "1 armour", "Ukraine S.S.R.", "Caucasus", "Russia")
    assert game.state.owners["Caucasus"] == "Germany"
    assert cargo_of(game, "Black Sea Zone") == [["infantry"]]
    assert game.is_legal({"type": "end_phase"})
    end(game)
    assert game.state.phase == "conduct-combat"


@pytest.mark.rule("CL-TURN-combat-move-purpose", "CL-TRANSPORT-amphibious-assault")
def test_a_transport_whose_target_coast_was_blitzed_may_stay_loaded() -> None:
    """A transport carrying infantry from an earlier turn sails to the Black Sea to land them in the Caucasus;
    armour then blitzes through the Caucasus, leaving no enemy coast in its reach (Turkey cannot be paid for):
    combat move may still end, the infantry aboard. A transport sailing to a zone with no assault to make is
    refused as it moves."""
    units = {"Ukraine S.S.R.": "Germany: 1 armour", "Russia": "Russia: 1 infantry"}
    loaded = [("West Mediterranean Sea Zone", boat("Germany", "Germany:infantry"))]
    game = at("Germany", "combat-move", units, owners={"Ukraine S.S.R.": "Germany"}, banks={"Germany": 0},
              stacks=loaded)
    move(game, "1 infantry, 1 transport", "West Mediterranean Sea Zone", "Central Mediterranean Sea Zone",
         "Black Sea Zone")
    move(game, "1 armour", "Ukraine S.S.R.", "Caucasus", "Russia")
    assert game.state.owners["Caucasus"] == "Germany"
    end(game)
    assert game.state.phase == "conduct-combat"
    idle = at("Germany", "combat-move", {"Russia": "Russia: 1 infantry"}, owners={"Ukraine S.S.R.": "Germany",
              "Caucasus": "Germany"}, banks={"Germany": 0}, stacks=loaded)
    rejected(idle, mv("1 infantry, 1 transport", "West Mediterranean Sea Zone", "Central Mediterranean Sea Zone",
                      "Black Sea Zone"), "CL-TURN-combat-move-purpose", "no amphibious assault")
