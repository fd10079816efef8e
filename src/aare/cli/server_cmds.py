"""`aare serve`, `aare db upgrade`, `aare db import-ladder` and `aare verify`: running the online table, its
database and checking its dice.

The server's libraries (the `server` extra) are imported inside the commands, so the rest of the command
line works without them; `aare verify` needs none of them.
"""

from __future__ import annotations

import dataclasses
import json
import os
import sys
from pathlib import Path
from typing import Any

import click

from aare.posts.attachment import BEGIN as POST_MARK
from aare.server.settings import BOT_MODES, Settings

DATA_DIR_HELP = "folder of the SQLite database (default: $AARE_DATA_DIR or ./aare-data); unused with AARE_DATABASE_URL"


@click.command("serve")
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=DATA_DIR_HELP)
@click.option("--workers", default=1, show_default=True, type=click.IntRange(1, 64),
              help="worker processes (more than one: set AARE_REDIS_URL so live updates reach every worker)")
@click.option("--bots", "bot_mode", type=click.Choice(BOT_MODES), default=None,
              help="how bots act (default: $AARE_BOT_MODE or background)")
@click.option("--log-level", default="info", show_default=True)
def serve(host: str, port: int, data_dir: Path | None, workers: int, bot_mode: str | None, log_level: str) -> None:
    """Run the online table (FastAPI on uvicorn). The database schema is brought up to date first."""
    import uvicorn

    from aare.server.api import create_app
    from aare.server.api.http_protocol import HTTP_PROTOCOL
    from aare.server.collector import quieter_garbage_collection
    from aare.server.db import make_engine
    from aare.server.migrate import upgrade

    settings = Settings.from_env(data_dir)
    if bot_mode:
        settings = dataclasses.replace(settings, bot_mode=bot_mode)
    engine = make_engine(settings.database_url, settings.sqlite_synchronous)
    revision = upgrade(engine)
    engine.dispose()
    click.echo(f"database {_safe(settings.database_url)} at revision {revision}", err=True)
    if workers > 1 and not settings.redis_url:
        click.echo("warning: several workers without AARE_REDIS_URL: live updates stay within each worker", err=True)
    if workers == 1:
        app = create_app(settings)
        quieter_garbage_collection()
        uvicorn.run(app, host=host, port=port, log_level=log_level, proxy_headers=True, timeout_graceful_shutdown=3,
                    access_log=_access_log(log_level), http=HTTP_PROTOCOL)
        return
    os.environ.update({"AARE_DATABASE_URL": settings.database_url, "AARE_BOT_MODE": settings.bot_mode})
    uvicorn.run("aare.server.api:create_app_from_env", factory=True, workers=workers, host=host, port=port,
                log_level=log_level, proxy_headers=True, timeout_graceful_shutdown=3, access_log=_access_log(log_level),
                http=HTTP_PROTOCOL)


def _access_log(log_level: str) -> bool:
    """Whether uvicorn should make access log lines: only when the level shows them (info or lower), so a
    quieter server does not build a line per request to drop it."""
    return log_level.lower() in ("trace", "debug", "info")


@click.group("db")
def db_group() -> None:
    """The server database."""


@db_group.command("upgrade")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=DATA_DIR_HELP)
@click.option("--database-url", default=None, help="a SQLAlchemy URL (default: $AARE_DATABASE_URL)")
def db_upgrade(data_dir: Path | None, database_url: str | None) -> None:
    """Run the database migrations up to the newest schema."""
    from aare.server.db import make_engine
    from aare.server.migrate import upgrade

    settings = Settings.from_env(data_dir, database_url)
    engine = make_engine(settings.database_url)
    revision = upgrade(engine)
    engine.dispose()
    click.echo(f"database {_safe(settings.database_url)} at revision {revision}")


@db_group.command("import-ladder")
@click.argument("ladder_file", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--replace", is_flag=True, help="drop the server's ladder (players and results) first")
@click.option("--data-dir", type=click.Path(file_okay=False, path_type=Path), default=None, help=DATA_DIR_HELP)
@click.option("--database-url", default=None, help="a SQLAlchemy URL (default: $AARE_DATABASE_URL)")
def db_import_ladder(ladder_file: Path, replace: bool, data_dir: Path | None, database_url: str | None) -> None:
    """Bring an `aare ladder` file onto the server: its players in order, its champion and its results (a
    player is the account of the same username once he plays). Refused when the server's ladder has players,
    unless --replace."""
    from aare.errors import AareError
    from aare.ladder import load_ladder
    from aare.server import ladder
    from aare.server.db import make_engine, write
    from aare.server.errors import ServiceError
    from aare.server.migrate import upgrade

    try:
        loaded = load_ladder(ladder_file)
    except AareError as exc:
        raise click.ClickException(str(exc)) from None
    settings = Settings.from_env(data_dir, database_url)
    engine = make_engine(settings.database_url)
    try:
        upgrade(engine)
        with write(engine) as conn:
            count = ladder.import_ladder(conn, loaded, replace=replace)
    except ServiceError as exc:
        raise click.ClickException(exc.message) from None
    finally:
        engine.dispose()
    click.echo(f"imported {count} players and {len(loaded.results)} results into {_safe(settings.database_url)}")


@click.command("verify")
@click.argument("export", type=click.Path(dir_okay=False, exists=True, path_type=Path))
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def verify(export: Path, as_json: bool) -> None:
    """Check an exported server game, or a post (`aare post`), offline: the log replays, every revealed seed
    matches its commitment and every die recomputes from its seed. Exits 1 if anything is wrong."""
    from aare.server.verify import verify_export

    try:
        text = export.read_text(encoding="utf-8")
        raw = None if POST_MARK in text else json.loads(text)
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"{export}: cannot read: {exc}") from None
    if raw is None or (isinstance(raw, dict) and "posts" in raw and "server" not in raw):
        _verify_post(export, text if raw is None else raw, as_json)
        return
    report = verify_export(raw)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        click.echo(f"{export}: {report.entries} entries, {report.turns} dice turns, {report.dice_checked} dice "
                   f"recomputed, {report.dice_pending} in the unrevealed current turn"
                   + (f", {report.unverifiable_entries} imported entries not covered" if report.unverifiable_entries
                      else ""))
        for problem in report.problems:
            click.echo(f"  problem: {problem}")
        click.echo("verified" if report.ok else f"NOT verified: {len(report.problems)} problem(s)")
    sys.exit(0 if report.ok else 1)


def _verify_post(path: Path, post: str | dict[str, Any], as_json: bool) -> None:
    """Check a post (its text), or a posted game's file (its JSON), and print what was recomputed."""
    from aare.posts.post import check_game_file, check_post

    report = check_post(post) if isinstance(post, str) else check_game_file(post)
    if as_json:
        click.echo(json.dumps(report.to_json(), indent=2))
    else:
        chain, entries = report.chain, len(report.log.entries) if report.log else 0
        dice = ("seeded dice, which anyone with the game can foresee" if chain.seeded
                else "dice rolled by the online table (its export proves them)" if chain.dice == "table"
                else f"{chain.dice_checked} dice recomputed from the posts' seeds"
                + (f", {chain.dice_pending} rolled since the last post" if chain.dice_pending else ""))
        click.echo(f"{path}: {chain.posts} post(s) of a game of {entries} entries; {dice}"
                   + (f"; {chain.unverifiable_entries} entries before the first post not covered"
                      if chain.unverifiable_entries and chain.dice != "table" else ""))
        for problem in report.problems:
            click.echo(f"  problem: {problem}")
        click.echo("verified" if report.ok else f"NOT verified: {len(report.problems)} problem(s)")
    sys.exit(0 if report.ok else 1)


def _safe(url: str) -> str:
    """A database URL without its password."""
    from sqlalchemy.engine import make_url

    return make_url(url).render_as_string(hide_password=True)


COMMANDS = [serve, db_group, verify]
