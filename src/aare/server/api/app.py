"""The FastAPI application: engine, broker, game service and bot runner, error answers, routes."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from importlib.metadata import entry_points
from typing import Any

import anyio.to_thread
from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException

from aare.errors import IllegalAction, MalformedInput, ReplayMismatch, UnknownName
from aare.server import accounts, db, timing
from aare.server.accounts import AccountError
from aare.server.api import auth_routes, game_routes, ladder_routes, stream
from aare.server.api.action_door import ActionDoor
from aare.server.api.context import ServerContext
from aare.server.api.middleware import BodyLimit, SecurityHeaders
from aare.server.bots import BotRunner
from aare.server.broker import make_broker
from aare.server.collector import quieter_garbage_collection
from aare.server.db import make_engine
from aare.server.errors import ServiceError
from aare.server.hashing import HashPool
from aare.server.login_cache import LoginCache
from aare.server.login_limits import LoginLimits, RegistrationLimits, make_counts
from aare.server.migrate import upgrade
from aare.server.service import GameService
from aare.server.settings import Settings

PAGES = "aare.server.pages"  # entry point group: callables that add pages to the application
DESCRIPTION = """An online table for Axis & Allies variants. Log in with a session cookie (form posts then need
the CSRF token) or send `Authorization: Bearer <API token>`. Every action goes through
`POST /games/{id}/actions`; `GET /games/{id}/events` streams what happens."""


def create_app(settings: Settings, migrate: bool = False) -> FastAPI:
    """The application for `settings`; `migrate`: bring the database schema up to date first."""
    engine = make_engine(settings.database_url, settings.sqlite_synchronous)
    if migrate:
        upgrade(engine)
    broker = make_broker(settings.redis_url)
    runner_box: list[BotRunner] = []
    service = GameService(engine, broker, on_change=lambda game_id: runner_box[0].notify(game_id),
                          action_threads=settings.action_threads, group_commit=settings.group_commit)
    runner = BotRunner(service, settings.bot_mode, budget=settings.bot_seconds or None, work=settings.bot_work)
    runner_box.append(runner)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        anyio.to_thread.current_default_thread_limiter().total_tokens = settings.worker_threads
        with db.write(engine) as conn:
            accounts.delete_expired_sessions(conn)
        runner.start()
        yield
        runner.stop()
        hashing.close()
        counts.close()
        service.close()
        broker.close()
        engine.dispose()

    app = TableApp(title="aare table", version="1", description=DESCRIPTION, lifespan=lifespan)
    logins = LoginCache(settings.login_cache_seconds)
    counts = make_counts(settings.redis_url, settings.database_url)
    limits = LoginLimits(settings.login_user_failures, settings.login_address_failures,
                         settings.login_window_seconds, counts=counts)
    registrations = RegistrationLimits(settings.register_address_limit, settings.register_window_seconds, counts)
    hashing = HashPool(settings.hash_threads, settings.hash_queue)
    app.state.aare = ServerContext(settings, engine, broker, service, runner, logins, limits, registrations,
                                   hashing)
    app.door = {"context": app.state.aare, "max_body": settings.max_body_bytes}
    _add_error_answers(app)
    app.add_middleware(ServerTiming)
    app.add_middleware(BodyLimit, default=settings.max_body_bytes,
                       limits={"/games/import": settings.max_import_bytes})
    app.add_middleware(SecurityHeaders)  # outermost: on every answer, the 413 included
    # the action door first: routes are matched in order
    for module in (game_routes, stream, auth_routes, ladder_routes):
        app.include_router(module.router)
    for point in entry_points(group=PAGES):
        point.load()(app)  # the browser table at / (aare.web.pages:install)
    return app


class TableApp(FastAPI):
    """The FastAPI application with `ActionDoor` (configured by `door`) in front: well-formed action submissions
    skip the framework (its telemetry check, middleware stack and router); everything else goes on to it. While
    OpenTelemetry is configured (asked at most once a second: the check reads the environment) every request
    goes through the framework, so actions are traced as before."""

    door: dict[str, Any] | None = None
    _front: ActionDoor | None = None
    _traced = (0.0, True)  # until when the last answer holds, and whether telemetry was on

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http" or self.door is None or self._telemetry_on():
            await super().__call__(scope, receive, send)
            return
        if self._front is None:
            self._front = ActionDoor(super().__call__, **self.door)
        if self.root_path:
            scope["root_path"] = self.root_path
        scope["app"] = self
        await self._front(scope, receive, send)

    def _telemetry_on(self) -> bool:
        until, on = self._traced
        now = time.monotonic()
        if now >= until:
            telemetry = getattr(self, "_native_telemetry", None)
            on = telemetry is not None and bool(telemetry.enabled())
            self._traced = (now + 1.0, on)
        return on


class ServerTiming:
    """Adds `Server-Timing: app;dur=<ms>, …` to every answer: the time the server spent before answering, and
    the spans of it that `aare.server.timing` measured."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start = time.perf_counter()
        spans = timing.start_request()

        async def timed_send(message: Any) -> None:
            if message["type"] == "http.response.start":
                took = (time.perf_counter() - start) * 1000
                message["headers"] = [*message.get("headers", []),
                                      (b"server-timing", timing.header(took, spans).encode())]
            await send(message)

        await self.app(scope, receive, timed_send)


def create_app_from_env() -> FastAPI:
    """The application configured by `AARE_*` variables (for `uvicorn --factory` and worker processes)."""
    app = create_app(Settings.from_env())
    quieter_garbage_collection()
    return app


HTTP_CODES = {400: "bad_request", 401: "unauthorized", 403: "forbidden", 404: "not_found",
              405: "method_not_allowed", 406: "not_acceptable", 413: "body_too_large", 415: "unsupported_media_type",
              429: "too_many_requests", 503: "unavailable"}


def _error(status: int, code: str, message: str, **extra: Any) -> JSONResponse:
    return JSONResponse({"error": code, "message": message, **extra}, status_code=status)


def service_error_answer(exc: ServiceError) -> JSONResponse:
    """The JSON answer to a ServiceError: `{error, message, ...detail}` with its status and headers."""
    answer = _error(exc.status, _snake(type(exc).__name__), exc.message, **exc.detail)
    answer.headers.update(exc.headers)
    return answer


def _add_error_answers(app: FastAPI) -> None:
    @app.exception_handler(ServiceError)
    async def service_error(request: Request, exc: ServiceError) -> JSONResponse:
        return service_error_answer(exc)

    @app.exception_handler(HTTPException)
    async def http_error(request: Request, exc: HTTPException) -> JSONResponse:
        if exc.status_code == 404 and exc.detail == "Not Found":
            message = f"no such page or endpoint: {request.method} {request.url.path}"
        elif exc.status_code == 405:
            message = f"{request.method} is not allowed on {request.url.path}"
        elif exc.status_code == 400 and "parsing the body" in str(exc.detail):
            cause = exc.__cause__
            why = "it is nested too deeply" if isinstance(cause, RecursionError) else str(cause or "unreadable")
            return _error(400, "malformed_json", f"the body could not be read: {why}")
        else:
            message = str(exc.detail)
        answer = _error(exc.status_code, HTTP_CODES.get(exc.status_code, f"http_{exc.status_code}"), message)
        answer.headers.update(exc.headers or {})
        return answer

    @app.exception_handler(Exception)
    async def internal(request: Request, exc: Exception) -> JSONResponse:
        return _error(500, "internal_error", "the server failed to answer this request; it has been logged")

    @app.exception_handler(IllegalAction)
    async def illegal(request: Request, exc: IllegalAction) -> JSONResponse:
        return _error(422, "illegal_action", exc.reason, rule_id=exc.rule_id)

    @app.exception_handler(UnknownName)
    async def unknown_name(request: Request, exc: UnknownName) -> JSONResponse:
        return _error(400, "unknown_name", str(exc))

    @app.exception_handler(MalformedInput)
    async def malformed(request: Request, exc: MalformedInput) -> JSONResponse:
        return _error(400, "malformed_input", str(exc))

    @app.exception_handler(ReplayMismatch)
    async def mismatch(request: Request, exc: ReplayMismatch) -> JSONResponse:
        return _error(400, "replay_mismatch", str(exc))

    @app.exception_handler(AccountError)
    async def account(request: Request, exc: AccountError) -> JSONResponse:
        return _error(exc.status, "account", str(exc))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> JSONResponse:
        problems = exc.errors()
        first = problems[0] if problems else {}
        where = ".".join(str(p) for p in first.get("loc", ()))
        if first.get("type") == "json_invalid":
            return _error(400, "malformed_json", f"the body is not valid JSON: {first.get('ctx', {}).get('error')}")
        return _error(400, "malformed_request", f"{where}: {first.get('msg', 'invalid request')}")


def _snake(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")
