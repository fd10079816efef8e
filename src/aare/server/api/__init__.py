"""The HTTP interface of the table (FastAPI): `create_app` builds it."""

from aare.server.api.app import create_app, create_app_from_env

__all__ = ["create_app", "create_app_from_env"]
