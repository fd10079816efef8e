"""The player view: what each power, a user holding several seats, and a spectator see of the sealed AARe
straight bid, in the state, the events, the log and the hashes; everything once the game has ended."""

from __future__ import annotations

import ast
import inspect
import json
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

import aare.player_view as views
from aare.errors import DataFileError, MalformedInput
from aare.game_log import GameLog, load_log, save_log
from aare.player_view import (
    HIDDEN,
    entries_view,
    events_view,
    hidden_from,
    log_view,
    player_view,
    summary_view,
    view_hash,
    visible_state,
)
from aare.rules.hidden import Hidden
from aare.server.verify import verify_export
from tests.views.helpers import ALLIES, AXIS, FIRST_BID, SEAL, bid_values, both_bids, first_bid


def sealed_record(view: dict[str, Any]) -> Any:
    return view["extra"]["straight_bid"]


@pytest.mark.rule(SEAL)
@pytest.mark.parametrize("viewer", [*AXIS, AXIS, None, ()])
def test_the_other_side_and_spectators_do_not_see_the_first_bid(viewer: Any) -> None:
    state = first_bid().state
    view = player_view(state, viewer)
    assert sealed_record(view) == {"bids": {"Allies": HIDDEN}, "axis": None, "amount": None, "swap": False}
    assert FIRST_BID not in list(bid_values(view))
    assert state.extra["straight_bid"]["bids"] == {"Allies": FIRST_BID}  # the game itself keeps it


@pytest.mark.rule(SEAL)
@pytest.mark.parametrize("viewer", [*ALLIES, ALLIES, ("Germany", "Russia"), {"Japan", "United States"}])
def test_the_bidding_side_sees_its_bid(viewer: Any) -> None:
    """Each power of the side sees it; a user holding seats on both sides sees the union."""
    state = first_bid().state
    assert player_view(state, viewer) == state.to_json()
    assert hidden_from(state, viewer) == ()
    assert view_hash(state, viewer) == state.hash()


@pytest.mark.rule(SEAL)
def test_both_bids_are_revealed_together() -> None:
    state = both_bids(7, 5).state
    for viewer in (None, "Germany", "Russia"):
        assert sealed_record(player_view(state, viewer))["bids"] == {"Allies": 7, "Axis": 5}


@pytest.mark.rule(SEAL)
def test_the_bid_stays_the_first_decision_allies_first() -> None:
    game = first_bid()
    assert (game.state.round, game.state.nation, game.state.phase) == (0, "Russia", "straight-bid")
    game.apply({"type": "end_phase"})
    assert (game.state.nation, game.state.phase) == ("Germany", "straight-bid")
    assert sealed_record(player_view(game.state, "Germany"))["bids"] == {"Allies": HIDDEN}


@pytest.mark.rule(SEAL)
def test_everyone_sees_everything_once_the_game_has_ended() -> None:
    game = first_bid()
    ended = replace(game.state, winner="Axis")
    for viewer in (None, "Germany", AXIS):
        assert player_view(ended, viewer) == ended.to_json()
        assert view_hash(ended, viewer) == ended.hash()
        assert events_view(game.log.entries[0].events, viewer, ended)[0]["value"]["bids"] == {"Allies": FIRST_BID}


@pytest.mark.rule(SEAL)
def test_events_and_the_action_that_wrote_the_bid_are_redacted() -> None:
    game = first_bid()
    entry = game.log.entries[0]
    seen = events_view(entry.events, "Germany", game.state)
    assert [e["type"] for e in seen] == [e.type for e in entry.events]
    assert FIRST_BID not in list(bid_values(seen))
    assert events_view(entry.events, "United Kingdom", game.state) == [e.to_json() for e in entry.events]
    [as_seen] = entries_view(game.log.entries, None, game.state)
    assert as_seen["action"] == {"type": "bid", "amount": HIDDEN}
    assert entries_view(game.log.entries, "Russia", game.state)[0]["action"] == {"type": "bid", "amount": FIRST_BID}


@pytest.mark.rule(SEAL)
def test_the_view_hash_does_not_depend_on_the_hidden_bid() -> None:
    """Hashing each candidate bid cannot find the sealed one: the other side's view hash is the same for every
    bid, and not the state hash."""
    low, high = first_bid(3).state, first_bid(FIRST_BID).state
    assert low.hash() != high.hash()
    assert view_hash(low, "Germany") == view_hash(high, "Germany") != high.hash()
    assert visible_state(high, "Germany").hash() == view_hash(high, "Germany")
    summary = summary_view(high, "Germany")
    assert summary["straight_bid"]["bids"] == {"Allies": HIDDEN}
    assert summary["state_hash"] == view_hash(high, "Germany")
    assert FIRST_BID not in list(bid_values(summary))


@pytest.mark.rule(SEAL)
def test_a_redacted_log_is_marked_and_refused(tmp_path: Path) -> None:
    game = first_bid()
    data = log_view(game.log, "Germany")
    assert data["view_of"] == ["Germany"]
    assert data["state_hash"] is None
    assert FIRST_BID not in list(bid_values(data))
    with pytest.raises(MalformedInput, match="player's view .*Germany.* hidden parts left out"):
        GameLog.from_json(data)
    path = tmp_path / "view.json"
    path.write_text(json.dumps(data), encoding="utf-8")
    with pytest.raises(DataFileError, match="player's view"):
        load_log(path)
    report = verify_export({**data, "server": {}})
    assert not report.ok and "player's view" in report.problems[0]
    spectator = log_view(game.log, None)
    assert spectator["view_of"] == []
    with pytest.raises(MalformedInput, match="a spectator"):
        GameLog.from_json(spectator)


@pytest.mark.rule(SEAL)
def test_a_log_with_nothing_hidden_from_the_viewer_is_the_whole_game(tmp_path: Path) -> None:
    game = first_bid()
    assert log_view(game.log, "United States") == game.log.to_json()
    assert log_view(game.log, ALLIES) == game.log.to_json()
    save_log(game.log, tmp_path / "g.json")
    assert load_log(tmp_path / "g.json").state.hash() == game.state.hash()


@pytest.mark.rule(SEAL)
def test_records_a_team_member_keeps_for_itself_are_redacted_too() -> None:
    """In a team turn a member's own records wait in `members[power]["extra"]`: a hidden path covers them."""
    sealed = Hidden(("extra", "straight_bid", "bids", "Allies"), frozenset({"Russia"}), SEAL)
    data = first_bid().state.to_json()
    data["members"] = {"Russia": {"phase": "x", "extra": {"straight_bid": {"bids": {"Allies": FIRST_BID}}}},
                       "Germany": {"phase": "x"}}
    seen = views.redact_state(data, [sealed])
    assert seen["members"]["Russia"]["extra"]["straight_bid"]["bids"] == {"Allies": HIDDEN}
    assert seen["members"]["Germany"] == {"phase": "x"}
    assert FIRST_BID not in list(bid_values(seen))
    assert data["members"]["Russia"]["extra"]["straight_bid"]["bids"] == {"Allies": FIRST_BID}  # not changed


def test_hidden_fields_live_under_extra() -> None:
    with pytest.raises(ValueError, match="under 'extra'"):
        Hidden(("banks", "Germany"), frozenset({"Germany"}))
    with pytest.raises(ValueError):
        Hidden(("extra",), frozenset())
    field = Hidden(("extra", "record", "x"), frozenset({"A"}), "RULE")
    assert Hidden.from_json(field.to_json()) == field
    assert field.seen_by({"A", "B"}) and not field.seen_by(()) and not field.seen_by({"B"})


def test_player_view_is_a_core_module() -> None:
    """It reaches rulesets only through hooks, and no surface."""
    tree = ast.parse(inspect.getsource(views))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    forbidden = ("aare.cli", "aare.server", "aare.web", "aare.rulesets")
    assert not [name for name in imported if name.startswith(forbidden)]
