"""What every request handler reaches through `request.app.state.aare`."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends, Request
from sqlalchemy import Engine

from aare.server.bots import BotRunner
from aare.server.broker import Broker
from aare.server.hashing import HashPool
from aare.server.login_cache import LoginCache
from aare.server.login_limits import LoginLimits, RegistrationLimits
from aare.server.service import GameService
from aare.server.settings import Settings


@dataclass
class ServerContext:
    settings: Settings
    engine: Engine
    broker: Broker
    service: GameService
    bots: BotRunner
    logins: LoginCache
    login_limits: LoginLimits
    registrations: RegistrationLimits
    hashing: HashPool


async def server(request: Request) -> ServerContext:
    """The server context (async: no worker thread needed to fetch it)."""
    ctx: ServerContext = request.app.state.aare
    return ctx


Ctx = Annotated[ServerContext, Depends(server)]
