"""Who plays whom: a power with no player of its own is played by another power's player (`played_by` in the
board file), keeps its own turn, and sits with that player at the table."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from aare.board.board import load_board
from aare.board.units import load_units
from aare.errors import DataFileError
from aare.rules.registry import Family, data_file, register_family, unregister_family

UNITS = load_units(data_file("units", "revised"))
PLAYED = 'aliases = ["US", "USA", "Americans"]'


def _board(tmp_path: Path, line: str) -> Path:
    text = data_file("boards", "revised").read_text(encoding="utf-8")
    assert PLAYED in text
    path = tmp_path / "board.toml"
    path.write_text(text.replace(PLAYED, f"{PLAYED}\n{line}"), encoding="utf-8")
    return path


def test_a_power_played_by_another_powers_player(tmp_path: Path) -> None:
    board = load_board(_board(tmp_path, 'played_by = "UK"'), UNITS)
    assert board.player_of("United States") == "United Kingdom"
    assert board.player_of("Russia") == "Russia"
    assert board.power("US").played_by == "United Kingdom"


@pytest.mark.parametrize(("line", "why"), [
    ('played_by = "United States"', "cannot play"),
    ('played_by = "Atlantis"', "unknown power"),
])
def test_played_by_must_name_another_power_with_a_player(tmp_path: Path, line: str, why: str) -> None:
    with pytest.raises(DataFileError, match=why):
        load_board(_board(tmp_path, line), UNITS)


@contextmanager
def played_by_family(tmp_path: Path, name: str) -> Iterator[str]:
    """A ruleset family registered for the test: the Revised board with the United States played by the United
    Kingdom's player; yields its ruleset id."""
    data = tmp_path / "family"
    for kind in ("boards", "units", "rulesets"):
        (data / kind).mkdir(parents=True)
    board = _board(tmp_path, 'played_by = "UK"').read_text(encoding="utf-8").replace('id = "revised"', f'id = "{name}"')
    (data / "boards" / f"{name}.toml").write_text(board, encoding="utf-8")
    (data / "units" / f"{name}.toml").write_text(data_file("units", "revised").read_text(encoding="utf-8"))
    rules = f"{name}-test"
    (data / "rulesets" / f"{rules}.toml").write_text(
        f'id = "{rules}"\ntitle = "played by (test)"\nboard = "{name}"\nunits = "{name}"\nmodules = ["lhtr"]\n')
    register_family(Family(rules, "played by (test)", data))
    try:
        yield rules
    finally:
        unregister_family(rules)


def test_the_server_seats_such_a_power_with_its_player(tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    from aare.game_setup import new_game
    from aare.server import seats

    with played_by_family(tmp_path, "pb") as rules:
        assert "United States" not in seats.seat_names(rules, {}, "nations")
        state = new_game(rules, {}, seed=1).state
        assert seats.seat_of(state, "nations", "United States") == "United Kingdom"
        assert seats.seat_of(state, "sides", "United States") == "Allies"
