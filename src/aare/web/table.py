"""The game page and its fragments: the map, the side panel, move routes, battle odds, and the form posts
that play (`act`, `undo`, taking a seat). Every action goes through `GameService.submit`, the same door as
`POST /games/{id}/actions`."""

from __future__ import annotations

import contextlib
import gzip
import json
import threading
from collections import OrderedDict
from typing import Annotated, Any

from fastapi import APIRouter, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from aare.errors import AareError
from aare.player_view import hidden_from, visible_state
from aare.posts.post import table_post
from aare.posts.text import FORMATS
from aare.rules.ruleset import load_ruleset
from aare.server.api.auth import OptionalCaller, PostingCaller
from aare.server.api.context import Ctx, ServerContext
from aare.server.errors import Forbidden, ServiceError, VersionConflict
from aare.server.seats import held_by, seat_powers
from aare.server.service import Actor
from aare.web.battle_odds import board_odds, preview_odds
from aare.web.compose import compose
from aare.web.map_svg import render_map
from aare.web.odds_chart import outcome_bar, survivors_chart
from aare.web.side import acting_game, side_context
from aare.web.templating import is_htmx, render

router = APIRouter(tags=["pages"], include_in_schema=False)
SpaceArg = Annotated[str | None, Query()]
MAP_CACHE = 64
_maps: OrderedDict[tuple[str, str], bytes] = OrderedDict()
_maps_lock = threading.Lock()


def _map_svg(ctx: ServerContext, game_id: str, user_id: int | None) -> tuple[bytes, str]:
    """The map of the game as it stands, as the user's seats see it (SVG, gzip-compressed), and the hash of
    that view (the side panel's); cached per view."""
    live, seats, _ = ctx.service.load(game_id)
    state = visible_state(live.state, seat_powers(live.state, held_by(seats, user_id)))
    seen_hash = live.state_hash if state is live.state else state.hash()
    key = (game_id, seen_hash)
    with _maps_lock:
        if key in _maps:
            _maps.move_to_end(key)
            return _maps[key], seen_hash
    svg = render_map(state, load_ruleset(state.ruleset, state.options).board)
    packed = gzip.compress(svg.encode(), 5)
    with _maps_lock:
        _maps[key] = packed
        while len(_maps) > MAP_CACHE:
            _maps.popitem(last=False)
    return packed, seen_hash


def _side(ctx: ServerContext, game_id: str, user_id: int | None, space: str | None,
          power: str | None = None) -> dict[str, Any]:
    live, seats, row = ctx.service.load(game_id)
    return side_context(live, seats, user_id, space, row.bot_error, power or None)


@router.get("/play/{game_id}", response_class=HTMLResponse)
async def game_page(game_id: str, request: Request, who: OptionalCaller, ctx: Ctx, space: SpaceArg = None,
                    power: str | None = None) -> Response:
    user_id = who.user.id if who else None
    try:
        side = await run_in_threadpool(_side, ctx, game_id, user_id, space, power)
        packed, _ = await run_in_threadpool(_map_svg, ctx, game_id, user_id)
    except ServiceError as exc:
        return render(request, "error.html", exc.status, user=who.user if who else None, message=exc.message)
    return render(request, "game.html", user=who.user if who else None, csrf=who.csrf_token if who else None,
                  map_svg=gzip.decompress(packed).decode(), **side)


@router.get("/play/{game_id}/map")
async def map_fragment(game_id: str, request: Request, who: OptionalCaller, ctx: Ctx) -> Response:
    packed, state_hash = await run_in_threadpool(_map_svg, ctx, game_id, who.user.id if who else None)
    headers = {"X-Aare-Hash": state_hash, "Cache-Control": "no-store", "Vary": "Accept-Encoding"}
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(packed, media_type="image/svg+xml", headers={**headers, "Content-Encoding": "gzip"})
    return Response(gzip.decompress(packed), media_type="image/svg+xml", headers=headers)


@router.get("/play/{game_id}/post")
async def post_download(game_id: str, request: Request, who: OptionalCaller, ctx: Ctx,
                        fmt: Annotated[str, Query(alias="format")] = "markdown") -> Response:
    """The game as a turn post (`aare post`'s text: the current round, the whole game attached), to download;
    only for a user from whom nothing of the game is hidden (a post holds the whole game)."""
    user_id = who.user.id if who else None

    def work() -> str:
        live, seats, _ = ctx.service.load(game_id)
        if hidden_from(live.state, seat_powers(live.state, held_by(seats, user_id))):
            raise Forbidden("parts of this game are hidden from you, and a post holds the whole game: it can be "
                            "posted by a player who sees everything, or once the game has ended")
        return table_post(live.log, fmt if fmt in FORMATS else "markdown")

    try:
        text = await run_in_threadpool(work)
    except ServiceError as exc:
        return render(request, "error.html", exc.status, user=who.user if who else None, message=exc.message)
    name = f"aare-{game_id[:8]}-post.{'txt' if fmt == 'bbcode' else 'md'}"
    return Response(text, media_type="text/plain; charset=utf-8",
                    headers={"Content-Disposition": f'attachment; filename="{name}"', "Cache-Control": "no-store"})


@router.get("/play/{game_id}/side", response_class=HTMLResponse)
async def side_fragment(game_id: str, request: Request, who: OptionalCaller, ctx: Ctx,
                        space: SpaceArg = None, power: str | None = None) -> Response:
    side = await run_in_threadpool(_side, ctx, game_id, who.user.id if who else None, space or None, power)
    return render(request, "_side.html", csrf=who.csrf_token if who else None, **side)


@router.get("/play/{game_id}/route", response_class=HTMLResponse)
async def route_fragment(game_id: str, request: Request, who: OptionalCaller, ctx: Ctx,
                         origin: Annotated[str, Query(alias="from")], target: Annotated[str, Query(alias="to")],
                         units: str = "", power: str | None = None) -> Response:
    def work() -> dict[str, Any]:
        live, seats, _ = ctx.service.load(game_id)
        side = side_context(live, seats, who.user.id if who else None, origin, power=power or None)
        if not side["moving"]:
            return {"route": None, "reason": "It is not your move.", "version": live.version}
        me = side["acting_for"]
        candidates = [a.to_json() for a in acting_game(live, me).legal_actions(origin)]
        try:
            return {"route": compose(live.log, origin, target, units, candidates, me), "reason": "",
                    "version": live.version, "acting_for": me}
        except AareError as exc:
            return {"route": None, "reason": str(exc), "version": live.version}

    found = await run_in_threadpool(work)
    return render(request, "_route.html", game_id=game_id, **found)


@router.get("/play/{game_id}/odds", response_class=HTMLResponse)
async def odds_fragment(game_id: str, request: Request, who: OptionalCaller, ctx: Ctx, space: SpaceArg = None,
                        action: Annotated[str | None, Query()] = None) -> Response:
    def work() -> Any:
        live, seats, _ = ctx.service.load(game_id)
        if action:  # a move of the player to move, tried on the whole game: only odds come back
            try:
                return preview_odds(live.log, json.loads(action))
            except (ValueError, AareError):
                return None
        viewer = seat_powers(live.state, held_by(seats, who.user.id if who else None))
        return board_odds(visible_state(live.state, viewer), space) if space else None

    found = await run_in_threadpool(work)
    charts = None
    if found is not None and found.odds is not None:
        charts = {"bar": outcome_bar(found.odds), "attacker": survivors_chart(found.odds, "attacker"),
                  "defender": survivors_chart(found.odds, "defender")}
    return render(request, "_board_odds.html", found=found, charts=charts, preview=bool(action))


async def _after_post(request: Request, ctx: ServerContext, game_id: str, user_id: int, csrf: str | None,
                      error: str) -> Response:
    if not is_htmx(request):
        return RedirectResponse(f"/play/{game_id}", status_code=303)
    form = await request.form()
    space = str(form.get("selected") or "") or None
    power = str(form.get("power") or "") or None  # a team turn: keep showing the power the user acted as
    side = await run_in_threadpool(_side, ctx, game_id, user_id, space, power)
    return render(request, "_side.html", error=error, csrf=csrf, **side)


def read_actions(form: FormData) -> list[dict[str, Any]]:
    """The actions a form posts, in order: `action` is its JSON, or the name of a form-built action whose units
    come from `n:<unit>` count fields (purchase, place), the `units` field (choose_casualties) or `dice` and `tech`
    (research). A purchase of units bought at a place (an `at:<unit>` field) is one action per place, after the
    rest. Raises ValueError when it cannot be read."""
    raw = str(form.get("action") or "")
    if raw == "purchase":
        counts = _counts(form)
        at = {key[3:]: str(value) for key, value in form.multi_items() if key.startswith("at:") and str(value)}
        plain = ", ".join(f"{n} {unit}" for unit, n in counts if unit not in at)
        actions = [{"type": "purchase", "units": plain}] if plain else []
        return actions + [{"type": "purchase", "units": f"{n} {unit}", "at": at[unit]} for unit, n in counts
                          if unit in at]
    return [read_action(form)]


def _counts(form: FormData) -> list[tuple[str, int]]:
    """The units of the `n:<unit>` count fields (more than none), in the form's order; ValueError for none."""
    counts = [(key[2:], int(str(value))) for key, value in form.multi_items() if key.startswith("n:") and str(value)]
    chosen = [(unit, n) for unit, n in counts if n > 0]
    if not chosen:
        raise ValueError("no units chosen")
    return chosen


def read_action(form: FormData) -> dict[str, Any]:
    """The one action a form posts (see `read_actions`)."""
    raw = str(form.get("action") or "")
    if raw.startswith("{"):
        action = json.loads(raw)
        if not isinstance(action, dict):
            raise ValueError("an action is a JSON object")
        return action
    if raw == "place":
        units = ", ".join(f"{n} {unit}" for unit, n in _counts(form))
        return {"type": "place", "units": units, "space": str(form.get("space") or "")}
    if raw == "choose_casualties":
        return {"type": "choose_casualties", "units": str(form.get("units") or "")}
    if raw == "research":
        return {"type": "research", "dice": int(str(form.get("dice") or "1")), "tech": str(form.get("tech") or "")}
    raise ValueError(f"unknown action {raw!r}")


def with_power(action: dict[str, Any], form: FormData) -> dict[str, Any]:
    """The action with the power the form acts as (a team turn), unless it names one already."""
    power = str(form.get("power") or "")
    return {**action, "power": power} if power and not action.get("power") else action


def _problem(exc: Exception) -> str:
    if isinstance(exc, VersionConflict):
        return "The game moved on before your action arrived; here is where it stands now."
    if isinstance(exc, ServiceError):
        return exc.message
    return str(exc)


@router.post("/play/{game_id}/act", response_class=HTMLResponse)
async def act(game_id: str, request: Request, who: PostingCaller, ctx: Ctx) -> Response:
    form = await request.form()
    error = ""
    try:
        actions = [with_power(a, form) for a in read_actions(form)]
        version = int(str(form.get("version") or ""))
        for action in actions:  # several for a purchase at several places: each on the version the last gave
            answer = await run_in_threadpool(ctx.service.submit, game_id, Actor(user_id=who.user.id), action,
                                             version)
            version = int(answer["version"])
    except ValueError as exc:
        error = f"That action could not be read: {exc}."
    except (ServiceError, AareError) as exc:
        error = _problem(exc)
    return await _after_post(request, ctx, game_id, who.user.id, who.csrf_token, error)


@router.post("/play/{game_id}/undo", response_class=HTMLResponse)
async def undo(game_id: str, request: Request, who: PostingCaller, ctx: Ctx) -> Response:
    form = await request.form()
    error = ""
    try:
        version = int(str(form.get("version") or ""))
        power = str(form.get("power") or "") or None
        await run_in_threadpool(ctx.service.undo, game_id, Actor(user_id=who.user.id), version, power)
    except ValueError:
        error = "That request could not be read."
    except (ServiceError, AareError) as exc:
        error = _problem(exc)
    return await _after_post(request, ctx, game_id, who.user.id, who.csrf_token, error)


@router.post("/play/{game_id}/seats/{seat}/take")
async def take_seat(game_id: str, seat: str, who: PostingCaller, ctx: Ctx) -> Response:
    with contextlib.suppress(ServiceError):  # the page then shows the seat as it is now
        await run_in_threadpool(ctx.service.take_seat, game_id, who.user.id, seat)
    return RedirectResponse(f"/play/{game_id}", status_code=303)
