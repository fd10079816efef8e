"""`aare new`, `aare show` and `aare rulesets`: creating and reading game files."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.table import Table

from aare.action_text import format_decision
from aare.economy.summary import units_by_owner
from aare.errors import UnknownName
from aare.game_file import load_game
from aare.game_log import game_end, save_log
from aare.game_setup import new_game
from aare.movement.flags import cargo
from aare.player_view import HIDDEN, summary_view
from aare.rules.options import parse_option_args
from aare.rules.ruleset import available_rulesets, load_ruleset, load_spec
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack

AS_POWER = click.option(
    "--as", "as_powers", multiple=True, metavar="POWER",
    help="read as this power (a name or alias; a side's name: all its powers); repeatable. Without it: what a "
    "spectator sees, until the game has ended",
)


def viewer_of(state: GameState, names: tuple[str, ...]) -> frozenset[str]:
    """The powers `--as` names, resolved through the board; a side's name stands for all its powers."""
    board = load_ruleset(state.ruleset, state.options).board
    sides = {p.side.casefold(): p.side for p in board.powers}
    powers: set[str] = set()
    for name in names:
        side = sides.get(name.strip().casefold())
        if side is not None:
            powers.update(p.name for p in board.powers if p.side == side)
            continue
        try:
            powers.add(board.resolve_power(name))
        except UnknownName as exc:
            raise UnknownName(f"--as: {exc} (or a side: {', '.join(sides.values())})") from None
    return frozenset(powers)


@click.command("new")
@click.option("--rules", "ruleset_id", required=True, help="ruleset id, e.g. lhtr-1.3 (see `aare rulesets`)")
@click.option("--seed", type=int, default=None,
              help="seeded dice, for reproducible analysis and tests: anyone with the file can foresee every roll "
              "(omitted: the operating system's dice, recorded as they are rolled)")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a game option; repeatable")
@click.option("-o", "--output", type=click.Path(dir_okay=False, path_type=Path), required=True)
def new(ruleset_id: str, seed: int | None, options: tuple[str, ...], output: Path) -> None:
    """Start a new game and write it to a game file."""
    log = new_game(ruleset_id, parse_option_args(options), seed)
    save_log(log, output)
    state = log.state
    click.echo(f"new {state.ruleset} game written to {output}: round {state.round}, {state.nation} to move")


@click.command("show")
@click.argument("game", type=click.Path(dir_okay=False, path_type=Path))
@AS_POWER
@click.option("--json", "as_json", is_flag=True, help="machine-readable output")
def show(game: Path, as_powers: tuple[str, ...], as_json: bool) -> None:
    """Show a game as a power (or a spectator) sees it: turn, phase, each nation's bank, income and victory
    cities, and the board."""
    log = load_game(game)
    state = log.state
    data = summary_view(state, viewer_of(state, as_powers))
    ended = game_end(log)
    if ended is not None:
        data["ended"] = ended
    for space, carried in aboard(state).items():
        data["spaces"][space]["aboard"] = carried
    data["dice"] = {"predictable": state.dice.predictable}
    if state.dice.predictable and state.winner is None and not as_json:  # --json: "dice": {"predictable": true}
        click.echo(f"warning: {game.name} has seeded dice: whoever holds the file can foresee every roll "
                   "(games made without --seed roll dice no one can foresee)", err=True)
    if as_json:
        click.echo(json.dumps(data, indent=2, ensure_ascii=False))
        return
    _print_summary(data)


def aboard(state: GameState) -> dict[str, dict[str, dict[str, int]]]:
    """Space -> {owner: {unit: count}} of the units carried by the transports there (spaces with cargo only)."""
    found = {}
    for space, stacks in sorted(state.units.items()):
        carried = [Stack(owner, unit, s.count) for s in stacks for owner, unit in cargo(s)]
        if carried:
            found[space] = units_by_owner(carried)
    return found


def _print_summary(data: dict[str, Any]) -> None:
    console = Console()
    vc = data["victory_cities"]
    by_side = ", ".join(f"{side} {n}" for side, n in vc["by_side"].items())
    title = f"{data['ruleset']} — round {data['round']}, {data['nation']}: {data['phase']}"
    if data["winner"]:
        title += f" — won by {data['winner']}"
        if data.get("ended"):
            title += f" ({data['ended']['reason']})"
    console.print(f"[bold]{title}[/bold]")
    standing = data.get("victory", {}).get("standing", [])
    for line in [r["text"] for r in standing] or [f"victory cities: {by_side} (of {vc['total']})"]:
        console.print(line, markup=False)
    for line in _rule_records(data):
        console.print(line, markup=False)
    cities = ("victory cities",) if vc["total"] else ()  # a ruleset without victory cities has no column of them
    nations = Table(title="Nations")
    for col in ("nation", "side", "bank", "income", *cities, "capital", "techs"):
        nations.add_column(col, justify="right" if col in ("bank", "income", "victory cities") else "left")
    for name, n in data["nations"].items():
        capital = "none" if n["capital"] is None else n["capital"] if n["capital_held"] else f"{n['capital']} (lost)"
        held = (str(n["victory_cities"]),) if cities else ()
        nations.add_row(
            name, n["side"], str(n["bank"]), str(n["income"]), *held, capital, ", ".join(n["techs"]) or "-",
        )
    console.print(nations)
    for name, n in data["nations"].items():
        if n.get("advantages"):
            console.print(f"national advantages of {name}: {', '.join(n['advantages'])}", markup=False)
        if n.get("bonuses"):
            bonuses = ", ".join(f"{b['title']} +{b['amount']}" for b in n["bonuses"])
            console.print(f"bonuses {name} would collect now: {bonuses}", markup=False)
        if n.get("records"):
            records = ", ".join(f"{label} {value}" for label, value in n["records"].items())
            console.print(f"{name}: {records}", markup=False)
    board = Table(title="Units on the board")
    board.add_column("space")
    board.add_column("owner")
    board.add_column("units")
    for name, space in data["spaces"].items():
        if space["units"]:
            carried = "; ".join(f"{owner}: " + ", ".join(f"{n} {unit}" for unit, n in units.items())
                                for owner, units in space.get("aboard", {}).items())
            aboard_ = f" (aboard: {carried})" if carried else ""
            damage = space.get("complex_damage")
            note = f" (complex damage {damage['damage']} of at most {damage['cap']})" if damage else ""
            board.add_row(name, space["owner"] or "", space["units"] + aboard_ + note)
    console.print(board)
    if data["pending"]:
        console.print(f"waiting for: {format_decision(data['pending'])}", markup=False)


def _rule_records(data: dict[str, Any]) -> list[str]:
    """One line each for the straight bid, the non-aggression treaty and D-Day, when the ruleset has them."""
    lines = []
    bid = data.get("straight_bid")
    if bid:
        bids = ", ".join(f"{seat} seat {'sealed' if n == HIDDEN else n}" for seat, n in bid["bids"].items())
        bids = bids or "none yet"
        line = f"straight bid: {bids}"
        if bid.get("axis"):
            line += f"; the {bid['axis']} seat plays the Axis with {bid['amount']} IPCs"
            line += " (the players change sides)" if bid.get("swap") else ""
        lines.append(line)
    treaty = data.get("treaty")
    if treaty:
        line = f"non-aggression treaty: {treaty['status']}"
        if treaty["status"] != "active":
            line += f" (round {treaty['round']}, by {treaty['by']}; out of play)"
            if treaty.get("infantry"):
                inf = treaty["infantry"]
                line += f"; {inf['count']} free {inf['power']} infantry in {inf['space']}"
        lines.append(line)
    d_day = data.get("d_day")
    if d_day:
        round_ = f" (round {d_day['round']})" if d_day.get("round") else ""
        lines.append(f"D-Day: {d_day['status']}{round_}")
    return lines


@click.command("rulesets")
@click.option("--json", "as_json", is_flag=True)
def rulesets(as_json: bool) -> None:
    """List the rulesets and their options."""
    out = []
    for rid in available_rulesets():
        spec = load_spec(rid)
        ruleset = load_ruleset(rid)
        out.append(
            {
                **ruleset.describe(),
                "option_specs": [
                    {"key": o.key, "default": o.default, "choices": list(o.choices), "help": o.help,
                     "rule_id": o.rule_id}
                    for o in spec.option_specs
                ],
            }
        )
    if as_json:
        click.echo(json.dumps(out, indent=2))
        return
    console = Console()
    for r in out:
        console.print(f"[bold]{r['id']}[/bold]: {r['title']} (board {r['board']}; modules {', '.join(r['modules'])})")
        if r.get("parts"):
            parts = "; ".join(f"{p['name']} ({'in' if p['present'] else 'not in'} the ruleset)" for p in r["parts"])
            console.print(f"  parts of the rules: {parts}")
        for o in r["option_specs"]:
            choices = f" one of {o['choices']}" if o["choices"] else ""
            console.print(f"  --option {o['key']}=… (default {o['default']}{choices}): {o['help']}")


COMMANDS = [new, show, rulesets]
