"""The command line reads through the player view: `aare show --as`, plain `aare show` (a spectator until the
game has ended) and `aare log --as`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.events import GameEnded
from aare.game_log import GameLog, load_log, save_log
from aare.player_view import HIDDEN
from tests.views.helpers import FIRST_BID, RULES, SEAL, bid_values


def run(*args: str) -> tuple[int, str, str]:
    from aare.cli.main import cli

    result = CliRunner().invoke(cli, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def game(tmp_path: Path) -> Path:
    """`aare new --rules aare-5.0 --seed 3`, then the Allies' bid of 7 as the first action."""
    path = tmp_path / "g.json"
    assert run("new", "--rules", RULES, "--seed", "3", "-o", str(path))[0] == 0
    code, _, err = run("act", str(path), "--text", f"bid {FIRST_BID}")
    assert code == 0, err
    return path


def show_json(game: Path, *args: str) -> dict[str, Any]:
    code, out, err = run("show", str(game), "--json", *args)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


@pytest.mark.rule(SEAL)
def test_show_as_the_other_side_holds_no_bid(game: Path) -> None:
    data = show_json(game, "--as", "Germany")
    assert FIRST_BID not in list(bid_values(data))
    assert data["straight_bid"] == {"bids": {"Allies": HIDDEN}, "axis": None, "amount": None, "swap": False}
    assert (data["round"], data["nation"], data["phase"]) == (0, "Russia", "straight-bid")
    assert data["state_hash"] != load_log(game).state.hash()
    assert FIRST_BID not in list(bid_values(show_json(game, "--as", "Japan")))
    assert FIRST_BID not in list(bid_values(show_json(game, "--as", "axis")))


@pytest.mark.rule(SEAL)
@pytest.mark.parametrize("name", ["Russia", "UK", "ussr", "US", "Allies"])
def test_show_as_the_bidding_side_resolves_names_and_shows_the_bid(game: Path, name: str) -> None:
    data = show_json(game, "--as", name)
    assert data["straight_bid"]["bids"] == {"Allies": FIRST_BID}
    assert data["state_hash"] == load_log(game).state.hash()


@pytest.mark.rule(SEAL)
def test_plain_show_is_the_spectators_view_until_the_game_ends(game: Path) -> None:
    assert FIRST_BID not in list(bid_values(show_json(game)))
    code, out, _ = run("show", str(game))
    assert code == 0 and "straight bid: Allies seat sealed" in out and f"seat {FIRST_BID}" not in out
    code, out, _ = run("show", str(game), "--as", "Russia")
    assert f"straight bid: Allies seat {FIRST_BID}" in out
    ended = GameEnded("Axis", "test").apply(load_log(game).state)  # a game that has ended, from its last position
    save_log(GameLog(ended), game)
    assert show_json(game)["straight_bid"]["bids"] == {"Allies": FIRST_BID}


@pytest.mark.rule(SEAL)
def test_both_bids_show_together(game: Path) -> None:
    assert run("act", str(game), "--text", "end phase")[0] == 0
    assert FIRST_BID not in list(bid_values(show_json(game, "--as", "Germany")))
    assert run("act", str(game), "--text", "bid 5")[0] == 0
    assert show_json(game)["straight_bid"]["bids"] == {"Allies": FIRST_BID, "Axis": 5}


@pytest.mark.rule(SEAL)
def test_log_takes_as_like_show(game: Path) -> None:
    code, out, _ = run("log", str(game), "--as", "Germany")
    assert code == 0 and "bid hidden" in out and str(FIRST_BID) not in out
    code, out, _ = run("log", str(game))
    assert code == 0 and "bid hidden" in out and str(FIRST_BID) not in out
    code, out, _ = run("log", str(game), "--as", "United Kingdom")
    assert code == 0 and f"bid {FIRST_BID}" in out


def test_as_an_unknown_power_is_one_line_and_exit_2(game: Path) -> None:
    code, _, err = run("show", str(game), "--as", "Atlantis")
    assert code == 2 and "Atlantis" in err and len(err.strip().splitlines()) == 1
