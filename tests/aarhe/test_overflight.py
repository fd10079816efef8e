"""AARHE fire at aircraft flying over enemy territory in combat move: the territory's IDs and the enemy's aircraft
there but bombers each search and attack once."""

from __future__ import annotations

from typing import Any

import pytest

from aare.movement import flags
from aare.movement.situation import situation
from tests.aarhe.move_common import at

UK, GER = "United Kingdom", "Germany"
PATH = ["United Kingdom", "SZ 7", "Western Europe", "Germany"]


def raid(defenders: str, dice: list[int]) -> Any:
    """Two British bombers fly over Western Europe (Paris: one built-in ID) to attack Germany."""
    g = at(UK, "combat-move", {"United Kingdom": f"{UK}: 2 bomber", "Western Europe": f"{GER}: {defenders}",
                               "Germany": f"{GER}: 1 infantry"}, dice=dice + [6] * 20)
    g.apply({"type": "move", "units": "2 bomber", "path": PATH})
    g.apply({"type": "end_phase"})
    return g


def rolled(g: Any) -> list[tuple[str, tuple[int, ...]]]:
    return [(e.purpose, e.values) for e in g.log.entries[-1].events if e.type == "dice_rolled"]


def bombers(g: Any) -> list[Any]:
    return [s for s in g.state.stacks("Germany") if s.unit == "bomber"]


@pytest.mark.rule("AARHE-ID-overflight-fire")
def test_the_ids_of_an_overflown_territory_search_and_attack_once() -> None:
    # Paris's ID searches one bomber (1: detected) and attacks it (1: destroyed)
    g = raid("1 infantry", [1, 1])
    dice = rolled(g)
    assert [p.split(": ")[1] for p, _ in dice] == ["id search", "id attack"]
    assert [d for _, d in dice] == [(1,), (1,)]
    assert sum(s.count for s in bombers(g)) == 1
    # a miss in the search: no attack die, both fly on
    g = raid("1 infantry", [4])
    assert len(rolled(g)) == 1 and sum(s.count for s in bombers(g)) == 2


@pytest.mark.rule("AARHE-AIRMOVE-overflight-interception", "AARHE-ID-overflight-fire")
def test_fighters_below_act_as_ids_and_a_repelled_bomber_aborts() -> None:
    # the ID and the fighter search one bomber each (1, 6); both attack the one detected (2, 6): repelled
    g = raid("1 fighter, 1 bomber", [1, 6, 2, 6])
    search, attack = rolled(g)
    assert search[1] == (1, 6) and attack[1] == (2, 6)
    stacks = bombers(g)
    assert sum(s.count for s in stacks) == 2
    aborted = [s for s in stacks if not flags.has(s, flags.COMBAT)]
    assert [s.count for s in aborted] == [1] and flags.has(aborted[0], flags.RETREATED)


@pytest.mark.rule("AARHE-AIRMOVE-overflight-interception")
def test_enemy_bombers_below_do_not_intercept() -> None:
    # Norway has no complex, no city and no ID: its fighters make it fire, its bombers do not
    for below, fires in (("1 bomber", False), ("1 fighter", True), ("1 fighter, 1 bomber", True)):
        g = at(UK, "combat-move", {"United Kingdom": f"{UK}: 2 bomber", "Norway": f"{GER}: {below}"})
        spaces = situation(g.state, g.ruleset).flyover_aa
        assert ("Norway" in spaces) == fires
        assert spaces.get("Western Europe") == "AARHE-ID-overflight-fire"  # Paris
