"""Victory in the Anniversary game: the 18 cities, the chosen level checked at the end of a round, concession,
and the bid options before the game."""

from __future__ import annotations

import pytest

from aare.action_text import format_action, parse_action_text
from aare.economy.summary import summary
from aare.engine import Game
from aare.errors import IllegalAction, MalformedInput
from aare.events import BankChanged, GameEnded
from aare.game_file import check_play
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.selfplay import play_game

GER, SOV, JPN, UK, ITA, US, CHN = (
    "Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States", "China")
CITIES = {"Australia", "Caucasus", "Eastern Canada", "Eastern United States", "France", "Germany",
          "Hawaiian Islands", "India", "Italy", "Japan", "Karelia S.S.R.", "Kiangsu", "Kwangtung",
          "Philippine Islands", "Poland", "Russia", "United Kingdom", "Western United States"}
# With these the Axis hold 13 cities in 1941 (6 at the start); with one more, 14; then 15.
AXIS_13 = {"Russia": GER, "Karelia S.S.R.": GER, "Caucasus": GER, "India": JPN, "Australia": JPN,
           "Kwangtung": JPN, "Philippine Islands": JPN}
AXIS_15 = {**AXIS_13, "Hawaiian Islands": JPN, "United Kingdom": GER}


def end_of(power: str, owners: dict[str, str], level: int | None = None) -> Game:
    """`power` ends its 1941 turn (from collect income) with the cities held as given."""
    options = {"victory_cities": level} if level is not None else None
    game = scenario("aa50-1941", nation=power, phase="collect-income", owners=owners, options=options)
    game.apply({"type": "end_phase"})
    return game


@pytest.mark.rule("AA50-VICTORY-cities-list")
@pytest.mark.parametrize(("rules", "axis"), [("aa50-1941", 6), ("aa50-1942", 8)])
def test_eighteen_victory_cities_counted_per_side(rules: str, axis: int) -> None:
    ruleset = load_ruleset(rules)
    assert set(ruleset.victory_cities()) == CITIES
    game = scenario(rules)
    counts = game.ruleset.modify("victory_thresholds", {})
    assert counts == {"Axis": 13, "Allies": 13}
    assert summary(game.state)["victory_cities"] == {"total": 18, "by_side": {"Axis": axis, "Allies": 18 - axis}}
    owners = {**{c: UK for c in CITIES if game.state.owners[c] in (GER, JPN, ITA)}, "Kiangsu": CHN}
    held = summary(scenario(rules, owners=owners).state)["victory_cities"]["by_side"]
    assert held == {"Axis": 0, "Allies": 18}  # every Allied power's cities count for the side, China's too


@pytest.mark.rule("AA50-VICTORY-levels", "AA50-VICTORY-check-timing", "AA50-TURN-order-1941")
def test_the_level_is_checked_at_the_end_of_the_us_and_china_turn() -> None:
    game = end_of(US, AXIS_13)
    assert game.state.winner == "Axis"
    assert any(isinstance(e, GameEnded) and e.reason == "victory cities" for e in game.log.entries[-1].events)
    assert game.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over: Axis won"):
        game.apply({"type": "end_phase"})


@pytest.mark.rule("AA50-VICTORY-check-timing")
def test_a_level_reached_during_the_round_does_not_win_unless_held_at_its_end() -> None:
    game = end_of(JPN, AXIS_13)
    assert game.state.winner is None and game.state.nation == UK
    # the UK retakes India before the round ends: 12 at the check, no winner
    game = end_of(US, {**AXIS_13, "India": UK})
    assert game.state.winner is None and (game.state.round, game.state.nation) == (2, GER)


@pytest.mark.rule("AA50-VICTORY-levels", "AA50-OPTIONS-victory-level")
def test_fifteen_and_eighteen_need_more_cities() -> None:
    assert end_of(US, AXIS_13, 15).state.winner is None
    assert end_of(US, AXIS_15, 15).state.winner == "Axis"
    assert end_of(US, AXIS_15, 18).state.winner is None
    allies_all = {c: UK for c in CITIES}
    assert end_of(US, allies_all, 18).state.winner == "Allies"


@pytest.mark.rule("AA50-OPTIONS-victory-level")
def test_exactly_one_level_of_thirteen_fifteen_or_eighteen() -> None:
    spec = {o.key: o for o in load_ruleset("aa50-1941").spec.option_specs}["victory_cities"]
    assert (spec.default, spec.choices) == (13, (13, 15, 18))
    for level in (13, 15, 18):
        assert new_game("aa50-1942", {"victory_cities": level}, seed=1).state.options["victory_cities"] == level
    for wrong in (14, "13,15", [13, 15]):
        with pytest.raises(MalformedInput):
            new_game("aa50-1942", {"victory_cities": wrong}, seed=1)


@pytest.mark.rule("AA50-VICTORY-concession")
def test_a_side_concedes_and_the_other_wins_with_no_further_turns() -> None:
    game = scenario("aa50-1941", nation=JPN, phase="combat-move", round=5)
    game.apply({"type": "concede", "power": "United Kingdom"})  # not the UK's turn: a side may concede any time
    assert game.state.winner == "Axis"
    entry = game.log.entries[-1]
    assert entry.action == {"type": "concede", "power": UK}
    assert [(e.winner, e.reason, e.rule_id) for e in entry.events if isinstance(e, GameEnded)] == [
        ("Axis", "the Allies conceded (United Kingdom)", "AA50-VICTORY-concession")]
    assert game.to_act() == [] and game.legal_actions() == []
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply({"type": "end_phase"})
    with pytest.raises(IllegalAction, match="the game is over"):
        game.apply({"type": "concede", "power": GER})
    check_play(game.log)


@pytest.mark.rule("AA50-VICTORY-concession")
def test_the_power_to_act_concedes_for_its_side_also_in_the_team_turn() -> None:
    game = Game(new_game("aa50-1942", seed=2))
    assert parse_action_text("concede", game.ruleset) == {"type": "concede"}
    assert format_action({"type": "concede", "power": CHN}) == "China: concede"
    assert game.is_legal({"type": "concede"}) and not any(a.type == "concede" for a in game.legal_actions())
    game.apply({"type": "concede"})
    assert game.state.winner == "Allies"  # Japan moves first in 1942
    team = Game(new_game("aa50-1942", seed=2))
    while not team.state.members:
        team.apply({"type": "end_phase", "power": team.to_act()[0]})
    assert set(team.to_act()) == {US, CHN}
    with pytest.raises(IllegalAction, match="acting power must be named"):
        team.apply({"type": "end_phase"})
    team.apply({"type": "concede", "power": "Chinese"})
    assert team.state.winner == "Axis" and team.to_act() == []
    check_play(team.log)


def test_rulesets_without_concession_refuse_it() -> None:
    game = Game(new_game("classic-2e", seed=1))
    with pytest.raises(IllegalAction, match="has no concession"):
        game.apply({"type": "concede"})
    assert game.state.winner is None and not game.log.entries


@pytest.mark.rule("AA50-OPTIONS-bid")
def test_no_bid_by_default_and_the_game_starts_in_round_one() -> None:
    state = new_game("aa50-1941", seed=1).state
    assert (state.round, state.nation, state.phase) == (1, GER, "develop-weapons") and "bid" not in state.extra


@pytest.mark.rule("AA50-OPTIONS-bid")
def test_a_bid_is_placed_before_round_one_by_each_power_of_the_side_in_turn_order() -> None:
    game = Game(new_game("aa50-1941", {"bid_allies": 6}, seed=1))
    assert (game.state.round, game.state.nation, game.state.phase) == (0, SOV, "setup-bid")
    assert game.state.extra["bid"] == {"Allies": 6}
    with pytest.raises(IllegalAction, match="cannot place bid infantry in Germany"):
        game.apply({"type": "place", "units": "1 infantry", "space": "Germany"})
    def karelia() -> int:
        return sum(s.count for s in game.state.stacks("Karelia S.S.R.") if s.owner == SOV and s.unit == "infantry")

    before = karelia()
    game.apply({"type": "place", "units": "2 infantry", "space": "Karelia S.S.R."})
    assert karelia() == before + 2 and game.state.banks[SOV] == 30
    seen = [game.state.nation]
    while game.state.round == 0:
        game.apply({"type": "end_phase"})
        seen.append(game.state.nation)
    assert seen == [SOV, UK, US, GER]  # China, played by the US player, places no bid
    assert (game.state.round, game.state.phase) == (1, "develop-weapons")
    assert game.state.banks[US] == 40 and game.state.banks[CHN] == 0


@pytest.mark.rule("AA50-OPTIONS-bid")
def test_what_the_last_bidder_leaves_goes_to_its_treasury() -> None:
    game = Game(new_game("aa50-1942", {"bid_axis": 8}, seed=1))
    assert game.state.nation == JPN
    game.apply({"type": "place", "units": "1 infantry", "space": "Japan"})
    while game.state.round == 0:
        game.apply({"type": "end_phase"})
    assert game.state.banks[ITA] == 10 + 5 and game.state.banks[JPN] == 31 and game.state.banks[GER] == 37


@pytest.mark.rule("AA50-OPTIONS-bid", "AA50-NO-general")
def test_bots_place_both_bids_and_play_on_without_a_fault() -> None:
    result = play_game("aa50-1942", seed=4, rounds=1, options={"bid_axis": 7, "bid_allies": 12})
    assert result.violations == [] and result.stuck == []
    events = [e for entry in result.log.entries for e in entry.events]
    assert any(isinstance(e, BankChanged) and e.reason.startswith("income: national objective") for e in events)
    assert result.log.state.round >= 1 and "bid" in result.log.initial.extra
