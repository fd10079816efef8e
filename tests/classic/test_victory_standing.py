"""How victory stands in a Classic game and how a game was won, as `aare show` (text and --json) and the online
table show them: the capitals each side holds, the Axis income level against 84, the reason of a win."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from tests.web.test_pages import CSRF, client, create, player, server  # noqa: F401  (fixtures)

from aare.cli.main import cli
from aare.engine import Game
from aare.game_log import GameLog, save_log
from aare.game_setup import new_game
from aare.scenario import scenario
from aare.server.live import LiveGame
from aare.web.side import side_context
from aare.web.templating import templates

RULES = "classic-2e"


def show(log: GameLog, tmp_path: Path, *args: str) -> str:
    path = tmp_path / "game.json"
    save_log(log, path)
    out = CliRunner().invoke(cli, ["show", str(path), *args])
    assert out.exit_code == 0, out.output
    return out.output if "--json" in args else " ".join(out.output.split())  # as one line, however rich wraps it


def won(owners: dict[str, str], **kw: Any) -> Game:
    """The United States end round 1 with `owners` changed: the victory check."""
    game = scenario(RULES, nation="United States", phase="collect-income", owners=owners, **kw)
    game.apply({"type": "end_phase"})
    return game


@pytest.mark.rule("CL-VICTORY-axis-military", "CL-VICTORY-allied-military", "CL-VICTORY-axis-economic")
def test_show_gives_the_capitals_held_and_the_axis_income_level(tmp_path: Path) -> None:
    log = new_game(RULES, None, 3)
    data = json.loads(show(log, tmp_path, "--json"))
    standing = data["victory"]["standing"]
    capitals = next(r for r in standing if r["kind"] == "capitals")
    assert capitals["held"] == {"Allies": ["Russia", "United Kingdom", "East US"], "Axis": ["Germany", "Japan"]}
    income = next(r for r in standing if r["kind"] == "income")
    assert (income["side"], income["level"], income["needed"], income["rule_id"]) == (
        "Axis", 57, 84, "CL-VICTORY-axis-economic")
    text = show(log, tmp_path)
    assert "victory cities" not in text
    assert "capitals held: Allies 3 (Russia, United Kingdom, East US); Axis 2 (Germany, Japan)" in text
    assert "the Axis win with 2 of the 3 capitals of the Allies" in text
    assert "the Allies win with both capitals of the Axis" in text
    assert "Axis income level: 57 of 84" in text


@pytest.mark.rule("CL-VICTORY-axis-military", "CL-VICTORY-check-end-of-round")
def test_a_win_by_capitals_is_reported_as_such(tmp_path: Path) -> None:
    game = won({"Russia": "Germany", "East US": "Japan"})
    assert game.state.winner == "Axis"
    end = [e for e in game.log.entries[-1].events if e.type == "game_ended"]
    assert [(e.reason, e.rule_id) for e in end] == [  # type: ignore[attr-defined]
        ("capitals: the Axis hold Russia, East US and their own", "CL-VICTORY-axis-military")]
    data = json.loads(show(game.log, tmp_path, "--json"))
    assert data["ended"] == {"winner": "Axis", "reason": "capitals: the Axis hold Russia, East US and their own",
                             "rule_id": "CL-VICTORY-axis-military"}
    assert data["victory"]["standing"][0]["held"]["Axis"] == ["Russia", "East US", "Germany", "Japan"]
    text = show(game.log, tmp_path)
    assert "won by Axis (capitals: the Axis hold Russia, East US and their own)" in text


@pytest.mark.rule("CL-VICTORY-allied-military")
def test_an_allied_win_by_capitals_names_its_rule() -> None:
    game = won({"Germany": "United Kingdom", "Japan": "United States"})
    end = [e for e in game.log.entries[-1].events if e.type == "game_ended"]
    assert [(e.winner, e.rule_id) for e in end] == [("Allies", "CL-VICTORY-allied-military")]  # type: ignore


@pytest.mark.rule("CL-VICTORY-axis-economic", "CL-VICTORY-allied-economic-off")
def test_an_economic_win_is_reported_with_the_income_level(tmp_path: Path) -> None:
    start = new_game(RULES, None, 0).state
    allied = sorted(t for t, owner in start.owners.items() if owner in ("United Kingdom", "United States")
                    and t not in ("United Kingdom", "East US") and start.owners.get(t))
    game = won({t: "Germany" for t in allied})
    level = json.loads(json.dumps(game.log.entries[-1].events[-1].to_json()))
    assert game.state.winner == "Axis" and level["rule_id"] == "CL-VICTORY-axis-economic"
    assert level["reason"].startswith("economic victory: the Axis income level is ")
    assert level["reason"].endswith("(needed 84)")
    game = won({}, options={"allied_economic_victory": 60})
    end = [e for e in game.log.entries[-1].events if e.type == "game_ended"]
    assert [(e.winner, e.rule_id) for e in end] == [("Allies", "CL-VICTORY-allied-economic-off")]  # type: ignore


def side_html(game: Game) -> str:
    live = LiveGame("g", "nations", game.log, game.state.hash(), 0, 0, 0, b"")
    return templates.env.get_template("_side.html").render(**side_context(live, {}, None, None), csrf=None)


@pytest.mark.rule("CL-VICTORY-axis-military", "CL-VICTORY-axis-economic")
def test_the_table_shows_the_capitals_and_the_income_level(player: TestClient) -> None:  # noqa: F811
    game_id = create(player, CSRF[0], ruleset=RULES)
    page = player.get(f"/play/{game_id}/side").text  # the side panel (the Classic map may not be drawn yet)
    nations = page[page.index('id="nations"'):page.index('id="seats"')]
    assert "capitals held: Allies 3 (Russia, United Kingdom, East US); Axis 2 (Germany, Japan)" in nations
    assert "Axis income level: 57 of 84" in nations
    assert "Victory cities" not in nations and ">VC<" not in nations


@pytest.mark.rule("CL-VICTORY-axis-military")
def test_the_table_says_how_the_game_was_won() -> None:
    html = side_html(won({"Russia": "Germany", "East US": "Japan"}))
    assert "Game over: the Axis win — capitals: the Axis hold Russia, East US and their own." in html
