"""The `aare` command line. Each command group lives in its own module and is registered here."""

from __future__ import annotations

import importlib
import sys
from typing import Any

import click

from aare.errors import AareError

# Modules that define a click command named `command`, added to the `aare` group in this order.
COMMAND_MODULES = [
    "aare.cli.game_cmds",
    "aare.cli.play_cmds",
    "aare.cli.board_cmd",
    "aare.cli.rules_cmd",
    "aare.cli.odds_cmd",
    "aare.cli.selfplay_cmd",
    "aare.cli.tournament_cmd",
    "aare.cli.bot_cmd",
    "aare.cli.ladder_cmd",
    "aare.cli.post_cmds",
    "aare.cli.server_cmds",
]


class _Group(click.Group):
    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except AareError as exc:
            click.echo(f"error: {exc}", err=True)
            sys.exit(2)


@click.group(cls=_Group)
@click.version_option(package_name="aare")
def cli() -> None:
    """aare: Axis & Allies Revised Enhanced and related rulesets — engine, calculator, table."""


for _name in COMMAND_MODULES:
    try:
        _module = importlib.import_module(_name)
    except ModuleNotFoundError as _exc:
        if _exc.name != _name:
            raise
        continue
    for _cmd in getattr(_module, "COMMANDS", []):
        cli.add_command(_cmd)


def main() -> None:
    cli(prog_name="aare")
