"""Team turns in the engine: two powers acting in one phase, interleaved; a joint phase waits for all."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.web.log_view import event_log
from tests.teamturns.family import RULES, install


@pytest.fixture(autouse=True)
def _family() -> None:
    install()


def _game() -> Game:
    game = Game(new_game(RULES, {"weapons_development": False}, seed=5))
    return game


def test_a_round_is_two_team_turns_in_order() -> None:
    game = _game()
    assert game.state.round == 1
    assert game.to_act() == ["Germany", "Japan"]
    assert game.ruleset.turn_order(1).turns[0].powers == ("Germany", "Japan")
    for member in ("Germany", "Japan"):
        assert game.state.members[member] == {"phase": "purchase", "status": "acting", "pending": None}


def test_members_act_interleaved_at_their_own_pace() -> None:
    game = _game()
    game.apply({"type": "purchase", "units": "1 infantry"}, power="Germany")
    game.apply({"type": "purchase", "units": "2 infantry"}, power="Japan")
    game.apply({"type": "end_phase", "power": "Germany"})
    assert game.state.members["Germany"]["phase"] == "combat-move"
    assert game.state.members["Japan"]["phase"] == "purchase"
    assert game.state.phase == "purchase"  # the team's earliest phase
    game.apply({"type": "purchase", "units": "1 armour"}, power="Japan")
    log = game.log.to_json()
    assert [e["action"].get("power") for e in log["entries"]] == ["Germany", "Japan", "Germany", "Japan"]
    assert GameLog.from_json(log).state == game.state  # replays bit for bit


def test_the_pages_game_log_names_the_member_who_played_each_action() -> None:
    game = _game()
    game.apply({"type": "purchase", "units": "1 infantry"}, power="Japan")
    game.apply({"type": "purchase", "units": "1 infantry"}, power="Germany")
    seen = event_log(game.log, None)
    assert [(e["nation"], e["action"]) for e in seen][-2:] == [("Japan", "Japan: buy 1 infantry"),
                                                                ("Germany", "Germany: buy 1 infantry")]


def test_an_action_must_name_a_member_that_may_act() -> None:
    game = _game()
    before = game.state
    with pytest.raises(IllegalAction, match="must be named"):
        game.apply({"type": "purchase", "units": "1 infantry"})
    with pytest.raises(IllegalAction, match="not to act"):
        game.apply({"type": "purchase", "units": "1 infantry"}, power="Russia")
    assert game.state == before


def test_joint_phase_waits_for_every_member() -> None:
    game = _game()
    for power in ("Germany", "Japan"):
        game.apply({"type": "end_phase"}, power=power)  # purchase
    game.apply({"type": "end_phase"}, power="Germany")  # Germany's combat move
    germany = game.state.members["Germany"]
    assert (germany["phase"], germany["status"], germany["pending"]) == ("conduct-combat", "waiting", None)
    assert game.to_act() == ["Japan"]
    with pytest.raises(IllegalAction, match="waits for its team"):
        game.apply({"type": "end_phase"}, power="Germany")
    assert game.legal_actions(power="Japan")[0].type == "end_phase"
    game.apply({"type": "end_phase"}, power="Japan")
    assert {m["status"] for m in game.state.members.values()} == {"acting"}
    assert game.state.phase == "conduct-combat"
    assert game.to_act() == ["Germany", "Japan"]


def test_the_next_team_moves_when_every_member_is_done() -> None:
    game = _game()
    while game.state.members and set(game.state.members) == {"Germany", "Japan"}:
        power = game.to_act()[-1]
        game.apply({"type": "end_phase"}, power=power)
    assert game.to_act() == ["Russia", "United Kingdom", "United States"]
    assert game.state.round == 1
    while game.state.round == 1:
        game.apply({"type": "end_phase"}, power=game.to_act()[0])
    assert game.state.round == 2 and game.to_act() == ["Germany", "Japan"]


def test_legal_actions_are_per_acting_power_and_name_it() -> None:
    game = _game()
    german = game.legal_actions(power="Germany")
    assert german and all(a.power == "Germany" for a in german)
    for action in german[:5]:
        assert game.is_legal(action)


def test_undo_takes_back_one_members_action_and_keeps_the_others() -> None:
    game = _game()
    game.apply({"type": "purchase", "units": "1 infantry"}, power="Germany")
    game.apply({"type": "purchase", "units": "2 infantry"}, power="Japan")
    game.undo(power="Germany")
    assert [e.action["power"] for e in game.log.entries if e.action] == ["Japan"]
    replayed = Game(new_game(RULES, {"weapons_development": False}, seed=5))
    replayed.apply({"type": "purchase", "units": "2 infantry"}, power="Japan")
    assert replayed.state == game.state
    with pytest.raises(IllegalAction, match="nothing to undo"):
        game.undo(power="Germany")


def test_self_play_of_team_turns_replays_and_keeps_the_invariants() -> None:
    from aare.selfplay import play_game

    for seed in (1, 2):
        result = play_game(RULES, seed, rounds=3)
        assert result.violations == [] and result.stuck == []
        assert result.rounds_played == 3
        assert GameLog.from_json(result.log.to_json()).state == result.log.state


def test_one_battle_at_a_time_in_a_space() -> None:
    """Two members may not fight in one space at once: the first one's battle must end first."""
    game = _game()
    state = game.state
    busy = {"current": {"space": "Ukraine S.S.R.", "kind": "land", "dice": [], "answers": []}}
    members = {
        "Germany": {**state.members["Germany"], "phase": "conduct-combat"},
        "Japan": {**state.members["Japan"], "phase": "conduct-combat", "extra": {"combat": busy}},
    }
    game.log.state = replace(state, phase="conduct-combat", members=members)
    with pytest.raises(IllegalAction, match="Japan's battle in Ukraine S.S.R. is not over"):
        game.apply({"type": "fight", "space": "Ukraine S.S.R."}, power="Germany")


def test_text_notation_names_the_acting_power_and_round_trips() -> None:
    from aare.action_text import format_action, parse_action_text

    game = _game()
    action = parse_action_text("Japan: buy 2 infantry", game.ruleset)
    assert action == {"type": "purchase", "units": "2 infantry", "power": "Japan"}
    assert format_action(action) == "Japan: buy 2 infantry"
    assert parse_action_text(format_action(action), game.ruleset) == action
    casualties = parse_action_text("casualties United States: 1 infantry", game.ruleset)
    assert "power" not in casualties
    game.apply(action)
    assert game.state.banks["Japan"] == game.log.initial.banks["Japan"] - 6


def test_command_line_plays_a_team_turn(tmp_path: Path) -> None:
    """`aare act` takes `POWER: action`, `aare legal` lists every acting power's actions, `aare undo --power`
    takes back one member's action."""
    from click.testing import CliRunner

    from aare.cli.main import cli

    runner = CliRunner()
    path = str(tmp_path / "team.json")

    def run(*args: str) -> str:
        result = runner.invoke(cli, list(args))
        assert result.exit_code == 0, result.output
        return result.output

    run("new", "--rules", RULES, "--seed", "3", "--option", "weapons_development=false", "-o", path)
    listed = run("legal", path)
    assert "Germany: end phase" in listed and "Japan: end phase" in listed
    run("act", path, "--text", "Japan: buy 2 infantry")
    run("act", path, "--text", "Germany: buy 1 armour")
    assert "undone: Japan: buy 2 infantry" in run("undo", path, "--power", "Japan")
    history = run("log", path)
    assert "Germany: buy 1 armour" in history and "Japan" not in history.replace("Germany", "")


def test_a_bid_placed_before_the_game_hands_over_to_the_first_team() -> None:
    """With a bid, round 0 is the bid placement; then round 1 begins with the first team turn."""
    game = Game(new_game(RULES, {"weapons_development": False, "bid_axis": 3}, seed=1))
    assert (game.state.round, game.state.phase, game.to_act()) == (0, "setup-bid", ["Germany"])
    game.apply({"type": "place", "units": "1 infantry", "space": "Germany"})
    while game.state.round == 0:
        game.apply({"type": "end_phase"})
    assert game.state.round == 1 and game.to_act() == ["Germany", "Japan"]
    assert set(game.state.members) == {"Germany", "Japan"}
