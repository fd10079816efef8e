"""AARHE Phase 1 first-turn levy: a victory city attacked before its defender's first turn raises infantry at once."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from tests.aarhe.common import end_phase
from tests.aarhe_p1.common import GER, RULES, RUS, UK
from tests.classic.test_move_land import at as board_at
from tests.movement.helpers import move


def attack(power: str, frm: str, to: str, defender: str, round: int = 1, **options: Any) -> Game:
    """`power`'s 2 armour in `frm` attack `to`, held by `defender` (1 infantry, 40 IPCs), up to conduct combat."""
    g = board_at(power, "combat-move", {to: f"{defender}: 1 infantry", frm: f"{power}: 2 armour"},
                 banks={defender: 40}, rules=RULES, options=options)
    if round != 1:
        g = Game(GameLog(replace(g.state, round=round, extra={**g.state.extra, "turn": {
            **g.state.extra["turn"], "round": round}})))
    move(g, "2 armour", frm, to)
    end_phase(g)
    assert g.state.phase == "conduct-combat"
    return g


def infantry(g: Game, space: str, power: str) -> int:
    return sum(s.count for s in g.state.stacks(space) if s.owner == power and s.unit == "infantry")


@pytest.mark.rule("AARHEP1-INF-emergency-levy")
def test_a_city_attacked_before_its_defenders_first_turn_raises_infantry_before_the_battle() -> None:
    g = attack(RUS, "Caucasus", "Ukraine S.S.R.", GER)
    assert infantry(g, "Ukraine S.S.R.", GER) == 3  # 1 + Kiev's cap of 2
    assert g.state.banks[GER] == 34  # 2 x 3 IPCs
    g = attack(RUS, "Caucasus", "Ukraine S.S.R.", GER, first_turn_levy="none")
    assert (infantry(g, "Ukraine S.S.R.", GER), g.state.banks[GER]) == (1, 40)
    g = attack(GER, "Libya", "Anglo Egypt", UK)
    assert (infantry(g, "Anglo Egypt", UK), g.state.banks[UK]) == (2, 37)  # Cairo: 1


@pytest.mark.rule("AARHEP1-INF-emergency-window")
def test_no_levy_once_the_defender_has_had_its_first_turn() -> None:
    g = attack(GER, "West Russia", "Karelia S.S.R.", RUS)  # Russia played first
    assert (infantry(g, "Karelia S.S.R.", RUS), g.state.banks[RUS]) == (1, 40)
    g = attack(RUS, "Caucasus", "Ukraine S.S.R.", GER, round=2)
    assert (infantry(g, "Ukraine S.S.R.", GER), g.state.banks[GER]) == (1, 40)
