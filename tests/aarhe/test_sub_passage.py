"""AARHE submarines passing enemy destroyers in combat move: the ASW search, the detected submarine's stop and
the undetected one's choice."""

from __future__ import annotations

from typing import Any

import pytest

from aare.movement.battles import pending_battles
from tests.aarhe.common import refused
from tests.aarhe.move_common import at

GER, UK = "Germany", "United Kingdom"
PATH = ["SZ 5", "SZ 6", "SZ 7"]


def passing(subs: int, dice: list[int], phase: str = "combat-move") -> Any:
    """German submarines in SZ 5 sail through SZ 6 (a British destroyer and battleship) to SZ 7 (a transport)."""
    g = at(GER, phase, {"SZ 5": f"{GER}: {subs} submarine", "SZ 6": f"{UK}: 1 destroyer, 1 battleship",
                        "SZ 7": f"{UK}: 1 transport"}, dice=dice)
    g.apply({"type": "move", "units": f"{subs} submarine", "path": PATH})
    return g


def subs(g: Any, zone: str) -> int:
    return sum(s.count for s in g.state.stacks(zone) if s.owner == GER and s.unit == "submarine")


def search_dice(g: Any) -> list[tuple[int, ...]]:
    return [e.values for e in g.log.entries[-1].events if e.type == "dice_rolled" and "ASW search" in e.purpose]


@pytest.mark.rule("AARHE-SUBMOVE-asw-search", "AARHE-SUBMOVE-detected-stop")
def test_a_destroyer_searches_a_passing_submarine_at_two() -> None:
    g = passing(1, [2])
    assert search_dice(g) == [(2,)]
    assert (subs(g, "SZ 6"), subs(g, "SZ 7")) == (1, 0)  # detected: it stops and fights there
    assert g.state.pending is None
    assert {s.space for s in pending_battles(g.state, g.ruleset) if s.kind == "sea"} == {"SZ 6"}
    g = passing(1, [3])
    assert (subs(g, "SZ 6"), subs(g, "SZ 7")) == (0, 1)  # 3 misses: searching at 3 - 1


@pytest.mark.rule("AARHE-SUBMOVE-asw-search")
def test_one_die_per_destroyer_dealt_out_over_the_submarines() -> None:
    g = passing(2, [1])
    assert search_dice(g) == [(1,)]  # one destroyer, one die, against one of the two
    assert (subs(g, "SZ 6"), subs(g, "SZ 7")) == (1, 1)


@pytest.mark.rule("AARHE-SUBMOVE-undetected-choice")
def test_an_undetected_submarine_sails_on_or_stops() -> None:
    g = passing(1, [5])
    assert g.state.pending["kind"] == "sub_passage"
    assert refused(g, {"type": "end_phase"}) != ""
    g.apply({"type": "press"})
    assert (subs(g, "SZ 6"), subs(g, "SZ 7")) == (0, 1) and g.state.pending is None
    g = passing(1, [5])
    assert refused(g, {"type": "designate", "advantage": "stop", "units": "1 submarine", "space": "SZ 8"}) == \
        "AARHE-SUBMOVE-undetected-choice"
    g.apply({"type": "designate", "advantage": "stop", "units": "1 submarine", "space": "SZ 6"})
    assert (subs(g, "SZ 6"), subs(g, "SZ 7")) == (1, 0)


@pytest.mark.rule("AARHE-SUBMOVE-pass-hostile")
def test_destroyers_still_bar_submarines_in_non_combat_move() -> None:
    g = at(GER, "non-combat-move", {"SZ 5": f"{GER}: 1 submarine", "SZ 6": f"{UK}: 1 destroyer"})
    assert refused(g, {"type": "move", "units": "1 submarine", "path": PATH}) == "LHTR-SEAMOVE-sub-passage"
