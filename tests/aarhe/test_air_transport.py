"""AARHE air transport: every bomber carries one infantry (two with Heavy Bombers) in non-combat move, set down in
the same action, flying at most half its movement while carrying."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from tests.aarhe.move_common import at
from tests.movement.helpers import move, mv, rejected, units_in

R_CAP, R_SAME, R_RANGE = "AARHE-AIRTRANS-bomber-capacity", "AARHE-AIRTRANS-same-turn", "AARHE-AIRTRANS-combat-range"
EAST = {t: "Germany" for t in ("Karelia S.S.R.", "West Russia", "Archangel", "Russia")}


def with_techs(game: Game, *techs: str) -> Game:
    return Game(GameLog(replace(game.state, techs={"Germany": techs})))


def lift(units: str, *path: str) -> dict[str, Any]:
    return {"type": "air_transport", "units": units, "path": list(path)}


@pytest.mark.rule(R_CAP)
def test_bomber_carries_one_infantry_two_with_heavy_bombers() -> None:
    units = {"Germany": "Germany: 1 bomber, 2 infantry"}
    game = at("Germany", "non-combat-move", units)
    rejected(game, lift("2 infantry", "Germany", "Western Europe"), R_CAP, "fewer than 2 bombers")
    game.apply(lift("1 infantry", "Germany", "Western Europe"))
    assert units_in(game, "Western Europe") == {"bomber": 1, "infantry": 1}
    heavy = with_techs(at("Germany", "non-combat-move", units), "heavy_bombers")
    heavy.apply(lift("2 infantry", "Germany", "Western Europe"))
    assert units_in(heavy, "Western Europe") == {"bomber": 1, "infantry": 2}


@pytest.mark.rule(R_RANGE)
def test_carrying_bomber_flies_half_its_movement_an_empty_one_ferries_four_and_four() -> None:
    units = {"Germany": "Germany: 2 bombers, 1 infantry"}
    game = at("Germany", "non-combat-move", units, owners=EAST)
    rejected(game, lift("1 infantry", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia", "Russia"), R_RANGE,
             "fly at most 3, not 4")
    game.apply(lift("1 infantry", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia"))
    rejected(game, mv("1 bomber", "West Russia", "Karelia S.S.R.", "Eastern Europe", "Germany", "Western Europe"),
             "AARHE-AIRMOVE-ferry-halves", "(3)")
    move(game, "1 bomber", "West Russia", "Karelia S.S.R.", "Eastern Europe", "Germany")
    move(game, "1 bomber", "Germany", "Eastern Europe", "Karelia S.S.R.", "West Russia", "Russia")
    assert units_in(game, "Russia") == {"bomber": 1}


@pytest.mark.rule(R_SAME)
def test_infantry_is_set_down_in_the_same_action_never_left_aboard() -> None:
    game = at("Germany", "non-combat-move", {"Germany": "Germany: 1 bomber, 1 infantry"})
    rejected(game, lift("1 infantry", "Germany", "SZ 5"), R_SAME, "cannot stay aboard")
    game.apply(lift("1 infantry", "Germany", "Eastern Europe"))
    [bomber] = [s for s in game.state.stacks("Eastern Europe") if s.unit == "bomber"]
    assert not bomber.flags or all("cargo" not in f for f in bomber.flags)
    lhtr = at("Germany", "non-combat-move", {"Germany": "Germany: 1 bomber, 1 infantry"}, rules="lhtr-1.3")
    assert not lhtr.is_legal(lift("1 infantry", "Germany", "Eastern Europe"))
