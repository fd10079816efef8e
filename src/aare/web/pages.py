"""The browser table's HTML pages (server-rendered with Jinja2, live through htmx and server-sent events):
the lobby, the game page and its fragments, and the battle calculator. `install(app)` adds them and the
static files to the server application."""

from __future__ import annotations

from fastapi import APIRouter, FastAPI
from fastapi.staticfiles import StaticFiles

from aare.web import lobby, odds_page, table
from aare.web.templating import STATIC

router = APIRouter(include_in_schema=False)
for _module in (lobby, table, odds_page):
    router.include_router(_module.router)


def install(app: FastAPI) -> None:
    """Serve the pages at `/` and their CSS and JavaScript at `/static`."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
