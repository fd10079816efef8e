"""`aare odds`: battle odds from the command line."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from aare.odds import EXACT_LIMIT, odds
from aare.odds.report import BattleOdds
from aare.rules.options import parse_option_args
from aare.rules.registry import default_ruleset
from aare.web.odds_chart import damage_chart

BATTLES = ["land", "sea", "amphibious", "raid", "bombing", "rocket"]


def survivors_svg(result: BattleOdds, width: int = 640) -> str:
    """A hand-written SVG bar chart of the survivor distributions (top rows of each side)."""
    rows: list[tuple[str, str, float]] = []
    for side, dist in (("attacker", result.attacker_survivors), ("defender", result.defender_survivors)):
        for units, p in dist[:12]:
            from aare.board.notation import format_units

            rows.append((side, format_units(dict(units), result.catalogue) or "nothing", p))
    bar_h, top, label_w = 18, 30, 260
    height = top + bar_h * len(rows) + 20
    top_p = max((p for _, _, p in rows), default=1.0) or 1.0
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
        'font-size="11">',
        f'<text x="8" y="18" font-size="13">Survivors — attacker win {result.attacker_win:.1%}, '
        f"defender win {result.defender_win:.1%}, draw {result.draw:.1%}</text>",
    ]
    for i, (side, label, p) in enumerate(rows):
        y = top + i * bar_h
        colour = "#c0392b" if side == "attacker" else "#2e86c1"
        w = (width - label_w - 70) * p / top_p
        text = label.replace("&", "&amp;").replace("<", "&lt;")
        parts.append(f'<text x="8" y="{y + 13}">{side[0].upper()}: {text}</text>')
        parts.append(f'<rect x="{label_w}" y="{y + 3}" width="{w:.1f}" height="{bar_h - 6}" fill="{colour}"/>')
        parts.append(f'<text x="{label_w + w + 4:.1f}" y="{y + 13}">{p:.2%}</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


@click.command("odds")
@click.option("--rules", default=default_ruleset, show_default="the installed default", help="ruleset id")
@click.option("--attacker", default="",
              help='attacking units, e.g. "3 infantry, 1 artillery, 2 armour" (a raid: bombers and escorts; '
              "a rocket: none)")
@click.option("--defender", default="",
              help='defending units, e.g. "4 infantry, 1 fighter" (a raid or rocket: the interceptors, if any)')
@click.option("--battle", "kind", type=click.Choice(BATTLES), default="land", show_default=True,
              help="raid (alias bombing): a strategic bombing raid; rocket: one rocket strike")
@click.option("--bombard", default=None, help='bombarding ships (amphibious), e.g. "1 battleship"')
@click.option("--defender-aa/--no-aa", default=None,
              help="whether the defended territory has an AA gun (default: yes in a raid, no otherwise)")
@click.option("--territory-value", type=int, default=None,
              help="raid/rocket: the target's IPC value, the cap on its damage this turn")
@click.option("--terrain", default=None,
              help="the battle territory's terrain where the ruleset fights differently there (aarhe: snowy, "
                   "mountainous: land units at -1)")
@click.option("--treasury", type=int, default=None, help="raid/rocket: the target owner's IPCs, a cap on the damage")
@click.option("--fleet", default=None,
              help='amphibious: the attacking fleet with its transports, e.g. "2 transports, 1 battleship" (the sea '
              "battle comes first)")
@click.option("--sea-defender", default=None,
              help='amphibious: the enemy units in the fleet\'s sea zone, e.g. "1 submarine, 1 destroyer"')
@click.option("--loads", default=None,
              help='amphibious: one load per transport, e.g. "1 infantry, 1 armour; 2 infantry" (last listed lost '
              "first; attackers in no load attack overland)")
@click.option("--other-zone-bombard", default=None,
              help="amphibious: bombarding ships of another sea zone without a sea battle, from which units landed")
@click.option("--ool-fleet", default="", help="order of loss of the fleet in the sea battle")
@click.option("--ool-sea-defender", default="", help="order of loss of the sea defender")
@click.option("--ool-attacker", default="", help="attacker order of loss, e.g. infantry,artillery,armour")
@click.option("--ool-defender", default="", help="defender order of loss")
@click.option("--late-defender", default="", help="defending units that join from the second cycle (aircraft flying "
              "in to support the defence)")
@click.option("--retreat-after", type=int, default=None, help="attacker retreats after N cycles")
@click.option("--retreat-at", "retreat_at", type=int, default=None, help="attacker retreats when down to K units")
@click.option("--retreat-only-air", is_flag=True, help="attacker retreats when only aircraft remain")
@click.option(
    "--retreat-below", type=click.FloatRange(0, 100), default=None, metavar="PERCENT",
    help="attacker retreats whenever its chance to win by pressing on falls under PERCENT (exact method)",
)  # fmt: skip
@click.option(
    "--land-on-carriers", type=click.Choice(["attacker", "defender", "both"]), default=None,
    help="that side's aircraft can land only on its surviving carriers after a sea battle: the rest are lost",
)  # fmt: skip
@click.option("--method", type=click.Choice(["exact", "mc"]), default="exact", show_default=True)
@click.option("--runs", type=int, default=100_000, show_default=True, help="Monte Carlo battles")
@click.option(
    "--exact-limit", type=click.FloatRange(min=0), default=EXACT_LIMIT, show_default=True, metavar="SECONDS",
    help="CPU seconds the exact method may spend off its fast paths before Monte Carlo stands in (0: no limit)",
)  # fmt: skip
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--json", "as_json", is_flag=True, help="print JSON")
@click.option("--plot", type=click.Path(dir_okay=False, path_type=Path), default=None, help="write an SVG chart")
@click.option("--explain", is_flag=True, help="print the battle's steps")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE", help="a ruleset game option; repeatable")
@click.option(
    "--attacker-tech", "attacker_techs", multiple=True, metavar="TECH",
    help="a technology of the attacker, e.g. super_submarines; repeatable",
)  # fmt: skip
@click.option(
    "--defender-tech", "defender_techs", multiple=True, metavar="TECH",
    help="a technology of the defender, e.g. long_range_aircraft; repeatable",
)  # fmt: skip
@click.option(
    "--attacker-advantage", "attacker_advantages", multiple=True, metavar="NA",
    help="a national advantage of the attacker that counts in this battle (aare-5.0; aa50e with the option "
    "national_advantages), e.g. marines; repeatable",
)  # fmt: skip
@click.option(
    "--defender-advantage", "defender_advantages", multiple=True, metavar="NA",
    help="a national advantage of the defender that counts in this battle (aare-5.0; aa50e with the option "
    "national_advantages), by id (an unknown id "
    "lists the known ones); repeatable",
)  # fmt: skip
@click.option("--kaitens", type=int, default=0,
              help="attacking subs that are Kaitens (aare-5.0 national advantage kaiten_torpedoes)")
@click.option("--kamikazes", type=int, default=0,
              help="attacking fighters that are Kamikazes (aare-5.0 national advantage kamikaze_attacks)")
@click.option("--targets", default="", help='Kaiten/Kamikaze targets in order, e.g. "carrier, battleship, battleship"')
@click.option(
    "--submerge-undetected",
    type=click.Choice(["none", "attacker", "defender", "both"]),
    default="none",
    show_default=True,
    help="whose undetected subs submerge right after opening fire (rulesets with sub detection: aare-5.0, aa50e-*)",
)
def odds_command(
    rules: str,
    attacker: str,
    defender: str,
    kind: str,
    bombard: str | None,
    defender_aa: bool | None,
    territory_value: int | None,
    terrain: str | None,
    treasury: int | None,
    fleet: str | None,
    sea_defender: str | None,
    loads: str | None,
    other_zone_bombard: str | None,
    ool_fleet: str,
    ool_sea_defender: str,
    ool_attacker: str,
    ool_defender: str,
    late_defender: str,
    retreat_after: int | None,
    retreat_at: int | None,
    retreat_only_air: bool,
    retreat_below: float | None,
    land_on_carriers: str | None,
    method: str,
    runs: int,
    exact_limit: float,
    seed: int,
    as_json: bool,
    plot: Path | None,
    explain: bool,
    options: tuple[str, ...],
    attacker_techs: tuple[str, ...],
    defender_techs: tuple[str, ...],
    attacker_advantages: tuple[str, ...],
    defender_advantages: tuple[str, ...],
    kaitens: int,
    kamikazes: int,
    targets: str,
    submerge_undetected: str,
) -> None:
    """Win/draw/loss odds, expected losses and survivors of one battle.

    Sub detection (--rules aare-5.0): the detecting side's aircraft in the battle count by themselves; its
    long_range_aircraft and combined_bombardment (Combined Arms) techs raise the DD-to-detect value, the
    sub side's super_submarines lower it. Under --rules aa50e-1941/-1942 the value is 2, aircraft of the
    detecting side count, long_range_aircraft and super_destroyers raise it, improved_shipyards lowers it by 2.

    National advantages (--attacker-advantage, --defender-advantage) count as if their conditions hold in this
    battle (e.g. an advantage of a season or of some territories counts as if the battle were fought there then).

    A whole amphibious assault (--battle amphibious --fleet ... [--sea-defender ...] [--loads ...]): the sea
    battle first, then the landing of the cargo of the transports left; --attacker lists the landing force
    and the units attacking overland.

    Raids and rockets (--battle raid|rocket): the expected IPC damage and its distribution after the caps
    (--territory-value, --treasury), and the bombers lost. Escorts (--attacker-tech long_range_aircraft) and
    interceptors (--defender-tech jet_fighters) where the ruleset has them (aare-5.0).
    """
    assault: dict[str, Any] = {k: v for k, v in (("fleet", fleet), ("sea_defender", sea_defender), ("loads", loads),
                                  ("other_zone_bombard", other_zone_bombard), ("ool_fleet", ool_fleet),
                                  ("ool_sea_defender", ool_sea_defender)) if v}
    extra: dict[str, Any] = {} if defender_aa is None else {"defender_aa": defender_aa}
    if late_defender:
        extra["late_defender"] = late_defender
    if terrain:
        extra["site_tags"] = frozenset({f"terrain:{terrain.strip().lower()}"})
    result = odds(
        attacker,
        defender,
        rules,
        options=parse_option_args(options),
        attacker_techs=frozenset(attacker_techs),
        defender_techs=frozenset(defender_techs),
        attacker_abilities=attacker_advantages,
        defender_abilities=defender_advantages,
        attacker_submerge_undetected=submerge_undetected in ("attacker", "both"),
        defender_submerge_undetected=submerge_undetected in ("defender", "both"),
        battle=kind,
        method=method,
        runs=runs,
        exact_limit=exact_limit or None,
        seed=seed,
        ool_attacker=ool_attacker,
        ool_defender=ool_defender,
        retreat_after=retreat_after,
        retreat_at_units=retreat_at,
        retreat_when_only_air=retreat_only_air,
        retreat_below=None if retreat_below is None else retreat_below / 100,
        land_on_carriers=("attacker", "defender") if land_on_carriers == "both" else (land_on_carriers or ()),
        explain=explain,
        bombard=bombard,
        territory_value=territory_value,
        treasury=treasury,
        kaitens=kaitens,
        kamikazes=kamikazes,
        targets=targets,
        **assault,
        **extra,
    )
    if plot is not None:
        raid = result.expected_damage is not None
        chart = damage_chart(result, standalone=True) + "\n" if raid else survivors_svg(result)
        plot.write_text(chart, encoding="utf-8")
    if as_json:
        data = result.to_json()
        if explain:
            data["steps"] = list(result.explain)
        click.echo(json.dumps(data, indent=2))
        return
    if explain:
        click.echo(f"{kind} battle steps (each cycle):")
        for line in result.explain:
            click.echo(f"  {line}")
    click.echo(f"method: {result.method}  ({result.seconds * 1000:.1f} ms)")
    if result.note:
        click.echo(f"note: {result.note} (raise --exact-limit, or 0, to wait for the exact answer)")
    if result.expected_damage is not None:
        _echo_raid(result)
        return
    for name, label in (("attacker_win", "attacker_win"), ("defender_win", "defender_win"), ("draw", "draw"),
                        ("stalemate", "of it stalemate")):  # fmt: skip
        value = getattr(result, name)
        ci = f"  [{result.ci95[name][0]:.4f}, {result.ci95[name][1]:.4f}]" if result.ci95 else ""
        click.echo(f"{label:>14}: {value:.6f}{ci}")
    click.echo(f"{'capture':>14}: {result.capture:.6f}")
    if result.sea_win is not None:
        click.echo(f"{'sea win':>14}: {result.sea_win:.6f}  (the fleet clears the sea zone)")
    click.echo(f"{'cycles':>14}: {result.expected_cycles:.4f}")
    click.echo(f"{'IPC lost':>14}: attacker {result.attacker_ipc_lost:.2f}, defender {result.defender_ipc_lost:.2f}")
    _echo_survivors(result, ("attacker", "defender"))


def _echo_survivors(result: BattleOdds, sides: tuple[str, ...]) -> None:
    """The likeliest survivor sets of `sides`."""
    data = result.to_json()
    for side in sides:
        click.echo(f"{side} survivors (most likely):")
        for row in data[f"{side}_survivors"][:5]:
            click.echo(f"  {row['p']:.4f}  {row['units'] or 'nothing'}")
    if "sea_battle" in data:
        click.echo("fleet survivors of the sea battle (most likely):")
        for row in data["sea_battle"]["attacker_survivors"][:5]:
            click.echo(f"  {row['p']:.4f}  {row['units'] or 'nothing'}")


def _echo_raid(result: BattleOdds) -> None:
    """The text report of a raid or rocket strike: expected damage, its distribution, the attacker's losses."""
    ci = result.ci95.get("expected_damage") if result.ci95 else None
    interval = f"  [{ci[0]:.4f}, {ci[1]:.4f}]" if ci else ""
    click.echo(f"{'damage':>14}: {result.expected_damage:.4f} IPC expected{interval}")
    for damage, p in result.damage:
        click.echo(f"{damage:>14}: {p:.6f}")
    if any(units for units, _ in result.attacker_survivors):  # a rocket is no casualty: nothing to report
        click.echo(f"{'IPC lost':>14}: attacker {result.attacker_ipc_lost:.2f}")
        _echo_survivors(result, ("attacker",))


COMMANDS = [odds_command]
