"""The online table plays the second armour move like a combat move: its title, the move panel, the battles."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from tests.web.test_pages import CSRF, act, client, create, player, server  # noqa: F401  (fixtures)


@pytest.mark.rule("REAL98-ARMOR-second-move-step")
def test_the_table_shows_the_armour_move_with_its_moves(player: TestClient) -> None:  # noqa: F811
    game_id = create(player, CSRF[0], ruleset="realism-98")
    side = ""
    for _ in range(5):  # count income, develop weapons, purchase, combat move, combat: nothing done
        side = act(player, game_id, {"type": "end_phase"})
    assert "Second armour move" in side
    side = player.get(f"/play/{game_id}/side", params={"space": "Karelia S.S.R."}).text
    assert 'id="move-units"' in side
    assert "East Europe" in side
    side = act(player, game_id, {"type": "end_phase"})
    assert "Second armour combat" in side
