"""The tournament harness: side-swapped seeded pairs, scoring at the round cap, intervals, ratings, executors."""

from __future__ import annotations

import json
from typing import Any

import pytest
from click.testing import CliRunner

from aare.ai import PassBot, register_bot, unregister_bot
from aare.cli.main import cli
from aare.economy.summary import income
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.tournament import run, score_game, side_figures, wilson


def without_timings(report: dict[str, Any]) -> dict[str, Any]:
    """A report without what depends on the machine: the thinking times."""
    out = json.loads(json.dumps(report))
    for bot in out["bots"].values():
        bot.pop("turn_seconds")
    return out


SMALL = {"rules": "lhtr-1.3", "bots": ["pass", "random"], "pairs": 2, "rounds": 2, "seed": 7}


@pytest.fixture(scope="module")
def small() -> dict[str, Any]:
    return run(**SMALL)  # type: ignore[arg-type]


def test_each_seed_is_played_twice_with_the_sides_swapped(small: dict[str, Any]) -> None:
    games = small["results"]
    assert small["games"] == len(games) == 4
    assert [g["seed"] for g in games] == [7, 7, 8, 8]
    assert [g["sides"] for g in games[:2]] == [{"Allies": "pass", "Axis": "random"},
                                                {"Allies": "random", "Axis": "pass"}]
    for name in ("pass", "random"):
        bot = small["bots"][name]
        assert bot["games"] == 4 and 0.0 <= bot["score"] <= 1.0
        assert bot["wilson"][0] <= bot["score"] <= bot["wilson"][1]
        assert set(bot["turn_seconds"]) >= {"p50", "p95"} and bot["turn_seconds"]["p50"] <= bot["turn_seconds"]["p95"]
        assert bot["turn_seconds"]["cpu_p50"] <= bot["turn_seconds"]["cpu_p95"]
        assert sum(s["games"] for s in bot["sides"].values()) == 4
    assert small["bots"]["pass"]["score"] + small["bots"]["random"]["score"] == pytest.approx(1.0)
    assert small["dead_ends"] == 0 and small["refused"] == 0


def test_a_small_tournament_is_reproducible_across_runs_and_workers(small: dict[str, Any]) -> None:
    again = run(**SMALL, workers=2)  # type: ignore[arg-type]
    assert without_timings(again) == without_timings(small)


def test_a_dask_cluster_gives_the_same_results(small: dict[str, Any]) -> None:
    distributed = pytest.importorskip("distributed", reason="the `cluster` extra (dask[distributed]) is not installed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as c:
        on_cluster = run(**SMALL, cluster=c.scheduler_address)  # type: ignore[arg-type]
    assert without_timings(on_cluster) == without_timings(small)


def test_ratings_come_from_openskill(small: dict[str, Any]) -> None:
    pytest.importorskip("openskill", reason="the `ai` extra (openskill) is not installed")
    ratings = {name: bot["rating"] for name, bot in small["bots"].items()}
    assert all(set(r) == {"mu", "sigma", "ordinal"} for r in ratings.values())
    better = max(small["bots"], key=lambda n: small["bots"][n]["score"])
    if small["bots"]["pass"]["score"] != 0.5:
        assert ratings[better]["mu"] == max(r["mu"] for r in ratings.values())


def test_wilson_interval() -> None:
    assert wilson(5, 10) == [0.2366, 0.7634]
    assert wilson(10, 10) == [0.7225, 1.0]
    assert wilson(0, 0) == [0.0, 1.0]


def test_a_won_game_is_won_and_a_capped_one_is_scored_by_cities_then_material() -> None:
    rules = load_ruleset("lhtr-1.3", None)
    start = new_game("lhtr-1.3", seed=1).state
    # the Axis takes a victory city from the Allies: it wins on cities, whatever the material
    taken = scenario("lhtr-1.3", owners={"Karelia S.S.R.": "Germany"}, clear=["Karelia S.S.R."],
                     units={"Russia": "Russia: 20 infantry"}).state
    assert score_game(start, taken, rules)[:2] == ("Axis", "cities")
    # no city changes hands: the side whose unit value plus income grew more wins
    richer = scenario("lhtr-1.3", units={"Russia": "Russia: 2 infantry"}).state
    winner, by, margins = score_game(start, richer, rules)
    assert (winner, by, margins["material"]) == ("Allies", "material", 6.0)
    assert score_game(start, start, rules)[:2] == (None, "draw")
    from dataclasses import replace
    assert score_game(start, replace(richer, winner="Axis"), rules)[:2] == ("Axis", "victory")


def test_a_ruleset_without_victory_cities_is_scored_by_unit_value_and_income() -> None:
    rules = load_ruleset("classic-2e", None)
    start = new_game("classic-2e", seed=1).state
    cities, material = side_figures(start, rules, "Axis")
    assert cities == 0 or rules.victory_cities()
    powers = [p.name for p in rules.board.powers if p.side == "Axis"]
    units = sum(s.count * rules.units[s.unit].cost for st in start.units.values() for s in st
                if s.owner in powers and rules.units[s.unit].domain != "building")
    assert material == units + sum(income(start, rules, p) for p in powers)


def test_greedy_beats_random_on_lhtr() -> None:
    report = run("lhtr-1.3", ["greedy", "random"], pairs=2, rounds=4, seed=0, workers=2)
    assert report["bots"]["greedy"]["score"] >= 0.75
    assert report["dead_ends"] == 0 and report["refused"] == 0


def test_the_tournament_command_prints_the_report_as_json() -> None:
    result = CliRunner().invoke(cli, ["tournament", "--rules", "lhtr-1.3", "--bots", "pass,random", "--pairs", "1",
                                      "--rounds", "1", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    assert report["games"] == 2 and set(report["bots"]) == {"pass", "random"}
    for bot in report["bots"].values():
        assert {"score", "wilson", "rating", "turn_seconds"} <= set(bot)


def test_an_unknown_bot_is_refused() -> None:
    result = CliRunner().invoke(cli, ["tournament", "--bots", "greedy,nobody", "--pairs", "1"])
    assert result.exit_code != 0 and "unknown bot 'nobody'" in result.output


def test_a_registered_bot_plays_by_name_and_gets_the_budget_and_the_work() -> None:
    made: list[tuple[int, float | None, int | None]] = []

    def probe(seed: int, budget: float | None, work: int | None) -> PassBot:
        made.append((seed, budget, work))
        bot = PassBot()
        bot.name = "probe"
        return bot

    register_bot("probe", probe)
    try:
        report = run("lhtr-1.3", ["probe", "pass"], pairs=1, rounds=1, seed=4, budget=2.5, work=300)
    finally:
        unregister_bot("probe")
    assert report["games"] == 2 and report["bots"]["probe"]["games"] == 2
    assert sorted(made) == [(8, 2.5, 300), (9, 2.5, 300)]  # 2 * seed + side: each side keeps its seed
    timing = report["bots"]["probe"]["turn_seconds"]
    assert timing["over_budget"] == 0 < timing["turns"]  # passing takes far less than 2.5 s a turn
