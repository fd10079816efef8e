"""AARHE Phase 1 technologies in force once developed (and not before): Super Subs, Long-range aircraft, Jet Fighters,
Heavy Bombers."""

from __future__ import annotations

from dataclasses import replace

import pytest

from aare.engine import Game
from aare.game_log import GameLog
from aare.odds import odds
from tests.aarhe_p1.common import GER, RULES
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
