"""The ladder pages: the table (rank, player, games, rating) at /rankings, a player's history at /rankings/NAME,
and the lobby's ranked-match form (/match: two ranked games, sides swapped, an agreed bid)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool

from aare.errors import AareError
from aare.server import db, ladder
from aare.server.api.auth import OptionalCaller, PostingCaller
from aare.server.api.context import Ctx, ServerContext
from aare.server.errors import ServiceError
from aare.web.lobby import _lobby
from aare.web.templating import render

router = APIRouter(tags=["pages"], include_in_schema=False)


def _read(ctx: ServerContext, name: str | None) -> dict[str, Any] | None:
    with db.read(ctx.engine) as conn:
        return ladder.standings(conn) if name is None else ladder.history(conn, name)


@router.get("/rankings", response_class=HTMLResponse)
async def ladder_page(request: Request, who: OptionalCaller, ctx: Ctx) -> Response:
    table = await run_in_threadpool(_read, ctx, None)
    return render(request, "ladder.html", user=who.user if who else None, csrf=who.csrf_token if who else None,
                  table=table)


@router.get("/rankings/{name}", response_class=HTMLResponse)
async def player_page(request: Request, name: str, who: OptionalCaller, ctx: Ctx) -> Response:
    found = await run_in_threadpool(_read, ctx, name)
    user, csrf = (who.user, who.csrf_token) if who else (None, None)
    if found is None:
        return render(request, "error.html", 404, user=user, csrf=csrf, message=f"{name} is not on the ladder.")
    return render(request, "ladder_player.html", user=user, csrf=csrf, **found)


@router.post("/match", response_class=HTMLResponse)
async def create_match(request: Request, who: PostingCaller, ctx: Ctx) -> Response:
    form = await request.form()
    try:
        bid = int(str(form.get("bid") or "0"))
        created = await run_in_threadpool(
            ctx.service.create_match, who.user.id, str(form.get("ruleset") or ""), {},
            str(form.get("opponent") or "").strip(), bid, form.get("title_match") == "true")
    except (AareError, ServiceError, ValueError) as exc:
        message = exc.message if isinstance(exc, ServiceError) else str(exc)
        return await _lobby(request, who.user, who.csrf_token, ctx, f"Could not create the match: {message}", 400)
    return RedirectResponse(f"/play/{created[0]}", status_code=303)
