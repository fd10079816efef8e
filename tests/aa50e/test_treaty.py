"""Anniversary Enhanced Russia-Japan non-aggression treaty: in force at the start, broken by attacks on the other's
original (printed-colour) land, void by the listed acts, one set of 4 free infantry, then out of play
(AA50E-NAP-*)."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.summary import summary
from aare.engine import Game
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.state.unit_stacks import Stack, count_units
from tests.aa50.common import position
from tests.movement.helpers import end, move, rejected

RULES = "aa50e-1941"
GER, SOV, JPN, UK, ITA, US, CHN = ("Germany", "Soviet Union", "Japan", "United Kingdom", "Italy", "United States",
                                   "China")
R = "AA50E-NAP-"


def at(nation: str, phase: str, units: dict[str, str], **kw: Any) -> Game:
    return position(nation, phase, units, rules=RULES, **kw)


def treaty(game: Game) -> dict[str, Any]:
    return dict(game.state.extra["treaty"])


def infantry(game: Game, space: str, owner: str) -> int:
    return count_units(game.state.stacks(space), owner).get("infantry", 0)


def added(game: Game) -> list[tuple[str, str, int, str]]:
    return [(e.space, e.stack.owner, e.stack.count, e.rule_id) for e in game.log.entries[-1].events
            if e.type == "units_added"]


def to_combat(game: Game) -> None:
    end(game)
    assert game.state.phase == "conduct-combat"


def soviet_attacks_fic_and_manchuria() -> Game:
    """The Soviet Union attacks orange French Indo-China (from Yunnan) and Chinese-coloured Manchuria."""
    game = at(SOV, "combat-move", {"French Indo-China Thailand": "Japan: 1 infantry", "Manchuria": "Japan: 1 infantry",
                                   "Yunnan": "Soviet Union: 2 infantry", "Buryatia S.S.R.": "Soviet Union: 2 infantry"},
              owners={"Yunnan": SOV})
    move(game, "2 infantry", "Yunnan", "French Indo-China Thailand")
    move(game, "2 infantry", "Buryatia S.S.R.", "Manchuria")
    to_combat(game)
    return game


@pytest.mark.rule(R + "starts-in-force")
@pytest.mark.parametrize("rules", ["aa50e-1941", "aa50e-1942"])
def test_the_treaty_is_in_force_at_the_start_of_both_scenarios(rules: str) -> None:
    state = new_game(rules, seed=1).state
    assert state.extra["treaty"] == {"status": "active", "round": None, "by": None, "reasons": [], "infantry": None,
                                     "pending": []}
    assert summary(state)["treaty"]["status"] == "active"
    assert "aa50e_treaty" in [m.id for m in load_ruleset(rules).modules]
    assert all("treaty" not in o.key for m in load_ruleset(rules).modules for o in m.options)  # not an option
    base = "aa50-" + rules.split("-")[1]
    assert "treaty" not in new_game(base, seed=1).state.extra  # the Anniversary game has none


@pytest.mark.rule(R + "break-russia-attacks-orange")
def test_a_soviet_attack_on_orange_land_breaks_it_on_chinese_coloured_land_it_does_not() -> None:
    game = at(SOV, "combat-move", {"French Indo-China Thailand": "Japan: 1 infantry",
                                   "Yunnan": "Soviet Union: 2 infantry"}, owners={"Yunnan": SOV})
    move(game, "2 infantry", "Yunnan", "French Indo-China Thailand")
    assert treaty(game)["status"] == "active"  # settled when combat begins
    to_combat(game)
    record = treaty(game)
    assert (record["status"], record["by"], record["reasons"][0]["rule"]) == (
        "broken", SOV, R + "break-russia-attacks-orange")
    assert record["infantry"] == {"power": JPN, "space": "French Indo-China Thailand", "count": 4}
    assert infantry(game, "French Indo-China Thailand", JPN) == 5
    # Manchuria and Kiangsu start under Japan but are Chinese by colour (and Kwangtung British in 1942): a void
    for space, start in (("Manchuria", "Buryatia S.S.R."), ("Kiangsu", "Manchuria")):
        other = at(SOV, "combat-move", {space: "Japan: 1 infantry", start: "Soviet Union: 2 infantry"},
                   owners={start: SOV})
        move(other, "2 infantry", start, space)
        to_combat(other)
        assert treaty(other)["status"] == "void" and infantry(other, space, JPN) == 1
    board = load_ruleset("aa50e-1942").board
    assert (board.space("Kwangtung").owner, board.owners["Kwangtung"]) == (UK, JPN)


@pytest.mark.rule(R + "break-japan-attacks-red")
def test_a_japanese_attack_on_red_land_breaks_it() -> None:
    game = at(JPN, "combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 infantry", "Manchuria": "Japan: 2 infantry"})
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(game)
    record = treaty(game)
    assert (record["status"], record["by"], record["reasons"][0]["rule"]) == (
        "broken", JPN, R + "break-japan-attacks-red")
    assert infantry(game, "Buryatia S.S.R.", SOV) == 5


@pytest.mark.rule(R + "break-free-infantry")
def test_the_defender_places_four_free_infantry_there_before_the_battle() -> None:
    game = at(JPN, "combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 infantry", "Manchuria": "Japan: 2 infantry"},
              banks={SOV: 0})
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(game)
    assert added(game) == [("Buryatia S.S.R.", SOV, 4, R + "break-free-infantry")]
    assert not [e for e in game.log.entries[-1].events if e.type == "dice_rolled"]  # before any die
    assert game.state.banks[SOV] == 0  # free
    events = game.apply({"type": "fight", "space": "Buryatia S.S.R."})
    fire = [e.purpose for e in events if e.type == "dice_rolled"]
    assert any("defender fire: Soviet Union 5 infantry" in p for p in fire)  # they defend in that battle


@pytest.mark.rule(R + "break-multiple-targets")
def test_several_attacked_red_territories_the_defender_picks_one() -> None:
    game = at(JPN, "combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 infantry",
                                   "Soviet Far East": "Soviet Union: 1 infantry", "Manchuria": "Japan: 1 infantry"},
              stacks=(("SZ 63", Stack(JPN, "transport", 1, flags=("cargo=Japan:infantry,Japan:infantry",))),))
    move(game, "1 infantry", "Manchuria", "Buryatia S.S.R.")
    move(game, "2 infantry", "SZ 63", "Soviet Far East")
    to_combat(game)
    pending = game.state.pending
    assert pending is not None and (pending["kind"], pending["power"], pending["rule"]) == (
        "treaty_infantry", SOV, R + "break-multiple-targets")
    assert [a.space for a in game.legal_actions()] == ["Buryatia S.S.R.", "Soviet Far East"]
    rejected(game, {"type": "treaty_infantry", "space": "Russia"}, R + "break-multiple-targets")
    game.apply({"type": "treaty_infantry", "space": "Soviet Far East"})
    assert (infantry(game, "Soviet Far East", SOV), infantry(game, "Buryatia S.S.R.", SOV)) == (5, 1)
    assert game.state.pending is None and treaty(game)["infantry"]["space"] == "Soviet Far East"


@pytest.mark.rule(R + "void-russia-attacks-japanese-nonorange")
def test_a_soviet_attack_on_japanese_held_manchuria_voids_it() -> None:
    game = at(SOV, "combat-move", {"Manchuria": "Japan: 1 infantry", "Buryatia S.S.R.": "Soviet Union: 2 infantry"})
    move(game, "2 infantry", "Buryatia S.S.R.", "Manchuria")
    to_combat(game)
    record = treaty(game)
    assert (record["status"], record["reasons"][0]["rule"]) == ("void", R + "void-russia-attacks-japanese-nonorange")
    assert record["infantry"] == {"power": JPN, "space": "Japan", "count": 4}
    assert infantry(game, "Japan", JPN) == 4 and infantry(game, "Manchuria", JPN) == 1


@pytest.mark.rule(R + "void-japan-attacks-russian-nonred")
def test_a_japanese_attack_on_soviet_held_chinese_land_voids_it() -> None:
    game = at(JPN, "combat-move", {"Kiangsu": "Soviet Union: 1 infantry", "Manchuria": "Japan: 2 infantry"},
              owners={"Kiangsu": SOV})
    move(game, "2 infantry", "Manchuria", "Kiangsu")
    to_combat(game)
    record = treaty(game)
    assert (record["status"], record["reasons"][0]["rule"]) == ("void", R + "void-japan-attacks-russian-nonred")
    assert infantry(game, "Russia", SOV) == 4 and infantry(game, "Kiangsu", SOV) == 1


@pytest.mark.rule(R + "void-russia-enters-allied-orange")
@pytest.mark.parametrize(("holder", "space", "path"), [
    (US, "Okinawa", ("Buryatia S.S.R.", "SZ 62", "SZ 60", "Okinawa")),
    (UK, "Formosa", ("Buryatia S.S.R.", "SZ 62", "SZ 61", "Formosa")),
    (CHN, "Formosa", ("Buryatia S.S.R.", "SZ 62", "SZ 61", "Formosa")),
])
def test_soviet_units_in_allied_held_orange_land_void_it(holder: str, space: str, path: tuple[str, ...]) -> None:
    game = at(SOV, "non-combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 fighter"}, owners={space: holder})
    move(game, "1 fighter", *path)
    record = treaty(game)
    assert (record["status"], record["reasons"][0]["rule"]) == ("void", R + "void-russia-enters-allied-orange")
    assert infantry(game, "Japan", JPN) == 4  # Japan is the infringed nation
    # the same flight to Soviet-held orange land (or a Japanese-held one, an attack) is no such entry
    own = at(SOV, "non-combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 fighter"}, owners={space: SOV})
    move(own, "1 fighter", *path)
    assert treaty(own)["status"] == "active"


@pytest.mark.rule(R + "void-japan-enters-axis-red")
@pytest.mark.parametrize("holder", [GER, ITA])
def test_japanese_units_in_axis_held_red_land_void_it(holder: str) -> None:
    game = at(JPN, "non-combat-move", {"Kazakh S.S.R.": "Japan: 1 armour"},
              owners={"Kazakh S.S.R.": JPN, "Caucasus": holder})
    move(game, "1 armour", "Kazakh S.S.R.", "Caucasus")
    record = treaty(game)
    assert (record["status"], record["reasons"][0]["rule"]) == ("void", R + "void-japan-enters-axis-red")
    assert infantry(game, "Russia", SOV) == 4


@pytest.mark.rule(R + "void-overflight")
def test_flying_over_the_others_land_without_fighting_voids_it() -> None:
    game = at(SOV, "non-combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 fighter"}, owners={"Kiangsu": SOV})
    move(game, "1 fighter", "Buryatia S.S.R.", "Manchuria", "Kiangsu")
    assert (treaty(game)["status"], treaty(game)["reasons"][0]["rule"]) == ("void", R + "void-overflight")
    assert infantry(game, "Japan", JPN) == 4
    japan = at(JPN, "non-combat-move", {"Kiangsu": "Japan: 1 fighter"}, owners={"Kiangsu": JPN, "Buryatia S.S.R.": JPN})
    move(japan, "1 fighter", "Kiangsu", "Suiyuan", "Manchuria")  # over Chinese-held land: nothing
    assert treaty(japan)["status"] == "active"
    fight = at(SOV, "combat-move", {"Manchuria": "Japan: 1 infantry",
                                    "Buryatia S.S.R.": "Soviet Union: 1 fighter, 1 infantry"})
    move(fight, "1 infantry, 1 fighter", "Buryatia S.S.R.", "Manchuria")  # fighting there is no overflight
    to_combat(fight)
    assert [r["rule"] for r in treaty(fight)["reasons"]] == [R + "void-russia-attacks-japanese-nonorange"]


@pytest.mark.rule(R + "void-naval-attack")
def test_attacking_the_others_ships_voids_it() -> None:
    game = at(SOV, "combat-move", {"SZ 62": "Japan: 1 transport", "SZ 63": "Soviet Union: 1 submarine"})
    move(game, "1 submarine", "SZ 63", "SZ 62")
    to_combat(game)
    assert (treaty(game)["status"], treaty(game)["reasons"][0]["rule"]) == ("void", R + "void-naval-attack")
    assert infantry(game, "Japan", JPN) == 4
    mixed = at(JPN, "combat-move", {"SZ 63": "United Kingdom: 1 destroyer; Soviet Union: 1 submarine",
                                    "SZ 62": "Japan: 2 destroyers"})
    move(mixed, "2 destroyers", "SZ 62", "SZ 63")
    to_combat(mixed)
    assert treaty(mixed)["status"] == "void" and infantry(mixed, "Russia", SOV) == 4


@pytest.mark.rule(R + "void-economic-attack")
def test_economic_attacks_between_them_void_it() -> None:
    raid = at(SOV, "combat-move", {"Japan": "Japan: 1 factory", "Buryatia S.S.R.": "Soviet Union: 1 bomber"})
    move(raid, "1 bomber", "Buryatia S.S.R.", "SZ 62", "Japan", raid=True)
    to_combat(raid)
    assert (treaty(raid)["status"], treaty(raid)["reasons"][0]["rule"]) == ("void", R + "void-economic-attack")
    assert infantry(raid, "Japan", JPN) == 4
    rocket = at(JPN, "conduct-combat", {"Manchuria": "Japan: 1 aa_gun", "Buryatia S.S.R.": "Soviet Union: 1 factory"},
                techs={JPN: ["rockets"]}, dice=[3])
    rocket.apply({"type": "rocket", "launcher": "Manchuria", "target": "Buryatia S.S.R."})
    assert treaty(rocket)["status"] == "void" and infantry(rocket, "Russia", SOV) == 4
    # a Soviet submarine next to Japan's complex at Japan's collect income takes an IPC: void, 4 infantry in Japan
    convoy = at(JPN, "mobilize", {"Japan": "Japan: 1 factory", "SZ 62": "Soviet Union: 1 submarine"})
    end(convoy)
    assert convoy.state.phase == "collect-income"
    assert treaty(convoy)["status"] == "void" and treaty(convoy)["by"] == SOV
    assert treaty(convoy)["reasons"][0]["rule"] == R + "void-economic-attack"
    assert infantry(convoy, "Japan", JPN) == 4
    # an American submarine there is no Soviet act
    german = at(JPN, "mobilize", {"Japan": "Japan: 1 factory", "SZ 62": "United States: 1 submarine"})
    end(german)
    assert treaty(german)["status"] == "active" and german.state.extra["convoy"]["raids"]


@pytest.mark.rule(R + "void-free-infantry")
def test_the_infringed_nation_places_four_infantry_in_its_capital_at_once_for_nothing() -> None:
    game = at(SOV, "non-combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 fighter"}, owners={"Kiangsu": SOV},
              banks={JPN: 7})
    move(game, "1 fighter", "Buryatia S.S.R.", "Manchuria", "Kiangsu")
    assert added(game) == [("Japan", JPN, 4, R + "void-free-infantry")]
    assert game.state.banks[JPN] == 7 and game.state.pending is None


@pytest.mark.rule(R + "void-capital-captured")
@pytest.mark.parametrize(("attacker", "capital", "start"), [(GER, "Russia", "Caucasus"), (US, "Japan", "SZ 62")])
def test_a_captured_capital_voids_it_without_infantry(attacker: str, capital: str, start: str) -> None:
    kind = "armour" if attacker == GER else "infantry"
    flags = ("turn:combat", f"turn:from={start}") if attacker == GER else ("turn:combat", "turn:amphibious=SZ 62")
    game = at(attacker, "conduct-combat", {}, stacks=((capital, Stack(attacker, kind, 1, flags=flags)),))
    game.apply({"type": "fight", "space": capital})
    assert game.state.owners[capital] == attacker
    record = treaty(game)
    assert (record["status"], record["infantry"], record["reasons"][0]["rule"]) == (
        "void", None, R + "void-capital-captured")
    assert not [e for e in game.log.entries[-1].events if e.type == "units_added"]


@pytest.mark.rule(R + "void-and-broken-same-phase")
def test_void_and_break_in_one_combat_move_give_one_set_where_the_defender_chooses() -> None:
    game = soviet_attacks_fic_and_manchuria()
    pending = game.state.pending
    assert pending is not None and pending["rule"] == R + "void-and-broken-same-phase"
    assert sorted(o["space"] for o in pending["options"]) == ["French Indo-China Thailand", "Japan"]
    rejected(game, {"type": "treaty_infantry", "space": "Manchuria"}, R + "void-and-broken-same-phase")
    game.apply({"type": "treaty_infantry", "space": "Japan"})
    total = sum(infantry(game, s, JPN) for s in ("Japan", "French Indo-China Thailand", "Manchuria"))
    assert total == 4 + 2 and infantry(game, "Japan", JPN) == 4
    assert treaty(game)["status"] == "broken"
    other = soviet_attacks_fic_and_manchuria()
    other.apply({"type": "treaty_infantry", "space": "French Indo-China Thailand"})
    assert (infantry(other, "French Indo-China Thailand", JPN), infantry(other, "Japan", JPN)) == (5, 0)


@pytest.mark.rule(R + "unlisted-actions")
def test_other_acts_leave_it_in_force() -> None:
    japan = at(JPN, "combat-move", {"India": "United Kingdom: 1 infantry; Soviet Union: 1 infantry",
                                    "Burma": "Japan: 2 armour"}, owners={"Burma": JPN})
    move(japan, "2 armour", "Burma", "India")  # a Soviet unit among the British defenders of British land
    to_combat(japan)
    assert treaty(japan)["status"] == "active"
    soviet = at(SOV, "combat-move", {"Ukraine": "Germany: 1 infantry", "Caucasus": "Soviet Union: 2 infantry"},
                owners={"Ukraine": GER})
    move(soviet, "2 infantry", "Caucasus", "Ukraine")  # retaking red land from Germany
    to_combat(soviet)
    assert treaty(soviet)["status"] == "active"
    # Soviet ships share a sea zone with a Japanese submarine without a battle
    ships = at(SOV, "non-combat-move", {"SZ 63": "Soviet Union: 1 transport", "SZ 62": "Japan: 1 submarine"})
    move(ships, "1 transport", "SZ 63", "SZ 62")
    assert treaty(ships)["status"] == "active"
    assert infantry(ships, "Japan", JPN) == 0


@pytest.mark.rule(R + "one-time")
def test_once_ended_the_treaty_is_out_of_play() -> None:
    broken = {"treaty": {"status": "broken", "round": 2, "by": JPN, "reasons": [], "infantry": None, "pending": []}}
    game = at(JPN, "combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 infantry", "Manchuria": "Japan: 2 infantry"},
              extra=broken)
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(game)
    assert infantry(game, "Buryatia S.S.R.", SOV) == 1 and treaty(game)["status"] == "broken"
    assert not [a for a in game.legal_actions() if a.type == "treaty_infantry"]
    rejected(game, {"type": "treaty_infantry", "space": "Russia"}, R + "one-time")
    # a void after a break: nothing either
    void = at(SOV, "non-combat-move", {"Buryatia S.S.R.": "Soviet Union: 1 fighter"}, owners={"Kiangsu": SOV},
              extra=broken)
    move(void, "1 fighter", "Buryatia S.S.R.", "Manchuria", "Kiangsu")
    assert infantry(void, "Japan", JPN) == 0 and treaty(void)["round"] == 2
