"""AARHE's secret national goals on the command line: `aare show --as` shows a power its own choice and no other's,
plain `aare show` (a spectator) none, `aare log --as` the choice's action only to its power; once the game has
ended everyone sees them (AARHE-NATVICTORY-selection)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from aare.events import GameEnded
from aare.game_log import GameLog, load_log, save_log
from aare.player_view import HIDDEN
from tests.views.national_goals import GERMAN_CHOICE, GERMAN_WORDS, RULES, SECRET, SOVIET_CHOICE, leaks
from tests.views.test_cli_views import run


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """An AARHE game with national victory in which the Soviet Union, then Germany, have chosen their goals."""
    path = tmp_path / "g.json"
    assert run("new", "--rules", RULES, "--seed", "3", "--option", "national_victory=true", "-o", str(path))[0] == 0
    for text in (f"choose {SOVIET_CHOICE}", "end phase", f"choose {GERMAN_CHOICE}", "end phase"):
        code, _, err = run("act", str(path), "--text", text)
        assert code == 0, err
    return path


def show(game: Path, *args: str) -> str:
    code, out, err = run("show", str(game), *args)
    assert code == 0, err
    return out


@pytest.mark.rule(SECRET)
def test_show_as_another_power_or_a_spectator_holds_no_soviet_goal(game: Path) -> None:
    for args in (("--as", "Germany"), ("--as", "United Kingdom"), ("--as", "Axis"), ()):
        for form in ((), ("--json",)):
            out = show(game, *args, *form)
            assert leaks(out) == [], (args, form)
    data = json.loads(show(game, "--as", "Germany", "--json"))
    texts = [r["text"] for r in data["victory"]["standing"]]
    assert "Russia's national goals: hidden" in texts
    assert any(t.startswith("Germany's national goals: Establish Lebensraum (met)") for t in texts)
    spectator = show(game)
    assert "Russia's national goals: hidden" in spectator and leaks(spectator, GERMAN_WORDS) == []


@pytest.mark.rule(SECRET)
def test_show_as_the_power_shows_its_own_goals(game: Path) -> None:
    out = " ".join(show(game, "--as", "Russia").split())
    assert "Russia's national goals: Eastern Europe Buffer (not met), Protect Heavy Industry (met), East Asia " \
           "Influence (not met)" in out
    assert "Germany's national goals: hidden" in out and leaks(out, GERMAN_WORDS) == []
    assert leaks(show(game, "--as", "Allies")) != []  # a side seat holds the Soviet Union


@pytest.mark.rule(SECRET)
def test_log_as_another_power_shows_only_that_a_choice_was_made(game: Path) -> None:
    code, out, _ = run("log", str(game), "--as", "Germany")
    assert code == 0 and "choose hidden" in out and leaks(out) == []
    code, out, _ = run("log", str(game))
    assert code == 0 and leaks(out) == [] and leaks(out, GERMAN_WORDS) == []
    code, out, _ = run("log", str(game), "--as", "Russia")
    assert code == 0 and f"choose {SOVIET_CHOICE}" in out and leaks(out, GERMAN_WORDS) == []


@pytest.mark.rule(SECRET)
def test_everyone_sees_every_choice_once_the_game_has_ended(game: Path) -> None:
    log = load_log(game)
    assert log.state.extra["national_goals"]["Russia"] == SOVIET_CHOICE.split(", ")
    save_log(GameLog(GameEnded("Axis", "test").apply(log.state)), game)
    data = json.loads(show(game, "--json"))
    assert HIDDEN not in json.dumps(data["victory"]) and leaks(json.dumps(data)) != []
