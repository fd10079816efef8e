"""The server fixtures (a live server per database backend, logged-in players) for the player-view tests."""

from __future__ import annotations

import pytest

pytest.importorskip("fastapi", reason="the server extra is not installed")

from tests.server.conftest import database_url, other_player, player, postgres_url, server  # noqa: F401
