"""The world map as a standalone SVG: territories coloured by controller, IPC values, victory cities, sea
zone numbers and unit stacks. Each space is a `<g data-space="...">` with an id, for browser clicks."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from xml.sax.saxutils import escape, quoteattr

from aare.board.board import Board, Space
from aare.board.powers import WHITE
from aare.errors import AareError
from aare.rules.ruleset import load_ruleset
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack
from aare.web.map_geometry import MapGeometry, SpaceShape, load_geometry
from aare.web.map_layout import Block, Box, place
from aare.web.map_style import (
    CSS,
    ICE,
    NEUTRAL,
    OFF_BOARD,
    SEA_DEEP,
    SEA_TEXT,
    UNIT_ABBREV,
    UNKNOWN,
    PowerStyle,
    power_styles,
    slug,
    text_width,
)

LEGEND = 30.0
NAME_MIN = 11.0
NAME_MAX = 16.0
CHIP_FONT = 10.4
CHIP_LINE = 12.0
ISLAND = 8.0  # a land space narrower than this (radius, map units) is labelled beside its shape

# Diagonal hatching laid over impassable neutral territories.
HATCH = (
    '<pattern id="impassable" width="7" height="7" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
    '<line x1="0" y1="0" x2="0" y2="7" stroke="#a39a85" stroke-width="1.4" stroke-opacity="0.55"/></pattern>'
)
Chip = tuple[PowerStyle, list[str]]  # (the owner's colours, lines of text)


def render_map(
    state: GameState | None,
    board: Board,
    *,
    geometry: MapGeometry | None = None,
    width: int | None = None,
    legend: bool = True,
) -> str:
    """A standalone SVG of `board`, showing `state` (controllers and units) when given.

    `width` sets the SVG's displayed width in pixels (default: scale to the container); the viewBox is in
    map units, so a browser can zoom and pan by changing it.
    """
    geo = geometry or load_geometry(board.id)
    w, h = geo.width, geo.height
    full = h + (LEGEND if legend else 0)
    size = f' width="{width}" height="{round(width * full / w)}"' if width else ""
    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_n(w)} {_n(full)}"{size} '
        f'font-family="DejaVu Sans, Verdana, Helvetica, Arial, sans-serif" text-anchor="middle">',
        f"<title>{escape(board.name)}</title>",
        f"<defs><style>{CSS}</style>{HATCH}</defs>",
        f'<rect id="ocean" x="0" y="0" width="{_n(w)}" height="{_n(h)}" fill="{SEA_DEEP}"/>',
        '<g id="decor">',
        *(
            f'<path d="{d.d}" fill="{ICE if d.kind == "sea" else OFF_BOARD}"><title>{escape(d.name)}</title></path>'
            for d in geo.decor.values()
        ),
        "</g>",
        '<g id="spaces">',
    ]
    colours = power_styles(board)
    for name, space in board.spaces.items():
        shape = geo.spaces[name]
        owner = _controller(state, space)
        cls = f"space {space.kind}" + (f" owner-{slug(owner)}" if owner else " neutral" if space.is_land else "")
        fill = "" if space.is_sea else f' fill="{(colours.get(owner, UNKNOWN) if owner else NEUTRAL).fill}"'
        hatch = f'<path class="hatch" d="{shape.d}" fill-rule="evenodd" fill="url(#impassable)"/>' * space.neutral
        out.append(
            f'<g id="space-{slug(name)}" class="{cls}" data-space={quoteattr(name)}>'
            f'<path class="shape" d="{shape.d}" fill-rule="evenodd"{fill}/>{hatch}'
            f"<title>{escape(_tooltip(space))}</title></g>"
        )
    out.append("</g>")
    out.append('<g id="lines" class="lines">')
    out += [f'<path class="{kind}" d="{d}"/>' for kind, d in geo.lines.items() if d]
    out += _crossings(board, geo)
    out.append("</g>")
    out.append('<g id="tokens">')
    order = {p.name: i for i, p in enumerate(board.powers)}
    contents = [
        _content(space, geo.spaces[name], state.stacks(name) if state else (), order, colours)
        for name, space in board.spaces.items()
    ]
    boxes = _layout(contents, geo)
    out += [_tokens(c, boxes[c.space.name]) for c in contents]
    out.append("</g>")
    if legend:
        out.append(_legend(board, state, h, w))
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _crossings(board: Board, geo: MapGeometry) -> list[str]:
    """Connections a ruleset's board changes added (e.g. a land route across a strait), which the map's drawn
    borders do not show: a dashed line between the two spaces' label points, titled."""
    drawn = {frozenset(pair) for pair in geo.report.get("extra", [])}
    out = []
    for pair in sorted(board.added_connections - drawn, key=sorted):
        a, b = (geo.spaces[name] for name in sorted(pair))
        if abs(a.label[0] - b.label[0]) > geo.width / 2:  # across the map's edge: no straight line
            continue
        title = escape(" – ".join(sorted(pair)))
        out.append(f'<path class="crossing" d="M{_n(a.label[0])},{_n(a.label[1])}L{_n(b.label[0])},'
                   f'{_n(b.label[1])}"><title>{title}</title></path>')
    return out


def _controller(state: GameState | None, space: Space) -> str | None:
    if not space.is_land:
        return None
    return state.owner(space.name) if state else space.owner


def _tooltip(space: Space) -> str:
    if space.is_sea:
        return space.name
    if space.neutral:
        return f"{space.name} (neutral, impassable)"
    extra = f", {space.victory_city}" if space.victory_city else ""
    return f"{space.name} ({space.ipc} IPC{extra})"


@dataclass(frozen=True)
class _Content:
    """What one space shows: name lines (land) or zone number (sea), then unit chips."""

    space: Space
    size: float
    lines: list[str]
    chips: list[Chip]

    @property
    def info(self) -> bool:
        return self.space.is_land and (self.space.ipc > 0 or bool(self.space.victory_city))

    def head_height(self) -> float:
        if self.space.is_sea:
            return 21.0
        return len(self.lines) * self.size * 1.1 + (self.size * 1.2 if self.info else 0) + 2

    def width(self) -> float:
        widths = [text_width(line, self.size) for line in self.lines] + [18.0]
        widths += [_chip_width(lines) for _, lines in self.chips]
        return max(widths) + 2

    def height(self) -> float:
        return self.head_height() + (_chips_height(self.chips) + 1 if self.chips else 0)


def _content(
    space: Space, shape: SpaceShape, stacks: Sequence[Stack], order: dict[str, int], colours: dict[str, PowerStyle]
) -> _Content:
    island = shape.radius < ISLAND
    size = NAME_MIN if island or space.is_sea else max(NAME_MIN, min(NAME_MAX, shape.radius * 0.4))
    lines = [] if space.is_sea else _wrap(space.name, size, max(shape.radius * 2.2, 70.0))
    return _Content(space, size, lines, _chips(stacks, order, colours))


def _layout(contents: list[_Content], geo: MapGeometry) -> dict[str, Box]:
    blocks = []
    for c in contents:
        shape = geo.spaces[c.space.name]
        island = c.space.is_land and shape.radius < ISLAND
        slack = max(shape.radius * (1.0 if c.space.is_sea else 0.7), 10.0)
        rank = 0 if island else 1 if c.space.is_land else 2
        blocks.append(Block(c.space.name, c.width(), c.height(), shape.label, slack, island, shape.radius, rank))
    return place(blocks, geo.width, geo.height)


def _tokens(c: _Content, box: Box) -> str:
    x = (box[0] + box[2]) / 2
    y = box[1]
    parts: list[str] = []
    if c.space.is_sea:
        parts.append(_zone_badge(c.space.number or 0, x, y + 10.5))
    else:
        _land_label(parts, c, x, y)
    if c.chips:
        _place_chips(parts, c.chips, x, y + c.head_height())
    return f'<g class="tokens" data-space={quoteattr(c.space.name)}>{"".join(parts)}</g>'


def _land_label(parts: list[str], c: _Content, x: float, top: float) -> None:
    """Name, IPC value and victory mark, from `top` down."""
    size, space = c.size, c.space
    for i, line in enumerate(c.lines):
        parts.append(
            f'<text class="name" x="{_n(x)}" y="{_n(top + (i + 0.82) * size * 1.1)}" '
            f'font-size="{_n(size)}">{escape(line)}</text>'
        )
    if not c.info:
        return
    cy = top + len(c.lines) * size * 1.1 + size * 0.62
    label = str(space.ipc)
    badge = max(text_width(label, size * 0.8) / 2 + 2.2, size * 0.58)
    bx = x - (size * 0.7 if space.victory_city else 0)
    parts.append(
        f'<circle cx="{_n(bx)}" cy="{_n(cy)}" r="{_n(badge)}" fill="#ffffff" fill-opacity="0.85" '
        f'stroke="#3a3226" stroke-width="0.6"/>'
        f'<text class="ipc" x="{_n(bx)}" y="{_n(cy + size * 0.28)}" font-size="{_n(size * 0.8)}">{label}</text>'
    )
    if space.victory_city:
        parts.append(_star(x + size * 0.7, cy, size * 0.6, space.victory_city))


def _wrap(name: str, size: float, room: float) -> list[str]:
    """The name on as few lines as fit in `room` (at most three)."""
    words = name.split(" ")
    for count in range(1, min(3, len(words)) + 1):
        lines = _balanced(words, count)
        if max(text_width(line, size) for line in lines) <= room:
            return lines
    return _balanced(words, min(3, len(words)))


def _balanced(words: list[str], count: int) -> list[str]:
    if count == 1:
        return [" ".join(words)]
    best: list[str] = []
    for i in range(1, len(words) - count + 2):
        rest = _balanced(words[i:], count - 1)
        lines = [" ".join(words[:i]), *rest]
        if not best or max(map(len, lines)) < max(map(len, best)):
            best = lines
    return best


def _zone_badge(number: int, x: float, y: float) -> str:
    return (
        f'<circle cx="{_n(x)}" cy="{_n(y)}" r="9.5" fill="#ffffff" fill-opacity="0.75" stroke="{SEA_TEXT}" '
        f'stroke-width="0.6"/><text class="zone" x="{_n(x)}" y="{_n(y + 3.8)}" font-size="11">{number}</text>'
    )


def _star(cx: float, cy: float, r: float, title: str) -> str:
    pts = []
    for i in range(10):
        a = -math.pi / 2 + i * math.pi / 5
        rr = r if i % 2 == 0 else r * 0.45
        pts.append(f"{_n(cx + rr * math.cos(a))},{_n(cy + rr * math.sin(a))}")
    return (
        f'<polygon class="victory" points="{" ".join(pts)}" fill="#c8102e" stroke="#ffffff" stroke-width="0.5">'
        f"<title>{escape(title)}</title></polygon>"
    )


def _chips(stacks: Iterable[Stack], order: dict[str, int], colours: dict[str, PowerStyle]) -> list[Chip]:
    """One chip per owner: counts per unit type, three to a line."""
    counts: dict[str, dict[str, int]] = {}
    damaged: dict[str, int] = {}
    for s in stacks:
        counts.setdefault(s.owner, {})
        counts[s.owner][s.unit] = counts[s.owner].get(s.unit, 0) + s.count
        if s.damage:
            damaged[s.owner] = damaged.get(s.owner, 0) + s.count
    rank = {u: i for i, u in enumerate(UNIT_ABBREV)}
    chips = []
    for owner in sorted(counts, key=lambda o: (order.get(o, len(order)), o)):
        units = sorted(counts[owner].items(), key=lambda kv: (rank.get(kv[0], len(rank)), kv[0]))
        items = [f"{n} {UNIT_ABBREV.get(u, u)}" for u, n in units]
        if damaged.get(owner):
            items.append(f"{damaged[owner]} hit")
        lines = [" ".join(items[i : i + 3]) for i in range(0, len(items), 3)]
        chips.append((colours.get(owner, UNKNOWN), lines))
    return chips


def _chips_height(chips: list[Chip]) -> float:
    return sum(len(lines) * CHIP_LINE + 3.5 for _, lines in chips)


def _chip_width(lines: list[str]) -> float:
    return max(text_width(line, CHIP_FONT) for line in lines) + 5


def _place_chips(parts: list[str], chips: list[Chip], x: float, top: float) -> None:
    y = top
    for style, lines in chips:
        w = _chip_width(lines)
        h = len(lines) * CHIP_LINE + 2
        text = "" if style.text == WHITE else f' style="fill: {style.text}"'  # beats the stylesheet's white
        parts.append(
            f'<g class="chip"><rect x="{_n(x - w / 2)}" y="{_n(y)}" width="{_n(w)}" height="{_n(h)}" rx="2.5" '
            f'fill="{style.ink}" fill-opacity="0.92" stroke="#ffffff" stroke-width="0.5"/>'
        )
        for i, line in enumerate(lines):
            parts.append(
                f'<text x="{_n(x)}" y="{_n(y + 1 + (i + 0.78) * CHIP_LINE)}" font-size="{CHIP_FONT}"{text}>'
                f"{escape(line)}</text>"
            )
        parts.append("</g>")
        y += h + 1.5


def _phase_title(state: GameState) -> str:
    """The phase's title in the ruleset (Anniversary: "Research & development"), else its name in words."""
    try:
        spec = load_ruleset(state.ruleset, state.options).phase_spec(state.phase)
    except AareError:
        spec = None
    return spec.title if spec is not None and spec.title else state.phase.replace("_", " ").replace("-", " ")


def _legend(board: Board, state: GameState | None, top: float, width: float) -> str:
    """A bar under the map: whose turn it is, and the colour of each power."""
    colours = power_styles(board)
    entries = [(p.name, colours[p.name].fill) for p in board.powers]
    entries.append(("Neutral", NEUTRAL.fill))
    y = top + LEGEND / 2
    parts = [
        '<g id="legend" class="legend" text-anchor="start">',
        f'<rect x="0" y="{_n(top)}" width="{_n(width)}" height="{LEGEND}" fill="#f4f1ea"/>',
        f'<line x1="0" y1="{_n(top)}" x2="{_n(width)}" y2="{_n(top)}" stroke="#41617b" stroke-width="1"/>',
    ]
    if state:
        status = f"Round {state.round} \u00b7 {state.nation} \u00b7 {_phase_title(state)}"
        parts.append(f'<text x="12" y="{_n(y + 4.5)}" font-size="13" font-weight="700">{escape(status)}</text>')
    x = width - 12 - sum(28 + text_width(name, 12) + 14 for name, _ in entries)
    for name, fill in entries:
        parts.append(
            f'<rect x="{_n(x)}" y="{_n(y - 6)}" width="20" height="12" rx="2" fill="{fill}" stroke="#6b5f4c" '
            f'stroke-width="0.6"/><text x="{_n(x + 26)}" y="{_n(y + 4.2)}" font-size="12">{escape(name)}</text>'
        )
        x += 28 + text_width(name, 12) + 14
    parts.append("</g>")
    return "".join(parts)


def _n(v: float) -> str:
    text = f"{v:.1f}"
    return text[:-2] if text.endswith(".0") else text
