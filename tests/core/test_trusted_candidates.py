"""`Game.legal_actions` without judging again the candidates a ruleset trusts (`trusted_candidates`): the list
is the one every candidate judged by `is_legal` gives, position after position of random games, and a trusted
kind is really passed over."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import replace
from typing import Any

import pytest

from aare import engine
from aare.economy.pool import PURCHASED
from aare.economy.tech import PENDING
from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.phases.base import TurnContext, phase_candidates

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
    again = {(phase, kind) for phase, kind in judged_kinds if kind in LHTR_TRUSTED}
    assert not again, again


LHTR_TRUSTED = {"move", "load", "fight", "end_phase", "choose_casualties", "press", "retreat", "submerge", "research",
                "purchase", "place"}


class Judging:
    """Compares a position's trusted listing with its judged one, and notes the action types judged again."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.monkeypatch = monkeypatch
        self.kinds: set[str] = set()

    def listing(self, game: Game) -> list[dict[str, Any]]:
        judged = [a.to_json() for a in game.legal_actions(verify=True)]
        real = Game.is_legal

        def counting(this: Game, action: Any, power: str | None = None) -> bool:
            self.kinds.add(getattr(action, "type", ""))
            return real(this, action, power)

        with self.monkeypatch.context() as patch:
            patch.setattr(Game, "is_legal", counting)
            fast = [a.to_json() for a in game.legal_actions(verify=False)]
        assert fast == judged, (game.state.round, game.state.nation, game.state.phase)
        return judged


def _at(game: Game, phase: str) -> Game:
    """`game` played on (ending phases) to the next `phase`."""
    game.apply({"type": "end_phase"})
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})
    return game


def _turns(phase: str) -> Iterator[Game]:
    """An LHTR game at `phase` of each power's first turn (nothing else played)."""
    game = Game(new_game("lhtr-1.3", None, 1))
    if game.state.phase != phase:
        _at(game, phase)
    for _ in game.ruleset.board.powers:
        yield Game(GameLog(game.state))
        _at(game, phase)


def _with(game: Game, **changes: Any) -> Game:
    return Game(GameLog(replace(game.state, **changes)))


@pytest.mark.rule("LHTR-TECH-research-dice")
def test_lhtr_research_listed_as_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Research dice for every technology the power lacks and can pay for: every bank around a die's price,
    technologies held and developed but not yet in force."""
    judging = Judging(monkeypatch)
    listed = set()
    for game in _turns("develop-weapons"):
        power = game.state.nation
        for bank in (0, 4, 5, 6, 30):
            for techs, developing in (((), ()), (("rockets", "jet_fighters"), ("heavy_bombers",))):
                extra = {**game.state.extra, PENDING: {power: list(developing)}}
                position = _with(game, banks={**game.state.banks, power: bank},
                                 techs={**game.state.techs, power: techs}, extra=extra)
                listed |= {a.get("tech", "") for a in judging.listing(position) if a["type"] == "research"}
    assert listed >= {"rockets", "heavy_bombers", "super_submarines"} and "research" not in judging.kinds


@pytest.mark.rule("LHTR-PURCHASE-needs-capital")
def test_lhtr_purchases_listed_as_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """A purchase of every kind the power can afford, at every bank around the prices, and none while its capital is
    enemy-held."""
    judging = Judging(monkeypatch)
    bought = set()
    for game in _turns("purchase"):
        power, board = game.state.nation, game.ruleset.board
        capital = board.capital_of(power)
        enemy = next(p.name for p in board.powers if p.side != board.side_of(power))
        for bank in (0, 2, 3, 4, 5, 7, 8, 9, 10, 12, 15, 16, 23, 24, 40):
            banks = {**game.state.banks, power: bank}
            bought |= {a["units"] for a in judging.listing(_with(game, banks=banks)) if a["type"] == "purchase"}
            lost = judging.listing(_with(game, banks=banks, owners={**game.state.owners, capital: enemy}))
            assert not any(a["type"] == "purchase" for a in lost)
    assert len(bought) == len(Game(new_game("lhtr-1.3")).ruleset.units) and "purchase" not in judging.kinds


@pytest.mark.rule("LHTR-MOBILIZE-capacity-ipc-value")
def test_lhtr_placements_listed_as_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Placements from a pool of every kind of unit, played at random until the complexes are full: every factory
    up to and past its capacity, new complexes, ships and fighters at sea with and without carrier room."""
    judging = Judging(monkeypatch)
    rng = random.Random(5)
    places: set[str] = set()
    for game in _turns("mobilize"):
        power = game.state.nation
        units = {u.id: 3 for u in game.ruleset.units}
        position = _with(game, extra={**game.state.extra, PURCHASED: {power: units}})
        while True:
            listed = judging.listing(position)
            placing = [a for a in listed if a["type"] == "place"]
            if not placing:
                break
            places |= {a["space"] for a in placing}
            position.apply(rng.choice(placing))
    assert len(places) > 20 and "place" not in judging.kinds


@pytest.mark.rule("LHTR-TRANSPORT-cm-load-must-assault")
def test_lhtr_combat_loads_listed_as_judged(monkeypatch: pytest.MonkeyPatch) -> None:
    """Combat-move loads onto transports that can and cannot reach an assault: a random game, mostly other actions
    than ending the phase, through the first round's combat moves (a listed load that no transport able to reach an
    assault takes is left out)."""
    judging = Judging(monkeypatch)
    rng = random.Random(0)
    game = Game(new_game("lhtr-1.3", None, 0))
    loaded = refused = 0
    while game.state.round == 1:
        listed = judging.listing(game)
        if game.state.phase == "combat-move":
            loads = [a for a in listed if a["type"] == "load"]
            offered = [a for a in phase_candidates(TurnContext(game.state, game.ruleset)) if a.type == "load"]
            loaded, refused = loaded + len(loads), refused + len(offered) - len(loads)
        game.apply(rng.choice(listed) if rng.random() < 0.3 or len(listed) == 1 else rng.choice(listed[1:]))
    assert loaded and refused and "load" not in judging.kinds
