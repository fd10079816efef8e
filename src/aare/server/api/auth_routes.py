"""Accounts: register, log in, log out, who am I, API tokens."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from aare.server import accounts, db
from aare.server.api.auth import SESSION_COOKIE, AnyCaller, PostingCaller, Unauthorized
from aare.server.api.context import Ctx, ServerContext
from aare.server.api.models import (
    Credentials,
    ErrorOut,
    LoginOut,
    TokenCreate,
    TokenInfo,
    TokenOut,
    UserOut,
    errors,
)
from aare.server.hashing import ServerBusy

router = APIRouter(prefix="/auth", tags=["accounts"])
TOO_MANY_LOGINS: dict[int | str, dict[str, Any]] = {429: {
    "model": ErrorOut, "description": "Too many failed logins lately",
    "headers": {"Retry-After": {"description": "seconds until logins are tried again", "schema": {"type": "integer"}}},
}}
TOO_MANY_REGISTRATIONS: dict[int | str, dict[str, Any]] = {429: {
    "model": ErrorOut, "description": "Too many registrations from this address lately",
    "headers": {"Retry-After": {"description": "seconds until registering is tried again",
                                "schema": {"type": "integer"}}},
}}
BUSY: dict[int | str, dict[str, Any]] = {503: {
    "model": ErrorOut, "description": "Too many password checks are waiting",
    "headers": {"Retry-After": {"description": "seconds to wait before trying again", "schema": {"type": "integer"}}},
}}


def _secure(request: Request, ctx: ServerContext) -> bool:
    mode = ctx.settings.cookie_secure
    return mode == "always" or (mode == "auto" and request.url.scheme == "https")


def client_address(request: Request) -> str:
    """The caller's address (`aare serve` lets uvicorn take it from a local proxy's `X-Forwarded-For`)."""
    return request.client.host if request.client else "unknown"


def check_login(ctx: ServerContext, username: str, password: str, address: str) -> accounts.User | None:
    """The user if the password is right, else None; TooManyLogins (429) after too many failed logins lately
    for the username or from the address (then the password is not even checked); ServerBusy (503) when too
    many password checks are waiting."""
    stamp = ctx.login_limits.attempt(username, address)
    with db.read(ctx.engine) as conn:
        record = accounts.password_record(conn, username)
    try:
        user = ctx.hashing.call(accounts.verify_password, record, username, password)
    except ServerBusy:
        ctx.login_limits.not_tried(username, address, stamp)  # a refusal for want of capacity does not count
        raise
    if user is not None:
        ctx.login_limits.succeeded(username, address, stamp)
    return user


def _start_session(request: Request, response: Response, ctx: ServerContext, user: accounts.User) -> LoginOut:
    with db.write(ctx.engine) as conn:
        token, csrf = accounts.new_session(conn, user, ctx.settings.session_days)
    response.set_cookie(SESSION_COOKIE, token, max_age=int(ctx.settings.session_days * 86400), path="/",
                        httponly=True, samesite="lax", secure=_secure(request, ctx))
    return LoginOut(user=UserOut(id=user.id, username=user.username), csrf_token=csrf)


def register_user(ctx: ServerContext, username: str, password: str, address: str) -> accounts.User:
    """A new account; TooManyRegistrations (429) when the address registered too many lately, ServerBusy (503)
    when too many password hashes are waiting."""
    ticket = ctx.registrations.attempt(address)
    if not accounts.USERNAME.match(username):
        raise accounts.AccountError("a username has 3 to 32 letters, digits, '_', '.' or '-'")
    try:
        password_hash = ctx.hashing.call(accounts.hash_password, password)
    except ServerBusy:
        ctx.registrations.give_back(address, ticket)  # a refusal for want of capacity does not count
        raise
    with db.write(ctx.engine) as conn:
        return accounts.create_user(conn, username, password_hash)


@router.post("/register", summary="Create an account (and log in)", status_code=201, response_model=LoginOut,
             responses={**errors(400, 409), **TOO_MANY_REGISTRATIONS, **BUSY},
             description="At most 10 registrations per client address an hour by default (then 429 with "
             "`Retry-After`); 503 with `Retry-After` when too many password hashes are waiting.")
def register(body: Credentials, request: Request, response: Response, ctx: Ctx) -> LoginOut:
    user = register_user(ctx, body.username, body.password, client_address(request))
    return _start_session(request, response, ctx, user)


@router.post("/login", summary="Log in: sets the session cookie, returns the CSRF token", response_model=LoginOut,
             responses={**errors(400, 401), **TOO_MANY_LOGINS, **BUSY},
             description="After too many failed logins for a username (5 in 15 minutes by default) or from an "
             "address (20), logins are answered 429 with `Retry-After` until the oldest leaves the window.")
def login(body: Credentials, request: Request, response: Response, ctx: Ctx) -> LoginOut:
    user = check_login(ctx, body.username, body.password, client_address(request))
    if user is None:
        raise Unauthorized("wrong username or password")
    return _start_session(request, response, ctx, user)


@router.post("/logout", summary="Log out: ends the session", status_code=204, responses=errors(401, 403))
def logout(who: PostingCaller, request: Request, ctx: Ctx) -> Response:
    if who.session_token is not None:
        with db.write(ctx.engine) as conn:
            accounts.end_session(conn, who.session_token)
        ctx.logins.clear()
    response = Response(status_code=204)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax", secure=_secure(request, ctx))
    return response


@router.get("/me", summary="The logged-in user (and the session's CSRF token)", response_model=LoginOut,
            responses=errors(401))
def me(who: AnyCaller) -> LoginOut:
    return LoginOut(user=UserOut(id=who.user.id, username=who.user.username), csrf_token=who.csrf_token)


@router.post("/tokens", summary="Create an API token for a bot or script", status_code=201, response_model=TokenOut,
             responses=errors(400, 401, 403))
def create_token(body: TokenCreate, who: PostingCaller, ctx: Ctx) -> TokenOut:
    with db.write(ctx.engine) as conn:
        token_id, token = accounts.new_api_token(conn, who.user, body.name)
    return TokenOut(id=token_id, name=body.name, token=token)


@router.get("/tokens", summary="List your API tokens (never the tokens themselves)", response_model=list[TokenInfo],
            responses=errors(401))
def list_tokens(who: AnyCaller, ctx: Ctx) -> list[TokenInfo]:
    with db.read(ctx.engine) as conn:
        return [TokenInfo(**row) for row in accounts.list_api_tokens(conn, who.user)]


@router.delete("/tokens/{token_id}", summary="Revoke an API token", status_code=204, responses=errors(401, 403, 404))
def revoke_token(token_id: int, who: PostingCaller, ctx: Ctx) -> Response:
    with db.write(ctx.engine) as conn:
        accounts.revoke_api_token(conn, who.user, token_id)
    ctx.logins.clear()
    return Response(status_code=204)


