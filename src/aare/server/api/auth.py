"""Who is calling: a bearer API token (no CSRF needed) or a session cookie (unsafe methods need the session's
CSRF token in the `X-CSRF-Token` header or a `csrf_token` form field)."""

from __future__ import annotations

import hmac
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request

from aare.server import db
from aare.server.accounts import User, session_user, token_user
from aare.server.errors import ServiceError

SESSION_COOKIE = "aare_session"
CSRF_HEADER = "x-csrf-token"
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


def optional_caller(request: Request) -> Caller | None:  # sync: FastAPI runs it on a worker thread
    """The caller, if the request carries a valid token or session cookie; a bad token is a 401."""
    engine = request.app.state.aare.engine
    header = request.headers.get("authorization")
    if header:
        scheme, _, token = header.partition(" ")
        if scheme.lower() != "bearer" or not token.strip():
            raise Unauthorized("the Authorization header must be 'Bearer <token>'")
        with db.read(engine) as conn:
            user = token_user(conn, token.strip())
        if user is None:
            raise Unauthorized("unknown or revoked API token")
        return Caller(user, "token")
    cookie = request.cookies.get(SESSION_COOKIE)
    if cookie:
        with db.read(engine) as conn:
            found = session_user(conn, cookie)
        if found is not None:
            return Caller(found[0], "session", found[1], cookie)
    return None


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
    if not sent or not who.csrf_token or not hmac.compare_digest(sent, who.csrf_token):
        raise CsrfFailed("missing or wrong CSRF token (send X-CSRF-Token or the csrf_token form field)")
    return who


OptionalCaller = Annotated[Caller | None, Depends(optional_caller)]
AnyCaller = Annotated[Caller, Depends(caller)]
PostingCaller = Annotated[Caller, Depends(checked_caller)]
