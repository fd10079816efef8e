"""uvicorn's HTTP protocol (httptools) with an answer's writes joined: uvicorn writes an answer's status line and
headers, then its body, each with a system call that wakes the client, which then reads the head, waits and
reads the body. Here the writes made in one turn of the event loop go out together at its end: one system call,
one wake-up, for an answer sent whole (the usual case); a streamed answer goes out chunk by chunk as before."""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

HTTP_PROTOCOL = f"{__name__}:JoinedHttpToolsProtocol"
"""uvicorn's `http` setting for it (an import string: worker processes import it)."""


class JoinedWrites:
    """A transport whose writes wait in a buffer until the event loop's next turn (or a close), then go out in
    one write; everything else is the wrapped transport's."""

    def __init__(self, transport: asyncio.Transport, loop: asyncio.AbstractEventLoop) -> None:
        self._transport = transport
        self._loop = loop
        self._pending: list[bytes] = []

    def write(self, data: bytes) -> None:
        if not self._pending:
            self._loop.call_soon(self.flush)
        self._pending.append(data)

    def writelines(self, chunks: Any) -> None:
        for chunk in chunks:
            self.write(chunk)

    def flush(self) -> None:
        """Write what waits, in one write (nothing once the transport is closing: the client is gone)."""
        if self._pending:
            data = self._pending[0] if len(self._pending) == 1 else b"".join(self._pending)
            self._pending.clear()
            if not self._transport.is_closing():
                self._transport.write(data)

    def close(self) -> None:
        self.flush()
        self._transport.close()

    def abort(self) -> None:
        self._pending.clear()
        self._transport.abort()

    def set_protocol(self, protocol: asyncio.BaseProtocol) -> None:
        self.flush()
        self._transport.set_protocol(protocol)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._transport, name)


class JoinedHttpToolsProtocol(HttpToolsProtocol):
    """`HttpToolsProtocol` writing through `JoinedWrites` (pass the class as uvicorn's `http`)."""

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        super().connection_made(JoinedWrites(transport, self.loop))  # type: ignore[arg-type]
