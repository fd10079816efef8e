"""`attack_ends`, the quick test a combat-move listing puts an end to before its checks, asks no more than
`combat_purpose`: through random games, every end of an aircraft's or ship's path that `combat_purpose` lets pass
passes it too (so the listing skips only ends that would be refused)."""

from __future__ import annotations

import random

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.movement.move_checks import Leg, attack_ends, combat_purpose
from aare.movement.pathing import air_routes, remaining, simple_paths
from aare.movement.situation import situation


@pytest.mark.rule("LHTR-TURN-combat-move-attack-only", "LHTR-COMBAT-capture", "LHTR-SEAMOVE-start-in-hostile")
@pytest.mark.parametrize("rules", ["lhtr-1.3", "aare-5.0"])
def test_every_end_combat_purpose_admits_passes_the_quick_test(rules: str) -> None:
    rng = random.Random(3)
    game = Game(new_game(rules, None, 3))
    admitted = 0
    for _ in range(1500):
        if game.state.winner is not None:
            break
        if game.state.phase == "combat-move" and game.state.pending is None:
            view = situation(game.state, game.ruleset)
            for where, stacks in view.own_spaces.items():
                for stack in stacks:
                    unit = view.unit(stack)
                    left = remaining(view, stack, where)
                    ends = attack_ends(view, stack, unit, where)
                    if ends is None or not left or unit.domain not in ("air", "sea"):
                        continue
                    paths = (list(air_routes(view, where, left, avoid_aa=True).values()) if unit.domain == "air"
                             else list(simple_paths(where, left, view.graph.sea_nbrs)))
                    for path in paths:
                        if combat_purpose(Leg(view, True, stack.with_count(1), path, unit=unit)) is None:
                            admitted += 1
                            assert ends(path[-1]), (rules, where, stack, path)
        legal = game.legal_actions()
        moves = [a for a in legal if a.type == "move"]
        game.apply(rng.choice(moves) if moves and rng.random() < 0.8 else rng.choice(legal))
    assert admitted > 50
