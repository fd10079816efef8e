"""The Anniversary rulesets: scenario turn order, China's team turn with the United States, the phase table,
Italy's own turn, and the 1941 Japanese cargo set up aboard its transports."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.movement.flags import cargo
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario

ORDER_1941 = ["Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States"]
ORDER_1942 = ["Japan", "Soviet Union", "Germany", "United Kingdom", "Italy", "United States"]


def end_turn(game: Game) -> list[str]:
    """End every phase of the turn in progress for each of its powers; the powers that acted."""
    powers = list(game.to_act())
    turn_round, turn_index = game.state.round, game.ruleset.turn_order(game.state.round).index_of(powers[0])
    while game.state.winner is None and (game.state.round, game.ruleset.turn_order(game.state.round).index_of(
            game.state.nation)) == (turn_round, turn_index):
        for power in game.to_act():
            game.apply({"type": "end_phase", "power": power})
            break
    return powers


@pytest.mark.rule("AA50-TURN-order-1941", "AA50-CHINA-turn-with-us", "AA50-TURN-powers-and-alliances")
def test_1941_round_order_with_china_in_the_us_turn() -> None:
    ruleset = load_ruleset("aa50-1941")
    turns = [t.powers for t in ruleset.turn_order(1).turns]
    assert turns == [(p,) for p in ORDER_1941[:-1]] + [("United States", "China")]
    assert {p.name: p.side for p in ruleset.board.powers} == {
        "Germany": "Axis", "Japan": "Axis", "Italy": "Axis",
        "Soviet Union": "Allies", "United Kingdom": "Allies", "United States": "Allies", "China": "Allies",
    }


@pytest.mark.rule("AA50-TURN-order-1942", "AA50-CHINA-turn-with-us", "AA50-SETUP-scenario-choice")
def test_1942_japan_moves_first_and_the_round_ends_after_us_and_china() -> None:
    game = Game(new_game("aa50-1942", seed=3))
    assert game.state.nation == "Japan" and game.state.phase == "develop-weapons"
    seen = [end_turn(game) for _ in range(6)]
    assert seen == [[p] for p in ORDER_1942[:-1]] + [["United States", "China"]]
    assert (game.state.round, game.state.nation) == (2, "Japan")


@pytest.mark.rule("AA50-PHASES-sequence", "AA50-ITALY-separate-power")
def test_seven_phases_in_order_and_italy_plays_its_own_turn() -> None:
    game = scenario("aa50-1941", nation="Italy", phase="develop-weapons")
    seen = [game.state.phase]
    for _ in range(6):
        game.apply({"type": "end_phase"})
        seen.append(game.state.phase)
    assert seen == ["develop-weapons", "purchase", "combat-move", "conduct-combat", "non-combat-move", "mobilize",
                    "collect-income"]
    game.apply({"type": "end_phase"})
    assert game.state.nation == "United States" and set(game.to_act()) == {"United States", "China"}


@pytest.mark.rule("AA50-OPTIONS-research")
def test_without_research_the_phase_is_left_out() -> None:
    names = [p.name for p in load_ruleset("aa50-1942", {"research": False}).phase_table()]
    assert names[0] == "purchase" and "develop-weapons" not in names


@pytest.mark.rule("AA50-SETUP-1941-jpn", "AA50-TRANSPORT-capacity")
def test_1941_japanese_land_units_at_sea_start_aboard_their_transports() -> None:
    state = new_game("aa50-1941", seed=1).state
    stacks = state.stacks("SZ 61")
    loads = sorted(sorted(u for _, u in cargo(s)) for s in stacks if s.unit == "transport" for _ in range(s.count))
    assert loads == [["artillery", "infantry"], ["infantry", "infantry"]]
    assert not [s for s in stacks if s.unit in ("infantry", "artillery")]
    assert {s.unit: s.count for s in stacks if s.unit != "transport"} == {
        "fighter": 2, "cruiser": 1, "carrier": 1, "battleship": 1}


@pytest.mark.rule("AA50-CHINA-no-ipcs", "AA50-SETUP-1941-chn", "AA50-SETUP-1942-chn")
@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
def test_china_has_no_bank_and_collects_nothing(rules: str) -> None:
    game = scenario(rules, nation="United States", phase="collect-income")
    assert game.state.banks.get("China", 0) == 0
    assert game.ruleset.modify("income", 12, power="China", state=game.state) == 0
