"""Who is calling: a bearer API token (no CSRF needed) or a session cookie (unsafe methods need the session's
CSRF token in the `X-CSRF-Token` header or a `csrf_token` form field)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Depends, Request
from sqlalchemy import Engine
from starlette.requests import cookie_parser

from aare.server import db, timing
from aare.server.accounts import User, session_user, token_user
from aare.server.errors import ServiceError
from aare.server.login_cache import LoginCache

SESSION_COOKIE = "aare_session"
CSRF_HEADER = "x-csrf-token"
CSRF_HEADER_BYTES = CSRF_HEADER.encode()
CSRF_FIELD = "csrf_token"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class Unauthorized(ServiceError):
    status = 401


class CsrfFailed(ServiceError):
    status = 403


@dataclass(frozen=True)
class Caller:
    user: User
    via: str  # "session" or "token"
    csrf_token: str | None = None
    session_token: str | None = None


@dataclass(frozen=True)
class Presented:
    """The credentials a request carries, read without touching the database."""

    authorization: str | None
    session: str | None
    csrf: str | None
    safe: bool


def presented_by(request: Request) -> Presented:
    return Presented(request.headers.get("authorization"), request.cookies.get(SESSION_COOKIE),
                     request.headers.get(CSRF_HEADER), request.method in SAFE_METHODS)


def presented_in(scope: Any) -> Presented:
    """`presented_by` read straight from an HTTP scope's raw headers, in one pass, as the request gives them: the
    first `Authorization` and CSRF header, the cookies of every `Cookie` header (a later one winning)."""
    authorization = csrf = None
    cookies: dict[str, str] = {}
    for name, value in scope["headers"]:
        if name == b"authorization":
            if authorization is None:
                authorization = value.decode("latin-1")
        elif name == b"cookie":
            cookies.update(cookie_parser(value.decode("latin-1")))
        elif name == CSRF_HEADER_BYTES and csrf is None:
            csrf = value.decode("latin-1")
    return Presented(authorization, cookies.get(SESSION_COOKIE), csrf, scope["method"] in SAFE_METHODS)


async def presented(request: Request) -> Presented:
    """The request's credentials (async: no worker thread needed)."""
    return presented_by(request)


def identify(engine: Engine, logins: LoginCache, creds: Presented) -> Caller | None:
    """The caller, if the credentials hold a valid token or session cookie; a bad token is a 401."""
    if creds.authorization:
        scheme, _, token = creds.authorization.partition(" ")
        token = token.strip()
        if scheme.lower() != "bearer" or not token:
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        user = logins.get("token", token)
        if user is None:
            with timing.span("auth"), db.read(engine) as conn:
                user = token_user(conn, token)
            if user is None:
                raise Unauthorized("unknown or revoked API token")
            logins.put("token", token, user)
        return Caller(user, "token")
    if creds.session:
        found = logins.get("session", creds.session)
        if found is None:
            with timing.span("auth"), db.read(engine) as conn:
                found = session_user(conn, creds.session)
            if found is not None:
                logins.put("session", creds.session, found)
        if found is not None:
            return Caller(found[0], "session", found[1], creds.session)
    return None


def posting_caller(engine: Engine, logins: LoginCache, creds: Presented) -> Caller:
    """The caller of a state-changing JSON request: 401 when not logged in, 403 when a cookie session does
    not send its CSRF token in the header."""
    who = identify(engine, logins, creds)
    if who is None:
        raise Unauthorized("log in, or send an API token")
    if who.via == "session" and not creds.safe:
        _check_csrf(who, creds.csrf)
    return who


def optional_caller(request: Request) -> Caller | None:  # sync: FastAPI runs it on a worker thread
    """The caller, if the request carries a valid token or session cookie; a bad token is a 401."""
    ctx = request.app.state.aare
    return identify(ctx.engine, ctx.logins, presented_by(request))


async def caller(found: Annotated[Caller | None, Depends(optional_caller)]) -> Caller:
    """The caller; 401 when not logged in."""
    if found is None:
        raise Unauthorized("log in, or send an API token")
    return found


async def checked_caller(request: Request, who: Annotated[Caller, Depends(caller)]) -> Caller:
    """The caller of a state-changing request, with the CSRF token checked for cookie sessions."""
    if who.via != "session" or request.method in SAFE_METHODS:
        return who
    sent = request.headers.get(CSRF_HEADER)
    if sent is None and request.headers.get("content-type", "").startswith(FORM_TYPES):
        value = (await request.form()).get(CSRF_FIELD)
        sent = value if isinstance(value, str) else None
    _check_csrf(who, sent)
    return who


def _check_csrf(who: Caller, sent: str | None) -> None:
    if not sent or not who.csrf_token or not hmac.compare_digest(sent, who.csrf_token):
        raise CsrfFailed("missing or wrong CSRF token (send X-CSRF-Token or the csrf_token form field)")


OptionalCaller = Annotated[Caller | None, Depends(optional_caller)]
AnyCaller = Annotated[Caller, Depends(caller)]
PostingCaller = Annotated[Caller, Depends(checked_caller)]
Credentials = Annotated[Presented, Depends(presented)]
