"""Aircraft that attacked and retreated: in non-combat movement they fly on with the movement points they have left,
in as many moves as those points allow, and land in friendly territory (CL-COMBAT-attacker-retreat,
CL-AIRMOVE-range-per-turn). The candidate moves offered to such a fighter are exactly the ones `apply` accepts."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.scenario import scenario

RULES = "classic-2e"
KARELIA, UKRAINE, EAST_EUROPE = "Karelia S.S.R.", "Ukraine S.S.R.", "East Europe"


def retreated() -> Game:
    """A Russian armour and fighter attack East Europe from Karelia S.S.R. (held with Ukraine S.S.R.), retreat
    after a round of misses and reach non-combat movement: the fighter is still in East Europe, 1 point spent."""
    game = scenario(RULES, nation="Russia", phase="combat-move", clear=[KARELIA, EAST_EUROPE, UKRAINE],
                    units={KARELIA: "Russia: 1 armour, 1 fighter", EAST_EUROPE: "Germany: 3 infantry"},
                    owners={UKRAINE: "Russia"}, dice=[6, 6, 6, 6, 6])
    game.apply({"type": "move", "units": "1 armour, 1 fighter", "path": [KARELIA, EAST_EUROPE]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": EAST_EUROPE})
    game.apply({"type": "retreat", "to": KARELIA})
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    assert [(s.unit, s.moved) for s in game.state.stacks(EAST_EUROPE) if s.owner == "Russia"] == [("fighter", 1)]
    return game


def moves(game: Game, where: str) -> list[list[str]]:
    """The paths of the moves offered to the retreated fighter, now in `where`."""
    return [a.to_json()["path"] for a in game.legal_actions(where) if a.type == "move" and a.to_json()["path"][0]
            == where and "fighter" in a.to_json()["units"]]


@pytest.mark.rule("CL-COMBAT-attacker-retreat", "CL-AIRMOVE-range-per-turn")
def test_a_retreated_fighter_flies_on_with_its_remaining_points() -> None:
    game = retreated()
    game.apply({"type": "move", "units": "1 fighter", "path": [EAST_EUROPE, KARELIA]})
    offered = moves(game, KARELIA)
    assert [KARELIA, UKRAINE] in offered  # between two Russian territories: 1 more point of the 2 left
    assert all(len(path) <= 3 for path in offered)  # never beyond the 2 points left
    game.apply({"type": "move", "units": "1 fighter", "path": [KARELIA, UKRAINE]})
    assert [(s.unit, s.moved) for s in game.state.stacks(UKRAINE)] == [("fighter", 3)]
    assert moves(game, UKRAINE) and all(len(path) == 2 for path in moves(game, UKRAINE))  # one point left
    before = game.state
    with pytest.raises(IllegalAction, match="CL-AIRMOVE-range-per-turn|LHTR-AIRMOVE-range"):
        game.apply({"type": "move", "units": "1 fighter", "path": [UKRAINE, KARELIA, "Russia"]})
    assert game.state == before


@pytest.mark.rule("CL-AIRMOVE-range-per-turn")
def test_every_move_offered_to_a_retreated_fighter_is_accepted() -> None:
    game = retreated()
    offered = moves(game, EAST_EUROPE)
    assert offered
    for path in offered:
        assert game.is_legal({"type": "move", "units": "1 fighter", "path": path})
        assert path[-1] != EAST_EUROPE and path[0] == EAST_EUROPE
