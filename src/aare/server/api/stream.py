"""Live updates: `GET /games/{id}/events` streams every new log entry as server-sent events.

Each event has `id:` the game version after it, `event:` ``entry`` or ``undo``, and `data:` the JSON message.
A client resumes with `Last-Event-ID` (or `?after=VERSION`): entries after that version are sent from the
database first, then live ones from the broker, with none missed or repeated.

Messages are published once, the same for everyone; each stream redacts them for its reader: a logged-in
reader sees what the seats it holds (when the stream opened) see, anyone else what a spectator sees
(`aare.server.views.message_view`).
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Annotated, Any

from fastapi import APIRouter, Header, Query
from fastapi.responses import StreamingResponse
from starlette.concurrency import run_in_threadpool

from aare.server.api.auth import OptionalCaller
from aare.server.api.context import Ctx, ServerContext
from aare.server.api.models import EntryOut, errors
from aare.server.seats import held_by, seat_powers
from aare.server.views import dumps, message_view
from aare.state.game_state import GameState

router = APIRouter(tags=["live"])
HEARTBEAT_SECONDS = 15.0
AfterQuery = Annotated[int | None, Query(description="first send the entries after this version (default: none)")]
LastEventId = Annotated[str | None, Header(description="resume after this event id (a version)")]


def sse(message: dict[str, Any]) -> str:
    data = dumps(message)
    return f"id: {message['version']}\nevent: {message['kind']}\ndata: {data}\n\n"


class EventStream(StreamingResponse):
    """A `text/event-stream` answer (so the documentation shows the messages under that type)."""

    media_type = "text/event-stream"


@router.get(
    "/games/{game_id}/events", summary="Server-sent events: each new log entry of the game",
    response_class=EventStream,
    responses={200: {"model": EntryOut,
                     "description": "an endless event stream: each `data:` is an entry (this schema) or an undo"},
               **errors(404)},
)
async def game_events(game_id: str, ctx: Ctx, who: OptionalCaller, after: AfterQuery = None,
                      last_event_id: LastEventId = None) -> StreamingResponse:
    live, seat_map, _ = await run_in_threadpool(ctx.service.load, game_id)
    user_id = who.user.id if who else None
    viewer = seat_powers(live.state, held_by(seat_map, user_id))
    start = live.version
    if after is not None:
        start = after
    elif last_event_id and last_event_id.isascii() and last_event_id.isdigit() and len(last_event_id) <= 18:
        start = int(last_event_id)
    rewound = None
    if start > live.version:  # the client saw entries that were taken back since
        rewound = message_view({"kind": "undo", "game_id": game_id, "version": live.version,
                                "state_hash": live.state_hash, "actor": "", "to_act": ""}, viewer, live.state)
        start = live.version
    return StreamingResponse(_stream(ctx, game_id, start, rewound, user_id, viewer), media_type="text/event-stream",
                             headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"})


async def _now(ctx: ServerContext, game_id: str, version: int) -> GameState:
    """The game as this process knows it, read again when that is older than `version`."""
    cached = ctx.service.cache.get(game_id)
    if cached is not None and cached.version >= version:
        return cached.state
    live, _, _ = await run_in_threadpool(ctx.service.load, game_id)
    return live.state


async def _stream(ctx: ServerContext, game_id: str, start: int, rewound: dict[str, Any] | None,
                  user_id: int | None, viewer: frozenset[str]) -> AsyncIterator[str]:
    async with ctx.broker.subscribe(game_id) as subscription:
        yield "retry: 2000\n\n"
        if rewound is not None:
            yield sse(rewound)
        last = start
        for message in await run_in_threadpool(ctx.service.entries_since, game_id, start, user_id):
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
                for missed in await run_in_threadpool(ctx.service.entries_since, game_id, last, user_id):
                    yield sse(missed)
                    last = missed["version"]
                continue
            yield sse(message_view(message, viewer, await _now(ctx, game_id, message["version"])))
            last = message["version"]
