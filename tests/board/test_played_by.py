"""Who plays whom: a power with no player of its own is played by another power's player (`played_by` in the
board file), keeps its own turn, and sits with that player at the table."""

from __future__ import annotations

from pathlib import Path

import pytest

from aare.board.board import load_board
from aare.board.units import load_units
from aare.errors import DataFileError
from aare.rules.registry import data_file

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


def test_the_server_seats_such_a_power_with_its_player(tmp_path: Path) -> None:
    pytest.importorskip("fastapi", reason="the server extra is not installed")
    from aare.game_setup import new_game
    from aare.rules.registry import Family, register_family, unregister_family
    from aare.server import seats

    data = tmp_path / "family"
    for kind in ("boards", "units", "rulesets"):
        (data / kind).mkdir(parents=True)
    board = _board(tmp_path, 'played_by = "UK"').read_text(encoding="utf-8").replace('id = "revised"', 'id = "pb"')
    (data / "boards" / "pb.toml").write_text(board, encoding="utf-8")
    (data / "units" / "pb.toml").write_text(data_file("units", "revised").read_text(encoding="utf-8"))
    (data / "rulesets" / "pb-test.toml").write_text(
        'id = "pb-test"\ntitle = "played by (test)"\nboard = "pb"\nunits = "pb"\nmodules = ["lhtr"]\n')
    register_family(Family("pb-test", "played by (test)", data))
    try:
        assert "United States" not in seats.seat_names("pb-test", {}, "nations")
        state = new_game("pb-test", {}, seed=1).state
        assert seats.seat_of(state, "nations", "United States") == "United Kingdom"
        assert seats.seat_of(state, "sides", "United States") == "Allies"
    finally:
        unregister_family("pb-test")
