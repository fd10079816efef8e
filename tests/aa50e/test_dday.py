"""D-Day in Anniversary Enhanced: declared once by the UK at the start of its turn, fought on the US turn by US units
and the UK units the UK did not use, against France and/or Northwestern Europe from Sea Zone 7 (AA50E-DDAY-*)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from aare.combat.board_battle import build_battle
from aare.engine import Game
from aare.game_log import GameLog
from aare.movement.battles import pending_battles
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, count_units
from tests.movement.helpers import rejected

RULES = "aa50e-1941"
GER, JPN, UK, ITA, US = "Germany", "Japan", "United Kingdom", "Italy", "United States"
FRA, NWE, SZ7 = "France", "Northwestern Europe", "SZ 7"
DECLARED = {"d_day": {"status": "declared", "round": 3, "start_closed": 3, "zone_clear": None}}
DEFENCE = {FRA: "Germany: 2 infantry", NWE: "Germany: 1 infantry"}
UK_CARGO = "cargo=United Kingdom:infantry,United Kingdom:infantry"
US_CARGO = "cargo=United States:infantry,United States:infantry"


def uk(unit: str, n: int = 1, *marks: str) -> Stack:
    """Eligible (flagged) UK units."""
    return Stack(UK, unit, n, flags=tuple(sorted(("d-day", *marks))))


def build(nation: str, phase: str, placed: Mapping[str, str], stacks: Iterable[tuple[str, Stack]] = (),
          **kw: Any) -> Game:
    """Round 3 on an empty board but `placed` (a space given "" stays empty) and the German defence."""
    units = {k: v for k, v in {**DEFENCE, **placed}.items() if v}
    game = scenario(RULES, nation=nation, phase=phase, round=3, clear=True, units=units, **kw)
    state = game.state
    for space, stack in stacks:
        state = state.with_stacks(space, (*state.stacks(space), stack))
    return Game(GameLog(state), game.dice)


def through(game: Game, nation: str, phase: str) -> Game:
    """End phases until `nation` is in `phase` (the US acts for itself in its team turn with China)."""
    player = game
    while (player.state.nation, player.state.phase) != (nation, phase):
        player.apply({"type": "end_phase"})
        if game.state.members and nation in game.to_act():
            player = game.acting_as(nation)
    return player


def uk_start(placed: Mapping[str, str], stacks: Iterable[tuple[str, Stack]] = (), **kw: Any) -> Game:
    """The start of UK3."""
    return build(UK, "develop-weapons", placed, stacks, **kw)


def us_turn(placed: Mapping[str, str], stacks: Iterable[tuple[str, Stack]] = (), **kw: Any) -> Game:
    """The US's combat move in round 3 after D-Day was declared at the start of UK3 (`stacks`: flagged UK units)."""
    game = build(ITA, "collect-income", placed, stacks, extra={**DECLARED, **kw.pop("extra", {})}, **kw)
    return through(game, US, "combat-move")


def move(game: Game, units: str, *path: str) -> None:
    game.apply({"type": "move", "units": units, "path": list(path)})


def mv(units: str, *path: str) -> dict[str, Any]:
    return {"type": "move", "units": units, "path": list(path)}


def load(game: Game, units: str, territory: str, zone: str) -> None:
    game.apply({"type": "load", "units": units, "territory": territory, "sea_zone": zone})


def status(game: Game) -> str:
    return str(game.state.extra["d_day"]["status"])


def site(game: Game, space: str) -> Any:
    return next(s for s in pending_battles(game.state, game.ruleset) if s.space == space)


@pytest.mark.rule("AA50E-DDAY-declare-once")
def test_d_day_is_declared_once_at_the_very_start_of_a_uk_turn() -> None:
    game = uk_start({"United Kingdom": "United Kingdom: 2 infantry"})
    assert {"type": "declare_d_day"} in [a.to_json() for a in game.legal_actions()]
    game.apply({"type": "declare_d_day"})
    assert (status(game), game.state.extra["d_day"]["round"]) == ("declared", 3)
    rejected(game, {"type": "declare_d_day"}, "AA50E-DDAY-declare-once", "once a game")
    late = uk_start({}, dice=[6, 6, 6, 6])
    late.apply({"type": "research", "dice": 4, "tech": "radar"})  # something else first
    rejected(late, {"type": "declare_d_day"}, "AA50E-DDAY-declare-once", "start of the United Kingdom's turn")
    purchase = through(uk_start({}), UK, "purchase")
    rejected(purchase, {"type": "declare_d_day"}, "AA50E-DDAY-declare-once")
    rejected(build(GER, "develop-weapons", {}), {"type": "declare_d_day"}, "AA50E-DDAY-declare-once")
    done = uk_start({}, extra={"d_day": {"status": "lapsed", "round": 2, "start_closed": 2}})
    rejected(done, {"type": "declare_d_day"}, "AA50E-DDAY-declare-once", "once a game")


@pytest.mark.rule("AA50E-DDAY-uk-turn-normal", "AA50E-DDAY-used-units-excluded", "AA50E-DDAY-new-uk-units-excluded")
def test_the_uk_plays_its_turn_and_what_it_uses_or_buys_stays_out() -> None:
    game = uk_start({"United Kingdom": "United Kingdom: 2 fighters, 2 infantry, 1 factory",
                     "Norway": "Germany: 1 infantry"}, dice=[1, 6])
    game.apply({"type": "declare_d_day"})
    through(game, UK, "purchase")
    game.apply({"type": "purchase", "units": "2 infantry, 1 transport"})
    through(game, UK, "combat-move")
    move(game, "1 fighter", "United Kingdom", "SZ 6", "Norway")  # an attack with units not kept for D-Day
    through(game, UK, "conduct-combat")
    game.apply({"type": "fight", "space": "Norway"})
    through(game, UK, "non-combat-move")
    move(game, "1 fighter", "Norway", "SZ 6", "United Kingdom")
    through(game, UK, "mobilize")
    game.apply({"type": "place", "units": "2 infantry", "space": "United Kingdom"})
    game.apply({"type": "place", "units": "1 transport", "space": SZ7})
    through(game, UK, "collect-income")
    fighters = [s for sp in ("Norway", "United Kingdom") for s in game.state.stacks(sp) if s.unit == "fighter"]
    assert sorted("d-day" in s.flags for s in fighters) == [False, True]  # the one that attacked lost it
    infantry = [s for s in game.state.stacks("United Kingdom") if s.unit == "infantry"]
    assert sorted((s.count, "d-day" in s.flags) for s in infantry) == [(2, False), (2, True)]
    [boat] = [s for s in game.state.stacks(SZ7) if s.unit == "transport"]
    assert "d-day" not in boat.flags  # bought this turn


@pytest.mark.rule("AA50E-DDAY-us-moves-uk-units")
def test_the_us_player_moves_the_uk_units_into_one_joint_battle() -> None:
    game = uk_start({"United Kingdom": "United Kingdom: 2 infantry, 1 fighter", SZ7: "United Kingdom: 1 transport"},
                    [("SZ 8", Stack(US, "transport", 1, flags=(US_CARGO,)))])
    game.apply({"type": "declare_d_day"})
    us = through(game, US, "combat-move")
    assert status(us) == "declared"
    load(us, "2 infantry", "United Kingdom", SZ7)  # UK infantry onto the UK transport, by the US player
    move(us, "1 transport, 2 infantry", "SZ 8", SZ7)
    move(us, "4 infantry", SZ7, FRA)
    move(us, "1 fighter", "United Kingdom", SZ7, FRA)
    battle = site(us, FRA)
    assert battle.kind == "amphibious" and {s.owner for s in battle.attackers} == {UK, US}
    us.apply({"type": "end_phase"})
    us.apply({"type": "fight", "space": FRA})  # the engine accepts the joint attack
    assert us.state.pending is not None or status(us) == "done"


@pytest.mark.rule("AA50E-DDAY-targets")
def test_d_day_targets_france_and_northwestern_europe_only() -> None:
    game = us_turn({"Norway": "Germany: 1 infantry"},
                   [("United Kingdom", uk("fighter", 2)), ("SZ 6", uk("transport", 1, UK_CARGO))])
    rejected(game, mv("1 fighter", "United Kingdom", "SZ 6", "Norway"), "AA50E-DDAY-targets", "France or Northwestern")
    rejected(game, mv("1 transport, 2 infantry", "SZ 6", "SZ 3"), "AA50E-DDAY-amphibious-from-sz7")
    move(game, "1 fighter", "United Kingdom", SZ7, FRA)
    move(game, "1 fighter", "United Kingdom", "SZ 6", NWE)
    assert {site(game, FRA).space, site(game, NWE).space} == {FRA, NWE}


@pytest.mark.rule("AA50E-DDAY-amphibious-from-sz7")
def test_the_assault_comes_from_sea_zone_7_or_overland_from_germany_or_italy() -> None:
    game = us_turn({}, [("SZ 13", Stack(US, "transport", 1, flags=(US_CARGO,))),
                        (SZ7, Stack(US, "transport", 1, flags=(US_CARGO,))),
                        ("SZ 6", uk("transport", 1, UK_CARGO))])
    rejected(game, mv("2 infantry", "SZ 13", FRA), "AA50E-DDAY-amphibious-from-sz7", "from SZ 7 only")
    rejected(game, mv("2 infantry", "SZ 6", NWE), "AA50E-DDAY-amphibious-from-sz7")
    move(game, "2 infantry", SZ7, FRA)
    assert count_units(game.state.stacks(FRA), US) == {"infantry": 2}
    land = us_turn({"Germany": "United States: 1 armour", "Italy": "United States: 1 armour",
                    "Balkans": "United States: 1 armour"}, owners={"Germany": US, "Italy": US, "Balkans": US})
    move(land, "1 armour", "Germany", NWE)
    move(land, "1 armour", "Italy", FRA)
    rejected(land, mv("1 armour", "Balkans", "Germany", FRA), "AA50E-DDAY-amphibious-from-sz7", "overland from")


@pytest.mark.rule("AA50E-DDAY-air-any-origin")
def test_aircraft_join_from_anywhere_in_range() -> None:
    game = us_turn({"SZ 12": "United States: 1 carrier, 1 fighter", "Eastern Canada": "United States: 1 fighter"},
                   [("Gibraltar", uk("fighter")), ("United Kingdom", uk("bomber"))], owners={"Gibraltar": UK})
    move(game, "1 fighter", "Gibraltar", "SZ 13", FRA)
    move(game, "1 bomber", "United Kingdom", "SZ 6", NWE)
    move(game, "1 fighter", "SZ 12", "SZ 13", FRA)
    assert count_units(site(game, FRA).attackers) == {"fighter": 2}
    before = game.state.hash()
    with pytest.raises(Exception, match="movement|reach|range|land"):
        game.apply(mv("1 fighter", "Eastern Canada", "SZ 9", "SZ 8", SZ7, FRA))  # 5 spaces: out of range
    assert game.state.hash() == before


@pytest.mark.rule("AA50E-DDAY-shared-transports")
def test_us_and_uk_transports_carry_each_others_troops() -> None:
    game = us_turn({"United Kingdom": "United States: 1 infantry"},
                   [("United Kingdom", uk("infantry")), (SZ7, Stack(US, "transport", 1))])
    load(game, "2 infantry", "United Kingdom", SZ7)  # one US and one UK infantry aboard the US transport
    [boat] = [s for s in game.state.stacks(SZ7) if s.unit == "transport"]
    assert "cargo=United Kingdom:infantry,United States:infantry" in boat.flags
    move(game, "2 infantry", SZ7, FRA)
    assert {s.owner for s in game.state.stacks(FRA) if "turn:combat" in s.flags} == {UK, US}
    us_cargo = us_turn({"United Kingdom": "United States: 2 infantry"}, [(SZ7, uk("transport"))])
    load(us_cargo, "2 infantry", "United Kingdom", SZ7)  # US infantry aboard a UK transport
    move(us_cargo, "2 infantry", SZ7, NWE)
    assert count_units(us_cargo.state.stacks(NWE), US) == {"infantry": 2}


@pytest.mark.rule("AA50E-DDAY-shared-transports", "AA50E-DDAY-amphibious-from-sz7")
def test_us_troops_board_a_uk_transport_only_where_it_can_still_reach_sz7() -> None:
    far = us_turn({"Philippine Islands": "United States: 1 infantry"}, [("SZ 50", uk("transport"))])
    rejected(far, {"type": "load", "units": "1 infantry", "territory": "Philippine Islands", "sea_zone": "SZ 50"},
             "AA50E-DDAY-amphibious-from-sz7", "goes only to SZ 7")  # UK ships go only to SZ 7 on D-Day
    near = us_turn({"United Kingdom": "United States: 1 infantry"}, [("SZ 2", uk("transport"))])
    load(near, "1 infantry", "United Kingdom", "SZ 2")
    move(near, "1 infantry, 1 transport", "SZ 2", "SZ 8", SZ7)
    move(near, "1 infantry", SZ7, NWE)
    assert count_units(near.state.stacks(NWE), US) == {"infantry": 1}


@pytest.mark.rule("AA50E-DDAY-targets", "AA50E-DDAY-amphibious-from-sz7")
def test_a_us_transport_with_only_uk_troops_aboard_moves_in_combat_only_towards_sz7() -> None:
    uk_aboard = (("SZ 10", Stack(US, "transport", 1, flags=("cargo=United Kingdom:infantry",))),)
    game = us_turn({}, uk_aboard)  # Morocco Algeria is German: the UK infantry may not land there
    rejected(game, mv("1 infantry, 1 transport", "SZ 10", "SZ 11", "SZ 12"), "AA50E-DDAY-amphibious-from-sz7")
    us_aboard = us_turn({}, [("SZ 10", Stack(US, "transport", 1, flags=("cargo=United States:infantry",)))])
    move(us_aboard, "1 infantry, 1 transport", "SZ 10", "SZ 11", "SZ 12")
    move(us_aboard, "1 infantry", "SZ 12", "Morocco Algeria")  # US troops land anywhere


@pytest.mark.rule("AA50E-DDAY-targets", "AA50E-DDAY-shared-transports")
def test_an_unload_outside_the_targets_takes_the_us_troops_not_the_uk_ones_beside_them() -> None:
    boats = [("SZ 12", Stack(US, "transport", 1, flags=(f"cargo={who}:infantry",))) for who in (UK, US)]
    game = us_turn({}, boats)
    move(game, "1 infantry", "SZ 12", "Morocco Algeria")
    assert count_units(game.state.stacks("Morocco Algeria"), US) == {"infantry": 1}
    assert count_units(game.state.stacks("Morocco Algeria"), UK) == {}


@pytest.mark.rule("AA50E-DDAY-amphibious-from-sz7")
def test_troops_boarded_on_the_us_turn_sail_into_a_sea_battle_only_where_they_may_land() -> None:
    game = us_turn({"Gibraltar": "United States: 1 artillery", "SZ 13": "Germany: 1 destroyer"},
                   [("SZ 12", Stack(US, "transport", 1))], owners={"Morocco Algeria": UK})
    load(game, "1 artillery", "Gibraltar", "SZ 12")
    rejected(game, mv("1 artillery, 1 transport", "SZ 12", "SZ 13"), "AA50E-DDAY-amphibious-from-sz7",
             "D-Day assaults from SZ 7 only")  # France, the one enemy coast of SZ 13, is invaded from SZ 7 only


@pytest.mark.rule("AA50E-DDAY-bombardment")
def test_uk_battleships_and_us_cruisers_bombard_one_per_landing_unit() -> None:
    two = us_turn({SZ7: "United States: 1 cruiser"},
                  [(SZ7, uk("battleship")), (SZ7, Stack(US, "transport", 1, flags=(US_CARGO,)))],
                  dice=[6, 6, 6, 6, 1, 1])
    move(two, "2 infantry", SZ7, FRA)
    assert sorted((s.owner, s.unit) for _, s in site(two, FRA).bombard) == [(UK, "battleship"), (US, "cruiser")]
    battle = build_battle(two.state, two.ruleset, site(two, FRA))
    assert sorted(k.type for k, _ in battle.setup.bombard) == ["battleship", "cruiser"]
    two.apply({"type": "end_phase"})
    two.apply({"type": "fight", "space": FRA})
    rolled = [e for e in two.log.entries[-1].events if e.type == "dice_rolled" and ": bombardment:" in e.purpose]
    assert sum(len(e.values) for e in rolled) == 2  # two land units landing: both ships bombard
    one = us_turn({SZ7: "United States: 1 cruiser", "United Kingdom": "United States: 1 infantry"},
                  [(SZ7, uk("battleship")), (SZ7, Stack(US, "transport", 1))], dice=[6, 6, 1, 1])
    load(one, "1 infantry", "United Kingdom", SZ7)
    move(one, "1 infantry", SZ7, FRA)
    one.apply({"type": "end_phase"})
    one.apply({"type": "fight", "space": FRA})
    rolled = [e for e in one.log.entries[-1].events if e.type == "dice_rolled" and ": bombardment:" in e.purpose]
    assert [len(e.values) for e in rolled] == [1]  # one land unit landing: one of the two ships bombards


@pytest.mark.rule("AA50E-DDAY-aa-per-nation")
def test_aa_fire_is_rolled_per_nation() -> None:
    game = us_turn({FRA: "Germany: 1 infantry, 1 aa_gun", "United Kingdom": "United States: 1 fighter"},
                   [("United Kingdom", uk("fighter", 2))], dice=[1, 6, 6, 6, 6, 6, 6, 6])
    move(game, "3 fighters", "United Kingdom", SZ7, FRA)
    attackers = site(game, FRA).attackers
    assert count_units(attackers, UK) == {"fighter": 2} and count_units(attackers, US) == {"fighter": 1}
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": FRA})
    aa = [e for e in game.log.entries[-1].events if e.type == "dice_rolled" and ": aa fire:" in e.purpose]
    assert sorted(len(e.values) for e in aa) == [1, 2]  # a UK batch and a US batch


@pytest.mark.rule("AA50E-DDAY-forfeit-if-liberated")
def test_no_d_day_once_the_allies_held_france_or_northwestern_europe_before_it_was_declared() -> None:
    game = build(US, "conduct-combat", {NWE: ""}, [(NWE, Stack(US, "armour", 1, flags=("turn:combat",
                                                                                       "turn:from=Germany")))])
    game.apply({"type": "fight", "space": NWE})
    assert game.state.owners[NWE] == US and status(game) == "lost"
    later = uk_start({}, extra={"d_day": dict(game.state.extra["d_day"])})
    rejected(later, {"type": "declare_d_day"}, "AA50E-DDAY-forfeit-if-liberated", "France or Northwestern Europe")
    held = uk_start({}, owners={FRA: UK})
    assert {"type": "declare_d_day"} not in [a.to_json() for a in held.legal_actions()]
    rejected(held, {"type": "declare_d_day"}, "AA50E-DDAY-forfeit-if-liberated")
    # once declared, a target taken before the US turn leaves the other to invade
    taken = uk_start({FRA: ""}, [(SZ7, Stack(UK, "transport", 1, flags=(UK_CARGO,)))], dice=[1, 1, 6, 6])
    taken.apply({"type": "declare_d_day"})
    through(taken, UK, "combat-move")
    move(taken, "2 infantry", SZ7, FRA)  # the UK takes empty France itself on its declaration turn
    taken.apply({"type": "end_phase"})
    taken.apply({"type": "fight", "space": FRA})
    assert taken.state.owners[FRA] == UK and status(taken) == "declared"
