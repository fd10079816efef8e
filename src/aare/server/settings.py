"""Server settings: from the command line, else from `AARE_*` environment variables."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

DEFAULT_DATA_DIR = "aare-data"
COOKIE_MODES = ("auto", "always", "never")
BOT_MODES = ("background", "inline", "off")


@dataclass(frozen=True)
class Settings:
    """`database_url`: SQLAlchemy URL (``postgresql://…`` or ``sqlite:///…``); `redis_url`: live updates across
    workers (in-process when None); `cookie_secure`: ``auto`` (Secure when the request came over https),
    ``always`` or ``never``; `bot_mode`: bots act in a ``background`` thread, ``inline`` before the
    answer (deterministic, for tests) or ``off``; `worker_threads`: threads for blocking request handlers;
    `action_threads`: threads that check submitted actions (few, so requests are served in order);
    `group_commit`: actions waiting together are stored in one transaction (False: one transaction each);
    `login_cache_seconds`: how long a checked token or session is trusted without the database (0: never);
    `login_user_failures`, `login_address_failures`: failed logins per username and per client address after
    which logins are refused (429) until `login_window_seconds` have passed since the oldest (0: no limit);
    `register_address_limit`: registrations per client address in `register_window_seconds` (0: no limit);
    `max_body_bytes`: the largest request body (413 beyond), `max_import_bytes` that of `POST /games/import`;
    `hash_threads`: threads hashing passwords (0: one per core), `hash_queue`: hashes that may wait for one
    (503 beyond); `bot_seconds`: a searching bot's (the planner's) thinking time per power-turn (0: no bound in
    seconds), `bot_work`: the same counted in work, so a game replays the same on any machine (None: no bound
    in work; with neither, the bot's own default)."""

    database_url: str
    redis_url: str | None = None
    cookie_secure: str = "auto"
    bot_mode: str = "background"
    session_days: float = 30.0
    sqlite_synchronous: str = "FULL"
    worker_threads: int = 40
    action_threads: int = 2
    group_commit: bool = True
    login_cache_seconds: float = 2.0
    login_user_failures: int = 5
    login_address_failures: int = 20
    login_window_seconds: float = 900.0
    register_address_limit: int = 10
    register_window_seconds: float = 3600.0
    max_body_bytes: int = 1_000_000
    max_import_bytes: int = 32_000_000
    hash_threads: int = 0
    hash_queue: int = 16
    bot_seconds: float = 10.0
    bot_work: int | None = None

    def __post_init__(self) -> None:
        if self.cookie_secure not in COOKIE_MODES:
            raise ValueError(f"cookie_secure must be one of {COOKIE_MODES}")
        if self.bot_mode not in BOT_MODES:
            raise ValueError(f"bot_mode must be one of {BOT_MODES}")
        if self.max_body_bytes < 1 or self.max_import_bytes < 1:
            raise ValueError("max_body_bytes and max_import_bytes must be positive")
        if self.hash_threads < 0 or self.hash_queue < 0:
            raise ValueError("hash_threads and hash_queue may not be negative")
        if self.bot_seconds < 0 or (self.bot_work is not None and self.bot_work < 0):
            raise ValueError("bot_seconds and bot_work may not be negative")

    @classmethod
    def from_env(cls, data_dir: str | Path | None = None, database_url: str | None = None) -> Settings:
        """Settings from the environment: `AARE_DATABASE_URL` (else SQLite in `data_dir` or `AARE_DATA_DIR`),
        `AARE_REDIS_URL`, `AARE_COOKIE_SECURE`, `AARE_BOT_MODE`, `AARE_SQLITE_SYNCHRONOUS`, `AARE_WORKER_THREADS`,
        `AARE_ACTION_THREADS`, `AARE_GROUP_COMMIT`, `AARE_LOGIN_CACHE_SECONDS`, `AARE_LOGIN_USER_FAILURES`,
        `AARE_LOGIN_ADDRESS_FAILURES`, `AARE_LOGIN_WINDOW_SECONDS`, `AARE_REGISTER_ADDRESS_LIMIT`,
        `AARE_REGISTER_WINDOW_SECONDS`, `AARE_MAX_BODY_BYTES`, `AARE_MAX_IMPORT_BYTES`, `AARE_HASH_THREADS`,
        `AARE_HASH_QUEUE`, `AARE_BOT_SECONDS`, `AARE_BOT_WORK`."""
        env = os.environ
        url = database_url or env.get("AARE_DATABASE_URL") or sqlite_url(data_dir or env.get("AARE_DATA_DIR"))
        return cls(
            database_url=url,
            redis_url=env.get("AARE_REDIS_URL") or None,
            cookie_secure=env.get("AARE_COOKIE_SECURE", "auto"),
            bot_mode=env.get("AARE_BOT_MODE", "background"),
            sqlite_synchronous=env.get("AARE_SQLITE_SYNCHRONOUS", "FULL"),
            worker_threads=int(env.get("AARE_WORKER_THREADS", "40")),
            action_threads=int(env.get("AARE_ACTION_THREADS", "2")),
            group_commit=_flag(env.get("AARE_GROUP_COMMIT", "1"), "AARE_GROUP_COMMIT"),
            login_cache_seconds=float(env.get("AARE_LOGIN_CACHE_SECONDS", "2")),
            login_user_failures=int(env.get("AARE_LOGIN_USER_FAILURES", "5")),
            login_address_failures=int(env.get("AARE_LOGIN_ADDRESS_FAILURES", "20")),
            login_window_seconds=float(env.get("AARE_LOGIN_WINDOW_SECONDS", "900")),
            register_address_limit=int(env.get("AARE_REGISTER_ADDRESS_LIMIT", "10")),
            register_window_seconds=float(env.get("AARE_REGISTER_WINDOW_SECONDS", "3600")),
            max_body_bytes=int(env.get("AARE_MAX_BODY_BYTES", "1000000")),
            max_import_bytes=int(env.get("AARE_MAX_IMPORT_BYTES", "32000000")),
            hash_threads=int(env.get("AARE_HASH_THREADS", "0")),
            hash_queue=int(env.get("AARE_HASH_QUEUE", "16")),
            bot_seconds=float(env.get("AARE_BOT_SECONDS", "10")),
            bot_work=int(env["AARE_BOT_WORK"]) if env.get("AARE_BOT_WORK") else None,
        )


def _flag(value: str, name: str) -> bool:
    """An on/off setting: 1/true/yes/on or 0/false/no/off."""
    lowered = value.strip().lower()
    if lowered in ("1", "true", "yes", "on"):
        return True
    if lowered in ("0", "false", "no", "off"):
        return False
    raise ValueError(f"{name} must be 1 or 0 (on or off), not {value!r}")


def sqlite_url(data_dir: str | Path | None) -> str:
    """The SQLite database in `data_dir` (created if missing; ./aare-data by default)."""
    folder = Path(data_dir or DEFAULT_DATA_DIR).expanduser().resolve()
    folder.mkdir(parents=True, exist_ok=True)
    return f"sqlite:///{folder / 'aare.db'}"
