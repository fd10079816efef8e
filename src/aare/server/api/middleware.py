"""ASGI middleware at the door: request-body limits (413 before anything parses the body) and the security
headers of every answer."""

from __future__ import annotations

import json
from typing import Any

# A page may run only its own scripts (no inline script, no eval); styles may be inline because the pages and
# the map set CSS custom properties and colours in `style` attributes and the map SVG carries its own
# `<style>` (see docs/server.md). Nothing may frame a page.
PAGE_POLICY = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
               "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
               "frame-ancestors 'none'")
# FastAPI's interactive documentation (/docs, /redoc) loads its viewer from a CDN and starts it inline; those
# pages show no user data.
DOCS_POLICY = ("default-src 'self'; script-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net; "
               "style-src 'self' 'unsafe-inline' https://cdn.jsdelivr.net https://fonts.googleapis.com; "
               "font-src 'self' https://fonts.gstatic.com; img-src 'self' data: https://fastapi.tiangolo.com "
               "https://cdn.redoc.ly; worker-src 'self' blob:; connect-src 'self'; object-src 'none'; "
               "base-uri 'none'; frame-ancestors 'none'")
DOCS_PATHS = ("/docs", "/redoc")
SECURITY_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """Adds `Content-Security-Policy`, `X-Content-Type-Options: nosniff`, `Referrer-Policy: same-origin` and
    `X-Frame-Options: DENY` (for browsers without `frame-ancestors`) to every HTTP answer."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        extra = security_headers(scope.get("path", ""))

        async def with_headers(message: Any) -> None:
            if message["type"] == "http.response.start":
                add_headers(message, extra)
            await send(message)

        await self.app(scope, receive, with_headers)


def security_headers(path: str) -> list[tuple[bytes, bytes]]:
    """The security headers of an answer to `path`."""
    policy = DOCS_POLICY if path.startswith(DOCS_PATHS) else PAGE_POLICY
    return [(b"content-security-policy", policy.encode()), *SECURITY_HEADERS]


def add_headers(start: Any, extra: list[tuple[bytes, bytes]]) -> None:
    """Add to an `http.response.start` message the `extra` headers it does not have yet."""
    present = {name.lower() for name, _ in start.get("headers", [])}
    start["headers"] = [*start.get("headers", []), *(h for h in extra if h[0] not in present)]


class BodyTooLarge(Exception):
    """Internal: the request body passed its limit while it was being read."""


class BodyLimit:
    """Refuses a request body larger than its limit with 413 (`{error: "body_too_large", message}`), without
    reading it into memory: a `Content-Length` over the limit is refused before any of the body is read; a
    chunked body is counted as it streams in and refused as soon as it passes the limit. `limits` maps a path
    to its own limit (imports); every other path has `default`.

    The answer goes out while the client may still be sending. The connection is not closed: uvicorn reads and
    drops the rest of the body of a request whose answer is complete (a client that sends the whole body before
    reading gets the 413, not a reset), then waits for the next request as on any keep-alive connection."""

    def __init__(self, app: Any, default: int, limits: dict[str, int] | None = None) -> None:
        self.app = app
        self.default = default
        self.limits = limits or {}

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.limits.get(scope.get("path", ""), self.default)
        length = _content_length(scope)
        if length is not None and length > limit:
            await _refuse(send, limit)
            return
        seen = 0
        over = False  # the body passed the limit: whatever the application answers, the answer is a 413
        started = False

        async def counted_receive() -> Any:
            nonlocal seen, over
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    over = True
                    raise BodyTooLarge
            return message

        async def watched_send(message: Any) -> None:
            nonlocal started
            if over:
                return
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counted_receive, watched_send)
        except Exception:
            if not over or started:
                raise
        if over and not started:
            await _refuse(send, limit)


def _content_length(scope: Any) -> int | None:
    for name, value in scope.get("headers", ()):
        if name == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None


async def _refuse(send: Any, limit: int) -> None:
    body = json.dumps({"error": "body_too_large", "message": f"the request body is larger than {limit} bytes",
                       "limit": limit}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})
