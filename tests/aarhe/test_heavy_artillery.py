"""AARHE heavy artillery firing into a neighbouring battle (option `heavy_artillery`): at -1, from where it stands,
never a casualty there, once a team turn, not while its own territory is attacked."""

from __future__ import annotations

from typing import Any

import pytest

from aare.combat.board_battle import build_battle
from aare.combat.setup import Battle
from aare.movement.battles import pending_battles
from aare.odds import build_battle as build_assault
from tests.aarhe.common import no_missions
from tests.aarhe.move_common import at
from tests.aarhe.test_amphibious import cycle
from tests.aarhe.test_land_combat import fire, rolls
from tests.movement.helpers import end, move, units_in

ON = {"heavy_artillery": True}
GER, RUS = "Germany", "Russia"
R_FIRE, R_SAFE = "AARHE-OPTUNIT-hart-adjacent-fire", "AARHE-OPTUNIT-hart-no-casualty"


def battle_at(g: Any, space: str) -> Battle:
    site = next(s for s in pending_battles(g.state, g.ruleset) if s.space == space)
    return build_battle(g.state, g.ruleset, site)


def shots(b: Battle, dice: list[int]) -> list[tuple[str, str, int, int]]:
    _, events = fire(b, dice)
    return [(r.step, r.unit, r.count, r.hit_on) for r in rolls(events) if r.unit == "heavy_artillery"]


def german_attack(dice: list[int] | None = None, **units: str) -> Any:
    """Germany attacks Karelia (2 Soviet infantry) with 2 infantry from Norway; `units` more on the board, the
    Ukraine Soviet."""
    board = {"Norway": f"{GER}: 2 infantry", "Karelia S.S.R.": f"{RUS}: 2 infantry", **units}
    g = at(GER, "combat-move", board, options=ON, owners={"Ukraine S.S.R.": RUS}, dice=dice)
    move(g, "2 infantry", "Norway", "Karelia S.S.R.")
    return g


@pytest.mark.rule(R_FIRE)
def test_heavy_artillery_fires_into_an_adjacent_attack_at_two() -> None:
    g = german_attack(**{"Eastern Europe": f"{GER}: 1 heavy artillery"})
    assert shots(battle_at(g, "Karelia S.S.R."), [6] * 6) == [("attacker land fire", "heavy_artillery",
                                                               1, 2)]
    far = german_attack(**{"Germany": f"{GER}: 1 heavy artillery"})  # not adjacent to Karelia
    assert shots(battle_at(far, "Karelia S.S.R."), [6] * 4) == []


@pytest.mark.rule(R_FIRE)
def test_heavy_artillery_defends_next_door_unless_its_own_territory_is_attacked() -> None:
    units = {"Archangel": f"{RUS}: 2 infantry", "Karelia S.S.R.": f"{GER}: 2 infantry",
             "Eastern Europe": f"{GER}: 1 heavy artillery", "Belorussia": f"{RUS}: 1 infantry"}
    owners = {"Karelia S.S.R.": GER, "Archangel": RUS, "Belorussia": RUS}
    g = at(RUS, "combat-move", units, owners=owners, options=ON)
    move(g, "2 infantry", "Archangel", "Karelia S.S.R.")
    assert shots(battle_at(g, "Karelia S.S.R."), [6] * 6) == [("defender land fire", "heavy_artillery",
                                                               1, 1)]
    move(g, "1 infantry", "Belorussia", "Eastern Europe")  # now its own territory is under attack
    assert shots(battle_at(g, "Karelia S.S.R."), [6] * 4) == []


@pytest.mark.rule(R_FIRE, R_SAFE)
def test_it_stays_home_is_never_hit_and_fires_into_one_battle_a_turn() -> None:
    g = german_attack(dice=[1, 1, 2, 1, 1], **{"Eastern Europe": f"{GER}: 1 heavy artillery",
                                               "Balkans": f"{GER}: 1 infantry", "Ukraine S.S.R.": f"{RUS}: 1 infantry"})
    move(g, "1 infantry", "Balkans", "Ukraine S.S.R.")
    end(g)
    no_missions(g)
    # Karelia: both infantry and the heavy artillery hit (3 hits on 2 defenders, one lost); the defenders' 2 hits
    # take both attacking infantry, none the heavy artillery, which stays where it was
    g.apply({"type": "fight", "space": "Karelia S.S.R."})
    assert units_in(g, "Karelia S.S.R.") == {} and g.state.pending is None
    assert units_in(g, "Eastern Europe") == {"heavy_artillery": 1}
    assert shots(battle_at(g, "Ukraine S.S.R."), [6] * 4) == []  # spent on Karelia this turn


@pytest.mark.rule(R_FIRE)
def test_it_fires_in_the_landings_first_cycle_too() -> None:
    tags = frozenset({"hart-from:attacker:United Kingdom@Gibraltar=2"})
    b = build_assault("2 infantry", "2 infantry", "aarhe", "amphibious", options=ON, site_tags=tags)
    _, events = cycle(b, [6] * 6)
    assert [(r.step, r.count, r.hit_on) for r in rolls(events) if r.unit == "heavy_artillery"] == [
        ("attacking infantry fire", 2, 2)]
