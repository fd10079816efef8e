"""Move candidates kept from one state to the next (`aare.movement.memo`): through random LHTR games the kept lists
are the lists made afresh (a move changes other stacks' moves: a fighter may join the attack it made), and a ruleset
that does not declare its moves local keeps nothing."""

from __future__ import annotations

import random

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.movement import memo
from aare.movement.situation import situation


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
