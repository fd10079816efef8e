"""Live updates: `GET /games/{id}/events` streams every new log entry as server-sent events.

Each event has `id:` the game version after it, `event:` ``entry`` or ``undo``, and `data:` the JSON message.
A client resumes with `Last-Event-ID` (or `?after=VERSION`): entries after that version are sent from the
database first, then live ones from the broker, with none missed or repeated.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from aare.server.api.context import Ctx, ServerContext
from aare.server.api.models import errors

router = APIRouter(tags=["live"])
HEARTBEAT_SECONDS = 15.0
AfterQuery = Annotated[int | None, Query(description="first send the entries after this version (default: none)")]
LastEventId = Annotated[str | None, Header(description="resume after this event id (a version)")]


def sse(message: dict[str, Any]) -> str:
    data = json.dumps(message, separators=(",", ":"), ensure_ascii=False)
    return f"id: {message['version']}\nevent: {message['kind']}\ndata: {data}\n\n"


@router.get(
    "/games/{game_id}/events", summary="Server-sent events: each new log entry of the game",
    response_class=StreamingResponse,
    responses={200: {"content": {"text/event-stream": {}}, "description": "an endless event stream"}, **errors(404)},
)
async def game_events(game_id: str, ctx: Ctx, after: AfterQuery = None,
                      last_event_id: LastEventId = None) -> StreamingResponse:
    live, _, _ = await run_in_threadpool(ctx.service.load, game_id)
    start = live.version
    if after is not None:
        start = after
    elif last_event_id and last_event_id.isdigit():
        start = int(last_event_id)
    rewound = None
    if start > live.version:  # the client saw entries that were taken back since
        rewound = {"kind": "undo", "game_id": game_id, "version": live.version, "state_hash": live.state_hash,
                   "actor": "", "to_act": ""}
        start = live.version
    return StreamingResponse(_stream(ctx, game_id, start, rewound), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _stream(ctx: ServerContext, game_id: str, start: int,
                  rewound: dict[str, Any] | None) -> AsyncIterator[str]:
    async with ctx.broker.subscribe(game_id) as subscription:
        yield "retry: 2000\n\n"
        if rewound is not None:
            yield sse(rewound)
        last = start
        for message in await run_in_threadpool(ctx.service.entries_since, game_id, start):
            yield sse(message)
            last = message["version"]
        while True:
            message = await subscription.get(HEARTBEAT_SECONDS)
            if message is None:
                yield ": keep-alive\n\n"
                continue
            if message["kind"] == "entry" and message["version"] <= last:
                continue  # already sent from the database
            if message["kind"] == "entry" and message["version"] > last + 1:
                for missed in await run_in_threadpool(ctx.service.entries_since, game_id, last):
                    yield sse(missed)
                    last = missed["version"]
                continue
            yield sse(message)
            last = message["version"]
