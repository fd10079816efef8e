"""AARHE unit values: the seed's unit table, a carrier's defence by its aircraft and its two hits, and damaged
battleships and carriers repaired next to a friendly industrial complex or victory city."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.odds import build_battle
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe import naval_values as nv
from aare.state.unit_stacks import Stack, add_stack
from tests.aarhe.common import GER, JAP, UK, end_turn, game, status
from tests.aarhe.test_naval_combat import damaged, play, removed

RULES = "aarhe"


@pytest.mark.rule("AARHE-UNIT-table")
def test_the_unit_table_is_the_seeds() -> None:
    units = load_ruleset(RULES).units
    table = {u.id: (u.cost, u.move, u.attack, u.defense, u.hits) for u in units}
    assert {k: table[k] for k in ("artillery", "armour", "fighter", "bomber", "battleship", "carrier", "destroyer",
                                  "submarine", "transport")} == {
        "artillery": (4, 1, 2, 2, 1), "armour": (5, 2, 3, 3, 1), "fighter": (10, 4, 3, 4, 1),
        "bomber": (15, 6, 4, 1, 1), "battleship": (20, 2, 4, 4, 2), "carrier": (16, 3, 1, 1, 2),
        "destroyer": (10, 3, 2, 2, 1), "submarine": (8, 2, 2, 2, 1), "transport": (8, 2, 0, 1, 1)}
    assert units["infantry"].defense == 2 and units["infantry"].move == 1
    # the other rulesets keep Revised's values
    assert load_ruleset("lhtr-1.3").units["destroyer"].cost == 12


def carrier_values(side_units: str, side: str = "defender") -> list[tuple[int, int]]:
    """(value, dice) of the carriers of `side_units` in the main round of a sea battle."""
    b = build_battle("1 destroyer", side_units, RULES, "sea") if side == "defender" else build_battle(
        side_units, "1 destroyer", RULES, "sea")
    return sorted((g.hit_on, g.count) for g in nv.fire_groups(b, side, ("carrier",), "cycle"))  # type: ignore[arg-type]


@pytest.mark.rule("AARHE-UNIT-carrier")
def test_a_carriers_defence_rises_by_one_per_aircraft_aboard() -> None:
    assert carrier_values("1 carrier") == [(1, 1)]
    assert carrier_values("1 carrier, 1 fighter") == [(2, 1)]
    assert carrier_values("1 carrier, 2 fighter") == [(3, 1)]
    assert carrier_values("2 carrier, 3 fighter") == [(2, 1), (3, 1)]  # as many aboard each as it holds
    assert carrier_values("1 carrier, 2 fighter, 1 bomber") == [(3, 1)]  # a bomber is never aboard
    assert carrier_values("1 carrier, 2 fighter", "attacker") == [(1, 1)]  # its attack stays 1


@pytest.mark.rule("AARHE-UNIT-carrier")
def test_a_carrier_takes_two_hits() -> None:
    b, events = play(build_battle("1 battleship", "1 carrier", RULES, "sea"), [1, 6])
    assert not removed(events, "defender") and damaged(b, "defender") == {"carrier": 1}
    assert b.state.cycle == 1 and not b.state.ended


def _damaged_fleets(g: Game) -> Game:
    """British battleship and carrier, both damaged, in SZ 7 (next to the United Kingdom) and in SZ 12 (open sea)."""
    state = g.state
    for zone in ("SZ 7", "SZ 12"):
        for unit in ("battleship", "carrier"):
            state = state.with_stacks(zone, add_stack(state.stacks(zone), Stack(UK, unit, 1, damage=1)))
    return Game(GameLog(state))


def _british(g: Game, zone: str) -> dict[str, int]:
    return {s.unit: s.damage for s in g.state.stacks(zone) if s.owner == UK and s.unit in ("battleship", "carrier")}


@pytest.mark.rule("AARHE-UNIT-capital-ship-repair")
def test_damaged_capital_ships_are_repaired_at_the_turns_start_next_to_a_friendly_complex_or_city() -> None:
    g = game()
    end_turn(g)  # round 1: the Soviet Union alone
    g = _damaged_fleets(g)
    while UK not in g.state.members:  # the Axis team turn, to its end
        for power in (GER, JAP):
            end_turn(g, power)
        assert UK in g.state.members or _british(g, "SZ 7") == {"battleship": 1, "carrier": 1}
    assert status(g, UK) == "acting"
    assert _british(g, "SZ 7") == {"battleship": 0, "carrier": 0}
    assert _british(g, "SZ 12") == {"battleship": 1, "carrier": 1}  # open sea: they stay damaged
