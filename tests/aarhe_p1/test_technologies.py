"""AARHE Phase 1 technologies in force once developed (and not before): Super Subs, Long-range aircraft, Jet Fighters,
Heavy Bombers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.movement import flags
from aare.movement.pathing import remaining
from aare.movement.situation import situation
from aare.odds import odds
from aare.state.unit_stacks import Stack
from tests.aarhe_p1.common import GER, RULES, refused
from tests.classic.test_move_land import at as board_at
from tests.movement.helpers import move, mv, rejected

NONE: frozenset[str] = frozenset()


@pytest.mark.rule("AARHEP1-OPT-jet-defence")
def test_jet_fighters_defend_at_5() -> None:
    # one fighter (attack 3) against one: the attacker wins p(1-q) / (1 - (1-p)(1-q)), q the defence's chance
    assert odds("1 fighter", "1 fighter", RULES).attacker_win == pytest.approx(0.2)  # defends at 4
    jets = odds("1 fighter", "1 fighter", RULES, defender_techs=frozenset({"jet_fighters"}))
    assert jets.attacker_win == pytest.approx(1 / 11)  # defends at 5


@pytest.mark.rule("AARHEP1-OPT-super-subs-combat")
def test_super_subs_attack_and_defend_at_3() -> None:
    subs = frozenset({"super_submarines"})
    assert odds("1 submarine", "1 transport", RULES, battle="sea").attacker_win == pytest.approx(0.75)
    assert odds("1 submarine", "1 transport", RULES, battle="sea", attacker_techs=subs).attacker_win == \
        pytest.approx(6 / 7)
    plain = odds("1 destroyer", "1 submarine", RULES, battle="sea").defender_win
    better = odds("1 destroyer", "1 submarine", RULES, battle="sea", defender_techs=subs).defender_win
    assert (plain, better) == (pytest.approx(1 / 4), pytest.approx(1 / 3))


@pytest.mark.rule("AARHEP1-OPT-heavy-bomber-damage")
def test_heavy_bombers_raid_for_the_higher_of_two_dice() -> None:
    plain = odds("1 bomber", "", RULES, battle="raid", territory_value=12)
    heavy = odds("1 bomber", "", RULES, battle="raid", territory_value=12,
                 attacker_techs=frozenset({"heavy_bombers"}))
    survive = 5 / 6
    assert dict(plain.damage)[6] == pytest.approx(survive / 6)
    assert max(dict(heavy.damage)) == 6  # nothing added to the die
    assert dict(heavy.damage)[6] == pytest.approx(survive * 11 / 36)
    assert dict(heavy.damage)[1] == pytest.approx(survive / 36)


@pytest.mark.rule("AARHEP1-OPT-lra-fighters")
def test_long_range_fighters_move_6() -> None:
    path = ["Germany", "Balkans", "Ukraine S.S.R.", "Caucasus", "Persia", "India", "French Indochina"]
    plain = board_at(GER, "non-combat-move", {"Germany": "Germany: 1 fighter"}, rules=RULES)
    rejected(plain, mv("1 fighter", *path), "LHTR-AIRMOVE-range")
    longer = Game(GameLog(replace(plain.state, techs={GER: ("long_range_aircraft",)})))
    move(longer, "1 fighter", *path)


def with_techs(g: Game, power: str, *techs: str) -> Game:
    return Game(GameLog(replace(g.state, techs={power: techs})))


@pytest.mark.rule("AARHEP1-OPT-lra-bombers")
def test_long_range_bombers_fly_8_only_in_non_combat_move_after_no_combat_move() -> None:
    path = ["Germany", "Balkans", "SZ 16", "SZ 15", "SZ 34", "SZ 35", "SZ 36", "SZ 48", "Borneo"]
    idle = board_at(GER, "non-combat-move", {"Germany": "Germany: 1 bomber"}, rules=RULES)
    rejected(idle, mv("1 bomber", *path), "LHTR-AIRMOVE-range")
    move(with_techs(idle, GER, "long_range_aircraft"), "1 bomber", *path)
    fought = Stack(GER, "bomber", 1, moved=4, flags=(flags.COMBAT,))
    g = with_techs(board_at(GER, "non-combat-move", {}, rules=RULES, stacks=[("Germany", fought)]), GER,
                   "long_range_aircraft")
    rejected(g, mv("1 bomber", "Germany", "Balkans", "Ukraine S.S.R.", "West Russia"), "LHTR-AIRMOVE-range")
    move(g, "1 bomber", "Germany", "Balkans", "Ukraine S.S.R.")  # 6 less the 4 flown
    g = with_techs(board_at(GER, "combat-move", {"Germany": "Germany: 1 bomber"}, rules=RULES), GER,
                   "long_range_aircraft")
    view = situation(g.state, g.ruleset)
    assert remaining(view, g.state.stacks("Germany")[0], "Germany") == 6


@pytest.mark.rule("AARHEP1-OPT-super-subs-move")
def test_super_subs_move_3_in_non_combat_move() -> None:
    path = ["SZ 5", "SZ 6", "SZ 3", "SZ 2"]
    plain = board_at(GER, "non-combat-move", {"SZ 5": "Germany: 1 submarine"}, rules=RULES)
    rejected(plain, mv("1 submarine", *path), "LHTR-SEAMOVE-allowance")
    move(with_techs(plain, GER, "super_submarines"), "1 submarine", *path)
    fought = Stack(GER, "submarine", 1, moved=1, flags=(flags.COMBAT,))
    g = with_techs(board_at(GER, "non-combat-move", {}, rules=RULES, stacks=[("SZ 5", fought)]), GER,
                   "super_submarines")
    assert refused(g, mv("1 submarine", "SZ 5", "SZ 6"))


@pytest.mark.rule("AARHEP1-OPT-jet-aa")
def test_with_jet_fighters_the_nations_aa_guns_hit_on_2() -> None:
    bomber = 15  # IPCs lost when the bomber is shot down on a raid
    plain = odds("1 bomber", "", RULES, battle="raid", territory_value=12)
    jets = odds("1 bomber", "", RULES, battle="raid", territory_value=12, defender_techs=frozenset({"jet_fighters"}))
    assert (plain.attacker_ipc_lost, jets.attacker_ipc_lost) == (pytest.approx(bomber / 6), pytest.approx(bomber / 3))
