"""AARe Russia-Japan non-aggression treaty: what breaks it, what voids it, the free infantry, and that it stays
out of play afterwards (AARE-NAT-*)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.action_text import format_action, parse_action_text
from aare.cli.main import cli
from aare.economy.summary import summary
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import save_log
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.state.unit_stacks import Stack, count_units
from tests.aare.common import GER, JPN, RULES, RUS, UK, position
from tests.movement.helpers import end, move

SIBERIAN = {"advantages": {"declared": {RUS: [{"id": "siberian_conscripts", "round": 1, "phase": "develop-weapons",
                                              "delayed": False}]}}}


def treaty(game: Game) -> dict[str, Any]:
    return dict(game.state.extra["treaty"])


def infantry(game: Game, space: str, owner: str) -> int:
    return count_units(game.state.stacks(space), owner).get("infantry", 0)


def combat(nation: str, placed: Mapping[str, str], **kwargs: Any) -> Game:
    return position(nation, "combat-move", placed, **kwargs)


def to_combat(game: Game) -> None:
    end(game)
    assert game.state.phase == "conduct-combat"


@pytest.mark.rule("AARE-NAT-initial-state")
def test_the_treaty_is_active_at_the_start() -> None:
    state = new_game(RULES, seed=1).state
    assert state.extra["treaty"] == {"status": "active", "round": None, "by": None, "reasons": [], "infantry": None,
                                     "pending": []}
    assert summary(state)["treaty"]["status"] == "active"
    off = new_game(RULES, {"non_aggression_treaty": False}, seed=1).state
    assert "treaty" not in off.extra


@pytest.mark.rule("AARE-NAT-break-russia-attacks-orange")
def test_russia_attacking_original_japanese_land_breaks_it() -> None:
    game = combat(RUS, {"Manchuria": "Japan: 1 infantry", "Buryatia S.S.R.": "Russia: 2 infantry"})
    move(game, "2 infantry", "Buryatia S.S.R.", "Manchuria")
    assert treaty(game)["status"] == "active"  # settled when combat begins
    to_combat(game)
    record = treaty(game)
    assert (record["status"], record["by"], record["infantry"]) == (
        "broken", RUS, {"power": JPN, "space": "Manchuria", "count": 4})
    assert infantry(game, "Manchuria", JPN) == 5


@pytest.mark.rule("AARE-NAT-break-japan-attacks-red")
def test_japan_attacking_original_russian_land_breaks_it() -> None:
    game = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 infantry", "Manchuria": "Japan: 2 infantry"})
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(game)
    assert treaty(game)["status"] == "broken"
    assert treaty(game)["reasons"][0]["rule"] == "AARE-NAT-break-japan-attacks-red"


@pytest.mark.rule("AARE-NAT-break-free-inf")
def test_the_defender_gets_four_infantry_before_the_battle() -> None:
    game = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 infantry", "Manchuria": "Japan: 2 infantry"})
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(game)
    assert infantry(game, "Buryatia S.S.R.", RUS) == 5
    assert not [e for e in game.log.entries[-1].events if e.type == "dice_rolled"]  # before any die
    added = [e for e in game.log.entries[-1].events if e.type == "units_added"]
    assert [(e.space, e.stack.count, e.rule_id) for e in added] == [("Buryatia S.S.R.", 4, "AARE-NAT-break-free-inf")]
    conscripts = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 infantry", "Manchuria": "Japan: 2 infantry"},
                        extra=SIBERIAN)
    move(conscripts, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(conscripts)
    assert infantry(conscripts, "Buryatia S.S.R.", RUS) == 7  # Siberian Conscripts: 6


@pytest.mark.rule("AARE-NAT-break-single-territory")
def test_several_attacked_territories_the_defender_picks_one() -> None:
    game = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 infantry", "Soviet Far East": "Russia: 1 infantry",
                        "Manchuria": "Japan: 1 infantry"},
                  stacks=[("SZ 62", Stack(JPN, "transport", 1, flags=("cargo=Japan:infantry,Japan:infantry",)))])
    move(game, "1 infantry", "Manchuria", "Buryatia S.S.R.")
    move(game, "2 infantry", "SZ 62", "Soviet Far East")
    to_combat(game)
    pending = game.state.pending
    assert pending is not None and (pending["kind"], pending["power"]) == ("treaty_infantry", RUS)
    assert [a.space for a in game.legal_actions()] == ["Buryatia S.S.R.", "Soviet Far East"]
    with pytest.raises(IllegalAction):
        game.apply({"type": "fight", "space": "Soviet Far East"})  # the choice comes first
    with pytest.raises(IllegalAction):
        game.apply({"type": "treaty_infantry", "space": "Russia"})
    game.apply({"type": "treaty_infantry", "space": "Soviet Far East"})
    assert (infantry(game, "Soviet Far East", RUS), infantry(game, "Buryatia S.S.R.", RUS)) == (5, 1)
    assert game.state.pending is None and treaty(game)["infantry"]["space"] == "Soviet Far East"


@pytest.mark.rule("AARE-NAT-void-russia-attacks-japanese-nonorange")
def test_russia_attacking_other_japanese_land_voids_it() -> None:
    game = combat(RUS, {"China": "Japan: 1 infantry", "Sinkiang": "Russia: 2 infantry"},
                  owners={"China": JPN, "Sinkiang": RUS})
    move(game, "2 infantry", "Sinkiang", "China")
    to_combat(game)
    assert treaty(game)["status"] == "void" and treaty(game)["infantry"] == {"power": JPN, "space": "Japan", "count": 4}
    assert infantry(game, "Japan", JPN) == 4 and infantry(game, "China", JPN) == 1


@pytest.mark.rule("AARE-NAT-void-japan-attacks-russian-nonred")
def test_japan_attacking_other_russian_land_voids_it() -> None:
    game = combat(JPN, {"Sinkiang": "Russia: 1 infantry", "China": "Japan: 2 infantry"},
                  owners={"China": JPN, "Sinkiang": RUS})
    move(game, "2 infantry", "China", "Sinkiang")
    to_combat(game)
    assert treaty(game)["status"] == "void" and infantry(game, "Russia", RUS) == 4


@pytest.mark.rule("AARE-NAT-void-russia-enters-allied-orange")
def test_russian_units_in_uk_held_orange_land_void_it() -> None:
    game = position(RUS, "non-combat-move", {"India": "Russia: 1 fighter"}, owners={"French Indochina": UK})
    move(game, "1 fighter", "India", "French Indochina")
    assert treaty(game)["status"] == "void" and infantry(game, "Japan", JPN) == 4
    assert treaty(game)["reasons"][0]["rule"] == "AARE-NAT-void-russia-enters-allied-orange"


@pytest.mark.rule("AARE-NAT-void-japan-enters-german-red")
def test_japanese_units_in_german_held_red_land_void_it() -> None:
    game = position(JPN, "non-combat-move", {"Kazakh S.S.R.": "Japan: 1 armour"},
                    owners={"Kazakh S.S.R.": JPN, "Caucasus": GER})
    move(game, "1 armour", "Kazakh S.S.R.", "Caucasus")
    assert treaty(game)["status"] == "void" and infantry(game, "Russia", RUS) == 4


@pytest.mark.rule("AARE-NAT-void-overflight")
def test_flying_over_the_partners_land_without_fighting_voids_it() -> None:
    game = position(RUS, "non-combat-move", {"Buryatia S.S.R.": "Russia: 1 fighter"}, owners={"China": RUS})
    move(game, "1 fighter", "Buryatia S.S.R.", "Manchuria", "China")
    assert treaty(game)["reasons"][0]["rule"] == "AARE-NAT-void-overflight"
    fight = combat(RUS, {"Manchuria": "Japan: 1 infantry", "Buryatia S.S.R.": "Russia: 1 fighter, 1 infantry"})
    move(fight, "1 infantry, 1 fighter", "Buryatia S.S.R.", "Manchuria")  # fighting there is no overflight
    to_combat(fight)
    assert [r["kind"] for r in treaty(fight)["reasons"]] == ["break"]


@pytest.mark.rule("AARE-NAT-void-naval-attack")
def test_attacking_the_partners_ships_voids_it() -> None:
    game = combat(RUS, {"SZ 60": "Japan: 1 transport", "SZ 62": "Russia: 1 submarine"})
    move(game, "1 submarine", "SZ 62", "SZ 60")
    to_combat(game)
    assert treaty(game)["status"] == "void" and treaty(game)["reasons"][0]["rule"] == "AARE-NAT-void-naval-attack"
    assert infantry(game, "Japan", JPN) == 4
    mixed = combat(JPN, {"SZ 60": "United Kingdom: 1 destroyer; Russia: 1 submarine", "SZ 61": "Japan: 2 destroyers"})
    move(mixed, "2 destroyers", "SZ 61", "SZ 60")
    to_combat(mixed)
    assert treaty(mixed)["status"] == "void"  # a Russian ship among the defenders counts


@pytest.mark.rule("AARE-NAT-void-economic-attack")
def test_economic_attacks_between_them_void_it() -> None:
    raid = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 factory", "Manchuria": "Japan: 1 bomber"})
    move(raid, "1 bomber", "Manchuria", "Buryatia S.S.R.", raid=True)
    to_combat(raid)
    assert treaty(raid)["reasons"][0]["rule"] == "AARE-NAT-void-economic-attack"
    assert infantry(raid, "Russia", RUS) == 4
    rocket = position(JPN, "conduct-combat", {"Manchuria": "Japan: 1 aa_gun", "Buryatia S.S.R.": "Russia: 1 factory"},
                      techs={JPN: ["rockets"]}, dice=[3])
    rocket.apply({"type": "rocket", "launcher": "Manchuria", "target": "Buryatia S.S.R."})
    assert treaty(rocket)["status"] == "void" and infantry(rocket, "Russia", RUS) == 4
    convoy = position(JPN, "mobilize", {"Japan": "Japan: 1 factory", "SZ 60": "Russia: 1 submarine"})
    end(convoy)
    assert treaty(convoy)["status"] == "void" and treaty(convoy)["by"] == RUS
    assert infantry(convoy, "Japan", JPN) == 4  # Japan was infringed upon


@pytest.mark.rule("AARE-NAT-void-free-inf")
def test_the_infringed_nation_places_four_infantry_in_its_capital_at_once() -> None:
    game = position(RUS, "non-combat-move", {"Buryatia S.S.R.": "Russia: 1 fighter"}, owners={"China": RUS})
    move(game, "1 fighter", "Buryatia S.S.R.", "Manchuria", "China")
    added = [e for e in game.log.entries[-1].events if e.type == "units_added"]
    assert [(e.space, e.stack.owner, e.stack.count, e.rule_id) for e in added] == [
        ("Japan", JPN, 4, "AARE-NAT-void-free-inf")]
    conscripts = position(JPN, "non-combat-move", {"Kazakh S.S.R.": "Japan: 1 armour"}, extra=SIBERIAN,
                          owners={"Kazakh S.S.R.": JPN, "Caucasus": GER})
    move(conscripts, "1 armour", "Kazakh S.S.R.", "Caucasus")
    assert infantry(conscripts, "Russia", RUS) == 6


@pytest.mark.rule("AARE-NAT-void-capital-capture")
def test_a_captured_capital_voids_it_without_infantry() -> None:
    game = position(GER, "conduct-combat", {}, stacks=[
        ("Russia", Stack(GER, "armour", 1, flags=("turn:combat", "turn:from=West Russia")))])
    game.apply({"type": "fight", "space": "Russia"})
    assert game.state.owners["Russia"] == GER
    record = treaty(game)
    assert (record["status"], record["infantry"], record["reasons"][0]["rule"]) == (
        "void", None, "AARE-NAT-void-capital-capture")
    assert not [e for e in game.log.entries[-1].events if e.type == "units_added"]


@pytest.mark.rule("AARE-NAT-void-and-break-same-phase")
def test_void_and_break_in_one_combat_move_give_one_set() -> None:
    game = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 infantry", "Manchuria": "Japan: 1 infantry",
                        "Sinkiang": "Russia: 1 infantry", "China": "Japan: 1 infantry"},
                  owners={"China": JPN, "Sinkiang": RUS})
    move(game, "1 infantry", "Manchuria", "Buryatia S.S.R.")
    move(game, "1 infantry", "China", "Sinkiang")
    to_combat(game)
    assert sorted(o["space"] for o in game.state.pending["options"]) == ["Buryatia S.S.R.", "Russia"]
    assert game.state.pending["rule"] == "AARE-NAT-void-and-break-same-phase"
    game.apply({"type": "treaty_infantry", "space": "Russia"})
    total = sum(infantry(game, s, RUS) for s in ("Russia", "Buryatia S.S.R.", "Sinkiang"))
    assert total == 4 + 2 and infantry(game, "Russia", RUS) == 4


@pytest.mark.rule("AARE-NAT-unlisted-actions-allowed")
def test_other_attacks_leave_it_active() -> None:
    japan = combat(JPN, {"India": "United Kingdom: 1 infantry; Russia: 1 infantry",
                         "French Indochina": "Japan: 2 armour"})
    move(japan, "2 armour", "French Indochina", "India")
    to_combat(japan)
    assert treaty(japan)["status"] == "active"
    russia = combat(RUS, {"Ukraine S.S.R.": "Germany: 1 infantry", "Caucasus": "Russia: 2 infantry"})
    move(russia, "2 infantry", "Caucasus", "Ukraine S.S.R.")
    to_combat(russia)
    assert treaty(russia)["status"] == "active"


@pytest.mark.rule("AARE-NAT-ends-permanently")
def test_once_ended_the_treaty_is_out_of_play() -> None:
    broken = {"treaty": {"status": "broken", "round": 2, "by": JPN, "reasons": [], "infantry": None, "pending": []}}
    game = combat(JPN, {"Buryatia S.S.R.": "Russia: 1 infantry", "Manchuria": "Japan: 2 infantry"}, extra=broken)
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")
    to_combat(game)
    assert infantry(game, "Buryatia S.S.R.", RUS) == 1 and treaty(game)["status"] == "broken"
    with pytest.raises(IllegalAction):
        game.apply({"type": "treaty_infantry", "space": "Russia"})


def test_treaty_text_notation() -> None:
    ruleset = load_ruleset(RULES)
    action = parse_action_text("treaty infantry in Buryatia S.S.R.", ruleset)
    assert action == {"type": "treaty_infantry", "space": "Buryatia S.S.R."}
    assert format_action(action) == "treaty infantry in Buryatia S.S.R."


def test_aare_show_prints_the_treaty_d_day_and_bid(tmp_path: Path) -> None:
    game = position(RUS, "non-combat-move", {"Buryatia S.S.R.": "Russia: 1 fighter"}, owners={"China": RUS})
    move(game, "1 fighter", "Buryatia S.S.R.", "Manchuria", "China")
    path = tmp_path / "g.json"
    save_log(game.log, path)
    shown = CliRunner().invoke(cli, ["show", str(path)])
    assert shown.exit_code == 0, shown.output
    text = " ".join(shown.output.split())
    assert "non-aggression treaty: void (round 1, by Russia; out of play); 4 free Japan infantry in Japan" in text
    assert "D-Day: available" in text and "straight bid:" in text
