"""`Game.legal_actions` without judging again the candidates a ruleset trusts (`trusted_candidates`): the list
is the one every candidate judged by `is_legal` gives, position after position of random games, and a trusted
kind is really passed over."""

from __future__ import annotations

import random

import pytest

from aare import engine
from aare.engine import Game
from aare.game_setup import new_game

RULES = ("lhtr-1.3", "aarhe", "aa50-1941", "classic-2e")




@pytest.mark.parametrize("rules", RULES)
def test_trusted_list_equals_judged_list(rules: str) -> None:
    rng = random.Random(3)
    game = Game(new_game(rules, None, 3))
    for _ in range(120):
        if game.state.winner is not None:
            break
        power = game.to_act()[0]
        player = game.acting_as(power) if game.state.members else game
        fast = [a.to_json() for a in player.legal_actions(verify=False)]
        judged = [a.to_json() for a in player.legal_actions(verify=True)]
        assert fast == judged, (game.state.round, game.state.nation, game.state.phase)
        player.apply(rng.choice(judged), power)


def test_trusted_moves_are_not_judged_again(monkeypatch: pytest.MonkeyPatch) -> None:
    game = Game(new_game("lhtr-1.3", None, 1))
    while game.state.phase != "combat-move":
        game.apply({"type": "end_phase"})
    judged: list[str] = []
    real = Game.is_legal

    def counting(self: Game, action: object, power: str | None = None) -> bool:
        judged.append(getattr(action, "type", ""))
        return real(self, action, power)

    monkeypatch.setattr(Game, "is_legal", counting)
    fast = game.legal_actions(verify=False)
    assert any(a.type == "move" for a in fast) and "move" not in judged
    judged.clear()
    monkeypatch.setattr(engine, "VERIFY_CANDIDATES", True)
    assert [a.to_json() for a in game.legal_actions()] == [a.to_json() for a in fast]
    assert "move" in judged


def test_lhtr_trusted_answers_and_phase_ends_over_many_positions(monkeypatch: pytest.MonkeyPatch) -> None:
    """LHTR trusts the battle's answers while a decision waits, non-combat loads, and the end of every phase: the list
    is still the judged one through battles of every kind of decision, and those kinds are not judged again."""
    judged_kinds: set[tuple[str, str]] = set()
    real = Game.is_legal

    def counting(self: Game, action: object, power: str | None = None) -> bool:
        judged_kinds.add((self.state.phase, getattr(action, "type", "")))
        return real(self, action, power)

    decisions: set[str] = set()
    for seed in range(3):
        rng = random.Random(seed)
        game = Game(new_game("lhtr-1.3", None, seed))
        for _ in range(300):
            if game.state.winner is not None:
                break
            decisions.add(str((game.state.pending or {}).get("kind")))
            judged = [a.to_json() for a in game.legal_actions(verify=True)]
            monkeypatch.setattr(Game, "is_legal", counting)
            fast = [a.to_json() for a in game.legal_actions(verify=False)]
            monkeypatch.setattr(Game, "is_legal", real)
            assert fast == judged, (seed, game.state.round, game.state.phase, game.state.pending)
            game.apply(rng.choice(judged))
    assert {"choose_casualties", "press_or_retreat"} <= decisions
    trusted = {"move", "fight", "end_phase", "choose_casualties", "press", "retreat", "submerge"}
    again = {(phase, kind) for phase, kind in judged_kinds if kind in trusted or (phase, kind) == NCM_LOAD}
    assert not again, again


NCM_LOAD = ("non-combat-move", "load")  # a combat-move load is judged: it needs a transport able to reach an assault
