"""The Jinja2 environment of the browser table: templates, static files and the filters they use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates
from markupsafe import Markup

from aare.action_text import format_action
from aare.board.board import Board
from aare.phases.base import phase_handler
from aare.rules.registry import load_families
from aare.rules.ruleset import Ruleset, load_ruleset
from aare.web.map_style import NEUTRAL, UNKNOWN, PowerStyle, power_style, power_styles, slug

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"

templates = Jinja2Templates(directory=str(TEMPLATES))


def percent(value: float, digits: int = 1) -> str:
    """0.4567 -> '45.7 %'."""
    return f"{value * 100:.{digits}f} %"


def phase_title(phase: str, ruleset: Ruleset | None = None) -> str:
    """A phase's title: as the ruleset's phase table names it, else as its phase handler does (`title`),
    else made from its name."""
    if ruleset is not None:
        for spec in ruleset.phase_table():
            if spec.name == phase and spec.title:
                return spec.title
    load_families()  # a family's own phases are registered when it is imported
    title = phase_handler(phase).title
    return str(title) if title else phase.replace("-", " ").capitalize()


def _colours(style: PowerStyle) -> dict[str, str]:
    return {"fill": style.fill, "ink": style.ink, "text": style.text}


def power_colours(power: str | None, board: Board | None = None) -> dict[str, str]:
    """The map fill, the ink (badge background) and the text written on the ink of a power.

    With the board, the colours of its board file. Without, references to the CSS custom properties that
    `power_css` defines on the page from the game's board (`--power-<slug>-ink`), so a view model need not
    know the board; a name the board lacks (a side) falls back to grey.
    """
    if power is None:
        return _colours(NEUTRAL)
    if board is not None:
        return _colours(power_style(power, board))
    key = slug(power)
    return {part: f"var(--power-{key}-{part}, {value})" for part, value in _colours(UNKNOWN).items()}


def power_css(board: Board | str) -> Markup:
    """CSS custom properties with the colours of every power of a board (or of a ruleset's board, by id),
    for a page's `:root`: `--power-<slug>-fill`, `--power-<slug>-ink` and `--power-<slug>-text`."""
    found = load_ruleset(board).board if isinstance(board, str) else board
    lines = [
        f"--power-{slug(name)}-{part}: {value};"
        for name, style in power_styles(found).items()
        for part, value in _colours(style).items()
    ]
    return Markup(" ".join(lines))


def action_json(action: Any) -> str:
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False)


templates.env.filters.update(
    percent=percent,
    phase_title=phase_title,
    action_text=format_action,
    action_json=action_json,
    slug=slug,
)
templates.env.globals.update(power_colours=power_colours, power_css=power_css)


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A template rendered with `context` (plus the request)."""
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"
