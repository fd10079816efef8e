"""Battle sites and battle starts kept from one state to the next (`aare.movement.battles`,
`aare.combat.board_battle.battle_begins`): through random games the conduct-combat listing and the battles are those
worked out afresh, a space whose units did not change keeps its sites, and a ruleset whose modules change unit
types in movement or a battle's inputs keeps nothing."""

from __future__ import annotations

import random
from typing import Any

import pytest

from aare.combat import board_battle
from aare.engine import Game
from aare.game_setup import new_game
from aare.identity_cache import ByIdentity
from aare.movement import battles
from aare.movement import situation as module
from aare.movement.battles import pending_battles
from aare.movement.situation import situation
from tests.movement.helpers import end, move, position


def _fresh(game: Game, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], list[Any]]:
    """The listing and the battles of `game` worked out with nothing kept from earlier states."""
    with monkeypatch.context() as patch:
        patch.setattr(battles, "_KEPT", {})
        patch.setattr(board_battle, "_BEGUN", ByIdentity(10))
        patch.setattr(module, "_CACHE", {})
        return [a.to_json() for a in game.legal_actions()], pending_battles(game.state, game.ruleset)


@pytest.mark.rule("LHTR-COMBAT-battle-order", "LHTR-TURN-combat-move-attack-only")
@pytest.mark.parametrize(("rules", "seed"), [("lhtr-1.3", 1), ("lhtr-1.3", 2), ("aare-5.0", 3)])
def test_kept_battles_equal_fresh_ones_through_random_games(rules: str, seed: int,
                                                            monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(battles, "CHECK", False)  # the comparison is this test's own
    monkeypatch.setattr(board_battle, "CHECK", False)
    rng = random.Random(seed)
    game = Game(new_game(rules, None, seed))
    listings = 0
    for _ in range(500):
        if game.state.winner is not None:
            break
        kept = [a.to_json() for a in game.legal_actions()]
        if game.state.phase == "conduct-combat" and game.state.pending is None:
            listed, sites = _fresh(game, monkeypatch)
            assert (kept, pending_battles(game.state, game.ruleset)) == (listed, sites), game.state.round
            listings += 1
        moves = [a for a in kept if a["type"] in ("move", "fight")]
        # moves and fights more often than the end of a phase, so that battles are set up and fought
        game.apply(rng.choice(moves) if moves and rng.random() < 0.9 else rng.choice(kept))
    assert listings > 10


@pytest.mark.rule("LHTR-COMBAT-battle-order")
def test_a_space_whose_units_did_not_change_keeps_its_battle() -> None:
    units = {"Belorussia": "Germany: 1 infantry", "Eastern Europe": "Germany: 2 infantry",
             "Karelia S.S.R.": "Russia: 1 infantry", "West Russia": "Russia: 1 infantry"}
    game = position("Germany", "combat-move", units, owners={"West Russia": "Russia", "Karelia S.S.R.": "Russia"})
    move(game, "2 infantry", "Eastern Europe", "Karelia S.S.R.")
    move(game, "1 infantry", "Belorussia", "West Russia")
    end(game)
    assert [(s.space, s.kind) for s in pending_battles(game.state, game.ruleset)] == [
        ("Karelia S.S.R.", "land"), ("West Russia", "land")]
    before = battles._local(situation(game.state, game.ruleset), "West Russia")
    game.apply({"type": "fight", "space": "Karelia S.S.R."})
    after = situation(game.state, game.ruleset)
    assert battles._local(after, "West Russia") is before
    assert before.land is not None and before.land in pending_battles(game.state, game.ruleset)


def test_rulesets_whose_modules_change_unit_types_or_battle_inputs_keep_nothing() -> None:
    game = Game(new_game("aare-5.0", None, 1))
    view = situation(game.state, game.ruleset)
    assert battles._kept(view) is None
    assert board_battle._inputs_hooked(game.ruleset)
    lhtr = Game(new_game("lhtr-1.3", None, 1))
    assert battles._kept(situation(lhtr.state, lhtr.ruleset)) is not None
    assert not board_battle._inputs_hooked(lhtr.ruleset)
