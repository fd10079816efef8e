"""The planner: each phase policy on small positions with an obvious best answer, every ruleset played without
refused actions or dead ends, the same seed and work giving the same game."""

from __future__ import annotations

import time

import pytest

from aare.actions import EndPhase, Fight, Move
from aare.ai import PlannerBot, make_bot
from aare.ai.planner import Budget
from aare.ai.planner.threat import threat_map
from aare.odds import odds
from aare.rules.ruleset import available_rulesets
from aare.scenario import scenario
from aare.selfplay import play_game
from aare.tournament import run
from tests.ai.positions import EAST, KARELIA, battle_after_one_round, combat_move, moves_into

WORK = 200


def test_planner_takes_an_undefended_territory_with_one_cheap_unit() -> None:
    game = combat_move({EAST: "Germany: 2 infantry, 1 armour"})
    moves = moves_into(game, PlannerBot(work=WORK), KARELIA)
    assert [m.units for m in moves] == ["1 infantry"]
    assert ("Germany", "infantry") in {(s.owner, s.unit) for s in game.state.units[KARELIA]}


def test_planner_does_not_attack_at_five_percent() -> None:
    attackers, defenders = "1 infantry, 1 armour", "4 infantry"
    assert odds(attackers, defenders, "lhtr-1.3").capture <= 0.05
    game = combat_move({EAST: f"Germany: {attackers}", KARELIA: f"Russia: {defenders}"})
    assert moves_into(game, PlannerBot(work=WORK), KARELIA) == []


def test_planner_attacks_when_the_exact_odds_make_it_worth_it() -> None:
    game = combat_move({EAST: "Germany: 6 armour", KARELIA: "Russia: 2 infantry"})
    sent = len(moves_into(game, PlannerBot(work=WORK), KARELIA))
    assert sent >= 2 and odds(f"{sent} armour", "2 infantry", "lhtr-1.3").capture >= 0.55


def test_planner_retreats_when_the_exact_odds_turn() -> None:
    bot = PlannerBot(work=WORK)
    game = battle_after_one_round([6, 6, 6, 1, 1], bot)  # all three miss, both defenders hit: 1 against 2
    assert game.state.pending is not None and game.state.pending["attacker"] == {"Germany": "1 infantry"}
    assert odds("1 infantry", "2 infantry", "lhtr-1.3").capture < 0.2
    assert bot.choose(game).type == "retreat"


def test_planner_presses_on_while_the_odds_hold() -> None:
    bot = PlannerBot(work=WORK)
    game = battle_after_one_round([1, 6, 6, 6, 6], bot)  # one hit, no loss: 3 against 1
    assert game.state.pending is not None and game.state.pending["defender"] == {"Russia": "1 infantry"}
    assert bot.choose(game).type == "press"


def test_planner_keeps_a_land_unit_to_capture() -> None:
    # the infantry and the fighter miss, one defender hits: the infantry is the cheapest casualty, but it is the
    # only land unit that could take the territory, so the fighter is lost instead
    game = scenario("lhtr-1.3", nation="Germany", phase="combat-move", clear=True, dice=[6, 6, 1, 6],
                    units={"Germany": "Germany: 2 infantry, 1 fighter", EAST: "Germany: 1 infantry",
                           KARELIA: "Russia: 2 infantry"})
    game.apply(Move(units="1 infantry", path=[EAST, KARELIA]))
    game.apply(Move(units="1 fighter", path=["Germany", EAST, KARELIA]))
    game.apply(EndPhase())
    game.apply(Fight(space=KARELIA))
    pending = game.state.pending
    assert pending is not None and pending["kind"] == "choose_casualties" and pending["side"] == "attacker"
    choice = PlannerBot(work=WORK).choose(game)
    assert choice.units == "1 fighter"


def test_planner_garrisons_a_threatened_capital() -> None:
    game = scenario("lhtr-1.3", nation="Germany", phase="non-combat-move", clear=True,
                    units={"Germany": "Germany: 1 infantry", "Balkans": "Germany: 6 infantry",
                           EAST: "Russia: 4 armour"},
                    owners={EAST: "Russia", "Balkans": "Germany"})
    threat = threat_map(game.state, game.ruleset, "Axis")["Germany"]
    assert threat == {"armour": 4}
    assert odds("4 armour", "1 infantry", "lhtr-1.3").capture > 0.9
    moves = moves_into(game, PlannerBot(work=WORK), "Germany")
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
    assert Budget().seconds == 30 and Budget().work is None and Budget(seconds=1).work is None
    assert Budget(work=5).seconds is None


def test_the_planner_is_offered_by_name_with_its_budget() -> None:
    bot = make_bot("planner", seed=1, budget=2.0, work=50)
    assert isinstance(bot, PlannerBot) and bot.budget.seconds == 2.0 and bot.budget.work == 50


@pytest.mark.parametrize("rules", available_rulesets())
def test_planner_plays_a_round_of_every_ruleset_without_refusals_or_dead_ends(rules: str) -> None:
    found = run(rules, ["planner", "random"], pairs=1, rounds=1, seed=2, work=60)
    assert found["refused"] == 0 and found["dead_ends"] == 0 and found["games"] == 2


def test_the_same_seed_and_work_give_the_same_game() -> None:
    first = play_game("lhtr-1.3", seed=5, rounds=2, bot=PlannerBot(5, work=WORK))
    second = play_game("lhtr-1.3", seed=5, rounds=2, bot=PlannerBot(5, work=WORK))
    assert first.violations == [] and first.stuck == []
    assert first.log.state == second.log.state and first.actions == second.actions


def test_a_budget_in_seconds_counts_the_planners_cpu_time_not_the_clock() -> None:
    budget = Budget(seconds=0.05)
    budget.start_turn((1, "Germany", "Germany"))
    time.sleep(0.1)  # waiting (another process computing) spends none of it
    assert budget.left()
    end = time.process_time() + 0.1
    while time.process_time() < end:  # computing spends it
        pass
    assert not budget.left()
