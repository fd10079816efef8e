"""The server refuses a tampered game file at import with 400, naming the entry; the untampered file imports."""

from __future__ import annotations

from typing import Any

import pytest

from tests.files.tampering import EDITS, played, tampered
from tests.server.conftest import Player


@pytest.fixture(scope="module")
def game_file() -> dict[str, Any]:
    return played()


def test_the_untampered_file_imports(player: Player, game_file: dict[str, Any]) -> None:
    answer = player.post("/games/import", {"game": game_file})
    assert answer.status_code == 201, answer.text


@pytest.mark.parametrize("kind", sorted(EDITS))
@pytest.mark.parametrize("rebuild_chain", [False, True], ids=["chain-broken", "chain-rebuilt"])
def test_a_tampered_file_is_refused_naming_the_entry(player: Player, game_file: dict[str, Any], kind: str,
                                                    rebuild_chain: bool) -> None:
    data, entry = tampered(game_file, EDITS[kind], rebuild_chain)
    answer = player.post("/games/import", {"game": data})
    assert answer.status_code == 400, answer.text
    assert f"entry {entry}" in answer.json()["message"]
