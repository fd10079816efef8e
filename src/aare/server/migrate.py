"""Schema migrations with Alembic, configured in code: the scripts live in `aare.server.migrations`."""

from __future__ import annotations

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine

from aare.server import db


def alembic_config() -> Config:
    config = Config()
    config.set_main_option("script_location", "aare.server:migrations")
    return config


def upgrade(engine: Engine, revision: str = "head") -> str | None:
    """Bring the database to `revision` (the newest by default); returns the revision it is at."""
    config = alembic_config()
    with db.write(engine) as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, revision)
    return current_revision(engine)


def current_revision(engine: Engine) -> str | None:
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config()).get_current_head()
