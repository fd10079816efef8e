"""The browser table's HTML pages (server-rendered with Jinja2, live through htmx and server-sent events):
the lobby, the game page and its fragments, the battle calculator and the ladder. `install(app)` adds them and the
static files to the server application."""

from __future__ import annotations

from urllib.parse import urlsplit

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import Response
from fastapi.staticfiles import StaticFiles

from aare.server.api.app import service_error_answer
from aare.server.api.auth import FORM_TYPES, CsrfFailed
from aare.web import ladder_pages, lobby, odds_page, table
from aare.web.templating import STATIC, is_htmx, render

router = APIRouter(include_in_schema=False)
for _module in (lobby, table, odds_page, ladder_pages):
    router.include_router(_module.router)


def install(app: FastAPI) -> None:
    """Serve the pages at `/` and their CSS and JavaScript at `/static`."""
    app.include_router(router)
    app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")
    app.add_exception_handler(CsrfFailed, csrf_failed)


async def csrf_failed(request: Request, exc: Exception) -> Response:
    """A CSRF failure: on a web form (or an htmx post of the pages) a page saying to reload and try again;
    on the JSON API the usual `{error, message}`."""
    assert isinstance(exc, CsrfFailed)
    from_page = is_htmx(request) or request.headers.get("content-type", "").startswith(FORM_TYPES)
    if not from_page:
        return service_error_answer(exc)
    back = _same_site_back(request)
    if is_htmx(request):  # a card where the answer would go (table.js swaps it in despite the 403)
        answer = render(request, "_csrf_failed.html", exc.status, back=back)
        answer.headers["X-Aare-Refused"] = "csrf"
        return answer
    return render(request, "csrf_failed.html", exc.status, user=None, csrf=None, back=back)


def _same_site_back(request: Request) -> str:
    """The page the form was on (its Referer, when it is on this server), else the lobby."""
    referer = urlsplit(request.headers.get("referer", ""))
    if referer.netloc and referer.netloc != request.url.netloc:
        return "/"
    path = referer.path or "/"
    return path + (f"?{referer.query}" if referer.query else "") if path.startswith("/") else "/"
