"""AARHE Phase 1 bombers' bail-out, with Long-range aircraft: a bomber shot down is saved for 10 IPCs and does no
damage that turn; without the technology, or declined, it is lost."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from tests.aarhe.common import end_phase
from tests.aarhe_p1.common import GER, RULES, UK, refused
from tests.classic.test_move_land import at as board_at
from tests.movement.helpers import move, units_in

BAIL = {"type": "designate", "advantage": "bail_out", "units": "1 bomber", "space": "United Kingdom"}


def raided(techs: tuple[str, ...], dice: list[int]) -> Game:
    """Two German bombers from Western Europe have raided the United Kingdom (an AA gun, 30 IPCs)."""
    g = board_at(GER, "combat-move", {"Western Europe": "Germany: 2 bomber",
                                     "United Kingdom": "United Kingdom: 1 aa gun, 1 industrial complex"},
                 banks={GER: 30, UK: 30}, dice=dice, rules=RULES)
    g = Game(GameLog(replace(g.state, techs={GER: techs}, round=2)), g.dice)  # no levy (round 1 only)
    move(g, "2 bomber", "Western Europe", "SZ 7", "United Kingdom", raid=True)
    end_phase(g)
    g.apply(next(a for a in g.legal_actions() if a.type == "fight").to_json())
    return g


@pytest.mark.rule("AARHEP1-OPT-lra-bomber-bailout")
def test_a_bomber_shot_down_is_saved_for_10() -> None:
    g = raided(("long_range_aircraft",), [1, 6, 4])  # the AA gun hits one bomber, the other rolls 4 damage
    assert g.state.banks[UK] == 26
    assert units_in(g, "United Kingdom", GER) == {"bomber": 1}
    assert any(a.type == "designate" for a in g.legal_actions())
    g.apply(BAIL)
    assert g.state.banks[GER] == 20
    assert units_in(g, "United Kingdom", GER) == {"bomber": 2}
    assert g.state.banks[UK] == 26  # the saved bomber did no damage
    assert refused(g, BAIL) == "AARHEP1-OPT-lra-bomber-bailout"  # saved once
    end_phase(g)
    assert g.state.phase == "mobilize"  # placement comes before non-combat move (AARHEP1-TURN)


@pytest.mark.rule("AARHEP1-OPT-lra-bomber-bailout")
def test_without_long_range_aircraft_or_declined_the_bomber_is_lost() -> None:
    g = raided((), [1, 6, 4])
    assert refused(g, BAIL) == "AARHEP1-OPT-lra-bomber-bailout"
    assert not any(a.type == "designate" for a in g.legal_actions())
    declined = raided(("long_range_aircraft",), [1, 6, 4])
    end_phase(declined)
    assert units_in(declined, "United Kingdom", GER) == {"bomber": 1}
    assert declined.state.banks[GER] == 30


@pytest.mark.rule("AARHEP1-OPT-lra-bomber-bailout")
def test_a_bomber_downed_on_its_way_is_saved_out_of_the_battle() -> None:
    g = board_at(GER, "combat-move", {"Germany": "Germany: 1 bomber", "Eastern Europe": "Russia: 3 aa gun",
                                     "Ukraine S.S.R.": "Russia: 1 infantry"},
                 owners={"Eastern Europe": "Russia", "Ukraine S.S.R.": "Russia"}, banks={GER: 30}, dice=[2, 6, 6, 1],
                 rules=RULES)
    g = Game(GameLog(replace(g.state, techs={GER: ("long_range_aircraft",)}, round=2)), g.dice)
    move(g, "1 bomber", "Germany", "Eastern Europe", "Ukraine S.S.R.")
    end_phase(g)  # the guns over Eastern Europe detect the bomber (2) and hit it (1)
    assert units_in(g, "Ukraine S.S.R.", GER) == {}
    g.apply({**BAIL, "space": "Ukraine S.S.R."})
    assert units_in(g, "Ukraine S.S.R.", GER) == {"bomber": 1} and g.state.banks[GER] == 20
    assert not any(a.type == "fight" for a in g.legal_actions())  # it aborted its attack
    end_phase(g)
    assert g.state.phase == "mobilize"
