"""AARHE Phase 1 on LHTR 1.3: what the proposal does not cover is played as in `lhtr-1.3`."""

from __future__ import annotations

import pytest

from aare.odds import odds
from tests.aarhe_p1.common import RULES, RUS
from tests.classic.test_move_land import at as board_at
from tests.movement.helpers import move, mv, rejected


@pytest.mark.rule("AARHEP1-META-incomplete")
def test_what_the_proposal_leaves_out_is_played_by_lhtr() -> None:
    battle = ("3 infantry, 1 artillery, 1 armour, 1 fighter", "4 infantry, 1 armour")
    assert odds(*battle, RULES).attacker_win == pytest.approx(odds(*battle, "lhtr-1.3").attacker_win)
    for rules in (RULES, "lhtr-1.3"):
        g = board_at(RUS, "non-combat-move", {"Karelia S.S.R.": "Russia: 1 infantry"}, rules=rules)
        rejected(g, mv("1 infantry", "Karelia S.S.R.", "Archangel", "Russia"), "LHTR-LANDMOVE-movement-allowance")
        move(g, "1 infantry", "Karelia S.S.R.", "Archangel")
