"""The transport joining an answer's writes (`aare.server.api.http_protocol`): one write per turn of the event loop,
nothing lost at a close, nothing sent after an abort."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

pytest.importorskip("uvicorn", reason="the server extra is not installed")

from aare.server.api.http_protocol import JoinedWrites


class Recorded(asyncio.Transport):
    def __init__(self) -> None:
        super().__init__()
        self.writes: list[bytes] = []
        self.closed = self.aborted = False

    def write(self, data: Any) -> None:
        self.writes.append(bytes(data))

    def is_closing(self) -> bool:
        return self.closed or self.aborted

    def close(self) -> None:
        self.closed = True

    def abort(self) -> None:
        self.aborted = True

    def get_extra_info(self, name: str, default: Any = None) -> Any:
        return ("127.0.0.1", 1) if name == "peername" else default


def test_the_writes_of_one_turn_leave_in_one_write() -> None:
    async def run() -> Recorded:
        raw = Recorded()
        joined = JoinedWrites(raw, asyncio.get_running_loop())
        joined.write(b"HTTP/1.1 200 OK\r\n\r\n")
        joined.write(b"{}")
        assert raw.writes == []  # not yet: at the end of this turn
        await asyncio.sleep(0)
        joined.writelines([b"a", b"b"])
        await asyncio.sleep(0)
        assert joined.get_extra_info("peername") == ("127.0.0.1", 1)  # the rest is the transport's
        return raw

    assert asyncio.run(run()).writes == [b"HTTP/1.1 200 OK\r\n\r\n{}", b"ab"]


def test_a_close_sends_what_waits_and_an_abort_drops_it() -> None:
    async def run() -> tuple[Recorded, Recorded]:
        loop = asyncio.get_running_loop()
        closed, aborted = Recorded(), Recorded()
        first, second = JoinedWrites(closed, loop), JoinedWrites(aborted, loop)
        first.write(b"last words")
        first.close()
        second.write(b"never sent")
        second.abort()
        await asyncio.sleep(0)
        return closed, aborted

    closed, aborted = asyncio.run(run())
    assert closed.writes == [b"last words"] and closed.closed
    assert aborted.writes == [] and aborted.aborted
