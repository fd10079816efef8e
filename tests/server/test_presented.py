"""The action door reads the credentials from the raw headers in one pass: the same as the request gives them."""

from __future__ import annotations

from typing import Any

import pytest
from starlette.requests import Request

from aare.server.api.auth import presented_by, presented_in

HEADERS = [
    [],
    [(b"authorization", b"Bearer abc")],
    [(b"authorization", b"Bearer first"), (b"authorization", b"Bearer second")],
    [(b"cookie", b"aare_session=s1; other=x"), (b"x-csrf-token", b"t1")],
    [(b"cookie", b"aare_session=s1"), (b"cookie", b"aare_session=s2; a=b"), (b"x-csrf-token", b"t1"),
     (b"x-csrf-token", b"t2")],
    [(b"cookie", b"other=1"), (b"content-type", b"application/json"), (b"authorization", b"bearer \xe9")],
]


@pytest.mark.parametrize("headers", HEADERS)
@pytest.mark.parametrize("method", ["POST", "GET"])
def test_presented_in_reads_what_the_request_gives(headers: list[tuple[bytes, bytes]], method: str) -> None:
    scope: dict[str, Any] = {"type": "http", "method": method, "path": "/games/g/actions", "headers": headers}
    assert presented_in(scope) == presented_by(Request(scope))
