"""The planner: each phase policy on small positions with an obvious best answer, every ruleset played without
refused actions or dead ends, the same seed and work giving the same game, and no ruleset named in its code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import aare
from aare.actions import EndPhase, Fight, Move
from aare.ai import PlannerBot, make_bot
from aare.ai.planner import Budget
from aare.ai.planner.threat import threat_map
from aare.engine import Game
from aare.odds import odds
from aare.rules.ruleset import available_rulesets
from aare.scenario import scenario
from aare.selfplay import play_game
from aare.tournament import run

AI = Path(aare.__file__).resolve().parent / "ai"
WORK = 200


def combat_move(units: dict[str, str]) -> Game:
    return scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True,
                    units={"Germany": "Germany: 4 infantry", **units})


def play_phase(game: Game, bot: PlannerBot) -> list[Move]:
    """The moves the bot makes before it ends the phase (each applied)."""
    found = []
    for _ in range(60):
        action = bot.choose(game)
        if isinstance(action, EndPhase):
            break
        if isinstance(action, Move):
            found.append(action)
        game.apply(action)
    return found


def test_planner_takes_an_undefended_territory_with_one_cheap_unit() -> None:
    game = combat_move({"Eastern Europe": "Germany: 2 infantry, 1 armour"})
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if m.path[-1] == "Karelia S.S.R."]
    assert [m.units for m in moves] == ["1 infantry"]
    assert ("Germany", "infantry") in {(s.owner, s.unit) for s in game.state.units["Karelia S.S.R."]}


def test_planner_does_not_attack_at_five_percent() -> None:
    attackers, defenders = "1 infantry, 1 armour", "4 infantry"
    assert odds(attackers, defenders, "lhtr-1.3").capture <= 0.05
    game = combat_move({"Eastern Europe": f"Germany: {attackers}", "Karelia S.S.R.": f"Russia: {defenders}"})
    assert [m for m in play_phase(game, PlannerBot(work=WORK)) if m.path[-1] == "Karelia S.S.R."] == []


def test_planner_attacks_when_the_exact_odds_make_it_worth_it() -> None:
    game = combat_move({"Eastern Europe": "Germany: 6 armour", "Karelia S.S.R.": "Russia: 2 infantry"})
    sent = sum(1 for m in play_phase(game, PlannerBot(work=WORK)) if m.path[-1] == "Karelia S.S.R.")
    assert sent >= 2 and odds(f"{sent} armour", "2 infantry", "lhtr-1.3").capture >= 0.55


def battle_after_one_round(dice: list[int], attackers: str = "3 infantry") -> Game:
    """Germany attacks 2 Russian infantry from Eastern Europe; the scripted dice decide the first round."""
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True, dice=dice,
                    units={"Germany": "Germany: 2 infantry", "Eastern Europe": f"Germany: {attackers}",
                           "Karelia S.S.R.": "Russia: 2 infantry"})
    game.apply(Move(units=attackers, path=["Eastern Europe", "Karelia S.S.R."]))
    game.apply(EndPhase())
    game.apply(Fight(space="Karelia S.S.R."))
    return game


def test_planner_retreats_when_the_exact_odds_turn() -> None:
    game = battle_after_one_round([6, 6, 6, 1, 1])  # all three miss, both defenders hit: 1 against 2
    bot = PlannerBot(work=WORK)
    while game.state.pending is not None and game.state.pending["kind"] != "press_or_retreat":
        game.apply(bot.choose(game))
    assert game.state.pending is not None and game.state.pending["attacker"] == {"Germany": "1 infantry"}
    assert odds("1 infantry", "2 infantry", "lhtr-1.3").capture < 0.2
    assert bot.choose(game).type == "retreat"


def test_planner_presses_on_while_the_odds_hold() -> None:
    game = battle_after_one_round([1, 6, 6, 6, 6])  # one hit, no loss: 3 against 1
    bot = PlannerBot(work=WORK)
    while game.state.pending is not None and game.state.pending["kind"] != "press_or_retreat":
        game.apply(bot.choose(game))
    assert game.state.pending is not None and game.state.pending["defender"] == {"Russia": "1 infantry"}
    assert bot.choose(game).type == "press"


def test_planner_keeps_a_land_unit_to_capture() -> None:
    # the infantry and the fighter miss, one defender hits: the infantry is the cheapest casualty, but it is the
    # only land unit that could take the territory, so the fighter is lost instead
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True, dice=[6, 6, 1, 6],
                    units={"Germany": "Germany: 2 infantry, 1 fighter", "Eastern Europe": "Germany: 1 infantry",
                           "Karelia S.S.R.": "Russia: 2 infantry"})
    game.apply(Move(units="1 infantry", path=["Eastern Europe", "Karelia S.S.R."]))
    game.apply(Move(units="1 fighter", path=["Germany", "Eastern Europe", "Karelia S.S.R."]))
    game.apply(EndPhase())
    game.apply(Fight(space="Karelia S.S.R."))
    pending = game.state.pending
    assert pending is not None and pending["kind"] == "choose_casualties" and pending["side"] == "attacker"
    choice = PlannerBot(work=WORK).choose(game)
    assert choice.units == "1 fighter"


def test_planner_garrisons_a_threatened_capital() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move", clear=True,
                    units={"Germany": "Germany: 1 infantry", "Balkans": "Germany: 6 infantry",
                           "Eastern Europe": "Russia: 4 armour"},
                    owners={"Eastern Europe": "Russia", "Balkans": "Germany"})
    threat = threat_map(game.state, game.ruleset, "Axis")["Germany"]
    assert threat == {"armour": 4}
    assert odds("4 armour", "1 infantry", "lhtr-1.3").capture > 0.9
    moves = [m for m in play_phase(game, PlannerBot(work=WORK)) if m.path[-1] == "Germany"]
    held = sum(s.count for s in game.state.units["Germany"] if s.owner == "Germany")
    assert moves and odds("4 armour", f"{held} infantry", "lhtr-1.3").capture <= 0.3


def test_a_budget_counts_work_and_resets_each_turn() -> None:
    budget = Budget(work=2)
    budget.start_turn((1, "Germany", "Germany"))
    budget.spend(2)
    assert not budget.left()
    budget.start_turn((1, "Germany", "Russia"))  # a battle decision of the defender
    assert budget.left() and budget.used == 0
    budget.start_turn((1, "Germany", "Germany"))  # the same power-turn goes on
    assert not budget.left()
    budget.start_turn((1, "Russia", "Russia"))
    assert budget.left() and budget.used == 0
    assert Budget().work is not None and Budget(seconds=1).work is None


def test_the_planner_is_offered_by_name_with_its_budget() -> None:
    bot = make_bot("planner", seed=1, budget=2.0, work=50)
    assert isinstance(bot, PlannerBot) and bot.budget.seconds == 2.0 and bot.budget.work == 50


def test_no_ruleset_is_named_in_the_ai_or_its_packages() -> None:
    ids = available_rulesets()
    pattern = re.compile("|".join(rf"[\"']{re.escape(i)}[\"']" for i in ids))
    offenders = [f"{p.name}: {m.group()}" for p in sorted(AI.rglob("*.py")) for m in pattern.finditer(p.read_text())]
    assert offenders == []


@pytest.mark.parametrize("rules", available_rulesets())
def test_planner_plays_a_round_of_every_ruleset_without_refusals_or_dead_ends(rules: str) -> None:
    found = run(rules, ["planner", "random"], pairs=1, rounds=1, seed=2, work=60)
    assert found["refused"] == 0 and found["dead_ends"] == 0 and found["games"] == 2


def test_the_same_seed_and_work_give_the_same_game() -> None:
    first = play_game("lhtr-1.3", seed=5, rounds=2, bot=PlannerBot(5, work=WORK))
    second = play_game("lhtr-1.3", seed=5, rounds=2, bot=PlannerBot(5, work=WORK))
    assert first.violations == [] and first.stuck == []
    assert first.log.state == second.log.state and first.actions == second.actions
