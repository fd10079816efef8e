"""AARHE Phase 1 AA fire at aircraft flying over: at most 3 guns roll to detect each aircraft (2, 4 with Radar),
jets and heavy bombers are detected at half, only detected aircraft are fired at."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from tests.aarhe.common import end_phase
from tests.aarhe_p1.common import GER, RULES, RUS
from tests.classic.test_move_land import at as board_at
from tests.movement.helpers import move, units_in


def overflight(aircraft: str, dice: list[int], guns: int = 3, techs: dict[str, tuple[str, ...]] | None = None
               ) -> dict[str, int]:
    """German `aircraft` fly from Germany over Eastern Europe (Russian, `guns` AA guns) to attack Ukraine; what
    is left of them once the guns have fired."""
    g = board_at(GER, "combat-move", {"Germany": f"Germany: {aircraft}",
                                     "Eastern Europe": f"Russia: {guns} aa gun",
                                     "Ukraine S.S.R.": "Russia: 1 infantry"},
                 owners={"Eastern Europe": RUS, "Ukraine S.S.R.": RUS}, dice=dice, rules=RULES)
    g = Game(GameLog(replace(g.state, techs=techs or {})), g.dice)
    move(g, aircraft, "Germany", "Eastern Europe", "Ukraine S.S.R.")
    end_phase(g)
    assert g.state.phase == "conduct-combat"
    assert g.dice.position == len(dice)  # type: ignore[union-attr]  # every die scripted was rolled
    return units_in(g, "Ukraine S.S.R.", GER)


@pytest.mark.rule("AARHEP1-OPT-radar-aa-detection")
def test_radar_guns_detect_overflying_aircraft_on_4() -> None:
    # three guns roll 6, 6, 4 at the bomber: undetected without Radar (no die for fire), detected with it, then hit
    assert overflight("1 bomber", [6, 6, 4]) == {"bomber": 1}
    assert overflight("1 bomber", [6, 6, 4, 1], techs={RUS: ("radar",)}) == {}
    # without Radar a 2 detects; the fire die then decides (1 hits, 2 misses)
    assert overflight("1 bomber", [6, 2, 6, 2]) == {"bomber": 1}
    assert overflight("1 bomber", [6, 2, 6, 1]) == {}


@pytest.mark.rule("AARHEP1-OPT-radar-aa-detection")
def test_at_most_3_guns_detect() -> None:
    # four guns: only three dice are rolled at the bomber (the fourth die, a 1, is not used)
    assert overflight("1 bomber", [5, 5, 5], guns=4) == {"bomber": 1}
    assert overflight("1 bomber", [5, 5], guns=2) == {"bomber": 1}


@pytest.mark.rule("AARHEP1-OPT-jet-stealth")
def test_jets_are_detected_at_half() -> None:
    jets = {GER: ("jet_fighters",)}
    assert overflight("1 fighter", [6, 2, 6, 1]) == {}  # a fighter is detected on 2
    assert overflight("1 fighter", [6, 2, 6], techs=jets) == {"fighter": 1}  # a jet only on 1
    assert overflight("1 fighter", [6, 2, 6, 1], techs={**jets, RUS: ("radar",)}) == {}  # on 2 with Radar
    assert overflight("1 fighter", [6, 3, 6], techs={**jets, RUS: ("radar",)}) == {"fighter": 1}


@pytest.mark.rule("AARHEP1-OPT-heavy-bomber-stealth")
def test_heavy_bombers_are_detected_at_half() -> None:
    heavy = {GER: ("heavy_bombers",), RUS: ("radar",)}
    assert overflight("1 bomber", [6, 3, 6, 1], techs={RUS: ("radar",)}) == {}  # a bomber is detected on 3
    assert overflight("1 bomber", [6, 3, 6], techs=heavy) == {"bomber": 1}  # a heavy bomber on 2 with Radar
    assert overflight("1 bomber", [6, 2, 6, 1], techs=heavy) == {}
    assert overflight("1 bomber", [2, 6, 6], techs={GER: ("heavy_bombers",)}) == {"bomber": 1}  # on 1 without
