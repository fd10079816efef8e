"""Live-update brokers: the game service publishes each new log entry, event streams subscribe per game.

`LocalBroker` delivers within one process. `RedisBroker` goes through Redis pub/sub, so every worker's
subscribers see what any worker publishes. Publishing is synchronous (the service runs in worker threads);
subscribing is asynchronous (event streams run on the event loop).
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any, Protocol

import orjson

CHANNEL_PREFIX = "aare:game:"


class Subscription(Protocol):
    async def get(self, timeout: float) -> dict[str, Any] | None:
        """The next message, or None if none came within `timeout` seconds."""
        ...


class Broker(Protocol):
    def publish(self, game_id: str, message: dict[str, Any]) -> None: ...

    def subscribe(self, game_id: str) -> Any:
        """An async context manager yielding a `Subscription` to the game's messages."""
        ...

    def close(self) -> None: ...


class _QueueSubscription:
    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()
        self.queue: asyncio.Queue[dict[str, Any]] = asyncio.Queue()

    async def get(self, timeout: float) -> dict[str, Any] | None:
        try:
            return await asyncio.wait_for(self.queue.get(), timeout)
        except TimeoutError:
            return None


class LocalBroker:
    """Delivers to the subscribers of this process."""

    def __init__(self) -> None:
        self._subscribers: dict[str, set[_QueueSubscription]] = {}
        self._lock = threading.Lock()

    def publish(self, game_id: str, message: dict[str, Any]) -> None:
        with self._lock:
            targets = list(self._subscribers.get(game_id, ()))
        for sub in targets:
            with contextlib.suppress(RuntimeError):  # RuntimeError: that subscriber's event loop is closed
                sub.loop.call_soon_threadsafe(sub.queue.put_nowait, message)

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[_QueueSubscription]:
        sub = _QueueSubscription()
        with self._lock:
            self._subscribers.setdefault(game_id, set()).add(sub)
        try:
            yield sub
        finally:
            with self._lock:
                group = self._subscribers.get(game_id, set())
                group.discard(sub)
                if not group:
                    self._subscribers.pop(game_id, None)

    def close(self) -> None:
        pass


class _RedisSubscription:
    def __init__(self, pubsub: Any) -> None:
        self.pubsub = pubsub

    async def get(self, timeout: float) -> dict[str, Any] | None:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            left = deadline - loop.time()
            if left <= 0:
                return None
            message = await self.pubsub.get_message(ignore_subscribe_messages=True, timeout=left)
            if message is not None and message.get("type") == "message":
                data: dict[str, Any] = orjson.loads(message["data"])
                return data


class RedisBroker:
    """Redis pub/sub on channel ``aare:game:<id>``: one publishing connection per process, one subscribing
    connection per event stream."""

    def __init__(self, url: str) -> None:
        import redis

        self.url = url
        self._publisher = redis.Redis.from_url(url)

    def publish(self, game_id: str, message: dict[str, Any]) -> None:
        self._publisher.publish(CHANNEL_PREFIX + game_id, orjson.dumps(message, option=orjson.OPT_NON_STR_KEYS))

    @asynccontextmanager
    async def subscribe(self, game_id: str) -> AsyncIterator[_RedisSubscription]:
        import redis.asyncio

        client = redis.asyncio.Redis.from_url(self.url)
        pubsub = client.pubsub()
        try:
            await pubsub.subscribe(CHANNEL_PREFIX + game_id)
            await _confirmed(pubsub)
            yield _RedisSubscription(pubsub)
        finally:
            await pubsub.aclose()  # type: ignore[no-untyped-call]
            await client.aclose()

    def close(self) -> None:
        self._publisher.close()


async def _confirmed(pubsub: Any, timeout: float = 5.0) -> None:
    """Wait until Redis confirms the subscription, so nothing published after this returns is missed."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while loop.time() < deadline:
        message = await pubsub.get_message(timeout=deadline - loop.time())
        if message is not None and message.get("type") == "subscribe":
            return
    raise TimeoutError("redis did not confirm the subscription")


def make_broker(redis_url: str | None) -> Broker:
    return RedisBroker(redis_url) if redis_url else LocalBroker()
