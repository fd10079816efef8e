"""Playing on a game file: `aare legal`, `aare act`, `aare undo`, `aare log`, `aare actions --schema`.

Hot-seat and play-by-e-mail: players pass the file; every change is written atomically.
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console

from aare.action_text import format_action, format_event, parse_action_text
from aare.actions import action_schema, parse_action
from aare.cli.game_cmds import AS_POWER, viewer_of
from aare.engine import Game
from aare.errors import MalformedInput
from aare.game_file import load_game
from aare.game_log import save_log
from aare.player_view import entries_view
from aare.posts.dice import dice_for_file

GAME = click.argument("game", type=click.Path(dir_okay=False, path_type=Path))


@click.command("legal")
@GAME
@click.option("--space", default=None, help="only actions that start from or touch this space")
@click.option("--power", default=None, help="the acting power (a team turn: whose actions to list)")
@click.option("--json", "as_json", is_flag=True)
def legal(game: Path, space: str | None, power: str | None, as_json: bool) -> None:
    """List the actions that are legal now (for each acting power in a team turn unless --power names one)."""
    g = Game(load_game(game))
    if space is not None:
        space = g.ruleset.board.resolve(space)
    powers = [g.ruleset.board.resolve_power(power)] if power else g.to_act()[:1] or [g.state.nation]
    if power is None and g.state.members:
        powers = g.to_act()
    actions = [a.to_json() for p in powers for a in g.legal_actions(space, p)]
    if as_json:
        click.echo(json.dumps(actions, indent=1, ensure_ascii=False))
        return
    state = g.state
    who = ", ".join(g.to_act()) or state.nation
    click.echo(f"round {state.round}, {who}: {state.phase} — {len(actions)} legal action(s)")
    for action in actions:
        click.echo(f"  {format_action(action)}")


@click.command("act")
@GAME
@click.argument("action", required=False)
@click.option("--text", "text", default=None, help='the action in text notation, e.g. "end phase"')
@click.option("--json", "as_json", is_flag=True, help="print the events as JSON")
def act(game: Path, action: str | None, text: str | None, as_json: bool) -> None:
    """Apply one action (JSON, or --text notation) and write the game file."""
    g = Game(load_game(game))
    g.dice = dice_for_file(game, g.log)
    if (action is None) == (text is None):
        raise MalformedInput("give exactly one action: JSON as an argument, or --text")
    raw = parse_action_text(text, g.ruleset) if text is not None else parse_action(action).to_json()
    events = g.apply(raw)
    save_log(g.log, game)
    if as_json:
        click.echo(json.dumps([e.to_json() for e in events], indent=1, ensure_ascii=False))
        return
    click.echo(format_action(raw))
    for event in events:
        line = format_event(event.to_json())
        if line:
            click.echo(f"  {line}")


@click.command("undo")
@GAME
@click.option("--power", default=None, help="a team turn: take back this power's last action")
def undo(game: Path, power: str | None) -> None:
    """Take back the last action of this phase (never past a die roll); in a team turn, --power's last one,
    the other members' later actions kept."""
    g = Game(load_game(game))
    before = [e.action for e in g.log.entries]
    g.undo(g.ruleset.board.resolve_power(power) if power else None)
    records = (g.log.sections.get("posts") or {}).get("records") or [{}]
    if len(g.log.entries) < records[-1].get("upto", 0):
        raise MalformedInput("that entry was posted already: a posted game only goes on")
    save_log(g.log, game)
    after = [e.action for e in g.log.entries]
    gone = next((a for i, a in enumerate(before) if i >= len(after) or after[i] != a), None)
    click.echo(f"undone: {format_action(gone) if gone else 'automatic step'}")


@click.command("log")
@GAME
@AS_POWER
def log(game: Path, as_powers: tuple[str, ...]) -> None:
    """Print the history of the game in text notation, as a power (or a spectator) sees it."""
    g = load_game(game)
    console = Console(highlight=False)
    for number, entry in enumerate(entries_view(g.entries, viewer_of(g.state, as_powers), g.state), 1):
        action = entry["action"]
        console.print(f"{number:>4}. {format_action(action) if action else '(automatic)'}")
        for event in entry["events"]:
            line = format_event(event)
            if line:
                console.print(f"        {line}", markup=False)


@click.command("actions")
@click.option("--schema", is_flag=True, required=True, help="print the JSON Schema of every action")
def actions(schema: bool) -> None:
    """The action contract: `aare actions --schema`."""
    click.echo(json.dumps(action_schema(), indent=1))


COMMANDS = [legal, act, undo, log, actions]
