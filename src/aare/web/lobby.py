"""The lobby: register, log in and out, create a game, join an open seat, list your games."""

from __future__ import annotations

import math
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response
from starlette.concurrency import run_in_threadpool
from starlette.datastructures import FormData

from aare.ai import bot_names
from aare.errors import AareError
from aare.posts.post import read_post
from aare.rules.registry import default_ruleset
from aare.rules.ruleset import Ruleset, available_rulesets, load_ruleset, load_spec
from aare.server import accounts, db
from aare.server.accounts import AccountError, User
from aare.server.api.auth import SESSION_COOKIE, OptionalCaller, PostingCaller
from aare.server.api.auth_routes import check_login, client_address, register_user
from aare.server.api.context import Ctx, ServerContext
from aare.server.errors import ServiceError
from aare.server.hashing import ServerBusy
from aare.server.login_limits import TooManyLogins, TooManyRegistrations
from aare.server.seats import seat_names
from aare.web.templating import phase_title, power_colours, render

router = APIRouter(tags=["pages"], include_in_schema=False)
STRONGEST_BOT = "planner"  # the new-game form's choice for the seats the creator does not take
GAMES_SHOWN = 30


def ruleset_forms() -> list[dict[str, Any]]:
    """Each ruleset with its options and its seats (by nation and by side) for the new-game form; a nation seat
    also lists the powers its player plays (`with`, e.g. China with the United States)."""
    out = []
    for rid in available_rulesets():
        spec, ruleset = load_spec(rid), load_ruleset(rid)
        powers = sorted(ruleset.board.powers, key=lambda p: p.order)
        seated = [p for p in powers if p.played_by is None]  # a power played by another sits in its seat
        out.append({
            "id": rid, "title": spec.title,
            "options": [{"key": o.key, "type": o.type.__name__, "default": o.default, "choices": list(o.choices),
                         "help": o.help} for o in spec.option_specs],
            "nations": [{"name": p.name, "side": p.side, "colours": power_colours(p.name, ruleset.board),
                         "first": i == 0, "with": [{"name": q.name, "colours": power_colours(q.name, ruleset.board)}
                                                   for q in powers if q.played_by == p.name]}
                        for i, p in enumerate(seated)],
            "sides": list(dict.fromkeys(p.side for p in powers)),
            "powers": [{"name": p.name, "colours": power_colours(p.name, ruleset.board), "first": i == 0, "with": []}
                       for i, p in enumerate(powers)],
        })
    return out


def seat_choices() -> list[tuple[str, str]]:
    """What a seat of a new game may be: the creator's, open, or any bot on offer (`aare.ai.bot_names`)."""
    return [("me", "me"), ("open", "open seat"), *((b, f"{b} bot") for b in bot_names())]


def default_bot() -> str:
    """The bot the new-game form offers for the seats the creator does not take: the strongest on offer."""
    names = bot_names()
    return STRONGEST_BOT if STRONGEST_BOT in names else names[0]


def _ruleset_of(game: dict[str, Any]) -> Ruleset | None:
    """The ruleset a listed game is played under (None if it is no longer installed)."""
    try:
        return load_ruleset(game["ruleset"], game["options"])
    except AareError:
        return None


def _game_rows(ctx: ServerContext, user: User) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(your games, newest first, with whose move it is; other games with an open seat)."""
    mine = []
    for game in ctx.service.list_games(user.id, GAMES_SHOWN):
        view = ctx.service.view(game["id"], user.id)
        s = view["summary"]
        rules = _ruleset_of(game)
        board = rules.board if rules else None
        mine.append({**game, "your_turn": view["your_turn"], "to_act": view["to_act"], "round": s["round"],
                     "phase": phase_title(s["phase"], rules), "colours": power_colours(view["to_act"], board),
                     "your_seats": view["your_seats"], "bots": _bots_of(game)})
    ids = {g["id"] for g in mine}
    open_games = [{**g, "bots": _bots_of(g)} for g in ctx.service.list_games(None, GAMES_SHOWN)
                  if g["id"] not in ids and g["winner"] is None and any(s["open"] for s in g["seats"])]
    return mine, open_games


def _bots_of(game: dict[str, Any]) -> list[dict[str, str]]:
    """The seats of a listed game that bots hold, with the bot's name, in turn order."""
    try:
        order = seat_names(game["ruleset"], game["options"], game["seating"])
    except (AareError, ValueError):
        order = []
    held = sorted((s for s in game["seats"] if s.get("bot")),
                  key=lambda s: (order.index(s["seat"]) if s["seat"] in order else len(order), s["seat"]))
    return [{"seat": s["seat"], "bot": s["bot"]} for s in held]


@router.get("/", response_class=HTMLResponse)
async def lobby(request: Request, who: OptionalCaller, ctx: Ctx) -> Response:
    return await _lobby(request, who.user if who else None, who.csrf_token if who else None, ctx)


async def _lobby(request: Request, user: User | None, csrf: str | None, ctx: ServerContext, error: str = "",
                 status: int = 200) -> Response:
    mine: list[dict[str, Any]] = []
    open_games: list[dict[str, Any]] = []
    if user is not None:
        mine, open_games = await run_in_threadpool(_game_rows, ctx, user)
    return render(request, "lobby.html", status, user=user, csrf=csrf, error=error, games=mine,
                  open_games=open_games, rulesets=ruleset_forms() if user else [], seat_choices=seat_choices(),
                  default_bot=default_bot(), default_ruleset=default_ruleset())


def _signed_in(request: Request, ctx: ServerContext, user: User) -> Response:
    """Start a session for `user` and go to the lobby."""
    with db.write(ctx.engine) as conn:
        token, _ = accounts.new_session(conn, user, ctx.settings.session_days)
    mode = ctx.settings.cookie_secure
    secure = mode == "always" or (mode == "auto" and request.url.scheme == "https")
    response = RedirectResponse("/", status_code=303)
    response.set_cookie(SESSION_COOKIE, token, max_age=int(ctx.settings.session_days * 86400), path="/",
                        httponly=True, samesite="lax", secure=secure)
    return response


def _credentials(form: FormData) -> tuple[str, str]:
    return str(form.get("username") or "").strip(), str(form.get("password") or "")


@router.post("/register", response_class=HTMLResponse)
async def register(request: Request, ctx: Ctx) -> Response:
    username, password = _credentials(await request.form())

    def work() -> Response:
        user = register_user(ctx, username, password, client_address(request))
        return _signed_in(request, ctx, user)

    try:
        return await run_in_threadpool(work)
    except AccountError as exc:
        return await _lobby(request, None, None, ctx, f"Could not register: {exc}", exc.status)
    except TooManyRegistrations as exc:
        return await _refused(request, ctx, f"Too many accounts were registered from your address lately. Try "
                              f"again in {_duration(exc.retry_after)}.", exc)
    except ServerBusy as exc:
        return await _refused(request, ctx, "The server is busy. Try again in a moment.", exc)


async def _refused(request: Request, ctx: ServerContext, message: str, exc: ServiceError) -> Response:
    """The lobby with `message`, answered with `exc`'s status and headers (e.g. Retry-After)."""
    page = await _lobby(request, None, None, ctx, message, exc.status)
    page.headers.update(exc.headers)
    return page


@router.post("/login", response_class=HTMLResponse)
async def login(request: Request, ctx: Ctx) -> Response:
    username, password = _credentials(await request.form())

    def work() -> Response | None:
        user = check_login(ctx, username, password, client_address(request))
        return None if user is None else _signed_in(request, ctx, user)

    try:
        found = await run_in_threadpool(work)
    except TooManyLogins as exc:
        return await _refused(request, ctx, f"Too many failed logins. Try again in {_duration(exc.retry_after)}.",
                              exc)
    except ServerBusy as exc:
        return await _refused(request, ctx, "The server is busy. Try again in a moment.", exc)
    return found or await _lobby(request, None, None, ctx, "Wrong username or password.", 401)


def _duration(seconds: int) -> str:
    if seconds > 90:
        return f"{math.ceil(seconds / 60)} minutes"
    return "1 second" if seconds == 1 else f"{seconds} seconds"


@router.post("/logout")
async def logout(who: PostingCaller, ctx: Ctx) -> Response:
    token = who.session_token
    if token is not None:
        def work() -> None:
            with db.write(ctx.engine) as conn:
                accounts.end_session(conn, token)

        await run_in_threadpool(work)
        ctx.logins.clear()
    response = RedirectResponse("/", status_code=303)
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


def new_game_request(form: FormData) -> tuple[str, dict[str, str], str, dict[str, str]]:
    """(ruleset, options, seating, seats) from the new-game form: option fields `opt:<ruleset>:<key>` (a
    checkbox follows a hidden "false"), seat fields `seat:<ruleset>:<seating>:<seat>`."""
    ruleset = str(form.get("ruleset") or default_ruleset())
    seating = str(form.get("seating") or "nations")
    spec = load_spec(ruleset)
    options = {}
    for option in spec.option_specs:
        values = form.getlist(f"opt:{ruleset}:{option.key}")
        if values:
            options[option.key] = str(values[-1])
    names = seat_names(ruleset, options, seating)
    seats = {name: str(form.get(f"seat:{ruleset}:{seating}:{name}") or "open") for name in names}
    return ruleset, options, seating, seats


@router.post("/new", response_class=HTMLResponse)
async def create_game(request: Request, who: PostingCaller, ctx: Ctx) -> Response:
    try:
        ruleset, options, seating, seats = new_game_request(await request.form())
        game_id = await run_in_threadpool(ctx.service.create_game, who.user.id, ruleset, options, seating, seats)
    except (AareError, ServiceError, ValueError) as exc:
        message = exc.message if isinstance(exc, ServiceError) else str(exc)
        return await _lobby(request, who.user, who.csrf_token, ctx, f"Could not create the game: {message}", 400)
    return RedirectResponse(f"/play/{game_id}", status_code=303)


@router.post("/import-post", response_class=HTMLResponse)
async def import_post(request: Request, who: PostingCaller, ctx: Ctx) -> Response:
    """A game played by post, pasted into the lobby: checked as `aare import` checks it, then played on at the
    table with every seat open (docs/play-by-post.md)."""
    form = await request.form()
    try:
        log = await run_in_threadpool(read_post, str(form.get("post") or ""))
        game_id = await run_in_threadpool(ctx.service.import_posted, who.user.id, log, "sides", {})
    except (AareError, ServiceError) as exc:
        message = exc.message if isinstance(exc, ServiceError) else str(exc)
        return await _lobby(request, who.user, who.csrf_token, ctx, f"Could not import the post: {message}", 400)
    return RedirectResponse(f"/play/{game_id}", status_code=303)
