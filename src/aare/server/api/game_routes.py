"""Games: create, import, list, view, seats, legal actions, the action door, undo, export."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, Request, Response

from aare.actions import action_schema
from aare.posts.post import read_post
from aare.server.api.action_door import submit_answer
from aare.server.api.auth import AnyCaller, OptionalCaller, PostingCaller
from aare.server.api.context import Ctx, ServerContext
from aare.server.api.models import (
    ActionOut,
    ActionRequest,
    GameCreate,
    GameImport,
    GameSummary,
    GameView,
    LegalOut,
    UndoOut,
    VersionRequest,
    errors,
)
from aare.server.errors import BadRequest
from aare.server.service import Actor

router = APIRouter(tags=["games"])
SpaceQuery = Annotated[str | None, Query(description="only moves and placements touching this space")]


@router.post("/games", summary="Create a game and seat players and bots", status_code=201, response_model=GameView,
             responses=errors(400, 401, 403))
def create_game(body: GameCreate, who: PostingCaller, ctx: Ctx) -> dict[str, Any]:
    game_id = ctx.service.create_game(who.user.id, body.ruleset, body.options, body.seating, body.seats,
                                      ranked=body.ranked, title_match=body.title_match)
    return ctx.service.view(game_id, who.user.id)


@router.post("/games/import", summary="Bring a game file onto the server", status_code=201, response_model=GameView,
             responses=errors(400, 401, 403))
def import_game(body: GameImport, who: PostingCaller, ctx: Ctx) -> dict[str, Any]:
    if (body.game is None) == (body.post is None):
        raise BadRequest("send a game file (`game`) or a post (`post`), one of them")
    if body.post is not None:
        game_id = ctx.service.import_posted(who.user.id, read_post(body.post), body.seating, body.seats)
    else:
        game_id = ctx.service.import_game(who.user.id, body.game, body.seating, body.seats)
    return ctx.service.view(game_id, who.user.id)


@router.get("/games", summary="List games (yours only with mine=true)", response_model=list[GameSummary],
            responses=errors(401))
def list_games(who: OptionalCaller, ctx: Ctx, mine: bool = False) -> list[dict[str, Any]]:
    return ctx.service.list_games(who.user.id if mine and who else None)


@router.get("/games/{game_id}", summary="The game as your seats see it", response_model=GameView,
            responses=errors(404))
def view_game(game_id: str, who: OptionalCaller, ctx: Ctx) -> dict[str, Any]:
    return ctx.service.view(game_id, who.user.id if who else None)


@router.get("/games/{game_id}/legal", summary="Your legal actions now", response_model=LegalOut,
            responses=errors(401, 404))
def legal_actions(game_id: str, who: AnyCaller, ctx: Ctx, space: SpaceQuery = None,
                  power: str | None = None) -> dict[str, Any]:
    return ctx.service.legal(game_id, who.user.id, space, power)


@router.post(
    "/games/{game_id}/actions", summary="Submit an action for the seat that must act",
    response_model=ActionOut,
    responses=errors(400, 401, 403, 404, 409, 422),
    description="Accepted actions are stored, with their events, before the answer, which carries what changed "
    "(the entry's events, the new version and state hash, who acts now). 403: you do not hold the acting seat; "
    "409: `version` is not the current one (the answer names it); 422: the rules forbid the action (the answer "
    "names the rule ID); 400: malformed request or action. Rejected actions store nothing.",
)
async def submit_action(game_id: str, body: ActionRequest, request: Request) -> Response:
    # well-formed submissions are served by `ActionDoor` before they reach here; this route answers the rest
    ctx: ServerContext = request.app.state.aare
    answer = await submit_answer(ctx, game_id, request, body.action, body.version)
    return Response(answer, media_type="application/json")


@router.post("/games/{game_id}/undo", summary="Take back your last action (never past a die roll)",
             response_model=UndoOut, responses=errors(400, 401, 403, 404, 409, 422))
def undo(game_id: str, body: VersionRequest, who: PostingCaller, ctx: Ctx) -> dict[str, Any]:
    message = ctx.service.undo(game_id, Actor(user_id=who.user.id), body.version, body.power)
    return ctx.service.seen_by(game_id, who.user.id, message)


@router.post("/games/{game_id}/seats/{seat}/take", summary="Take an open seat", status_code=204,
             responses=errors(401, 403, 404))
def take_seat(game_id: str, seat: str, who: PostingCaller, ctx: Ctx) -> Response:
    ctx.service.take_seat(game_id, who.user.id, seat)
    return Response(status_code=204)


@router.post("/games/{game_id}/seats/{seat}/leave", summary="Leave a seat you hold", status_code=204,
             responses=errors(401, 403, 404))
def leave_seat(game_id: str, seat: str, who: PostingCaller, ctx: Ctx) -> Response:
    ctx.service.leave_seat(game_id, who.user.id, seat)
    return Response(status_code=204)


@router.post("/games/{game_id}/bots/resume", summary="Let the game's bots play again after a bot error",
             status_code=204, responses=errors(401, 403, 404),
             description="Clears the game's `bot_error`, and the bots take up play where they stopped. For a user "
             "who holds a seat in the game or created it (else 403).")
def resume_bots(game_id: str, who: PostingCaller, ctx: Ctx) -> Response:
    ctx.service.resume_bots(game_id, who.user.id)
    return Response(status_code=204)


@router.get("/games/{game_id}/export", summary="The whole game: log, dice commitments and revealed seeds",
            responses=errors(404),
            description="Before the game has ended: the game as your seats see it (no login: as a spectator); "
            "when anything is hidden from you the file is marked `view_of` and cannot be verified or imported. "
            "After the end: the whole game, which `aare verify` checks.")
def export_game(game_id: str, who: OptionalCaller, ctx: Ctx) -> dict[str, Any]:
    return ctx.service.export(game_id, who.user.id if who else None)


@router.get("/schema/actions", summary="The JSON Schema of actions", tags=["reference"])
def schema() -> dict[str, Any]:
    return action_schema()


@router.get("/healthz", summary="Liveness check", tags=["reference"])
def healthz() -> dict[str, str]:
    return {"status": "ok"}
