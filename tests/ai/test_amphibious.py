"""Sea lifts (`aare.ai.amphibious`) and the prolike bot's use of them: assaults, ferries, transports bought."""

from __future__ import annotations

import time

from aare.actions import EndPhase, Fight
from aare.ai import ProlikeBot
from aare.ai.amphibious import Lift, Sealift, scratch, verified
from aare.economy.pool import pool
from aare.engine import Game
from aare.scenario import scenario

UK, WEST, NORWAY = "United Kingdom", "Western Europe", "Norway"


def british(phase: str, units: dict[str, str], owners: dict[str, str] | None = None) -> Game:
    """The United Kingdom's `phase` on a cleared board holding only `units`."""
    return scenario("lhtr-1.3", nation=UK, phase=phase, clear=True, units=units, owners=owners)


def play_phase(game: Game, bot: ProlikeBot) -> None:
    """The bot's actions until it ends the phase (the end applied too)."""
    for _ in range(100):
        action = bot.choose(game)
        game.apply(action)
        if isinstance(action, EndPhase):
            return


def test_a_transport_beside_infantry_lifts_it_onto_an_undefended_enemy_coast() -> None:
    game = british("combat-move", {UK: "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 1 transport"})
    sealift = Sealift(game, combat=True)
    assert WEST in sealift.reachable()["SZ 7"]
    [route] = [r for r in sealift.routes() if r.target == WEST and r.path == ("SZ 7",)]
    lift = sealift.lift(route)
    assert isinstance(lift, Lift) and lift.units() == {"infantry": 2} and lift.boarding() == {f"infantry@{UK}": 2}
    assert [a.type for a in lift.actions] == ["load", "move"]  # one Load per territory
    before = game.state.hash()
    assert verified(scratch(game), [lift]) and game.state.hash() == before  # tried on a copy
    for action in lift.actions:
        game.apply(action)
    game.apply(EndPhase())
    if game.is_legal(Fight(space=WEST)):
        game.apply(Fight(space=WEST))
    assert game.state.owners[WEST] == UK
    assert {(s.owner, s.unit, s.count) for s in game.state.units[WEST]} == {(UK, "infantry", 2)}


def test_a_lift_through_an_enemy_fleet_is_not_offered() -> None:
    units = {UK: "United Kingdom: 2 infantry", "SZ 8": "United Kingdom: 1 transport"}
    open_sea = Sealift(british("combat-move", units), combat=True)
    assert {WEST, NORWAY} <= open_sea.reachable()["SZ 8"]
    # Western Europe's zones within reach, SZ 7 and SZ 13, hold German destroyers
    game = british("combat-move", {**units, "SZ 7": "Germany: 1 destroyer", "SZ 13": "Germany: 1 destroyer"})
    sealift = Sealift(game, combat=True)
    routes = sealift.routes()
    assert routes and WEST not in sealift.reachable()["SZ 8"] and NORWAY in sealift.reachable()["SZ 8"]
    assert all("SZ 7" not in r.path and "SZ 13" not in r.path for r in routes)
    for route in routes:  # every lift offered is one the engine accepts
        lift = sealift.lift(route)
        assert lift is not None and verified(scratch(game), [lift])


def test_loading_beside_an_enemy_warship_is_not_offered() -> None:
    game = british("combat-move", {UK: "United Kingdom: 2 infantry",
                                   "SZ 7": "United Kingdom: 1 transport; Germany: 1 destroyer"})
    sealift = Sealift(game, combat=True)
    assert sealift.routes() == [] and sealift.reachable() == {}


def test_the_non_combat_move_ferries_to_a_friendly_coast() -> None:
    game = british("non-combat-move", {UK: "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 1 transport"},
                   owners={WEST: UK})
    sealift = Sealift(game, combat=False)
    targets = {r.target for r in sealift.routes()}
    side = game.ruleset.board.side_of
    assert WEST in targets and all(side(game.state.owners[t]) == side(UK) for t in targets)  # friendly coasts only


def test_lookups_are_fast_on_the_revised_board() -> None:
    game = scenario("lhtr-1.3", nation=UK, phase="combat-move")
    start = time.perf_counter()
    sealift = Sealift(game, combat=True)
    sealift.routes()
    sealift.reachable()
    assert time.perf_counter() - start < 0.5  # about 0.04 s alone on a 2-core machine
    assert sealift.reachable()


def test_prolike_lands_on_an_undefended_coast_it_cannot_reach_by_land() -> None:
    # every territory is empty: the most valuable coast in reach, the German capital, takes one cheap unit
    game = british("combat-move", {UK: "United Kingdom: 3 infantry", "SZ 7": "United Kingdom: 1 transport"})
    play_phase(game, ProlikeBot())
    assert {(s.owner, s.unit, s.count) for s in game.state.units.get("Germany", ())} == {(UK, "infantry", 1)}
    if game.is_legal(Fight(space="Germany")):
        game.apply(Fight(space="Germany"))
    assert game.state.owners["Germany"] == UK


def test_prolike_assaults_by_sea_only_at_its_bar() -> None:
    # 1 infantry and 1 armour against 2 infantry: far below 65 %, no assault
    weak = british("combat-move", {UK: "United Kingdom: 1 infantry, 1 armour", "SZ 7": "United Kingdom: 1 transport",
                                   WEST: "Germany: 2 infantry"})
    play_phase(weak, ProlikeBot())
    assert all(s.owner != UK for s in weak.state.units.get(WEST, ()))
    # two transports and their fighters against 1 infantry: well above it
    strong = british("combat-move", {UK: "United Kingdom: 2 infantry, 2 armour, 2 fighters",
                                     "SZ 7": "United Kingdom: 2 transports", WEST: "Germany: 1 infantry"})
    play_phase(strong, ProlikeBot())
    assert any(s.owner == UK and s.unit != "fighter" for s in strong.state.units.get(WEST, ()))


def test_prolike_ferries_units_with_no_land_route_to_a_front() -> None:
    game = british("non-combat-move", {UK: "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 1 transport",
                                       "Germany": "Germany: 1 infantry"}, owners={WEST: UK})
    play_phase(game, ProlikeBot())
    assert {(s.owner, s.unit, s.count) for s in game.state.units.get(WEST, ())} == {(UK, "infantry", 2)}


def test_prolike_buys_transports_when_no_land_route_leads_to_the_enemy() -> None:
    game = scenario("lhtr-1.3", nation=UK, phase="purchase", clear=True, banks={UK: 40},
                    units={UK: "United Kingdom: 4 infantry, 1 factory"})
    bot = ProlikeBot()
    while not isinstance(action := bot.choose(game), EndPhase):
        game.apply(action)
    bought = pool(game.state, UK)
    assert bought.get("transport", 0) >= 1 and any(game.ruleset.units[u].domain == "land" for u in bought)


def test_prolike_leaves_no_transport_where_the_enemy_would_sink_it() -> None:
    units = {UK: "United Kingdom: 2 infantry", "SZ 7": "United Kingdom: 1 transport"}
    safe = british("combat-move", units)
    play_phase(safe, ProlikeBot())
    assert sum(s.count for s in safe.state.units[UK]) == 1  # one cheap infantry landed on an empty coast
    # four German fighters reach every zone the transport could unload from: it stays home
    exposed = british("combat-move", {**units, "Germany": "Germany: 4 fighters"})
    play_phase(exposed, ProlikeBot())
    assert {(s.owner, s.unit, s.count) for s in exposed.state.units[UK]} == {(UK, "infantry", 2)}
    assert {(s.unit, s.moved) for s in exposed.state.units["SZ 7"]} == {("transport", 0)}
