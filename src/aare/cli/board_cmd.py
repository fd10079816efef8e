"""`aare board`: the board of a ruleset, for people and programs."""

from __future__ import annotations

import json
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from aare.rules.registry import default_ruleset
from aare.rules.ruleset import load_ruleset


@click.command("board")
@click.option("--rules", "ruleset_id", default=default_ruleset, show_default="the installed default")
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def board(ruleset_id: str, as_json: bool) -> None:
    """List every territory and sea zone with IPC value, starting owner and neighbours."""
    ruleset = load_ruleset(ruleset_id)
    cities = ruleset.victory_cities()
    capitals = ruleset.board.capitals()
    spaces: list[dict[str, Any]] = [
        {
            "name": s.name,
            "kind": s.kind,
            "ipc": s.ipc,
            "owner": s.owner,
            "neighbors": list(s.neighbors),
            **({"number": s.number} if s.number is not None else {}),
            **({"victory_city": cities[s.name]} if s.name in cities else {}),
            **({"capital_of": capitals[s.name]} if s.name in capitals else {}),
            **({"neutral": True} if s.neutral else {}),
        }
        for s in ruleset.board.spaces.values()
    ]
    if as_json:
        click.echo(json.dumps({"board": ruleset.board.id, "spaces": spaces}, indent=1, ensure_ascii=False))
        return
    table = Table(title=f"{ruleset.board.name} ({len(spaces)} spaces)")
    for col in ("space", "kind", "IPC", "owner", "notes", "neighbours"):
        table.add_column(col)
    for s in spaces:
        notes = ", ".join(
            x for x in (s.get("victory_city", ""), "capital" if "capital_of" in s else "",
                        "impassable" if s.get("neutral") else "") if x
        )
        table.add_row(s["name"], s["kind"], str(s["ipc"]), s["owner"] or "", notes, ", ".join(s["neighbors"]))
    Console().print(table)


COMMANDS = [board]
