"""AARHE diplomacy and neutrals: rolls per power, their targets, dice and modifiers; what each position opens
(overflight, income, land entry); attacking a neutral, its army and who it joins; Rio de Oro."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.economy.summary import income
from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.rulesets.aarhe.diplomacy import RECORD, modifiers, position
from tests.aarhe.common import no_missions, refused
from tests.aarhe.move_common import at
from tests.movement.helpers import boat, end, move, mv, rejected, turn_began_with, units_in

GER, JAP, RUS, UK, US = "Germany", "Japan", "Russia", "United Kingdom", "United States"


def placed(positions: dict[str, int], movers: dict[str, str] | None = None) -> dict[str, Any]:
    """`extra` with the neutrals at `positions`."""
    return {RECORD: {"positions": positions, "movers": movers or {}, "used": {}}}


def diplomacy(power: str, **kwargs: Any) -> Game:
    """`power` in its diplomacy phase of round 2 (`at` takes the rest)."""
    g = at(power, "diplomacy", {}, **kwargs)
    return Game(GameLog(replace(g.state, round=2)), g.dice)


def roll(g: Any, neutral: str, power: str | None = None) -> None:
    g.apply({"type": "choose", "option": neutral}, power=power)


@pytest.mark.rule("AARHE-DIPLO-rolls-table")
def test_germany_and_the_us_roll_twice_a_turn_the_others_once() -> None:
    for power, rolls in ((GER, 2), (US, 2), (UK, 1), (RUS, 1), (JAP, 1)):
        g = diplomacy(power, dice=[6] * 5)
        assert {a.option for a in g.legal_actions() if a.type == "choose"} >= {"Turkey", "Sweden", "Spain"}
        for _ in range(rolls):
            roll(g, "Turkey")
        assert refused(g, {"type": "choose", "option": "Turkey"}) == "AARHE-DIPLO-rolls-table"
        assert not [a for a in g.legal_actions() if a.type == "choose"]


@pytest.mark.rule("AARHE-DIPLO-rolls-table")
def test_italy_has_no_diplomacy_roll() -> None:
    g = diplomacy("Italy", options={"italy": True}, dice=[1])
    assert not [a for a in g.legal_actions() if a.type == "choose"]
    assert refused(g, {"type": "choose", "option": "Switzerland"}) == "AARHE-DIPLO-rolls-table"


@pytest.mark.rule("AARHE-DIPLO-target")
def test_a_roll_names_a_neutral_between_minus_two_and_plus_two() -> None:
    g = diplomacy(GER, dice=[6], extra=placed({"Sweden": -2}))
    assert refused(g, {"type": "choose", "option": "Eire"}) == "AARHE-DIPLO-target"  # at +3
    assert refused(g, {"type": "choose", "option": "France"}) == "AARHE-DIPLO-target"
    assert refused(g, {"type": "choose", "option": "Western Europe"}) == "AARHE-DIPLO-target"
    assert "Eire" not in {a.option for a in g.legal_actions() if a.type == "choose"}
    roll(g, "Sweden")
    assert position(g.state, "Sweden") == -2  # a 6 fails


@pytest.mark.rule("AARHE-DIPLO-roll", "AARHE-DIPLO-positions-table")
def test_a_one_moves_the_neutral_a_step_toward_the_rollers_side() -> None:
    g = diplomacy(GER, dice=[2, 1])
    roll(g, "Turkey")
    assert position(g.state, "Turkey") == -1  # a 2 fails without modifiers
    roll(g, "Turkey")
    assert position(g.state, "Turkey") == -2
    g = diplomacy(US, dice=[1])
    roll(g, "Turkey")
    assert position(g.state, "Turkey") == 0  # the Allies pull toward +5
    g = diplomacy(GER, owners={"Persia": GER}, dice=[2])  # +1: Persia, next to Turkey, was British
    roll(g, "Turkey")
    assert position(g.state, "Turkey") == -2


@pytest.mark.rule("AARHE-DIPLO-modifiers")
def test_modifiers_for_territories_taken_next_door_and_enemy_capitals() -> None:
    g = diplomacy(GER, owners={"Persia": GER, "Russia": GER}, dice=[6, 5])
    state, ruleset = g.state, g.ruleset
    assert modifiers(state, ruleset, GER, "Turkey") == 1 + 3
    assert modifiers(state, ruleset, UK, "Turkey") == 0  # Caucasus and Trans-Jordan were always Allied
    taken = turn_began_with(g, {"Persia": UK})
    assert modifiers(taken.state, ruleset, GER, "Turkey") == 1 + 2 + 3
    assert modifiers(state, ruleset, JAP, "Sweden") == 3  # Russia: an enemy capital the Axis hold
    roll(g, "Turkey")
    assert position(g.state, "Turkey") == -1  # 6 > 5
    roll(g, "Turkey")
    assert position(g.state, "Turkey") == -2  # 5 <= 1 + 1 + 3


@pytest.mark.rule("AARHE-DIPLO-air-passage")
def test_the_leaning_sides_aircraft_fly_over_from_two() -> None:
    g = at(GER, "non-combat-move", {"Western Europe": f"{GER}: 1 fighter"}, owners={"Gibraltar": GER})
    move(g, "1 fighter", "Western Europe", "Spain", "Gibraltar")  # Spain at -2
    assert units_in(g, "Gibraltar") == {"fighter": 1}
    g = at(GER, "non-combat-move", {"Western Europe": f"{GER}: 1 fighter"}, owners={"Gibraltar": GER},
           extra=placed({"Spain": -1}))
    rejected(g, mv("1 fighter", "Western Europe", "Spain", "Gibraltar"), "AARHE-DIPLO-air-passage")
    g = at(UK, "non-combat-move", {"Gibraltar": f"{UK}: 1 fighter"}, owners={"Western Europe": UK})
    rejected(g, mv("1 fighter", "Gibraltar", "Spain", "Western Europe"), "AARHE-DIPLO-air-passage")
    g = at(GER, "non-combat-move", {"Western Europe": f"{GER}: 1 fighter"})
    rejected(g, mv("1 fighter", "Western Europe", "Spain"), "AARHE-DIPLO-air-passage", "may not end")


@pytest.mark.rule("AARHE-DIPLO-income")
def test_the_power_that_moved_a_neutral_to_three_collects_its_income() -> None:
    g = diplomacy(GER, dice=[1])
    before = income(g.state, g.ruleset, GER)
    roll(g, "Sweden")
    assert position(g.state, "Sweden") == -3
    assert income(g.state, g.ruleset, GER) == before + 2
    assert refused(g, {"type": "choose", "option": "Sweden"}) == "AARHE-DIPLO-target"  # beyond -2 now
    g = diplomacy(JAP, extra=placed({"Sweden": -3}, {"Sweden": GER}))
    assert income(g.state, g.ruleset, JAP) == income(diplomacy(JAP).state, g.ruleset, JAP)  # Germany's


@pytest.mark.rule("AARHE-DIPLO-land-entry")
def test_at_four_the_leaning_side_walks_in() -> None:
    g = at(GER, "combat-move", {"Norway": f"{GER}: 1 infantry"}, extra=placed({"Sweden": -4}))
    move(g, "1 infantry", "Norway", "Sweden")
    assert g.state.owners["Sweden"] == GER and position(g.state, "Sweden") == -5
    assert units_in(g, "Sweden", GER) == {"infantry": 4, "artillery": 1}  # its army joins, no battle
    end(g)
    assert g.state.phase != "conduct-combat" or not [a for a in g.legal_actions() if a.type == "fight"]
    g = at(GER, "non-combat-move", {"Norway": f"{GER}: 1 infantry"}, extra=placed({"Sweden": -3}))
    rejected(g, mv("1 infantry", "Norway", "Sweden"), "AARHE-DIPLO-land-entry")


@pytest.mark.rule("AARHE-DIPLO-attack", "AARHE-DIPLO-neutral-army", "AARHE-DIPLO-neutral-owner")
def test_an_attacked_neutral_joins_the_other_side_and_its_army_defends() -> None:
    g = at(GER, "combat-move", {"Balkans": f"{GER}: 2 infantry"})
    move(g, "2 infantry", "Balkans", "Turkey")
    assert position(g.state, "Turkey") == 5 and g.state.owners["Turkey"] == RUS  # Moscow is the closest capital
    assert units_in(g, "Turkey", RUS) == {"infantry": 4, "artillery": 1, "armour": 1, "fighter": 1}
    end(g)
    no_missions(g)
    assert g.state.phase == "conduct-combat"
    assert any(a.type == "fight" for a in g.legal_actions())
    g = at(GER, "combat-move", {"Balkans": f"{GER}: 2 infantry"}, owners={"Russia": GER})
    move(g, "2 infantry", "Balkans", "Turkey")
    assert g.state.owners["Turkey"] == UK  # the Soviet capital is lost: the next closest holder
    g = at(UK, "combat-move", {"Persia": f"{UK}: 1 infantry", "Norway": f"{UK}: 1 infantry"}, owners={"Norway": UK})
    move(g, "1 infantry", "Norway", "Sweden")
    assert position(g.state, "Sweden") == -5 and g.state.owners["Sweden"] == GER


@pytest.mark.rule("AARHE-DIPLO-attack", "AARHE-DIPLO-neutral-army")
def test_an_assault_from_the_sea_attacks_a_neutral_too() -> None:
    g = at(UK, "combat-move", {}, stacks=[("SZ 12", boat(UK, f"{UK}:infantry"))])
    move(g, "1 infantry", "SZ 12", "Spain")
    assert position(g.state, "Spain") == -5 and g.state.owners["Spain"] == GER
    assert units_in(g, "Spain", GER)["infantry"] == 5 and units_in(g, "Spain", UK) == {"infantry": 1}
    assert units_in(g, "SZ 13", GER) == {"destroyer": 1, "transport": 1}  # SZ 12 holds the British transport


@pytest.mark.rule("AARHE-DIPLO-attack")
def test_land_units_stop_in_a_neutral_and_enter_one_in_combat_move_only() -> None:
    g = at(GER, "combat-move", {"Western Europe": f"{GER}: 1 armour"}, owners={"Gibraltar": UK})
    rejected(g, mv("1 armour", "Western Europe", "Spain", "Gibraltar"), "AARHE-DIPLO-attack", "stop there")


@pytest.mark.rule("AARHE-NEUTRAL-rio-de-oro")
def test_rio_de_oro_is_spain() -> None:
    g = at(UK, "combat-move", {"French West Africa": f"{UK}: 1 infantry"}, owners={"French West Africa": UK})
    move(g, "1 infantry", "French West Africa", "Rio De Oro")
    assert position(g.state, "Spain") == -5
    assert g.state.owners["Spain"] == g.state.owners["Rio De Oro"] == GER
    assert units_in(g, "Spain", GER) == {"infantry": 5, "artillery": 1, "armour": 1, "fighter": 1}
    assert sum(units_in(g, z, GER).get("destroyer", 0) for z in ("SZ 12", "SZ 13")) == 1
    assert units_in(g, "Rio De Oro", GER) == {}


@pytest.mark.rule("AARHE-NEUTRAL-table")
def test_a_new_game_starts_the_neutrals_where_the_table_puts_them() -> None:
    state = Game(new_game("aarhe", {}, seed=1)).state
    assert {n: position(state, n) for n in ("Spain", "Sweden", "Eire", "Turkey", "Mongolia", "Mozambique")} == {
        "Spain": -2, "Sweden": -2, "Eire": 3, "Turkey": -1, "Mongolia": 1, "Mozambique": 1}
    from aare.rules.ruleset import load_ruleset
    spaces = load_ruleset("aarhe").board.spaces
    assert {n: spaces[n].ipc for n in ("Spain", "Turkey", "Sweden", "Eire", "Saudi Arabia")} == {
        "Spain": 4, "Turkey": 3, "Sweden": 2, "Eire": 0, "Saudi Arabia": 2}
    assert not any(state.owners.get(n) for n in ("Spain", "Turkey", "Rio De Oro"))
