"""The busiest route, `POST /games/{id}/actions`, served as plain ASGI: no routing table walk, dependency
injection or body validation of the framework for a well-formed submission.

A request whose body is a JSON object with a dict `action` and an integer `version` (sent as JSON, the usual
case) is served here; anything else, a malformed body included, goes on to the FastAPI route
(`game_routes.submit_action`) with the body it sent, so every refusal of a malformed request is answered as
before. Errors raised while serving are answered by the application's own exception handlers; the middleware
around this one (security headers, body limit, `Server-Timing`) applies as to any route.
"""

from __future__ import annotations

import inspect
import json
import re
from typing import Any

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from aare.server.api.auth import posting_caller, presented_by
from aare.server.api.context import ServerContext
from aare.server.service import Actor
from aare.server.views import answer_json

ACTIONS_PATH = re.compile(r"/games/([^/]+)/actions")
JSON_HEADERS = [(b"content-type", b"application/json")]


class ActionDoor:
    """ASGI middleware serving well-formed `POST /games/{id}/actions` requests of `context`'s service."""

    def __init__(self, app: Any, context: ServerContext) -> None:
        self.app = app
        self.context = context

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        found = ACTIONS_PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if found is None or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        request = Request(scope, receive)
        body = await request.body()
        parsed = _well_formed(body, request.headers.get("content-type"))
        if parsed is None:  # the framework's route answers it, malformed or not
            await self.app(scope, _replay(body, receive), send)
            return
        try:
            answer = await submit_answer(self.context, found[1], request, *parsed)
        except Exception as exc:
            handler = _handler_for(scope["app"], exc)
            if handler is None:
                raise
            response = (await handler(request, exc) if inspect.iscoroutinefunction(handler)
                        else await run_in_threadpool(handler, request, exc))
            await response(scope, receive, send)
            return
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(answer)).encode()), *JSON_HEADERS]})
        await send({"type": "http.response.body", "body": answer})


async def submit_answer(ctx: ServerContext, game_id: str, request: Request, action: dict[str, Any],
                        version: int) -> bytes:
    """The answer to a submission, as JSON: the action checked and stored by the service, as the caller sees
    it (for this door and the FastAPI route alike)."""
    creds = presented_by(request)
    users: list[int] = []

    def actor() -> Actor:  # on the service's action threads, with the rules check
        user_id = posting_caller(ctx.engine, ctx.logins, creds).user.id
        users.append(user_id)
        return Actor(user_id=user_id)

    message = await ctx.service.submit_async(game_id, actor, action, version)
    seen = ctx.service.seen_by(game_id, users[-1] if users else None, message)  # the actor's view
    return answer_json(seen).encode()


def _well_formed(body: bytes, content_type: str | None) -> tuple[dict[str, Any], int] | None:
    """The action and version of a JSON body `{"action": {...}, "version": N}` (other keys are ignored, as the
    route's model does); None for anything else."""
    if not body or (content_type is not None and not content_type.lower().startswith("application/json")):
        return None
    try:
        data = json.loads(body)
    except (ValueError, RecursionError):
        return None
    if type(data) is not dict:
        return None
    action, version = data.get("action"), data.get("version")
    if type(action) is not dict or type(version) is not int:
        return None
    return action, version


def _replay(body: bytes, receive: Any) -> Any:
    """A `receive` that gives `body` (already read) once, then listens to the client as before."""
    sent = False

    async def replayed() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": False}
        return await receive()

    return replayed


def _handler_for(app: Any, exc: Exception) -> Any:
    """The application's exception handler for `exc` (by its class, most specific first), as the framework's
    exception middleware picks it; None for an unexpected error (the server-error middleware answers it)."""
    handlers = getattr(app, "exception_handlers", {})
    for cls in type(exc).__mro__:
        if cls is Exception:
            return None
        if cls in handlers:
            return handlers[cls]
    return None
