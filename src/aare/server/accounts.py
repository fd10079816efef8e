"""Accounts: users with argon2id password hashes, login sessions (cookie + CSRF token) and revocable API
tokens. Only sha256 digests of session cookies and API tokens are stored."""

from __future__ import annotations

import hashlib
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError
from sqlalchemy import Connection, delete, insert, select, update
from sqlalchemy.exc import IntegrityError

from aare.server.schema import api_tokens, sessions, users

USERNAME = re.compile(r"^[A-Za-z0-9_.-]{3,32}$")
MIN_PASSWORD, MAX_PASSWORD = 8, 1024
TOKEN_PREFIX = "aare_"

_hasher = PasswordHasher()  # argon2id, RFC 9106 low-memory profile
_DUMMY_HASH = _hasher.hash("not a password of anyone")


class AccountError(Exception):
    """A request about accounts that cannot be granted; `status` is the HTTP status to answer."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass(frozen=True)
class User:
    id: int
    username: str


def digest(secret: str) -> str:
    return hashlib.sha256(secret.encode()).hexdigest()


def hash_password(password: str) -> str:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise AccountError(f"a password has {MIN_PASSWORD} to {MAX_PASSWORD} characters")
    return _hasher.hash(password)


def create_user(conn: Connection, username: str, password_hash: str) -> User:
    """A new user; a taken name is a 409."""
    if not USERNAME.match(username):
        raise AccountError("a username has 3 to 32 letters, digits, '_', '.' or '-'")
    try:
        with conn.begin_nested():
            user_id = conn.execute(
                insert(users).values(username=username, password_hash=password_hash, created_at=time.time())
            ).inserted_primary_key
    except IntegrityError:
        raise AccountError(f"the username {username!r} is taken", 409) from None
    assert user_id is not None
    return User(int(user_id[0]), username)


def password_record(conn: Connection, username: str) -> tuple[int, str] | None:
    """The user id and password hash stored for `username`."""
    row = conn.execute(select(users.c.id, users.c.password_hash).where(users.c.username == username)).first()
    return None if row is None else (row.id, row.password_hash)


def verify_password(record: tuple[int, str] | None, username: str, password: str) -> User | None:
    """The user if the password is right. Unknown names cost a hash check too, so timing tells nothing.
    (Kept outside any transaction: a check takes tens of milliseconds.)"""
    try:
        _hasher.verify(record[1] if record else _DUMMY_HASH, password)
    except (VerificationError, InvalidHashError):
        return None
    return None if record is None else User(record[0], username)


def new_session(conn: Connection, user: User, days: float) -> tuple[str, str]:
    """Start a session: (cookie value, CSRF token). Expired sessions (anyone's) are deleted on the way."""
    token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
    now = time.time()
    delete_expired_sessions(conn, now)
    conn.execute(insert(sessions).values(user_id=user.id, token_hash=digest(token), csrf_token=csrf,
                                         created_at=now, expires_at=now + days * 86400))
    return token, csrf


def delete_expired_sessions(conn: Connection, now: float | None = None) -> int:
    """Delete the sessions that expired before `now` (default: now); how many there were."""
    done = conn.execute(delete(sessions).where(sessions.c.expires_at < (time.time() if now is None else now)))
    return done.rowcount


def session_user(conn: Connection, token: str) -> tuple[User, str] | None:
    """The user and CSRF token of a live session cookie."""
    row = conn.execute(
        select(users.c.id, users.c.username, sessions.c.csrf_token, sessions.c.expires_at)
        .join(users, users.c.id == sessions.c.user_id)
        .where(sessions.c.token_hash == digest(token))
    ).first()
    if row is None or row.expires_at < time.time():
        return None
    return User(row.id, row.username), row.csrf_token


def end_session(conn: Connection, token: str) -> None:
    conn.execute(delete(sessions).where(sessions.c.token_hash == digest(token)))


def new_api_token(conn: Connection, user: User, name: str) -> tuple[int, str]:
    """A bearer token for bots and scripts: (its id, the token, shown once)."""
    if not 1 <= len(name) <= 64:
        raise AccountError("a token name has 1 to 64 characters")
    token = TOKEN_PREFIX + secrets.token_urlsafe(32)
    key = conn.execute(
        insert(api_tokens).values(user_id=user.id, name=name, token_hash=digest(token), created_at=time.time())
    ).inserted_primary_key
    assert key is not None
    return int(key[0]), token


def token_user(conn: Connection, token: str) -> User | None:
    row = conn.execute(
        select(users.c.id, users.c.username)
        .join(users, users.c.id == api_tokens.c.user_id)
        .where(api_tokens.c.token_hash == digest(token), api_tokens.c.revoked_at.is_(None))
    ).first()
    return None if row is None else User(row.id, row.username)


def list_api_tokens(conn: Connection, user: User) -> list[dict[str, Any]]:
    rows = conn.execute(
        select(api_tokens.c.id, api_tokens.c.name, api_tokens.c.created_at, api_tokens.c.revoked_at)
        .where(api_tokens.c.user_id == user.id).order_by(api_tokens.c.id)
    )
    return [dict(r._mapping) for r in rows]


def revoke_api_token(conn: Connection, user: User, token_id: int) -> None:
    done = conn.execute(
        update(api_tokens).where(api_tokens.c.id == token_id, api_tokens.c.user_id == user.id,
                                 api_tokens.c.revoked_at.is_(None)).values(revoked_at=time.time())
    )
    if done.rowcount != 1:
        raise AccountError(f"you have no live token {token_id}", 404)
