"""AARHE naval retreats and break off: each side may retreat some or all of its units at the end of a sea cycle,
then declares its stance; a mutual break off ends the battle with both fleets in the zone."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest
from click.testing import CliRunner

from aare.action_text import format_action, format_decision, parse_action_text
from aare.cli.main import cli
from aare.combat.board_battle import build_battle as board_battle
from aare.combat.decisions import ChooseOption, Option, Press, PressOrRetreat
from aare.combat.engine import advance, decide
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.odds import build_battle, odds
from aare.phases.conduct_combat import open_battles
from aare.rulesets.aarhe import naval_retreats as nr
from tests.aarhe.common import GER, RUS, UK, refused
from tests.aarhe.move_common import at

MISSES = [6] * 60


def sea_fight(fleets: dict[str, str], german: str = "2 destroyer") -> Game:
    """Germany's `german` ships from SZ 5 attack SZ 6; every die misses; the first cycle's decisions are next."""
    g = at(GER, "combat-move", {"SZ 5": f"Germany: {german}", **fleets}, dice=MISSES)
    g.apply({"type": "move", "units": german, "path": ["SZ 5", "SZ 6"]})
    g.apply({"type": "end_phase"})
    g.apply({"type": "fight", "space": "SZ 6"})
    return g


def kind(g: Game) -> tuple[str, str, int]:
    p = g.state.pending or {}
    return p.get("kind", ""), p.get("power", ""), p.get("cycle", 0)


def units_in(g: Game, space: str) -> list[tuple[str, str, int]]:
    return sorted((s.owner, s.unit, s.count) for s in g.state.stacks(space))


UK_FLEET = {"SZ 6": "United Kingdom: 1 destroyer, 1 transport", "SZ 7": "United Kingdom: 1 destroyer"}


@pytest.mark.rule("AARHE-NAVALRETREAT-attacker", "AARHE-NAVALRETREAT-defender", "AARHE-BREAKOFF-defender-remains")
def test_each_side_retreats_some_units_then_declares_for_the_rest() -> None:
    g = sea_fight(UK_FLEET)
    assert kind(g) == ("press_or_retreat", GER, 1) and g.state.pending["partial"]
    assert g.state.pending["destinations"] == ["SZ 3", "SZ 5"]  # SZ 7 holds a British destroyer
    assert refused(g, {"type": "retreat", "split": {"SZ 7": "1 destroyer"}}, GER) == nr.R_ATTACKER
    g.apply({"type": "retreat", "split": {"SZ 5": "1 destroyer"}}, power=GER)
    assert kind(g) == ("choose_option", GER, 1) and g.state.pending["choices"] == ["press-on", "break-off"]
    g.apply({"type": "choose", "option": "break-off"}, power=GER)
    assert kind(g) == ("press_or_retreat", UK, 1) and g.state.pending["partial"]
    g.apply({"type": "retreat", "split": {"SZ 7": "1 transport"}}, power=UK)
    assert kind(g) == ("choose_option", UK, 1) and g.state.pending["choices"] == ["remain", "break-off"]
    g.apply({"type": "choose", "option": "remain"}, power=UK)
    assert kind(g) == ("press_or_retreat", GER, 2)  # the attacker broke off, the defender remained: cycle 2
    g.apply({"type": "retreat", "to": "SZ 5"}, power=GER)  # the last destroyer goes too
    assert g.state.pending is None
    assert units_in(g, "SZ 5") == [(GER, "destroyer", 2)]
    assert units_in(g, "SZ 7") == [(UK, "destroyer", 1), (UK, "transport", 1)]
    assert units_in(g, "SZ 6") == [(UK, "destroyer", 1)]


@pytest.mark.rule("AARHE-BREAKOFF-mutual", "AARHE-BREAKOFF-table")
def test_a_mutual_break_off_ends_the_battle_with_both_fleets_in_the_zone() -> None:
    g = sea_fight(UK_FLEET)
    g.apply({"type": "press"}, power=GER)
    g.apply({"type": "choose", "option": "break-off"}, power=GER)
    g.apply({"type": "press"}, power=UK)  # no British unit retreats
    g.apply({"type": "choose", "option": "break-off"}, power=UK)
    assert g.state.pending is None
    assert units_in(g, "SZ 6") == [(GER, "destroyer", 2), (UK, "destroyer", 1), (UK, "transport", 1)]
    assert "SZ 6" not in {b.space for b in open_battles(g.state, g.ruleset)}
    assert not [a for a in g.legal_actions() if a.type == "fight"]
    g.apply({"type": "end_phase"})  # the combat phase may end: no battle is pending there


@pytest.mark.rule("AARHE-BREAKOFF-chase", "AARHE-BREAKOFF-table")
@pytest.mark.parametrize("choice", ["chase", "break-off"])
def test_a_defender_breaking_off_lets_the_pressing_attacker_chase_or_break_off(choice: str) -> None:
    g = sea_fight(UK_FLEET)
    g.apply({"type": "press"}, power=GER)
    g.apply({"type": "choose", "option": "press-on"}, power=GER)
    g.apply({"type": "press"}, power=UK)
    g.apply({"type": "choose", "option": "break-off"}, power=UK)
    assert kind(g) == ("choose_option", GER, 1) and g.state.pending["choices"] == ["chase", "break-off"]
    assert g.state.pending["rule"] == nr.R_CHASE
    assert refused(g, {"type": "choose", "option": "remain"}, GER) == nr.R_CHASE
    g.apply({"type": "choose", "option": choice}, power=GER)
    if choice == "chase":
        assert kind(g) == ("press_or_retreat", GER, 2)
    else:
        assert g.state.pending is None and len(units_in(g, "SZ 6")) == 3


@pytest.mark.rule("AARHE-BREAKOFF-table")
@pytest.mark.parametrize(("attacker", "defender", "chase", "ends"), [
    ("break-off", "break-off", None, True),
    ("break-off", "remain", None, False),
    ("press-on", "break-off", "break-off", True),
    ("press-on", "break-off", "chase", False),
    ("press-on", "remain", None, False),
])
def test_the_break_off_table(attacker: str, defender: str, chase: str | None, ends: bool) -> None:
    answers = {"cycle:stance:attacker=": attacker, "cycle:stance:defender=": defender, nr.CHASE_NOTE: chase}
    asked: list[str] = []

    def policy(_b: Any, decision: Any) -> Any:
        if isinstance(decision, ChooseOption):
            asked.append(decision.note)
            return Option(answers[decision.note] or "")
        return None

    b = build_battle("1 destroyer", "1 destroyer", "aarhe", "sea")
    b, _ = advance(b, ScriptedDice([6] * 4), policy)
    if isinstance(b.state.pending, PressOrRetreat):  # the attacker presses on: the stances come next
        b, _ = advance(decide(b, Press()), ScriptedDice([6] * 4), policy)
    assert asked == [n for n in answers if answers[n]]
    assert (b.state.result == "stalemate") is ends
    assert b.state.cycle == (1 if ends else 2)



@pytest.mark.rule("AARHE-NAVALRETREAT-defender-air")
def test_defending_aircraft_retreat_to_a_friendly_carrier_or_territory_within_two_spaces() -> None:
    fleets = {"SZ 6": "United Kingdom: 1 carrier, 2 fighter", "SZ 8": "United Kingdom: 1 carrier, 1 fighter"}
    g = sea_fight(fleets)
    g.apply({"type": "press"}, power=GER)
    g.apply({"type": "choose", "option": "press-on"}, power=GER)
    assert kind(g) == ("press_or_retreat", UK, 1)
    assert refused(g, {"type": "retreat", "split": {"Archangel": "1 fighter"}}, UK) == nr.R_DEFENDER_AIR  # 3 away
    assert refused(g, {"type": "retreat", "split": {"SZ 8": "2 fighter"}}, UK) == nr.R_DEFENDER_AIR  # room for 1
    g.apply({"type": "retreat", "split": {"SZ 8": "1 fighter", "Karelia S.S.R.": "1 fighter"}}, power=UK)
    g.apply({"type": "choose", "option": "break-off"}, power=UK)
    g.apply({"type": "choose", "option": "break-off"}, power=GER)
    assert g.state.pending is None
    assert units_in(g, "SZ 8") == [(UK, "carrier", 1), (UK, "fighter", 1), (UK, "fighter", 1)]
    assert (UK, "fighter", 1) in units_in(g, "Karelia S.S.R.")
    assert units_in(g, "SZ 6") == [(GER, "destroyer", 2), (UK, "carrier", 1)]


@pytest.mark.rule("AARHE-NAVALRETREAT-defender-air")
def test_fighters_may_retreat_aboard_carriers_retreating_with_them() -> None:
    g = sea_fight({"SZ 6": "United Kingdom: 1 carrier, 2 fighter"})
    g.apply({"type": "press"}, power=GER)
    g.apply({"type": "choose", "option": "press-on"}, power=GER)
    g.apply({"type": "retreat", "to": "SZ 7"}, power=UK)  # every unit: the carrier with its fighters aboard
    assert g.state.pending is None
    assert units_in(g, "SZ 7") == [(UK, "carrier", 1), (UK, "fighter", 2)]


@pytest.mark.rule("AARHE-BREAKOFF-table")
def test_the_calculator_fights_on_and_explains_the_break_off() -> None:
    found = odds("2 destroyer", "1 destroyer, 1 transport", "aarhe", battle="sea")
    assert found.stalemate == 0 and found.attacker_win > 0.5
    explained = CliRunner().invoke(cli, ["odds", "--rules", "aarhe", "--battle", "sea", "--attacker", "1 destroyer",
                                         "--defender", "1 destroyer", "--explain"]).output
    assert "break off [AARHE-BREAKOFF-mutual] (calculator: no side breaks off)" in explained


@pytest.mark.rule("AARHE-BREAKOFF-table")
def test_the_stance_reads_and_prints_as_text() -> None:
    g = sea_fight(UK_FLEET)
    g.apply({"type": "press"}, power=GER)
    line = format_decision(g.state.pending)
    assert line.startswith("Germany chooses: press-on or break-off in SZ 6")
    assert "choose press-on | choose break-off" in line
    action = parse_action_text("choose break-off", g.ruleset)
    assert action == {"type": "choose", "option": "break-off"} and format_action(action) == "choose break-off"
    assert refused(g, {"type": "choose", "option": "retreat"}, GER) == nr.R_TABLE


@pytest.mark.rule("AARHE-CARRIER-nav-only-sea-retreat")
@pytest.mark.parametrize("nav", [True, False])
def test_with_the_naval_fighter_only_it_retreats_to_a_sea_zone(nav: bool) -> None:
    aircraft = "1 naval fighter, 1 fighter" if nav else "1 fighter"
    fleets = {"SZ 5": "Germany: 2 destroyer", "SZ 6": f"United Kingdom: 1 carrier, {aircraft}",
              "SZ 8": "United Kingdom: 1 carrier"}
    g = at(GER, "combat-move", fleets, options={"naval_fighter": nav})
    g.apply({"type": "move", "units": "2 destroyer", "path": ["SZ 5", "SZ 6"]})
    g.apply({"type": "end_phase"})
    site = next(b for b in open_battles(g.state, g.ruleset) if b.space == "SZ 6")
    battle = board_battle(g.state, g.ruleset, site)

    def route(unit: str) -> Any:
        return nr.retreat_routes(None, g.ruleset, g.state, site, battle, "defender", None, {"SZ 8": {unit: 1}})

    if nav:
        assert route("naval_fighter") == (("SZ 8", "naval_fighter", 1),)
        with pytest.raises(IllegalAction) as err:
            route("fighter")
        assert err.value.rule_id == nr.R_NAV_ONLY
        assert nr.retreat_routes(None, g.ruleset, g.state, site, battle, "defender", None,
                                 {"United Kingdom": {"fighter": 1}}) == (("United Kingdom", "fighter", 1),)
    else:
        assert route("fighter") == (("SZ 8", "fighter", 1),)


@pytest.mark.rule("AARHE-ORDER-team-concurrency", "AARHE-NAVALRETREAT-defender")
def test_a_battle_keeps_the_retreats_it_began_with_while_a_teammate_moves_on() -> None:
    """A Russian destroyer closes the German's only retreats when the British battle begins; Russia, done with its
    battles, sails one away in non-combat move before the German answers: the battle goes on as it began (the
    German declares its stance, it gains no retreat), and the log replays."""
    start = at(UK, "combat-move", {"SZ 11": "United Kingdom: 2 destroyer", "SZ 10": "Germany: 1 destroyer",
                                   "SZ 9": "Russia: 1 destroyer", "SZ 19": "Russia: 1 destroyer"}, dice=MISSES)
    members = {p: {"phase": "combat-move", "status": "acting", "pending": None} for p in (UK, RUS)}
    g = Game(GameLog(replace(start.state, members=members)), start.dice)
    g.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 11", "SZ 10"]}, power=UK)
    g.apply({"type": "end_phase"}, power=UK)
    g.apply({"type": "end_phase"}, power=RUS)
    g.apply({"type": "fight", "space": "SZ 10"}, power=UK)
    g.apply({"type": "press"}, power=UK)
    g.apply({"type": "choose", "option": "press-on"}, power=UK)
    pending = g.state.members[UK]["pending"]
    assert (pending["kind"], pending["power"], pending["choices"]) == ("choose_option", GER, ["remain", "break-off"])
    g.apply({"type": "end_phase"}, power=RUS)
    g.apply({"type": "move", "units": "1 destroyer", "path": ["SZ 9", "SZ 8"]}, power=RUS)  # SZ 9 is free now
    g.apply({"type": "choose", "option": "remain"}, power=GER)
    pending = g.state.members[UK]["pending"]
    assert (pending["kind"], pending["power"], pending["cycle"]) == ("press_or_retreat", UK, 2)
    assert GameLog.from_json(g.log.to_json()).state == g.log.state
