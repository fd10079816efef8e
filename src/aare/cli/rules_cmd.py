"""`aare rules`: browse the rule ledgers and measure how many items the tests prove."""

from __future__ import annotations

import difflib
import json
import textwrap
from collections import Counter
from pathlib import Path
from typing import Any

import click
import yaml
from rich.console import Console
from rich.table import Column, Table

from aare.errors import MalformedInput, UnknownName
from aare.ledger.ledger import LEDGER_DIR_ENV, Ledgers, default_ledger_dir, load_ledgers, shared_ledger_dir

UNPROVEN_SHOWN = 10

_ledger_option = click.option(
    "--ledger",
    "ledger_dir",
    type=click.Path(file_okay=False, path_type=Path),
    default=None,
    help=f"folder of *.yaml rule ledgers (default: ${LEDGER_DIR_ENV} or ../shared/rules)",
)


@click.group()
def rules() -> None:
    """Browse the rule ledgers and measure test coverage of their items."""


@rules.command()
@_ledger_option
@click.option(
    "--report",
    "report_file",
    type=click.Path(dir_okay=False, path_type=Path),
    required=True,
    help="JSON written by `pytest --rule-report FILE`",
)
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of tables")
@click.option("--areas", is_flag=True, help="also break coverage down per area")
@click.option("--all", "show_all", is_flag=True, help="list every unproven ID (default: the first few)")
@click.pass_context
def coverage(
    ctx: click.Context, ledger_dir: Path | None, report_file: Path, as_json: bool, areas: bool, show_all: bool
) -> None:
    """Items per ledger proven by a passing test. Exit code 2 when the report names unknown IDs."""
    ledgers = _load(ledger_dir)
    proven, reported = _read_report(report_file)
    unknown = sorted(reported - ledgers.ids)
    summary = {
        ledger.file: {
            "items": len(ledger.items),
            "proven": sum(1 for i in ledger.items if i.id in proven),
            "unproven": sorted(i.id for i in ledger.items if i.id not in proven),
        }
        for ledger in ledgers
    }
    if as_json:
        click.echo(json.dumps({"ledgers": summary, "unknown": unknown}, indent=2))
    else:
        _print_coverage(ledgers, proven, summary, areas, show_all)
    if unknown:
        click.echo(f"error: report names {len(unknown)} ID(s) that no ledger knows:", err=True)
        for item_id in unknown:
            close = ", ".join(ledgers.closest(item_id)) or "none"
            click.echo(f"  {item_id} (closest known: {close})", err=True)
        ctx.exit(2)


@rules.command(name="list")
@_ledger_option
@click.option("--area", default=None, help="only items of this area, e.g. AARE-CR")
@click.option("--all", "show_all", is_flag=True, help="include items excluded from coverage")
@click.option("--json", "as_json", is_flag=True, help="print JSON instead of a table")
def list_items(ledger_dir: Path | None, area: str | None, show_all: bool, as_json: bool) -> None:
    """List ledger items (ID, title, phase)."""
    ledgers = _load(ledger_dir)
    items = ledgers.all_items if show_all else ledgers.items
    if area is not None:
        areas = {i.area.upper(): i.area for i in ledgers.all_items}
        if area.upper() not in areas:
            close = ", ".join(_close(area.upper(), list(areas))) or "none"
            raise UnknownName(f"unknown area {area!r} (closest known: {close})")
        items = tuple(i for i in items if i.area == areas[area.upper()])
    if as_json:
        rows = [
            {
                "id": i.id,
                "title": i.title,
                "phase": list(i.phase),
                "ledger": i.ledger_file,
                "status": i.status,
            }
            for i in items
        ]
        click.echo(json.dumps(rows, indent=2))
        return
    table = Table(Column("id", no_wrap=True), "title", "phase")
    for i in items:
        title = i.title if i.counted else f"{i.title} [dim]({i.status})[/dim]"
        table.add_row(i.id, title, ", ".join(i.phase))
    Console().print(table)


@rules.command()
@_ledger_option
@click.argument("item_id", metavar="ID")
def show(ledger_dir: Path | None, item_id: str) -> None:
    """Print one ledger item in full."""
    ledgers = _load(ledger_dir)
    item = ledgers.get(item_id)
    if item is None:
        close = ", ".join(ledgers.closest(item_id)) or "none"
        raise UnknownName(f"unknown rule ID {item_id!r} (closest known: {close})")
    click.echo(f"{item.id}: {item.title}")
    click.echo(f"  ledger: {item.ledger_file}   area: {item.area}   phase: {', '.join(item.phase)}")
    if item.status is not None:
        click.echo(f"  status: {item.status}" + ("" if item.counted else " (not counted toward coverage)"))
    for key, value in item.fields.items():
        if key not in ("id", "title", "phase", "status"):
            click.echo(f"\n{key.replace('_', ' ')}:\n{_block(value)}")


COMMANDS = [rules]


def _load(ledger_dir: Path | None) -> Ledgers:
    folder = ledger_dir or default_ledger_dir()
    if folder is None:
        raise MalformedInput(
            f"no rule ledgers: they are the *.yaml files of the shared folder's rules/, looked for in "
            f"{shared_ledger_dir()} (../shared/rules beside the repository), which is missing; put the shared "
            f"folder there, or pass --ledger DIR, or set ${LEDGER_DIR_ENV}"
        )
    return load_ledgers(folder)


def _read_report(path: Path) -> tuple[set[str], set[str]]:
    """The IDs a `--rule-report` file proves, and every ID it names."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise MalformedInput(f"{path}: cannot read rule report: {exc.strerror or exc}") from None
    except json.JSONDecodeError as exc:
        raise MalformedInput(f"{path}: rule report is not JSON: {exc}") from None
    if not isinstance(data, dict):
        raise MalformedInput(f"{path}: rule report must be a JSON object")
    named: set[str] = set()
    lists: dict[str, list[str]] = {}
    for key in ("passed", "failed"):
        ids = data.get(key)
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise MalformedInput(f"{path}: {key}: expected a list of rule IDs")
        lists[key] = ids
        named.update(ids)
    tests = data.get("tests", {})
    if not isinstance(tests, dict):
        raise MalformedInput(f"{path}: tests: expected an object")
    for nodeid, test in tests.items():
        ids = test.get("rules") if isinstance(test, dict) else None
        if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids):
            raise MalformedInput(f"{path}: tests: {nodeid}: expected a rules list of IDs")
        named.update(ids)
    return set(lists["passed"]) - set(lists["failed"]), named


def _print_coverage(
    ledgers: Ledgers, proven: set[str], summary: dict[str, dict[str, Any]], areas: bool, show_all: bool
) -> None:
    console = Console()
    table = Table("ledger", "items", "proven", "percent", title="Rule coverage")
    for name, row in summary.items():
        table.add_row(name, str(row["items"]), str(row["proven"]), _percent(row["proven"], row["items"]))
    total, done = sum(r["items"] for r in summary.values()), sum(r["proven"] for r in summary.values())
    table.add_section()
    table.add_row("total", str(total), str(done), _percent(done, total))
    console.print(table)
    if areas:
        counts: Counter[tuple[str, str]] = Counter()
        hits: Counter[tuple[str, str]] = Counter()
        for item in ledgers.items:
            counts[item.ledger_file, item.area] += 1
            hits[item.ledger_file, item.area] += item.id in proven
        by_area = Table(
            "ledger",
            Column("area", no_wrap=True),
            "items",
            "proven",
            "percent",
            title="Rule coverage per area",
        )
        for (name, area), n in counts.items():
            by_area.add_row(name, area, str(n), str(hits[name, area]), _percent(hits[name, area], n))
        console.print(by_area)
    for name, row in summary.items():
        unproven: list[str] = row["unproven"]
        if not unproven:
            continue
        shown = unproven if show_all else unproven[:UNPROVEN_SHOWN]
        click.echo(f"\n{name}: {len(unproven)} unproven")
        for item_id in shown:
            click.echo(f"  {item_id}")
        if len(shown) < len(unproven):
            click.echo(f"  ... and {len(unproven) - len(shown)} more (use --all)")


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _close(word: str, choices: list[str]) -> list[str]:
    return difflib.get_close_matches(word, choices, n=3, cutoff=0.6)


def _block(value: Any) -> str:
    """A field value as an indented block: text wrapped, structures as YAML."""
    if not isinstance(value, dict | list):
        text = " ".join(str(value).split())
        return textwrap.fill(text, width=100, initial_indent="  ", subsequent_indent="  ")
    text = yaml.safe_dump(value, sort_keys=False, allow_unicode=True, width=100).rstrip()
    return textwrap.indent(text, "  ")
