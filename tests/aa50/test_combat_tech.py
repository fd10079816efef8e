"""Anniversary combat technologies: Advanced Artillery, Super Submarines, Jet Fighters, Radar, Heavy Bombers."""

from __future__ import annotations

import pytest

from aare.odds import odds
from tests.aa50.common import battle, begun, dice_rolled, fire, move, position, to_combat
from tests.combat.helpers import play

GER, RUS = "Germany", "Soviet Union"
KARELIA = "Karelia S.S.R."


@pytest.mark.rule("AA50-RESEARCH-advanced-artillery")
def test_advanced_artillery_supports_two_infantry() -> None:
    b = battle("3 infantry, 1 artillery", "3 infantry", "land", attacker_techs={"advanced_artillery"})
    _, events = play(b, [6] * 7)
    assert fire(events, "attacker fire") == [("infantry", 2, 2), ("infantry", 1, 1), ("artillery", 1, 2)]


@pytest.mark.rule("AA50-RESEARCH-advanced-artillery")
def test_advanced_artillery_on_the_board() -> None:
    game = position(GER, "combat-move", {"Finland": "Germany: 2 infantry, 1 artillery",
                                         KARELIA: "Soviet Union: 1 infantry"}, techs={GER: ["advanced_artillery"]},
                    dice=[6, 6, 6, 6])
    move(game, "2 infantry, 1 artillery", "Finland", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    purposes = [e.purpose for entry in game.log.entries for e in entry.events  # type: ignore[attr-defined]
                if e.type == "dice_rolled"]
    assert any("2 infantry at 2" in p for p in purposes)


@pytest.mark.rule("AA50-RESEARCH-super-submarines")
def test_super_submarines_attack_at_3_and_still_defend_at_1() -> None:
    tech = {"super_submarines"}
    _, events = play(begun(battle("1 submarine", "1 submarine", attacker_techs=tech, defender_techs=tech)), [6, 6])
    assert fire(events) == [("submarine", 1, 3), ("submarine", 1, 1)]


@pytest.mark.rule("AA50-RESEARCH-jet-fighters")
def test_jet_fighters_attack_at_4_and_still_defend_at_4() -> None:
    tech = {"jet_fighters"}
    _, events = play(battle("1 fighter", "1 fighter", "land", attacker_techs=tech, defender_techs=tech), [6, 5])
    assert fire(events) == [("fighter", 1, 4), ("fighter", 1, 4)]


@pytest.mark.rule("AA50-RESEARCH-radar")
def test_radar_aa_guns_hit_on_2() -> None:
    b = battle("1 bomber, 1 armour", "1 infantry, 1 aa gun", "land", defender_techs={"radar"})
    _, events = play(b, [2, 6, 6])
    assert fire(events, "aa fire") == [("bomber", 1, 2)]
    assert fire(events, "attacker fire") == [("armour", 1, 3)]  # the bomber was shot down
    _, events = play(battle("1 bomber, 1 armour", "1 infantry, 1 aa gun", "land"), [2, 6, 6, 6])
    assert fire(events, "aa fire") == [("bomber", 1, 1)]


@pytest.mark.rule("AA50-RESEARCH-radar")
def test_radar_on_the_board() -> None:
    game = position(GER, "combat-move", {"Finland": "Germany: 1 armour", "Norway": "Germany: 1 fighter",
                                         KARELIA: "Soviet Union: 1 infantry, 1 aa gun"}, techs={RUS: ["radar"]},
                    dice=[2, 6, 6])
    move(game, "1 armour", "Finland", KARELIA)
    move(game, "1 fighter", "Norway", "Finland", KARELIA)
    to_combat(game)
    game.apply({"type": "fight", "space": KARELIA})
    assert dice_rolled(game)[:3] == [(2,), (6,), (6,)]  # the fighter is shot down on a 2: the armour alone fires


@pytest.mark.rule("AA50-RESEARCH-heavy-bombers")
def test_heavy_bombers_roll_two_dice_that_both_count_in_attack_one_in_defence() -> None:
    heavy = {"heavy_bombers"}
    b = battle("1 bomber", "2 infantry", "land", attacker_techs=heavy)
    _, events = play(b, [2, 4, 6, 6])
    assert next((e.dice, e.hits) for e in events if type(e).__name__ == "DiceRolled") == ((2, 4), 2)
    _, events = play(battle("1 armour", "1 bomber", "land", defender_techs=heavy), [6, 6])
    assert fire(events, "defender fire") == [("bomber", 1, 1)]
    assert [e.dice for e in events if type(e).__name__ == "DiceRolled"][1] == (6,)


@pytest.mark.rule("AA50-RESEARCH-heavy-bombers")
def test_heavy_bombers_best_of_two_as_an_option() -> None:
    b = battle("1 bomber", "2 infantry", "land", options={"heavy_bombers_best_of": True},
               attacker_techs={"heavy_bombers"})
    _, events = play(b, [2, 4, 6, 6])
    assert next((e.dice, e.hits) for e in events if type(e).__name__ == "DiceRolled") == ((2, 4), 1)


@pytest.mark.rule("AA50-RESEARCH-radar")
def test_radar_also_in_a_raid() -> None:
    plain = odds("1 bomber", "", "aa50-1942", battle="raid", territory_value=10)
    radar = odds("1 bomber", "", "aa50-1942", battle="raid", territory_value=10, defender_techs={"radar"})
    assert abs(plain.attacker_ipc_lost - 12 / 6) < 1e-12 and abs(radar.attacker_ipc_lost - 12 * 2 / 6) < 1e-12
