"""AARHE national victory (option `national_victory`): the secret choice of goals before play, each power's goals,
the reveal at the end of a complete round and the national victors at the end (AARHE-NATVICTORY-*)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.engine import Game
from aare.events import GameEnded
from aare.game_log import GameLog
from aare.player_view import HIDDEN, player_view, summary_view, view_hash
from aare.rules.ruleset import load_ruleset
from aare.rulesets.aarhe.national_goals import FACTS, goal_met
from aare.rulesets.aarhe.national_victory import KEY, collected, national_victors, observed, revealed
from aare.state.game_state import GameState
from aare.state.unit_stacks import Stack
from tests.aarhe.common import GER, JAP, RUS, UK, US, end_turn, game, refused
from tests.aarhe.move_common import at
from tests.classic.test_move_land import fight_all, move

OPTIONS = {"national_victory": True}
R = "AARHE-NATVICTORY-"
CHOICES = {
    RUS: "race-to-berlin, heavy-industry, east-asia",
    GER: "lebensraum, barbarossa, defend-fatherland",
    UK: "race-to-berlin, battle-for-britain, military-might",
    JAP: "conquer-china, secure-oil, post-war-superpower",
    US: "public-support, race-to-berlin, operation-olympic",
}
RULESET = load_ruleset("aarhe", OPTIONS)


def chosen_game(choices: dict[str, str] | None = None, options: dict[str, Any] | None = None) -> Game:
    """A game with national victory in which every power has chosen its goals (round 1 about to begin)."""
    g = game(options or OPTIONS)
    for power in (RUS, GER, UK, JAP, US):
        assert (g.state.round, g.state.nation, g.state.phase) == (0, power, "national-goals")
        g.apply({"type": "choose", "option": (choices or CHOICES)[power]})
        g.apply({"type": "end_phase"})
    return g


def start() -> GameState:
    return game(OPTIONS).state


def owning(state: GameState, power: str | None, *territories: str) -> GameState:
    owners = dict(state.owners)
    for t in territories:
        if power is None:
            owners.pop(t, None)
        else:
            owners[t] = power
    return state.evolve(owners=owners)


def with_facts(state: GameState, **facts: Any) -> GameState:
    raw = dict(state.extra.get(FACTS) or {})
    return replace(state, extra={**state.extra, FACTS: {**raw, **facts}})


def met(state: GameState, power: str, goal: str) -> bool:
    return goal_met(RULESET, state, power, goal)


def collections(state: GameState, **amounts: int) -> GameState:
    raw: dict[str, Any] = dict(state.extra.get(FACTS) or {})
    names = {"ger": GER, "jap": JAP, "uk": UK, "us": US, "rus": RUS, "ita": "Italy"}
    for key, amount in amounts.items():
        raw = collected(raw, names[key], amount)
    return replace(state, extra={**state.extra, FACTS: raw})


def seen(state: GameState, *steps: GameState) -> GameState:
    """`state` with the public record as kept while the board went through `steps` (each observed in turn)."""
    current = state
    for step in steps:
        current = replace(step, extra={**step.extra, FACTS: observed(RULESET, replace(step, extra=current.extra))})
    return current


# -- selection -------------------------------------------------------------------------------------------------


@pytest.mark.rule(R + "selection")
def test_goals_are_chosen_one_power_after_another_before_play() -> None:
    g = game(OPTIONS)
    assert (g.state.round, g.state.nation, g.state.phase) == (0, RUS, "national-goals")
    offered = g.legal_actions()
    assert len(offered) == 10 and all(a.type == "choose" for a in offered)  # 3 of the Soviet Union's 5 goals
    assert g.state.pending == {"kind": "national_goals", "power": RUS, "count": 3, "refusal_rule": R + "selection"}
    assert refused(g, {"type": "end_phase"}) == R + "selection"
    assert refused(g, {"type": "choose", "option": "race-to-berlin, east-asia"}) == R + "selection"
    assert refused(g, {"type": "choose", "option": "race-to-berlin, east-asia, sea-lion"}) == R + "selection"
    assert refused(g, {"type": "choose", "option": "east-asia, east-asia, race-to-berlin"}) == R + "selection"
    g.apply({"type": "choose", "option": CHOICES[RUS]})
    assert refused(g, {"type": "choose", "option": CHOICES[RUS]}) == R + "selection"
    assert g.state.pending is None
    g.apply({"type": "end_phase"})
    assert (g.state.round, g.state.nation, g.state.phase) == (0, GER, "national-goals")
    assert g.state.pending is not None and g.state.pending["power"] == GER
    g = chosen_game()
    assert (g.state.round, g.state.nation, g.state.phase) == (1, RUS, "purchase")
    assert g.state.extra[KEY][GER] == ["lebensraum", "barbarossa", "defend-fatherland"]


@pytest.mark.rule(R + "selection")
def test_without_the_option_play_starts_in_round_one_without_goals() -> None:
    g = game()
    assert (g.state.round, g.state.phase) == (1, "purchase") and KEY not in g.state.extra


@pytest.mark.rule(R + "selection")
def test_a_choice_is_seen_only_by_its_own_power_teammates_included() -> None:
    g = chosen_game()
    for viewer in (GER, JAP, UK, US, None):
        assert player_view(g.state, viewer)["extra"][KEY][RUS] == HIDDEN
    assert player_view(g.state, RUS)["extra"][KEY] == {RUS: CHOICES[RUS].split(", "), GER: HIDDEN, UK: HIDDEN,
                                                      JAP: HIDDEN, US: HIDDEN}
    texts = [r["text"] for r in summary_view(g.state, RUS)["victory"]["standing"]]
    assert "Russia's national goals: Race to Berlin (not met), Protect Heavy Industry (met), East Asia Influence " \
           "(not met)" in texts and "Germany's national goals: hidden" in texts
    assert not any("Berlin" in t for t in (r["text"] for r in summary_view(g.state, GER)["victory"]["standing"]))


@pytest.mark.rule(R + "selection")
@pytest.mark.rule(R + "win")
def test_more_goals_may_be_chosen_by_option_three_of_them_still_win() -> None:
    g = game({**OPTIONS, "national_goals_chosen": 4})
    assert refused(g, {"type": "choose", "option": CHOICES[RUS]}) == R + "selection"
    assert len(g.legal_actions()) == 5  # 4 of 5
    four = {RUS: "eastern-europe-buffer, race-to-berlin, heavy-industry, east-asia",
            GER: "lebensraum, barbarossa, defend-fatherland, sea-lion",
            UK: "colonial-empire, race-to-berlin, contain-communism, battle-for-britain",
            JAP: "conquer-china, co-prosperity, secure-oil, north-wind-rain",
            US: "contain-communism, protect-americas, public-support, race-to-berlin"}
    state = chosen_game(four, {**OPTIONS, "national_goals_chosen": 4}).state
    ended = GameEnded("Allies", "test").apply(owning(state, GER, "Russia"))
    assert national_victors(RULESET, ended) == [GER]  # three of four
    assert national_victors(RULESET, GameEnded("Allies", "test").apply(state)) == []


@pytest.mark.rule(R + "selection")
def test_what_others_see_is_the_same_whatever_was_chosen() -> None:
    one = chosen_game().state
    other = chosen_game({**CHOICES, RUS: "eastern-europe-buffer, expand-communism, east-asia"}).state
    assert one.hash() != other.hash()
    for viewer in (GER, UK, None):
        assert view_hash(one, viewer) == view_hash(other, viewer)
        assert player_view(one, viewer) == player_view(other, viewer)
    assert view_hash(one, RUS) != view_hash(other, RUS)


# -- win and reveal ------------------------------------------------------------------------------------------


@pytest.mark.rule(R + "win")
def test_a_power_of_the_losing_side_wins_as_a_nation_with_three_goals() -> None:
    state = chosen_game().state
    ended = GameEnded("Allies", "test").apply(owning(state, GER, "Russia"))
    assert national_victors(RULESET, ended) == [GER]
    texts = [r["text"] for r in summary_view(ended, None)["victory"]["standing"]]
    assert ("Germany's national goals: Establish Lebensraum (met), Operation Barbarossa (met), Defend the "
            "Fatherland (met); a national victory") in texts
    assert "Russia's national goals: Race to Berlin (not met), Protect Heavy Industry (met), East Asia Influence " \
           "(not met); no national victory" in texts
    two = GameEnded("Allies", "test").apply(state)  # Russia still Soviet: barbarossa not met
    assert national_victors(RULESET, two) == []


def play_round(g: Game) -> None:
    """Every power ends its phases until the next round begins."""
    start_round = g.state.round
    while g.state.round == start_round and g.state.winner is None:
        powers = list(g.state.members) or [g.state.nation]
        for power in powers:
            end_turn(g, power if g.state.members else None)


@pytest.mark.rule(R + "reveal")
def test_goals_met_at_the_end_of_a_round_are_revealed_to_all_others_stay_hidden() -> None:
    g = chosen_game()
    g = Game(GameLog(owning(g.state, GER, "Russia")))  # Germany's three goals are met as things stand
    g.apply({"type": "end_phase"})  # Russia's purchase: the round goes on
    assert player_view(g.state, UK)["extra"][KEY][GER] == HIDDEN and revealed(g.state) == {}
    play_round(g)
    assert g.state.round == 2 and revealed(g.state) == {GER: 1}
    for viewer in (RUS, UK, US, JAP, None):
        assert player_view(g.state, viewer)["extra"][KEY][GER] == ["lebensraum", "barbarossa", "defend-fatherland"]
        if viewer != UK:
            assert player_view(g.state, viewer)["extra"][KEY][UK] == HIDDEN


# -- the record of what happened, kept in play ----------------------------------------------------------------


@pytest.mark.rule(R + "ussr-heavy-industry")
@pytest.mark.rule(R + "uk-military-might")
def test_collections_are_recorded_as_they_are_made() -> None:
    g = chosen_game()
    bank = g.state.banks[RUS]
    g.apply({"type": "end_phase"})  # purchase: Russia collects next
    income = g.state.banks[RUS] - bank
    facts = g.state.extra[FACTS]
    assert income > 15 and facts["collected"][RUS] == income and facts["low"][RUS] == income
    assert met(g.state, RUS, "heavy-industry")
    assert not met(collections(g.state, rus=14), RUS, "heavy-industry")


@pytest.mark.rule(R + "ussr-race-to-berlin")
def test_a_capture_in_play_is_recorded() -> None:
    g = at(RUS, "combat-move", {"Eastern Europe": "Russia: 2 armour"}, owners={"Eastern Europe": RUS}, options=OPTIONS)
    g = Game(GameLog(replace(g.state, pending=None)))  # a position of round 1: the goals were chosen
    move(g, "2 armour", "Eastern Europe", "Germany")
    fight_all(g)
    assert g.state.owners["Germany"] == RUS
    assert g.state.extra[FACTS]["captures"] == {"Germany": [RUS]}
    assert met(g.state, RUS, "race-to-berlin") and not met(g.state, UK, "race-to-berlin")


# -- Germany -------------------------------------------------------------------------------------------------

AFRICA_AXIS = ("Anglo Egypt", "Belgian Congo", "French Equatorial Africa", "French Madagascar", "French West Africa",
               "Italian East Africa", "Kenya", "Union of South Africa")
EUROPE_SOVIET = ("Karelia S.S.R.", "Archangel", "Russia", "Caucasus")


@pytest.mark.rule(R + "ger-grossdeutschland")
def test_grossdeutschland() -> None:
    state = owning(start(), GER, *AFRICA_AXIS, *EUROPE_SOVIET, "Gibraltar")
    assert met(state, GER, "grossdeutschland")
    assert not met(owning(state, UK, "Kenya"), GER, "grossdeutschland")
    assert met(owning(state, JAP, "Kenya"), GER, "grossdeutschland")  # Axis control
    assert not met(owning(state, RUS, "Russia"), GER, "grossdeutschland")
    assert not met(owning(state, UK, "Spain"), GER, "grossdeutschland")  # a neutral that joined the Allies


@pytest.mark.rule(R + "ger-lebensraum")
def test_lebensraum() -> None:
    state = start()
    assert met(state, GER, "lebensraum")  # Spain and Switzerland still neutral
    assert not met(owning(state, UK, "Spain"), GER, "lebensraum")
    assert met(owning(state, GER, "Spain"), GER, "lebensraum")
    assert not met(owning(state, RUS, "Eastern Europe"), GER, "lebensraum")


@pytest.mark.rule(R + "ger-mideast-oil")
def test_seize_mideast_oil() -> None:
    state = owning(start(), GER, *AFRICA_AXIS, "Gibraltar", "Persia")
    assert met(state, GER, "mideast-oil")  # no Malta on the standard board
    assert not met(owning(state, UK, "Persia"), GER, "mideast-oil")
    assert not met(owning(state, JAP, "Kenya"), GER, "mideast-oil")


@pytest.mark.rule(R + "ger-barbarossa")
def test_barbarossa() -> None:
    assert met(owning(start(), GER, "Russia"), GER, "barbarossa")
    assert not met(owning(start(), JAP, "Russia"), GER, "barbarossa")
    assert not met(start(), GER, "barbarossa")


@pytest.mark.rule(R + "ger-sea-lion")
def test_sea_lion_counts_a_capture_even_when_lost_again() -> None:
    state = start()
    taken = seen(state, owning(state, GER, "United Kingdom"), owning(state, UK, "United Kingdom"))
    assert taken.owners["United Kingdom"] == UK and met(taken, GER, "sea-lion")
    assert not met(seen(state, owning(state, US, "Western Europe")), GER, "sea-lion")


@pytest.mark.rule(R + "ger-defend-fatherland")
def test_defend_the_fatherland_fails_once_germany_is_lost() -> None:
    state = start()
    assert met(state, GER, "defend-fatherland")
    again = seen(state, owning(state, RUS, "Germany"), owning(state, GER, "Germany"))
    assert again.owners["Germany"] == GER and not met(again, GER, "defend-fatherland")


@pytest.mark.rule(R + "ger-thousand-year-reich")
def test_thousand_year_reich_counts_one_collection_of_fifty() -> None:
    state = start()
    assert met(collections(state, ger=52), GER, "thousand-year-reich")
    later = collected(collected(dict(state.extra[FACTS]), GER, 52), GER, 30)
    assert met(replace(state, extra={**state.extra, FACTS: later}), GER, "thousand-year-reich")
    assert not met(collections(state, ger=49), GER, "thousand-year-reich")


# -- Japan -----------------------------------------------------------------------------------------------------


@pytest.mark.rule(R + "jpn-conquer-china")
def test_conquer_china() -> None:
    state = owning(start(), JAP, "Sinkiang", "China")
    assert met(state, JAP, "conquer-china")
    assert not met(owning(state, US, "China"), JAP, "conquer-china")


@pytest.mark.rule(R + "jpn-co-prosperity")
def test_co_prosperity_sphere() -> None:
    state = owning(start(), JAP, "Midway", "Hawaiian Islands", "Australia", "New Zealand")
    assert met(state, JAP, "co-prosperity")
    assert not met(owning(state, US, "Okinawa"), JAP, "co-prosperity")
    assert not met(owning(state, UK, "New Zealand"), JAP, "co-prosperity")


@pytest.mark.rule(R + "jpn-post-war-superpower")
def test_post_war_superpower() -> None:
    assert met(collections(start(), jap=45, ger=44), JAP, "post-war-superpower")
    assert not met(collections(start(), jap=44, ger=44), JAP, "post-war-superpower")


@pytest.mark.rule(R + "jpn-secure-oil")
def test_secure_oil_needs_saudi_arabia_even_while_neutral() -> None:
    state = owning(start(), JAP, "Anglo Egypt", "Trans-Jordan", "Persia")
    assert not met(state, JAP, "secure-oil")
    assert met(owning(state, JAP, "Saudi Arabia"), JAP, "secure-oil")


@pytest.mark.rule(R + "jpn-north-wind-rain")
def test_north_wind_rain() -> None:
    state = owning(start(), JAP, "Buryatia S.S.R.", "Soviet Far East", "Alaska", "Midway")
    assert not met(state, JAP, "north-wind-rain")  # Mongolia still neutral
    assert met(owning(state, JAP, "Mongolia"), JAP, "north-wind-rain")


# -- the Soviet Union ---------------------------------------------------------------------------------------------


@pytest.mark.rule(R + "ussr-eastern-europe-buffer")
def test_eastern_europe_buffer() -> None:
    state = owning(start(), RUS, "West Russia", "Belorussia", "Ukraine S.S.R.")
    assert not met(state, RUS, "eastern-europe-buffer")
    assert met(owning(state, RUS, "Eastern Europe"), RUS, "eastern-europe-buffer")


@pytest.mark.rule(R + "ussr-race-to-berlin")
@pytest.mark.rule(R + "uk-race-to-berlin")
@pytest.mark.rule(R + "us-race-to-berlin")
def test_race_to_berlin_goes_to_the_first_to_capture_germany() -> None:
    state = start()
    soviet = seen(state, owning(state, RUS, "Germany"), owning(state, GER, "Germany"), owning(state, UK, "Germany"))
    assert met(soviet, RUS, "race-to-berlin") and not met(soviet, UK, "race-to-berlin")
    american = seen(state, owning(state, US, "Germany"), owning(state, UK, "Germany"))
    assert met(american, US, "race-to-berlin")
    assert not met(american, UK, "race-to-berlin") and not met(american, RUS, "race-to-berlin")
    british = seen(state, owning(state, UK, "Germany"))
    assert met(british, UK, "race-to-berlin") and not met(state, UK, "race-to-berlin")


@pytest.mark.rule(R + "ussr-heavy-industry")
def test_heavy_industry_fails_when_a_complex_is_lost_once() -> None:
    state = start()
    assert met(state, RUS, "heavy-industry")
    lost = seen(state, owning(state, GER, "Caucasus"), owning(state, RUS, "Caucasus"))
    assert lost.owners["Caucasus"] == RUS and not met(lost, RUS, "heavy-industry")
    assert met(collections(state, rus=20), RUS, "heavy-industry")
    assert not met(collections(collections(state, rus=14), rus=20), RUS, "heavy-industry")
    scorched = state.with_stacks("Caucasus", tuple(s for s in state.stacks("Caucasus") if s.unit != "factory"))
    razed = seen(state, scorched, owning(scorched, GER, "Caucasus"))
    assert met(razed, RUS, "heavy-industry")  # its own complex razed before the territory fell


@pytest.mark.rule(R + "ussr-east-asia")
def test_east_asia_influence() -> None:
    state = start()
    assert not met(state, RUS, "east-asia")
    assert met(owning(state, RUS, "Manchuria"), RUS, "east-asia")  # Mongolia still neutral
    assert not met(owning(owning(state, RUS, "Manchuria"), JAP, "Mongolia"), RUS, "east-asia")
    islands_only = owning(state, US, "Manchuria", "Kwangtung", "French Indochina")
    assert met(islands_only, RUS, "east-asia")


@pytest.mark.rule(R + "ussr-expand-communism")
def test_expand_communism() -> None:
    state = start()
    asia = owning(state, RUS, "Mongolia", "Sinkiang", "China", "Manchuria")
    assert met(asia, RUS, "expand-communism")
    assert not met(owning(state, RUS, "Mongolia", "Sinkiang", "China"), RUS, "expand-communism")
    europe = owning(state, RUS, "West Russia", "Belorussia", "Ukraine S.S.R.", "Eastern Europe", "Norway", "Balkans")
    assert not met(europe, RUS, "expand-communism")
    assert met(owning(europe, RUS, "Turkey"), RUS, "expand-communism")


# -- the United Kingdom ------------------------------------------------------------------------------------------


@pytest.mark.rule(R + "uk-colonial-empire")
def test_preserve_colonial_empire() -> None:
    state = owning(start(), UK, "Solomon Islands", "Borneo")
    assert met(state, UK, "colonial-empire")
    assert not met(owning(state, GER, "Gibraltar"), UK, "colonial-empire")
    assert not met(start(), UK, "colonial-empire")


@pytest.mark.rule(R + "uk-contain-communism")
def test_contain_communism() -> None:
    state = owning(start(), UK, "Western Europe", "Norway")
    assert met(owning(state, US, "Southern Europe"), UK, "contain-communism")
    assert not met(owning(owning(state, US, "Southern Europe"), RUS, "Norway"), UK, "contain-communism")


@pytest.mark.rule(R + "uk-battle-for-britain")
def test_battle_for_britain() -> None:
    state = start()
    assert met(seen(state, state), UK, "battle-for-britain")  # a landing beaten off changes no control
    taken = seen(state, owning(state, GER, "United Kingdom"), owning(state, UK, "United Kingdom"))
    assert not met(taken, UK, "battle-for-britain")


@pytest.mark.rule(R + "uk-military-might")
def test_preserve_military_might_looks_at_the_last_collection() -> None:
    assert met(collections(start(), uk=36), UK, "military-might")
    assert not met(collections(start(), uk=35), UK, "military-might")
    assert not met(collections(collections(start(), uk=40), uk=30), UK, "military-might")


# -- the United States -----------------------------------------------------------------------------------------


@pytest.mark.rule(R + "us-contain-communism-europe")
def test_contain_communism_in_europe() -> None:
    europe = owning(start(), UK, "Western Europe", "Norway", "Southern Europe")
    assert met(owning(europe, US, "Manchuria"), US, "contain-communism")  # with Sinkiang and China: 3 of 5
    assert not met(europe, US, "contain-communism")  # 2 of 5
    assert not met(owning(start(), US, "Manchuria"), US, "contain-communism")


@pytest.mark.rule(R + "us-protect-americas")
def test_protect_the_americas() -> None:
    state = start()
    assert met(state, US, "protect-americas")
    zone = next(n for n in RULESET.board.spaces["Western United States"].neighbors
                if not RULESET.board.spaces[n].is_land)
    ship = state.with_stacks(zone, (*state.stacks(zone), Stack(JAP, "destroyer", 1)))
    assert not met(ship, US, "protect-americas")
    assert not met(owning(state, GER, "Brazil"), US, "protect-americas")


@pytest.mark.rule(R + "us-public-support")
def test_maintain_public_support() -> None:
    assert met(collections(start(), us=46), US, "public-support")
    assert not met(collections(start(), us=45), US, "public-support")


@pytest.mark.rule(R + "us-operation-olympic")
def test_operation_olympic() -> None:
    assert met(owning(start(), US, "Japan"), US, "operation-olympic")
    assert not met(owning(start(), UK, "Japan"), US, "operation-olympic")
