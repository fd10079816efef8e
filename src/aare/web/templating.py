"""The Jinja2 environment of the browser table: templates, static files and the filters they use."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from fastapi import Request
from fastapi.responses import HTMLResponse
from fastapi.templating import Jinja2Templates

from aare.action_text import format_action
from aare.web.map_style import power_style, slug

HERE = Path(__file__).resolve().parent
TEMPLATES = HERE / "templates"
STATIC = HERE / "static"
PHASE_TITLES = {
    "straight-bid": "Bid for the Axis",
    "setup-bid": "Bid placement",
    "develop-weapons": "Develop weapons",
    "purchase": "Purchase units",
    "combat-move": "Combat move",
    "conduct-combat": "Conduct combat",
    "non-combat-move": "Non-combat move",
    "mobilize": "Mobilize new units",
    "collect-income": "Collect income",
}

templates = Jinja2Templates(directory=str(TEMPLATES))


def percent(value: float, digits: int = 1) -> str:
    """0.4567 -> '45.7 %'."""
    return f"{value * 100:.{digits}f} %"


def phase_title(phase: str) -> str:
    return PHASE_TITLES.get(phase, phase.replace("-", " ").capitalize())


def power_colours(power: str | None) -> dict[str, str]:
    """The map fill and the ink (badge background, white text) of a power."""
    style = power_style(power)
    return {"fill": style.fill, "ink": style.ink}


def action_json(action: Any) -> str:
    return json.dumps(action, separators=(",", ":"), ensure_ascii=False)


templates.env.filters.update(
    percent=percent,
    phase_title=phase_title,
    action_text=format_action,
    action_json=action_json,
    slug=slug,
)
templates.env.globals.update(power_colours=power_colours)


def render(request: Request, name: str, status_code: int = 200, **context: Any) -> HTMLResponse:
    """A template rendered with `context` (plus the request)."""
    return templates.TemplateResponse(request, name, context, status_code=status_code)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"
