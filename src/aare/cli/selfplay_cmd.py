"""`aare selfplay`: bots play whole games; every step is checked against the invariants."""

from __future__ import annotations

import json
import sys

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from aare.ai import bot_names
from aare.rules.options import parse_option_args
from aare.rules.registry import default_ruleset
from aare.selfplay import GameResult, selfplay


@click.command("selfplay")
@click.option("--rules", "ruleset_id", default=default_ruleset, show_default="the installed default", help="ruleset id")
@click.option("--games", type=click.IntRange(min=1), default=1, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the first game (then +1 per game)")
@click.option("--rounds", type=click.IntRange(min=1), default=10, show_default=True, help="rounds per game at most")
@click.option("--bot", type=click.Choice(bot_names()), default="random", show_default=True)
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
@click.option("--random-options", is_flag=True,
              help="each game draws every yes/no and multiple-choice option from its seed (--option still holds)")
@click.option("--json", "as_json", is_flag=True, help="machine-readable report on stdout (progress stays on stderr)")
def selfplay_cmd(
    ruleset_id: str, games: int, seed: int, rounds: int, bot: str, options: tuple[str, ...], random_options: bool,
    as_json: bool,
) -> None:
    """Let bots play games and report winners, rounds, speed and invariant violations (exit code 1 if any).
    Progress is shown on stderr, the report goes to stdout."""
    chosen = parse_option_args(options)
    columns = (TextColumn("self-play"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("games", total=games)

        def advance(_: int, __: GameResult) -> None:
            progress.advance(task)

        report = selfplay(ruleset_id, games, seed, rounds, bot, chosen, advance, random_options)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        sys.exit(1 if report["invariant_violations"] else 0)
    console = Console()
    console.print(f"[bold]self-play[/bold]: {games} game(s) of {ruleset_id}, {bot} bot, seed {seed}")
    table = Table(show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    winners = ", ".join(f"{k} {v}" for k, v in report["winners"].items())
    for label, value in (
        ("finished (a side won)", report["finished"]),
        ("rounds played", report["rounds_played"]),
        ("winners", winners),
        ("actions", report["actions"]),
        ("invariant violations", report["invariant_violations"]),
        ("dead ends", report["dead_ends"]),
        ("logs replayed", report["replayed"]),
        ("seconds per game", f"{report['seconds_per_game']:.3f}"),
    ):
        table.add_row(label, str(value))
    console.print(table)
    for line in report["violation_examples"]:
        console.print(f"[red]violation:[/red] {line}")
    if report["invariant_violations"]:
        sys.exit(1)


COMMANDS = [selfplay_cmd]
