"""`aare tournament`: two bots play side-swapped pairs of games on one ruleset; scores, intervals, ratings, timings."""

from __future__ import annotations

import json

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from aare.rules.options import parse_option_args
from aare.rules.registry import default_ruleset
from aare.tournament import MatchResult, run


@click.command("tournament")
@click.option("--rules", "ruleset_id", default=default_ruleset, show_default="the installed default", help="ruleset id")
@click.option("--bots", required=True, help="the two bots, e.g. greedy,random")
@click.option("--pairs", type=click.IntRange(min=1), default=5, show_default=True,
              help="seeds; each is played twice, sides swapped")
@click.option("--rounds", type=click.IntRange(min=1), default=12, show_default=True,
              help="round cap: a game still going is then scored against its start")
@click.option("--seed", type=int, default=0, show_default=True, help="seed of the first pair (then +1 per pair)")
@click.option("--budget", type=click.FloatRange(min=0), default=None, help="a searching bot's seconds per power-turn")
@click.option("--work", type=click.IntRange(min=1), default=None,
              help="a searching bot's effort per power-turn counted in work (reproducible)")
@click.option("--workers", type=click.IntRange(min=1), default=1, show_default=True, help="local processes")
@click.option("--cluster", default=None, metavar="ADDRESS", help="run the games on this Dask scheduler")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
@click.option("--json", "as_json", is_flag=True, help="machine-readable report on stdout (progress stays on stderr)")
def tournament(ruleset_id: str, bots: str, pairs: int, rounds: int, seed: int, budget: float | None,
               work: int | None, workers: int, cluster: str | None, options: tuple[str, ...], as_json: bool) -> None:
    """Play a tournament of two bots: each seed twice with the sides swapped and the same dice. Reports each
    bot's score (win 1, draw 0.5), its Wilson 95 % interval overall and per side, openskill ratings and
    thinking time per power-turn."""
    names = [b.strip() for b in bots.split(",") if b.strip()]
    columns = (TextColumn("tournament"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with Progress(*columns, console=Console(stderr=True), transient=True) as progress:
        task = progress.add_task("games", total=2 * pairs)

        def advance(done: int, total: int, _: MatchResult) -> None:
            progress.update(task, completed=done)

        report = run(ruleset_id, names, pairs, rounds, seed, parse_option_args(options), budget, work,
                     workers, cluster, progress=advance)
    if as_json:
        click.echo(json.dumps(report, indent=2))
        return
    console = Console()
    console.print(f"[bold]tournament[/bold]: {report['games']} games of {ruleset_id}, {rounds}-round cap, "
                  f"seed {seed}; {report['dead_ends']} dead ends, {report['refused']} refused actions")
    table = Table()
    for column in ("bot", "score", "wilson 95 %", "W-D-L", "rating (mu ± sigma)", "turn s p50", "turn s p95",
                   "CPU s p50", "CPU s p95"):
        table.add_column(column, justify="left" if column == "bot" else "right")
    for name, bot in report["bots"].items():
        rating = bot["rating"]
        table.add_row(
            name, f"{bot['score']:.3f}", f"{bot['wilson'][0]:.3f}–{bot['wilson'][1]:.3f}",
            f"{bot['wins']}-{bot['draws']}-{bot['losses']}",
            "—" if rating is None else f"{rating['mu']:.1f} ± {rating['sigma']:.1f}",
            *(f"{bot['turn_seconds'][k]:.3f}" for k in ("p50", "p95", "cpu_p50", "cpu_p95")),
        )
    console.print(table)
    for name, bot in report["bots"].items():
        sides = ", ".join(f"{side} {s['score']:.3f} of {s['games']}" for side, s in bot["sides"].items())
        console.print(f"  {name} by side: {sides}")


COMMANDS = [tournament]
