"""A ruleset's board changes file (`apply_changes`): connections removed, added and closed to transports, straits,
extra set-up units; every bad entry names the key at fault."""

from __future__ import annotations

from pathlib import Path

import pytest

from aare.board.board import Board, apply_changes, load_board
from aare.board.units import UnitCatalogue, load_units
from aare.errors import DataFileError
from aare.movement.graph import Graph
from aare.rules.registry import data_file


@pytest.fixture(scope="module")
def units() -> UnitCatalogue:
    return load_units(data_file("units", "revised"))


@pytest.fixture(scope="module")
def board(units: UnitCatalogue) -> Board:
    return load_board(data_file("boards", "revised"), units)


def changed(tmp_path: Path, board: Board, units: UnitCatalogue, text: str) -> Board:
    path = tmp_path / "changes.toml"
    path.write_text(text, encoding="utf-8")
    return apply_changes(board, path, units)


def fails(tmp_path: Path, board: Board, units: UnitCatalogue, text: str, key: str, reason: str) -> None:
    with pytest.raises(DataFileError) as info:
        changed(tmp_path, board, units, text)
    assert (info.value.path, info.value.key) == (str(tmp_path / "changes.toml"), key), str(info.value)
    assert reason in info.value.reason, str(info.value)


def _coastal(board: Board) -> tuple[str, str]:
    land = next(s for s in board.land() if any(board.spaces[n].is_sea for n in s.neighbors))
    return land.name, next(n for n in land.neighbors if board.spaces[n].is_sea)


def _apart(board: Board) -> tuple[str, str]:
    lands = [s.name for s in board.land() if not s.neutral]
    return next((a, b) for a in lands for b in lands if a != b and not board.adjacent(a, b))


def test_connections_removed_added_and_closed_to_transports(tmp_path: Path, board: Board, units: UnitCatalogue) -> None:
    land, sea = _coastal(board)
    a, b = _apart(board)
    coastal = [s.name for s in board.land() if any(board.spaces[n].is_sea for n in s.neighbors)]
    other_land = next(name for name in coastal if name != land)
    other_sea = next(n for n in board.spaces[other_land].neighbors if board.spaces[n].is_sea)
    new = changed(tmp_path, board, units, f'remove = [["{land}", "{sea}"]]\nadd = [["{a}", "{b}"]]\n'
                  f'no_transport = [["{other_land}", "{other_sea}"]]\n')
    assert not new.adjacent(land, sea) and not new.adjacent(sea, land)
    assert new.adjacent(a, b) and new.adjacent(b, a)
    assert new.adjacent(other_land, other_sea)
    graph = Graph(new)
    assert other_sea not in graph.coast[other_land] and other_land not in graph.coast[other_sea]
    assert other_sea in graph.sea_nbrs[other_land]
    assert board.adjacent(land, sea)  # the loaded board is untouched


def test_extra_units_join_the_set_up(tmp_path: Path, board: Board, units: UnitCatalogue) -> None:
    placed = next(s for s in board.setup if board.spaces[s.space].is_land)
    new = changed(tmp_path, board, units,
                  f'[[units]]\nspace = "{placed.space}"\npower = "{placed.power}"\nunits = "1 factory, 1 aa gun"\n')
    found = next(s for s in new.setup if (s.space, s.power) == (placed.space, placed.power))
    assert found.units["factory"] == placed.units.get("factory", 0) + 1
    assert found.units["aa_gun"] == placed.units.get("aa_gun", 0) + 1
    assert len(new.setup) == len(board.setup)


def test_a_strait_bars_entry_only(tmp_path: Path, board: Board, units: UnitCatalogue) -> None:
    sea = next(s for s in board.seas() if any(board.spaces[n].is_sea for n in s.neighbors))
    other = next(n for n in sea.neighbors if board.spaces[n].is_sea and board.canal_between(sea.name, n) is None)
    land = next(s.name for s in board.land() if not s.neutral)
    new = changed(tmp_path, board, units, f'[[canal]]\nname = "Strait"\nseas = ["{sea.name}", "{other}"]\n'
                  f'requires = ["{land}"]\ninto = "{other}"\n')
    strait = new.canal_between(sea.name, other)
    assert strait is not None and strait.bars(sea.name, other) and not strait.bars(other, sea.name)


def test_bad_entries_name_the_key(tmp_path: Path, board: Board, units: UnitCatalogue) -> None:
    land, sea = _coastal(board)
    a, b = _apart(board)
    fails(tmp_path, board, units, "shift = []\n", "<file>", "unknown top-level key")
    fails(tmp_path, board, units, f'remove = [["{a}", "{b}"]]\n', "remove[0]", "not adjacent")
    fails(tmp_path, board, units, f'add = [["{land}", "{sea}"]]\n', "add[0]", "already adjacent")
    fails(tmp_path, board, units, 'add = [["Atlantis", "Mu"]]\n', "add[0]", "unknown space")
    fails(tmp_path, board, units, f'add = ["{a}"]\n', "add", "pairs")
    fails(tmp_path, board, units, f'no_transport = [["{a}", "{b}"]]\n', "no_transport[0]", "not an adjacent")
    fails(tmp_path, board, units, f'[[canal]]\nname = "X"\nseas = ["{sea}", "{land}"]\nrequires = ["{land}"]\n',
          "canal.X.seas", "not a sea zone")
    enemy = next(s for s in board.setup if board.spaces[s.space].is_land)
    foe = next(p.name for p in board.powers if p.side != board.side_of(enemy.power))
    fails(tmp_path, board, units, f'[[units]]\nspace = "{enemy.space}"\npower = "{foe}"\nunits = "1 infantry"\n',
          "units[0]", "cannot start with units")


def test_a_canal_of_the_board_is_replaced_by_name(tmp_path: Path, board: Board, units: UnitCatalogue) -> None:
    canal = board.canals[0]
    seas = ", ".join(f'"{s}"' for s in canal.seas)
    needs = ", ".join(f'"{t}"' for t in canal.requires)
    new = changed(tmp_path, board, units, f'[[canal]]\nname = "{canal.name}"\nseas = [{seas}]\nrequires = [{needs}]\n'
                  "joins = true\n")
    assert len(new.canals) == len(board.canals)
    found = new.canal_between(*canal.seas)
    assert found is not None and found.joins and not canal.joins
    other = next(n for n in board.spaces[canal.seas[0]].neighbors if board.spaces[n].is_sea and n != canal.seas[1])
    fails(tmp_path, board, units, f'[[canal]]\nname = "{canal.name}"\nseas = ["{canal.seas[0]}", "{other}"]\n'
          f'requires = [{needs}]\n', f"canal.{canal.name}.seas", "joins")


POWER = '[[power]]\nname = "Borduria"\nside = "Axis"\ncapital = "North March"\ncolour = "#9fb7d9"\nink = "#23446e"\n'
MARCH = '[[land]]\nname = "North March"\nipc = 4\nowner = "Borduria"\nneighbors = ["Norway", "SZ 3"]\n'


def test_a_map_variant_adds_a_power_territories_and_transfers(tmp_path: Path, board: Board,
                                                              units: UnitCatalogue) -> None:
    new = changed(tmp_path, board, units, '[board]\nid = "revised-borduria"\nname = "With Borduria"\n' + POWER + MARCH
                  + '[[land]]\nname = "Norway"\nipc = 5\nowner = "Borduria"\n'
                  'neighbors = ["Karelia S.S.R.", "North March", "SZ 3"]\n\n[bank]\nBorduria = 9\n\n'
                  '[[transfer]]\nspace = "Norway"\nfrom = "Germany"\n'
                  'to = "Borduria"\nunits = "1 infantry"\ninto = "North March"\n'
                  '\n[[transfer]]\nspace = "Norway"\nfrom = "Germany"\nto = "Borduria"\n')
    assert (new.id, new.name) == ("revised-borduria", "With Borduria")
    assert [p.name for p in new.powers][-1] == "Borduria" and new.powers[-1].order == len(board.powers)
    assert new.capital_of("Borduria") == "North March" and new.bank["Borduria"] == 9
    norway = new.spaces["Norway"]
    assert (norway.ipc, norway.owner, new.owners["Norway"]) == (5, "Borduria", "Borduria")
    assert set(norway.neighbors) == {"Karelia S.S.R.", "North March", "SZ 3"}  # rewired both ways
    for gone in set(board.spaces["Norway"].neighbors) - set(norway.neighbors):
        assert "Norway" not in new.spaces[gone].neighbors
    assert new.adjacent("SZ 3", "North March") and new.spaces["Norway"].victory_city == board.spaces[
        "Norway"].victory_city
    start = {(s.space, s.power): dict(s.units) for s in new.setup}
    before = next(dict(s.units) for s in board.setup if s.space == "Norway" and s.power == "Germany")
    assert start["North March", "Borduria"] == {"infantry": 1} and ("Norway", "Germany") not in start
    assert start["Norway", "Borduria"] == {**before, "infantry": before["infantry"] - 1}
    # a changed territory keeps what it does not give; `clear` takes a field away
    kept = changed(tmp_path, board, units, '[[land]]\nname = "Germany"\nipc = 20\nclear = ["victory_city"]\n')
    assert kept.spaces["Germany"].neighbors == board.spaces["Germany"].neighbors
    assert (kept.spaces["Germany"].ipc, kept.spaces["Germany"].victory_city) == (20, None)


def test_bad_variant_entries_name_the_key(tmp_path: Path, board: Board, units: UnitCatalogue) -> None:
    fails(tmp_path, board, units, POWER + MARCH, "bank", "no starting bank for Borduria")
    fails(tmp_path, board, units, '[[transfer]]\nspace = "Norway"\nfrom = "Japan"\nto = "Germany"\n', "transfer[0]",
          "Japan does not start with units in Norway")
    fails(tmp_path, board, units, '[[transfer]]\nspace = "Norway"\nfrom = "Germany"\nto = "Germany"\n'
          'into = "Russia"\n', "transfer[0].into", "cannot start with units in Russia")
    fails(tmp_path, board, units, MARCH.replace("Borduria", "Germany") + '[[land]]\nname = "Norway"\nipc = 3\n'
          'neighbors = ["Karelia S.S.R.", "SZ 3"]\n', "land.North March.neighbors",
          "Norway is changed too and does not list")
    fails(tmp_path, board, units, '[[land]]\nname = "SZ 3"\nipc = 3\n', "land.SZ 3", "a sea zone")
