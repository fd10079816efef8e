"""Inline SVG charts of battle odds: the outcome split and each side's survivor distribution."""

from __future__ import annotations

from xml.sax.saxutils import escape

from aare.board.notation import format_units
from aare.odds.report import BattleOdds, Units

ATTACKER = "#b3412f"
DEFENDER = "#2f6d9e"
DRAW = "#8a8f96"
ROWS = 10


def outcome_bar(result: BattleOdds, width: int = 320, height: int = 22) -> str:
    """One bar split into attacker win, draw (stalemates included), and defender holds."""
    parts = [(result.attacker_win, ATTACKER, "attacker wins"), (result.draw, DRAW, "draw"),
             (result.defender_win, DEFENDER, "defender holds")]
    total = sum(p for p, _, _ in parts) or 1.0
    x = 0.0
    out = [f'<svg class="outcome" viewBox="0 0 {width} {height}" preserveAspectRatio="none" role="img" '
           f'aria-label="attacker wins {result.attacker_win:.1%}, defender holds {result.defender_win:.1%}">']
    for p, colour, label in parts:
        w = width * p / total
        if w <= 0:
            continue
        out.append(f'<rect x="{x:.2f}" y="0" width="{w:.2f}" height="{height}" fill="{colour}">'
                   f"<title>{label}: {p:.1%}</title></rect>")
        x += w
    out.append("</svg>")
    return "".join(out)


def survivors_chart(result: BattleOdds, side: str, width: int = 340) -> str:
    """Horizontal bars: the likeliest survivor sets of `side` ("attacker" or "defender")."""
    rows: tuple[tuple[Units, float], ...] = (result.attacker_survivors if side == "attacker"
                                            else result.defender_survivors)[:ROWS]
    colour = ATTACKER if side == "attacker" else DEFENDER
    line, label_w, pct_w = 20, 150, 52
    top = max((p for _, p in rows), default=1.0) or 1.0
    height = line * len(rows) + 4
    out = [f'<svg class="survivors" viewBox="0 0 {width} {height}" role="img" '
           f'aria-label="{side} survivors" font-size="11">']
    for i, (units, p) in enumerate(rows):
        y = i * line + 2
        label = format_units(dict(units), result.catalogue) or "nothing"
        short = label if len(label) <= 26 else label[:25] + "…"
        w = (width - label_w - pct_w) * p / top
        out.append(f'<text x="{label_w - 6}" y="{y + 13}" text-anchor="end"><title>{escape(label)}</title>'
                   f"{escape(short)}</text>")
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{max(w, 1):.1f}" height="{line - 7}" rx="2" '
                   f'fill="{colour}"/>')
        out.append(f'<text x="{label_w + w + 5:.1f}" y="{y + 13}">{p:.1%}</text>')
    out.append("</svg>")
    return "".join(out)


def damage_chart(result: BattleOdds, width: int = 340, standalone: bool = False) -> str:
    """Vertical bars: the probability of each IPC damage of a raid or rocket strike (after the caps).
    `standalone` adds the SVG namespace, for a file of its own."""
    rows = result.damage
    bar, gap, top_pad, foot = 22, 4, 16, 16
    width = max(width, len(rows) * (bar + gap) + gap)
    height = 120
    top = max((p for _, p in rows), default=1.0) or 1.0
    xmlns = ' xmlns="http://www.w3.org/2000/svg"' if standalone else ""
    out = [f'<svg{xmlns} class="damage" viewBox="0 0 {width} {height}" role="img" font-size="10" '
           f'aria-label="damage distribution, expected {result.expected_damage or 0:.2f} IPCs">']
    for i, (damage, p) in enumerate(rows):
        x = gap + i * (bar + gap)
        h = (height - top_pad - foot) * p / top
        y = height - foot - h
        out.append(f'<rect x="{x}" y="{y:.1f}" width="{bar}" height="{max(h, 1):.1f}" rx="2" fill="{ATTACKER}">'
                   f"<title>{damage} IPC: {p:.1%}</title></rect>")
        out.append(f'<text x="{x + bar / 2}" y="{height - 4}" text-anchor="middle">{damage}</text>')
        out.append(f'<text x="{x + bar / 2}" y="{y - 3:.1f}" text-anchor="middle">{p:.0%}</text>')
    out.append("</svg>")
    return "".join(out)
