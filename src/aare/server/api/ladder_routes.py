"""The ladder: its table, a player's history, and the community's match (two ranked games at once)."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter

from aare.server import db, ladder
from aare.server.api.auth import PostingCaller
from aare.server.api.context import Ctx
from aare.server.api.models import LadderOut, LadderPlayerOut, MatchCreate, MatchOut, errors
from aare.server.errors import NotFound

router = APIRouter(tags=["ladder"])


@router.get("/ladder", summary="The ladder: AARe power ranking and openskill rating of every ranked player",
            response_model=LadderOut)
def ladder_table(ctx: Ctx) -> dict[str, Any]:
    with db.read(ctx.engine) as conn:
        return ladder.standings(conn)


@router.get("/ladder/players/{name}", summary="A ranked player's entry and his ladder games, newest first",
            response_model=LadderPlayerOut, responses=errors(404))
def ladder_player(name: str, ctx: Ctx) -> dict[str, Any]:
    with db.read(ctx.engine) as conn:
        found = ladder.history(conn, name)
    if found is None:
        raise NotFound(f"{name!r} is not on the ladder")
    return found


@router.post("/matches", summary="Create a ranked match: two games with the sides swapped and an agreed bid",
             status_code=201, response_model=MatchOut, responses=errors(400, 401, 403))
def create_match(body: MatchCreate, who: PostingCaller, ctx: Ctx) -> dict[str, Any]:
    created = ctx.service.create_match(who.user.id, body.ruleset, body.options, body.opponent, body.bid,
                                       body.title_match)
    view = ctx.service.view(created[0], who.user.id)
    return {"match_id": view["match_id"], "games": created}
