"""Alembic migrations of the server database (run by `aare db upgrade` and on `aare serve`)."""
