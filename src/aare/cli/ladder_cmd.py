"""`aare ladder`: record results on the AARe power-ranking ladder and show the table."""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from aare.ladder.store import DEFAULT_LADDER_FILE, LADDER_FILE_ENV, add_result, load_ladder

_file_option = click.option(
    "--file",
    "path",
    type=click.Path(dir_okay=False, path_type=Path),
    envvar=LADDER_FILE_ENV,
    default=DEFAULT_LADDER_FILE,
    show_default=True,
    help=f"ladder file (or ${LADDER_FILE_ENV})",
)


@click.group()
def ladder() -> None:
    """The AARe power-ranking ladder: record results, show the table."""


@ladder.command(name="add-result")
@click.argument("winner")
@click.argument("loser")
@_file_option
@click.option("--title-match", is_flag=True, help="a title match: the winner takes (or keeps) the belt")
@click.option("--json", "as_json", is_flag=True, help="print the result as JSON")
def add_result_cmd(winner: str, loser: str, path: Path, title_match: bool, as_json: bool) -> None:
    """Record that WINNER beat LOSER; new players enter below the last ranked player."""
    result = add_result(winner, loser, path, title_match=title_match)
    if as_json:
        click.echo(json.dumps(asdict(result)))
        return
    belt = f"; {result.winner} holds the belt" if title_match else ""
    click.echo(
        f"{result.winner} {result.winner_before} -> {result.winner_after}, "
        f"{result.loser} {result.loser_before} -> {result.loser_after}{belt}"
    )


@ladder.command(name="table")
@_file_option
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of a table")
def table_cmd(path: Path, as_json: bool) -> None:
    """Show the ranked players, best first."""
    board = load_ladder(path)
    rows = board.table()
    if as_json:
        data = {"champion": board.champion, "results": len(board.results), "players": [asdict(r) for r in rows]}
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    table = Table("rank", "player", "won", "lost", "", title=f"AARe power ranking ({len(board.results)} results)")
    for row in rows:
        table.add_row(str(row.rank), row.name, str(row.wins), str(row.losses), "champion" if row.champion else "")
    Console().print(table)


COMMANDS = [ladder]
