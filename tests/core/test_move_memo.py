"""Move candidates kept from one state to the next (`aare.movement.memo`): through random LHTR games the kept lists
are the lists made afresh (a move changes other stacks' moves: a fighter may join the attack it made), and a ruleset
that does not declare its moves local keeps nothing; the enemy spaces and the mover's stacks, read again only where
units changed, are those a fresh count finds."""

from __future__ import annotations

import random

import pytest

from aare.actions import Move
from aare.ai import make_bot
from aare.engine import Game
from aare.game_setup import new_game
from aare.movement import memo
from aare.movement import situation as module
from aare.movement.situation import situation
from tests.movement.helpers import move, position


def _fresh(game: Game, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    with monkeypatch.context() as patch:
        patch.setattr(memo, "memo_for", lambda view, combat: None)
        return [a.to_json() for a in game.legal_actions()]


@pytest.mark.rule("LHTR-TURN-combat-move-attack-only", "LHTR-AIRMOVE-land-friendly-since-start")
@pytest.mark.parametrize("seed", [1, 2])
def test_kept_lists_equal_fresh_lists_through_random_games(seed: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(memo, "CHECK", False)  # the comparison is this test's own
    rng = random.Random(seed)
    game = Game(new_game("lhtr-1.3", None, seed))
    moves_seen = 0
    for _ in range(400):
        if game.state.winner is not None:
            break
        kept = [a.to_json() for a in game.legal_actions()]
        assert kept == _fresh(game, monkeypatch), (game.state.round, game.state.nation, game.state.phase)
        moves = [a for a in kept if a["type"] == "move"]
        moves_seen += len(moves)
        # moves more often than the end of a phase, so that the movement phases see many states
        choice = rng.choice(moves) if moves and rng.random() < 0.9 else rng.choice(kept)
        game.apply(choice)
    assert moves_seen > 1000


def test_a_ruleset_without_local_moves_keeps_nothing() -> None:
    game = Game(new_game("aare-5.0", None, 1))
    view = situation(game.state, game.ruleset)
    assert not view.rules.moves_local and memo.memo_for(view, True) is None


@pytest.mark.rule("LHTR-SEAMOVE-hostile-sea-zone-stops")
@pytest.mark.parametrize("rules", ["lhtr-1.3", "aarhe"])
def test_spaces_read_again_only_where_units_changed_equal_a_fresh_count(rules: str) -> None:
    game, bot = Game(new_game(rules, None, 5)), make_bot("random", 5)
    sides = {p.name: p.side for p in game.ruleset.board.powers}
    for _ in range(250):
        if game.state.winner is not None:
            break
        power = game.to_act()[0]
        player = game.acting_as(power) if game.state.members else game
        player.apply(bot.choose(player), power)
        for side in set(sides.values()):
            kept = module._enemy_spaces(game.state, game.ruleset, side, sides, frozenset())
            module._LAST_BITS.clear()
            module._ENEMY_SPACES.entries.clear()
            assert kept == module._enemy_spaces(game.state, game.ruleset, side, sides, frozenset())
        for mover in sides:
            kept_own = module.Situation(game.state, game.ruleset, mover).own_spaces
            module._LAST_OWN.clear()
            module._OWN_SPACES.entries.clear()
            fresh_own = module.Situation(game.state, game.ruleset, mover).own_spaces
            assert kept_own == fresh_own


def _kept_list(game: Game, where: str, unit: str) -> list[Move]:
    """The move list the memo keeps for the mover's stack of `unit` in `where` (after listing the actions)."""
    game.legal_actions()
    view = situation(game.state, game.ruleset)
    found = memo.memo_for(view, view.state.phase == "combat-move")
    assert found is not None
    (stack,) = [s for s in view.own(where) if s.unit == unit]
    return found.kept[(where, stack)][0]


@pytest.mark.rule("LHTR-AIRMOVE-carrier-pickup-ncm")
def test_an_aircraft_list_outlives_an_unrelated_move_and_not_a_carrier_move() -> None:
    game = position("Japan", "non-combat-move", {"Japan": "Japan: 1 fighter", "SZ 60": "Japan: 1 carrier",
                                                "Manchuria": "Japan: 1 infantry"})
    near = situation(game.state, game.ruleset).graph.ball("Japan", 4)
    assert {"Manchuria", "Kwangtung", "SZ 60", "SZ 61"} <= set(near)
    listed = _kept_list(game, "Japan", "fighter")
    assert listed
    move(game, "1 infantry", "Manchuria", "Kwangtung")  # within the fighter's reach: no carrier room changes
    assert _kept_list(game, "Japan", "fighter") is listed
    move(game, "1 carrier", "SZ 60", "SZ 61")  # the room the fighter may land in moves
    assert _kept_list(game, "Japan", "fighter") is not listed


@pytest.mark.rule("LHTR-COMBAT-capture", "LHTR-TURN-combat-move-attack-only")
def test_an_aircraft_list_in_combat_move_is_dropped_only_when_it_may_join_a_new_land_attack() -> None:
    units = {"Germany": "Germany: 1 fighter", "Eastern Europe": "Germany: 2 infantry",
             "Belorussia": "Germany: 1 infantry", "Karelia S.S.R.": "Russia: 1 infantry"}
    game = position("Germany", "combat-move", units, owners={"West Russia": "Russia", "Karelia S.S.R.": "Russia"})
    listed = _kept_list(game, "Germany", "fighter")
    assert all(m.path[-1] != "West Russia" for m in listed)
    move(game, "1 infantry", "Eastern Europe", "Karelia S.S.R.")  # a battle the fighter could join already
    assert _kept_list(game, "Germany", "fighter") is listed
    move(game, "1 infantry", "Belorussia", "West Russia")  # an empty enemy territory attacked: the fighter may join
    again = _kept_list(game, "Germany", "fighter")
    assert again is not listed and any(m.path[-1] == "West Russia" for m in again)
