"""The ladder file: ranks stay a permutation, results move exactly the formula ranks, the belt, JSON."""

from __future__ import annotations

import json
import multiprocessing
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aare.errors import DataFileError, MalformedInput
from aare.ladder.store import Ladder, LadderError, add_result, load_ladder, save_ladder, table

NAMES = [f"p{i:02d}" for i in range(1, 13)]


def twelve() -> Ladder:
    return Ladder(NAMES)


@pytest.mark.rule("AARE-RANK-high-wins-loser-unchanged", "AARE-RANK-high-wins-formula")
def test_rank_four_beats_rank_eight() -> None:
    board = twelve()
    result = board.add_result("p04", "p08")
    assert (result.winner_before, result.winner_after, result.loser_before, result.loser_after) == (4, 3, 8, 8)
    assert board.players[:8] == ("p01", "p02", "p04", "p03", "p05", "p06", "p07", "p08")


@pytest.mark.rule("AARE-RANK-upset-low-formula", "AARE-RANK-upset-high-formula")
def test_upset_moves_both_players_to_their_formula_ranks() -> None:
    board = twelve()
    result = board.add_result("p10", "p02")  # winner 10 -> 5 (4.88), loser 2 -> 4 (4.236)
    assert (result.winner_after, result.loser_after) == (5, 4)
    assert board.rank_of("p10") == 5 and board.rank_of("p02") == 4
    assert board.players == ("p01", "p03", "p04", "p02", "p10", "p05", "p06", "p07", "p08", "p09", "p11", "p12")


@pytest.mark.rule("AARE-RANK-path-to-first", "AARE-RANK-upset-high-threshold")
@pytest.mark.parametrize(
    ("winner", "loser", "loser_rank"), [("p03", "p01", 2), ("p05", "p01", 2), ("p03", "p02", 2), ("p02", "p04", 4)]
)
def test_a_path_to_first_takes_first_place(winner: str, loser: str, loser_rank: int) -> None:
    """Both may compute to rank 1 (the old 1 losing to 3 keeps 1 by formula): the winner takes it, the loser is 2."""
    board = twelve()
    result = board.add_result(winner, loser)
    assert board.players[0] == winner and result.winner_after == 1
    assert board.rank_of(loser) == result.loser_after == loser_rank


@pytest.mark.rule("AARE-RANK-unranked-opponents")
def test_newcomer_enters_below_the_last_ranked_player() -> None:
    board = twelve()
    result = board.add_result("p04", "rookie")
    assert (result.loser_before, result.winner_after) == (13, 4)
    assert board.players[-1] == "rookie" and board.rank_of("p04") == 4
    result = board.add_result("novice", "p12")  # 14 beats 12
    assert result.winner_before == 14 and board.rank_of("novice") == result.winner_after < 12


@pytest.mark.rule("AARE-RANK-unranked-opponents")
def test_two_newcomers_enter_winner_first() -> None:
    board = Ladder()
    result = board.add_result("ann", "bob")
    assert (result.winner_before, result.loser_before) == (1, 2) and board.players == ("ann", "bob")


@pytest.mark.rule("AARE-RANK-title-match")
def test_belt_changes_only_in_a_title_match() -> None:
    board = Ladder(["champ", "top", "mid"], champion="champ")
    board.add_result("top", "champ")
    assert board.champion == "champ" and board.players[0] == "top"
    board.add_result("mid", "champ", title_match=True)
    assert board.champion == "mid"
    assert [row.champion for row in board.table()] == [row.name == "mid" for row in board.table()]


@pytest.mark.rule("AARE-RANK-title-match")
def test_title_match_needs_the_champion() -> None:
    board = Ladder(["champ", "a", "b"], champion="champ")
    with pytest.raises(LadderError, match="holds the belt"):
        board.add_result("a", "b", title_match=True)
    board.add_result("champ", "a", title_match=True)
    assert board.champion == "champ"
    first = Ladder(["a", "b"])
    first.add_result("b", "a", title_match=True)
    assert first.champion == "b"


@pytest.mark.parametrize(("winner", "loser"), [("a", "a"), ("", "b"), ("  ", "b"), ("a\nb", "c"), ("x" * 65, "b")])
def test_bad_pairings_are_refused(winner: str, loser: str) -> None:
    with pytest.raises(MalformedInput):
        Ladder().add_result(winner, loser)


games = st.lists(st.tuples(st.integers(0, 9), st.integers(0, 9)).filter(lambda t: t[0] != t[1]), max_size=40)


@pytest.mark.rule("AARE-RANK-low-never-loses", "AARE-RANK-high-wins-loser-unchanged")
@given(games=games, title=st.lists(st.booleans(), min_size=40, max_size=40))
def test_any_sequence_keeps_a_consistent_table(games: list[tuple[int, int]], title: list[bool]) -> None:
    board = Ladder()
    for (w, lo), is_title in zip(games, title, strict=False):
        winner, loser = f"n{w}", f"n{lo}"
        is_title = is_title and board.champion in (None, winner, loser)
        result = board.add_result(winner, loser, title_match=is_title)
        assert board.rank_of(winner) == result.winner_after <= result.winner_before
        assert board.rank_of(loser) == result.loser_after >= result.loser_before
        if result.winner_before < result.loser_before:
            assert result.loser_after == result.loser_before
        rows = board.table()
        assert [r.rank for r in rows] == list(range(1, len(rows) + 1))
        assert len({r.name for r in rows}) == len(rows)
        assert sum(r.wins for r in rows) == sum(r.losses for r in rows) == len(board.results)
    again = Ladder.from_json(json.loads(json.dumps(board.to_json())))
    assert again.table() == board.table() and again.results == board.results


def test_file_round_trip_is_atomic(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    add_result("ann", "bob", path)
    add_result("cy", "ann", path, title_match=True)
    rows = [(r.rank, r.name, r.champion) for r in table(path)]
    assert rows == [(1, "cy", True), (2, "ann", False), (3, "bob", False)]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".ladder.json.lock", "ladder.json"]  # no temporary files
    save_ladder(load_ladder(path), path)
    assert json.loads(path.read_text())["format"] == "aare-ladder"


def test_default_file_is_env_or_cwd(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("AARE_LADDER_FILE", raising=False)
    add_result("ann", "bob")
    assert (tmp_path / "ladder.json").is_file()
    monkeypatch.setenv("AARE_LADDER_FILE", str(tmp_path / "other.json"))
    add_result("ann", "bob")
    assert len(table()) == 2 and (tmp_path / "other.json").is_file()


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        "[]",
        '{"format": "aare-ladder", "version": 2, "players": [], "results": []}',
        '{"format": "aare-ladder", "version": 1, "players": ["a", "a"], "results": []}',
        '{"format": "aare-ladder", "version": 1, "players": ["a"], "champion": "b", "results": []}',
        '{"format": "aare-ladder", "version": 1, "players": [" a"], "results": []}',
        '{"format": "aare-ladder", "version": 1, "players": ["a"], "results": [], "extra": 1}',
        '{"format": "aare-ladder", "version": 1, "players": [1], "results": []}',
    ],
)
def test_malformed_files_raise_data_file_error(tmp_path: Path, text: str) -> None:
    path = tmp_path / "ladder.json"
    path.write_text(text)
    with pytest.raises(DataFileError):
        load_ladder(path)


def test_missing_file_is_an_error_unless_allowed(tmp_path: Path) -> None:
    with pytest.raises(DataFileError, match="no such file"):
        load_ladder(tmp_path / "none.json")
    assert load_ladder(tmp_path / "none.json", missing_ok=True).players == ()


def _record(args: tuple[str, int]) -> None:
    path, worker = args
    for game in range(5):
        add_result(f"w{worker}-{game}", f"l{worker}-{game}", Path(path))


@pytest.mark.rule("AARE-RANK-unranked-opponents")
def test_results_recorded_at_once_by_several_processes_are_all_kept(tmp_path: Path) -> None:
    path = tmp_path / "ladder.json"
    with multiprocessing.get_context("fork").Pool(6) as pool:
        pool.map(_record, [(str(path), worker) for worker in range(6)])
    ladder = load_ladder(path)
    assert len(ladder.results) == 30 and len(ladder.players) == 60
