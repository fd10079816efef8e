"""The busiest route, `POST /games/{id}/actions`, served as plain ASGI: no telemetry check, routing table walk,
dependency injection, body validation or middleware stack of the framework for a well-formed submission.

The door sits in front of the application (`TableApp`) and does itself what the middleware would: the security
headers and `Server-Timing` of every answer, the body limit, and the answer to an unexpected error (the
application's handler of `Exception`, then the error is raised on for the server to log, as the server-error
middleware does). A request whose body is a JSON object with a dict `action` and an integer `version` (sent as
JSON, the usual case) is served here; anything else, a malformed or too large body included, goes on through
the framework to its route (`game_routes.submit_action`) with the body it sent, so every refusal is answered as
before. Errors of the service are answered by the application's own exception handlers.
"""

from __future__ import annotations

import inspect
import re
import time
from typing import Any

import orjson
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request

from aare.server import timing
from aare.server.api.auth import posting_caller, presented_in
from aare.server.api.context import ServerContext
from aare.server.api.middleware import add_headers, security_headers
from aare.server.service import Actor
from aare.server.views import answer_json

ACTIONS_PATH = re.compile(r"/games/([^/]+)/actions")
JSON_TYPE = (b"content-type", b"application/json")
ANSWER_HEADERS = security_headers("/games/-/actions")
"""The security headers of every answer of the door (the same for every game's path)."""


class ActionDoor:
    """ASGI app serving well-formed `POST /games/{id}/actions` requests of `context`'s service, with bodies of
    at most `max_body` bytes; everything else goes on to `app` (the framework's)."""

    def __init__(self, app: Any, context: ServerContext, max_body: int) -> None:
        self.app = app
        self.context = context
        self.max_body = max_body

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        found = ACTIONS_PATH.fullmatch(scope["path"]) if scope["type"] == "http" else None
        if found is None or scope["method"] != "POST":
            await self.app(scope, receive, send)
            return
        started = time.perf_counter()
        spans = timing.start_request()
        request = Request(scope, receive)
        length, content_type = _length_and_type(scope["headers"])
        body = None if length and length.isdigit() and int(length) > self.max_body else await self._body(receive)
        parsed = None if body is None or not body[1] else _well_formed(body[0], content_type)
        if parsed is None:  # the framework's route answers it, malformed, too large or not
            await self.app(scope, receive if body is None else _replay(*body, receive), send)
            return
        extra = ANSWER_HEADERS

        async def answer(message: Any) -> None:
            if message["type"] == "http.response.start":
                took = (time.perf_counter() - started) * 1000
                add_headers(message, [*extra, (b"server-timing", timing.header(took, spans).encode())])
            await send(message)

        try:
            text = await submit_answer(self.context, found[1], request, *parsed)
        except Exception as exc:
            handler, expected = _handler_for(scope["app"], exc)
            if handler is None:
                raise
            response = (await handler(request, exc) if inspect.iscoroutinefunction(handler)
                        else await run_in_threadpool(handler, request, exc))
            await response(scope, receive, answer)
            if not expected:
                raise
            return
        took = (time.perf_counter() - started) * 1000
        await send({"type": "http.response.start", "status": 200,
                    "headers": [(b"content-length", str(len(text)).encode()), JSON_TYPE, *extra,
                                (b"server-timing", timing.header(took, spans).encode())]})
        await send({"type": "http.response.body", "body": text})

    async def _body(self, receive: Any) -> tuple[bytes, bool]:
        """The request body and whether it is whole (False: it passed `max_body` and the rest is unread, or the
        client went away)."""
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return b"".join(chunks), False  # a disconnect: the route sees it as the framework would
            chunk = message.get("body", b"")
            chunks.append(chunk)
            size += len(chunk)
            if size > self.max_body:
                return b"".join(chunks), False
            if not message.get("more_body", False):
                return b"".join(chunks), True


async def submit_answer(ctx: ServerContext, game_id: str, request: Request, action: dict[str, Any],
                        version: int) -> bytes:
    """The answer to a submission, as JSON: the action checked and stored by the service, as the caller sees
    it (for this door and the FastAPI route alike)."""
    creds = presented_in(request.scope)
    users: list[int] = []

    def actor() -> Actor:  # on the service's action threads, with the rules check
        user_id = posting_caller(ctx.engine, ctx.logins, creds).user.id
        users.append(user_id)
        return Actor(user_id=user_id)

    message = await ctx.service.submit_async(game_id, actor, action, version)
    seen = ctx.service.seen_by(game_id, users[-1] if users else None, message)  # the actor's view
    return answer_json(seen).encode()


def _length_and_type(headers: list[tuple[bytes, bytes]]) -> tuple[str | None, str | None]:
    """The first `Content-Length` and `Content-Type` of the raw headers (names are lower case in ASGI)."""
    length = content_type = None
    for name, value in headers:
        if name == b"content-length":
            if length is None:
                length = value.decode("latin-1")
        elif name == b"content-type" and content_type is None:
            content_type = value.decode("latin-1")
    return length, content_type


def _well_formed(body: bytes, content_type: str | None) -> tuple[dict[str, Any], int] | None:
    """The action and version of a JSON body `{"action": {...}, "version": N}` (other keys are ignored, as the
    route's model does); None for anything else."""
    if not body or (content_type is not None and not content_type.lower().startswith("application/json")):
        return None
    try:
        data = orjson.loads(body)
    except (ValueError, RecursionError):
        return None
    if type(data) is not dict:
        return None
    action, version = data.get("action"), data.get("version")
    if type(action) is not dict or type(version) is not int:
        return None
    return action, version


def _replay(body: bytes, whole: bool, receive: Any) -> Any:
    """A `receive` that gives `body` (already read; `whole`: all of it) once, then listens to the client as
    before."""
    sent = False

    async def replayed() -> Any:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": body, "more_body": not whole}
        return await receive()

    return replayed


def _handler_for(app: Any, exc: Exception) -> tuple[Any, bool]:
    """The application's exception handler for `exc` (by its class, most specific first), as the framework picks
    it, and whether it is one for that kind of error (False: the handler of `Exception`, for an unexpected error,
    which is raised on once answered); None when there is none."""
    handlers = getattr(app, "exception_handlers", {})
    for cls in type(exc).__mro__:
        if cls is Exception:
            return handlers.get(Exception, handlers.get(500)), False
        if cls in handlers:
            return handlers[cls], True
    return None, False
