"""The side panel's turn card in an AARHE team turn: who the page waits for (every acting member, each with its
holder) and whose turn the head names (the whole team, for a player of none of its members)."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.server.seats import Seat
from aare.web.table_view import turn_info

GER, JAP, RUS, UK, US = "Germany", "Japan", "Russia", "United Kingdom", "United States"
SEATS = {GER: Seat(GER, 1, "alice"), JAP: Seat(JAP, 2, "bob"), RUS: Seat(RUS, 3, "carol"), UK: Seat(UK),
         US: Seat(US, bot="random")}


def _axis_turn() -> Game:
    g = Game(new_game("aarhe", {}, seed=1))
    while not g.state.members:
        g.apply({"type": "end_phase"})
    return g


def _turn(g: Game, mine: list[str], acting: str | None = None) -> dict[str, object]:
    return turn_info(g.state, "nations", SEATS, mine, acting, g.state.members, load_ruleset("aarhe"))


def _waiting(turn: dict[str, object]) -> list[tuple[str, str]]:
    return [(w["power"], w["holder"]) for w in turn["waiting_for"]]  # type: ignore[attr-defined]


@pytest.mark.rule("AARHE-ORDER-team-turns")
def test_an_allied_player_waits_for_both_axis_powers_and_sees_the_team_named() -> None:
    turn = _turn(_axis_turn(), [RUS])
    assert not turn["your_turn"]
    assert _waiting(turn) == [(GER, "alice"), (JAP, "bob")]
    assert turn["heads"] == [GER, JAP]


@pytest.mark.rule("AARHE-ORDER-team-concurrency")
def test_a_member_waiting_for_the_joint_combat_waits_for_its_teammate_only() -> None:
    g = _axis_turn()
    turn = _turn(g, [GER], GER)
    assert turn["your_turn"] and turn["heads"] == [g.state.nation]
    for _ in range(3):  # Germany's purchase, collect income, combat move: it waits for Japan's
        g.apply({"type": "end_phase"}, power=GER)
    turn = _turn(g, [GER])
    assert not turn["your_turn"]
    assert _waiting(turn) == [(JAP, "bob")]
