"""`aare bot`: a bot plays a game file's decisions for some powers, then the file is written."""

from __future__ import annotations

from pathlib import Path

import click

from aare.ai import bot_names, make_bot
from aare.engine import Game
from aare.game_file import load_game
from aare.game_log import save_log
from aare.posts.dice import dice_for_file
from aare.selfplay import play_for


@click.command("bot")
@click.argument("game", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--bot", "bot_name", type=click.Choice(bot_names()), required=True, help="the bot that plays")
@click.option("--power", "powers", multiple=True, metavar="POWER",
              help="a power the bot plays (a name or alias); repeatable. Default: every power")
@click.option("--until-round", type=click.IntRange(min=1), default=None,
              help="play until this round begins (default: until the current turn ends)")
@click.option("--seed", type=int, default=0, show_default=True, help="the bot's seed")
@click.option("--budget", type=click.FloatRange(min=0), default=None, help="a searching bot's seconds per power-turn")
@click.option("--work", type=click.IntRange(min=1), default=None, help="a searching bot's work per power-turn")
def bot(game: Path, bot_name: str, powers: tuple[str, ...], until_round: int | None, seed: int,
        budget: float | None, work: int | None) -> None:
    """Let a bot play every decision of the given powers (battle decisions included) until round N begins, or
    until the current power's turn ends, and write the game file. It stops early when a decision falls to a
    power it does not play."""
    g = Game(load_game(game))
    g.dice = dice_for_file(game, g.log)
    board = g.ruleset.board
    chosen = {board.resolve_power(p) for p in powers} or None
    played = play_for(g, make_bot(bot_name, seed, budget=budget, work=work), chosen, until_round)
    save_log(g.log, game)
    state = g.state
    who = ", ".join(g.to_act()) or "nobody"
    ended = f"; the game is over: {state.winner} won" if state.winner else ""
    click.echo(f"{bot_name} played {played} action(s); now round {state.round}, {state.phase}, to act: {who}{ended}")


COMMANDS = [bot]
