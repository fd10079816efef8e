"""AARHE Phase 1 fighter movement: fighters from carriers end on carriers, sea battles cost one more, fighters that
did not fight ferry twice."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.movement import flags
from aare.movement.situation import situation
from aare.rulesets.aarhe_p1.air import CARRIER, SEA_BATTLE
from aare.state.unit_stacks import Stack
from tests.aarhe.common import end_phase
from tests.aarhe_p1.common import GER, RULES, UK, US
from tests.classic.test_move_land import at as board_at
from tests.movement.helpers import legal, move, mv, rejected


def at(*args, **kwargs) -> Game:  # type: ignore[no-untyped-def]
    return board_at(*args, rules=RULES, **kwargs)


def to_non_combat(g: Game) -> Game:
    while g.state.phase != "non-combat-move":
        end_phase(g)
    return g


def carrier_game(second_carrier: bool = False) -> Game:
    units = {"SZ 7": "United Kingdom: 1 carrier, 1 fighter", "United Kingdom": "United Kingdom: 1 fighter"}
    if second_carrier:
        units["SZ 6"] = "United Kingdom: 1 carrier"
    return at(UK, "collect-income", units)


@pytest.mark.rule("AARHEP1-FTR-carrier-start-end")
def test_a_fighter_from_a_carrier_ends_the_turn_on_a_carrier() -> None:
    g = to_non_combat(carrier_game(second_carrier=True))
    assert any(flags.value(s, CARRIER) == "SZ 7" for s in g.state.stacks("SZ 7"))
    rejected(g, mv("1 fighter", "SZ 7", "United Kingdom"), "AARHEP1-FTR-carrier-start-end")
    move(g, "1 fighter", "SZ 7", "SZ 6")  # another carrier will do


@pytest.mark.rule("AARHEP1-FTR-carrier-start-end")
def test_a_fighter_whose_carrier_sank_may_land_in_a_territory() -> None:
    g = to_non_combat(carrier_game())
    sunk = replace(g.state, units={**g.state.units, "SZ 7": tuple(s for s in g.state.stacks("SZ 7")
                                                                   if s.unit != "carrier")})
    g = Game(GameLog(sunk))
    move(g, "1 fighter", "SZ 7", "United Kingdom")


@pytest.mark.rule("AARHEP1-FTR-land-start-free")
def test_a_fighter_from_land_may_end_on_land_or_on_a_carrier() -> None:
    g = to_non_combat(carrier_game())
    assert legal(g, mv("1 fighter", "United Kingdom", "SZ 2", "SZ 1", "Eastern Canada"))
    move(g, "1 fighter", "United Kingdom", "SZ 7")
    assert sum(s.count for s in g.state.stacks("SZ 7") if s.unit == "fighter") == 2


@pytest.mark.rule("AARHEP1-FTR-sea-battle-surcharge")
def test_a_flight_to_a_sea_battle_counts_one_space_more() -> None:
    units = {"Germany": "Germany: 2 fighters", "SZ 3": "United Kingdom: 1 transport",
             "SZ 7": "United Kingdom: 1 transport", "Western Europe": "Germany: 1 fighter",
             "Eastern Europe": "Germany: 1 fighter"}
    g = at(GER, "combat-move", units)
    rejected(g, mv("1 fighter", "Eastern Europe", "Germany", "Western Europe", "SZ 6", "SZ 3"),
             "AARHEP1-FTR-sea-battle-surcharge")
    move(g, "1 fighter", "Germany", "Western Europe", "SZ 7")
    flown = next(s for s in g.state.stacks("SZ 7") if s.unit == "fighter")
    assert flags.has(flown, SEA_BATTLE) and flown.moved == 2
    later = replace(g.state, phase="non-combat-move")
    assert g.ruleset.modify("movement_left", 2, view=situation(later, g.ruleset), stack=flown, space="SZ 7") == 1
    # a flight to a land battle is not charged
    land = Stack(GER, "fighter", 1, moved=2, flags=(flags.COMBAT,))
    assert g.ruleset.modify("movement_left", 2, view=situation(later, g.ruleset), stack=land, space="Karelia S.S.R.") \
        == 2


@pytest.mark.rule("AARHEP1-FTR-double-ferry")
def test_a_fighter_that_did_not_fight_ferries_twice_its_movement() -> None:
    g = at(US, "non-combat-move", {"Eastern United States": "United States: 2 fighters"})
    move(g, "1 fighter", "Eastern United States", "Eastern Canada", "SZ 1", "SZ 2", "United Kingdom")
    move(g, "1 fighter", "United Kingdom", "SZ 2", "SZ 1", "Eastern Canada")
    fought = Stack(US, "fighter", 1, moved=1, flags=(flags.COMBAT,))
    g = at(US, "non-combat-move", {}, stacks=[("Eastern Canada", fought)])
    move(g, "1 fighter", "Eastern Canada", "SZ 1", "SZ 2", "United Kingdom")
    rejected(g, mv("1 fighter", "United Kingdom", "SZ 2"), "LHTR-AIRMOVE-range")
