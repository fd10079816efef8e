"""The rules a Classic game's log names: every event and pending decision under its Classic id, never the core's
LHTR one (in a game played by bots, a capital's treasury taken, a liberation, a battle's retreat decision, units
left unplaced, income), in the log, in `aare show --json` and in the web table's log."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.engine import Game
from aare.game_log import GameLog, save_log
from aare.scenario import scenario
from aare.selfplay import play_game
from aare.web.log_view import event_log

RULES = "classic-2e"
FOREIGN = re.compile(r"\b(?:LHTR|AARE|AA50)-[A-Za-z0-9-]+")


def foreign_ids(game_log: Any) -> set[str]:
    """The rule ids of other rulesets named anywhere in the events (decisions included) of a log."""
    text = json.dumps([e.to_json() for entry in game_log.entries for e in entry.events])
    return set(FOREIGN.findall(text))


def end(game: Game, times: int = 1) -> None:
    for _ in range(times):
        game.apply({"type": "end_phase"})


def rule_ids(game: Game, kind: str) -> list[str]:
    return [e.rule_id for e in game.log.entries[-1].events if e.type == kind]  # type: ignore[attr-defined]


@pytest.mark.rule("CL-COMBAT-attacker-orders-battles", "CL-COMBAT-round-sequence", "CL-COMBAT-capture-on-win",
                  "CL-ECON-collect-income", "CL-MOBILIZE-at-own-complex", "CL-PURCHASE-spend-treasury")
def test_a_game_played_by_bots_names_only_classic_rules() -> None:
    for seed in (0, 1):
        result = play_game(RULES, seed=seed, rounds=4)
        assert not result.violations and not result.stuck
        assert foreign_ids(result.log) == set()
        kinds = {e.type for entry in result.log.entries for e in entry.events}
        assert {"decision_pending", "control_changed", "bank_changed", "units_removed"} <= kinds


@pytest.mark.rule("CL-ECON-capital-capture-treasury", "CL-COMBAT-capture-on-win")
def test_a_captured_capitals_treasury_is_taken_under_the_classic_rule() -> None:
    game = scenario(RULES, nation="Germany", phase="combat-move", clear=["Russia", "Caucasus"],
                    units={"Caucasus": "Germany: 1 armour"}, owners={"Caucasus": "Germany"}, banks={"Russia": 7})
    game.apply({"type": "move", "units": "1 armour", "path": ["Caucasus", "Russia"]})
    end(game)
    game.apply({"type": "fight", "space": "Russia"})
    assert game.state.owners["Russia"] == "Germany"
    assert rule_ids(game, "bank_changed") == ["CL-ECON-capital-capture-treasury"] * 2
    assert rule_ids(game, "control_changed") == ["CL-COMBAT-capture-on-win"]
    assert foreign_ids(game.log) == set()


@pytest.mark.rule("CL-ECON-liberation")
def test_a_liberation_names_the_classic_rule() -> None:
    game = scenario(RULES, nation="United States", phase="combat-move", clear=["Caucasus", "Persia"],
                    units={"Persia": "United States: 1 armour"},
                    owners={"Caucasus": "Germany", "Persia": "United States"})
    game.apply({"type": "move", "units": "1 armour", "path": ["Persia", "Caucasus"]})
    end(game)
    game.apply({"type": "fight", "space": "Caucasus"})
    assert game.state.owners["Caucasus"] == "Russia"
    assert rule_ids(game, "control_changed") == ["CL-ECON-liberation"]


@pytest.mark.rule("CL-PURCHASE-unplaced-lost", "CL-ECON-collect-income")
def test_units_left_unplaced_and_the_income_name_the_classic_rules() -> None:
    game = scenario(RULES, nation="Germany", phase="purchase")
    game.apply({"type": "purchase", "units": "1 armour"})
    end(game, 5)  # purchase, combat movement, combat, non-combat movement, mobilize: the armour is not placed
    assert game.state.phase == "collect-income"
    assert rule_ids(game, "extra_set") == ["CL-PURCHASE-unplaced-lost"]
    assert rule_ids(game, "bank_changed") == ["CL-ECON-collect-income"]
    assert foreign_ids(game.log) == set()


def waiting_for_retreat() -> GameLog:
    """A game played by bots up to its first press-or-retreat decision (seeded dice, as a game file holds)."""
    played = play_game(RULES, seed=0, rounds=2).log
    log = GameLog(played.initial, [])
    for entry in played.entries:
        log.append(entry.action, entry.events)
        if log.state.pending is not None and log.state.pending.get("kind") == "press_or_retreat":
            return log
    raise AssertionError("no battle waited for a retreat decision")


@pytest.mark.rule("CL-COMBAT-attacker-retreat")
def test_the_press_or_retreat_decision_names_the_classic_rule(tmp_path: Path) -> None:
    log = waiting_for_retreat()
    assert log.state.pending is not None and log.state.pending["rule"] == "CL-COMBAT-attacker-retreat"
    path = tmp_path / "game.json"
    save_log(log, path)
    out = CliRunner().invoke(cli, ["show", str(path), "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["pending"]["rule"] == "CL-COMBAT-attacker-retreat"
    out = CliRunner().invoke(cli, ["show", str(path)])
    assert out.exit_code == 0 and "waiting for:" in out.output and not FOREIGN.search(out.output)
    lines = [line for entry in event_log(log, None, limit=10_000) for line in entry["lines"]]
    assert lines and not any(FOREIGN.search(line) for line in lines)
