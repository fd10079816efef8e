"""The greedy bot: its phase rules on small positions with an obvious answer, and no ruleset named in the AI."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import aare
from aare.actions import EndPhase
from aare.ai import GreedyBot
from aare.economy.pool import pool
from aare.odds import odds
from aare.rules.ruleset import available_rulesets
from aare.scenario import scenario
from aare.selfplay import play_game
from tests.ai.positions import battle_after_one_round, combat_move, moves_into

AI = Path(aare.__file__).resolve().parent / "ai"


def test_greedy_takes_an_undefended_territory_with_one_cheap_unit() -> None:
    game = combat_move({"Eastern Europe": "Germany: 2 infantry, 1 armour"})
    moves = moves_into(game, GreedyBot(), "Karelia S.S.R.")
    assert [m.units for m in moves] == ["1 infantry"]
    assert ("Germany", "infantry") in {(s.owner, s.unit) for s in game.state.units["Karelia S.S.R."]}


def test_greedy_does_not_attack_at_five_percent() -> None:
    attackers, defenders = "1 infantry, 1 armour", "4 infantry"
    assert odds(attackers, defenders, "lhtr-1.3").capture <= 0.05
    game = combat_move({"Eastern Europe": f"Germany: {attackers}", "Karelia S.S.R.": f"Russia: {defenders}"})
    assert moves_into(game, GreedyBot(), "Karelia S.S.R.") == []


def test_greedy_attacks_with_a_clear_edge_and_no_more_than_it_needs() -> None:
    game = combat_move({"Eastern Europe": "Germany: 8 armour", "Karelia S.S.R.": "Russia: 1 infantry"})
    moves = moves_into(game, GreedyBot(), "Karelia S.S.R.")
    sent = len(moves)
    assert 1 < sent < 8
    assert odds(f"{sent} armour", "1 infantry", "lhtr-1.3").capture >= 0.8
    assert odds(f"{sent - 1} armour", "1 infantry", "lhtr-1.3").capture < 0.8


def test_greedy_keeps_half_of_a_capital_garrison() -> None:
    around = ["Eastern Europe", "Western Europe", "Southern Europe", "Balkans"]
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True,
                    units={"Germany": "Germany: 4 infantry"}, owners={t: "Russia" for t in around})
    bot = GreedyBot()
    while not isinstance(action := bot.choose(game), EndPhase):
        game.apply(action)
    state = game.state
    assert sum(s.count for s in state.units["Germany"] if s.owner == "Germany") == 2
    assert sum(1 for t in around if t in state.units) == 2


def test_greedy_buys_infantry_heavy_within_what_it_can_place() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="purchase", banks={"Germany": 40})
    bot = GreedyBot()
    while not isinstance(action := bot.choose(game), EndPhase):
        game.apply(action)
    bought = pool(game.state, "Germany")
    # the cheapest land unit, and one in four the best attack per cost (armour: 3 for 5), all 40 spent
    assert bought == {"infantry": 10, "armour": 2} and game.state.banks["Germany"] == 0


def test_no_ruleset_is_named_in_the_ai() -> None:
    ids = available_rulesets()
    pattern = re.compile("|".join(rf"[\"']{re.escape(i)}[\"']" for i in ids))
    offenders = [f"{p.name}: {m.group()}" for p in sorted(AI.glob("*.py")) for m in pattern.finditer(p.read_text())]
    assert offenders == []


@pytest.mark.parametrize("rules", available_rulesets())
def test_greedy_plays_every_ruleset_without_refusals_or_dead_ends(rules: str) -> None:
    result = play_game(rules, seed=3, rounds=1, bot=GreedyBot(3))
    assert result.violations == [] and result.stuck == [] and result.rounds_played == 1


def test_greedy_retreats_when_the_exact_odds_turn() -> None:
    game = battle_after_one_round([6, 6, 6, 1, 1], GreedyBot())  # all three miss, both defenders hit: 1 against 2
    assert game.state.pending is not None and game.state.pending["attacker"] == {"Germany": "1 infantry"}
    assert odds("1 infantry", "2 infantry", "lhtr-1.3").capture < 0.5
    assert GreedyBot().choose(game).type == "retreat"


def test_greedy_presses_on_while_the_odds_hold() -> None:
    game = battle_after_one_round([1, 6, 6, 6, 6], GreedyBot())  # one hit, no loss: 3 against 1
    assert game.state.pending is not None and game.state.pending["defender"] == {"Russia": "1 infantry"}
    assert GreedyBot().choose(game).type == "press"
