"""`aare post` and `aare import`: play by forum or mail with turn posts (docs/play-by-post.md)."""

from __future__ import annotations

from pathlib import Path

import click

from aare.errors import MalformedInput
from aare.game_file import load_game
from aare.game_log import GameLog, save_log
from aare.posts.dice import COMMITTED, foreign_dice, heads, load_secrets, save_secrets, secrets_path
from aare.posts.post import read_post
from aare.posts.text import FORMATS


@click.command("post")
@click.argument("game", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--format", "fmt", type=click.Choice(FORMATS), default="markdown", show_default=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="write the post here (default: print it)")
def post(game: Path, fmt: str, output: Path | None) -> None:
    """Write the entries played since the last post as a post for a forum or a mail, the whole game attached,
    and record the post in the game file. The secret behind the post's dice commitment is kept in GAME.secret:
    never send that file."""
    from aare.posts.post import make_post

    log = load_game(game)
    secrets_file = secrets_path(game)
    secrets = load_secrets(secrets_file)
    text, section = make_post(log, fmt, secrets)
    if section["dice"] == COMMITTED:  # first the secret, then the record, then the post that publishes both
        save_secrets(secrets_file, secrets)
    log.sections["posts"] = section
    save_log(log, game)
    if output is None:
        click.echo(text, nl=False)
    else:
        output.write_text(text, encoding="utf-8")
        click.echo(f"post {len(section['records']) - 1} of {game} written to {output}", err=True)


@click.command("import")
@click.argument("post_file", metavar="POST", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True,
              help="the game file to write; if it exists, the post must continue that game")
def import_post(post_file: Path, output: Path) -> None:
    """Rebuild a game from a post alone, or continue a game file with it. Any tampering (a changed die, move or
    character, or text that contradicts the attachment) is refused and nothing is written."""
    try:
        text = post_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        raise MalformedInput(f"{post_file}: cannot read: {exc}") from None
    log = read_post(text)
    if output.exists():
        mine = load_game(output)
        extends(mine, log)
        known = len((mine.sections.get("posts") or {}).get("records", []))
        unfair = foreign_dice(log.sections["posts"]["records"], known, load_secrets(secrets_path(output)))
        if unfair:
            raise MalformedInput(f"the post is refused: {unfair}")
    save_log(log, output)
    records = log.sections["posts"]["records"]
    click.echo(f"post {len(records) - 1} imported into {output}: {len(log.entries)} entries, round "
               f"{log.state.round}, {log.state.nation} ({log.state.phase})")


def extends(mine: GameLog, posted: GameLog) -> None:
    """MalformedInput unless `posted` continues `mine`: the same game, every entry of mine in it, and my posts'
    records the first of its records."""
    if mine.initial.hash() != posted.initial.hash():
        raise MalformedInput("the post is of another game than the game file")
    m = len(mine.entries)
    if m > len(posted.entries):
        raise MalformedInput(f"the post is older than the game file: it holds {len(posted.entries)} entries, the "
                             f"file {m}")
    if heads(mine)[-1] != heads(posted)[m]:
        raise MalformedInput(f"the post does not continue the game file: its first {m} entries are not the file's "
                             "(the file was played on after its last post, or the post rewrites the game)")
    my_records = (mine.sections.get("posts") or {}).get("records", [])
    if posted.sections["posts"]["records"][: len(my_records)] != my_records:
        raise MalformedInput("the post's dice records do not continue the game file's posts")


COMMANDS = [post, import_post]
