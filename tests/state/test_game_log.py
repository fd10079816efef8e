"""The event log: replaying it reproduces the state hash exactly; a tampered file is rejected."""

from __future__ import annotations

import json
import pickle
from dataclasses import FrozenInstanceError
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from aare.engine import Game
from aare.errors import DataFileError
from aare.events import BankChanged, DiceRolled, apply_events, event_from_json
from aare.game_log import GameLog, LogEntry, load_log, save_log
from aare.game_setup import new_game
from tests.state.strategies import event_for


@st.composite
def logs(draw: st.DrawFn) -> GameLog:
    log = new_game("lhtr-1.3", seed=draw(st.integers(0, 2**40)))
    for _ in range(draw(st.integers(1, 15))):
        events, state = [], log.state
        for _ in range(draw(st.integers(0, 3))):
            events.append(draw(event_for(state)))
            state = apply_events(state, events[-1:])
        log.append({"type": "test", "n": len(log.entries)}, events)
    return log


@settings(max_examples=50, deadline=None)
@given(logs())
def test_replay_of_random_event_log_reproduces_hash(log: GameLog) -> None:
    assert log.replay().hash() == log.state.hash()
    for entry in log.entries:
        for event in entry.events:
            assert event_from_json(json.loads(json.dumps(event.to_json()))) == event
    again = GameLog.from_json(json.loads(json.dumps(log.to_json())))
    assert again.state == log.state
    assert again.state.hash() == log.state.hash()


def test_version_counts_entries(lhtr_game: GameLog) -> None:
    lhtr_game.append(None, [])
    lhtr_game.append({"type": "end_phase"}, [])
    assert lhtr_game.state.version == 2
    assert lhtr_game.replay(1).version == 1


def test_dice_rolls_are_recorded_and_replayed(lhtr_game: GameLog) -> None:
    lhtr_game.append({"type": "roll"}, [DiceRolled("research", (6, 2), 6, 2)])
    assert lhtr_game.state.dice.counter == 2
    assert lhtr_game.to_json()["entries"][0]["events"][0]["values"] == [6, 2]


def test_saved_file_round_trips_and_tampering_is_detected(tmp_path: Path) -> None:
    log = new_game("lhtr-1.3", seed=3)
    log.append({"type": "test"}, [BankChanged("Russia", -6, "purchase")])
    path = tmp_path / "game.json"
    save_log(log, path)
    assert load_log(path).state == log.state
    raw = json.loads(path.read_text())
    raw["entries"][0]["events"][0]["delta"] = -3
    path.write_text(json.dumps(raw))
    with pytest.raises(DataFileError, match="entry 1 .*hash does not follow"):
        load_log(path)
    path.write_text("{not json")
    with pytest.raises(DataFileError, match="invalid JSON"):
        load_log(path)
    with pytest.raises(DataFileError, match="no such file"):
        load_log(tmp_path / "missing.json")


def test_an_entry_writes_the_action_it_was_given_when_read() -> None:
    """The engine records the action value itself: the entry reads as its JSON, equal to an entry made from that
    JSON, frozen, and carried through pickling and the game file."""
    game = Game(new_game("lhtr-1.3", seed=3))
    action = game.legal_actions()[-1]
    game.apply(action)
    entry = game.log.entries[-1]
    assert entry.action == action.to_json()
    assert entry == LogEntry(action.to_json(), entry.events)
    assert pickle.loads(pickle.dumps(entry)) == entry
    with pytest.raises(FrozenInstanceError):
        entry.events = ()  # type: ignore[misc]
    again = GameLog.from_json(json.loads(json.dumps(game.log.to_json())))
    assert again.entries == game.log.entries and again.state.hash() == game.state.hash()
