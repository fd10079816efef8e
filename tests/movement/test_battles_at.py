"""`battles_at` (the battles in one space, found without reading the whole board) agrees with `pending_battles`,
and the situation's remembered enemy spaces agree with a fresh count, through random play of several rulesets."""

from __future__ import annotations

import pytest

from aare.ai import NoLegalAction, make_bot
from aare.engine import Game
from aare.game_setup import new_game
from aare.movement import situation as situation_module
from aare.movement.battles import battles_at, pending_battles
from aare.rules.ruleset import load_ruleset


@pytest.mark.rule("LHTR-COMBAT-battle-order")
@pytest.mark.parametrize("ruleset", ["lhtr-1.3", "aare-5.0", "aa50-1941", "realism-98", "aarhe"])
def test_battles_at_agrees_with_pending_battles(ruleset: str) -> None:
    log = new_game(ruleset, seed=5)
    game, bot = Game(log), make_bot("random", 5)
    checked = 0
    for step in range(300):
        state = log.state
        if state.phase in ("combat-move", "conduct-combat"):
            rules = load_ruleset(state.ruleset, state.options)
            every = [s for s in pending_battles(state, rules) if s.kind != "flyover"]
            situation_module._CACHE.clear()  # battles_at on a situation that has not listed every battle
            for space in {s.space for s in every} | set(list(state.units)[:20]):
                assert battles_at(state, rules, space) == [s for s in every if s.space == space]
                checked += 1
            view = situation_module.situation(state, rules)
            situation_module._ENEMY_SPACES.entries.clear()
            situation_module._LAST_BITS.clear()
            situation_module._MASKS.clear()
            fresh = situation_module.Situation(state, rules, state.nation)
            assert (view.hostile_seas, view.blocking_seas, view.enemy_aa, view.enemy_occupied) == (
                fresh.hostile_seas, fresh.blocking_seas, fresh.enemy_aa, fresh.enemy_occupied)
            assert view.own_spaces == {sp: tuple(s for s in st if fresh.commands(s))
                                       for sp, st in state.units.items() if any(fresh.commands(s) for s in st)}
        powers = game.to_act() if state.members else [None]
        player = game if powers[step % len(powers)] is None else game.acting_as(powers[step % len(powers)])
        try:
            player.apply(bot.choose(player))
        except NoLegalAction:
            break
    assert checked > 0
