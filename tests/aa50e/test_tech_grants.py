"""AA50E technologies that grant free units in the turn they are gained (Advanced Artillery, Rockets,
Mechanized Infantry, Radar) and War Bonds' second die."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.invariants import check_log
from aare.scenario import scenario
from aare.state.unit_stacks import count_units

RULES = "aa50e-1942"
GER = "Germany"


def gain(tech: str, units: dict[str, str] | None = None, *, power: str = GER, dice: list[int] | None = None,
         **kw: Any) -> Game:
    """`power` gains `tech` with a 6 in its research phase, on a board holding only `units`."""
    game = scenario(RULES, nation=power, phase="develop-weapons", clear=True, units=units or {},
                    banks={power: 30}, dice=[6, 1, 1, 1, *(dice or [])], **kw)
    game.apply({"type": "research", "dice": 4, "tech": tech})
    assert tech in game.state.techs[power]
    return game


def to_phase(game: Game, phase: str) -> None:
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})


def units(game: Game, space: str, owner: str = GER) -> dict[str, int]:
    return count_units(game.state.stacks(space), owner)


def frees(game: Game) -> list[dict[str, Any]]:
    return [a.to_json() for a in game.legal_actions() if a.type == "place_free"]


@pytest.mark.rule("AA50E-TECH-adv-artillery-free-capital")
def test_advanced_artillery_puts_an_artillery_in_the_capital_to_use_at_once() -> None:
    game = gain("advanced_artillery", {"Germany": "Germany: 1 infantry"}, owners={"Poland": "Soviet Union"})
    assert units(game, "Germany") == {"infantry": 1, "artillery": 1}
    to_phase(game, "combat-move")
    game.apply({"type": "move", "units": "1 artillery", "path": ["Germany", "Poland"]})  # it attacks this turn
    assert units(game, "Poland") == {"artillery": 1}
    lost = gain("advanced_artillery", owners={"Germany": "Soviet Union"})
    assert units(lost, "Germany") == {}  # no capital held: the artillery is lost


@pytest.mark.rule("AA50E-TECH-adv-artillery-free-mobilize")
def test_advanced_artillery_puts_a_second_artillery_where_germany_held_at_the_turn_start() -> None:
    game = gain("advanced_artillery")
    record = {"round": 1, "power": GER, "owners": {**game.state.owners, "Karelia S.S.R.": "Soviet Union"},
              "placed": {}, "damage": {}}
    game = scenario(RULES, nation=GER, phase="develop-weapons", clear=True, banks={GER: 30}, dice=[6, 1, 1, 1],
                    owners={"Karelia S.S.R.": GER}, extra={"turn": record})
    game.apply({"type": "research", "dice": 4, "tech": "advanced_artillery"})
    to_phase(game, "mobilize")
    offered = frees(game)
    assert {"type": "place_free", "advantage": "advanced_artillery", "units": "1 artillery", "space": "Libya"} \
        not in offered  # Italian
    assert any(a["space"] == "Norway" for a in offered) and not any(a["space"] == "Karelia S.S.R." for a in offered)
    with pytest.raises(IllegalAction) as info:
        game.apply({"type": "place_free", "advantage": "advanced_artillery", "units": "1 artillery",
                    "space": "Karelia S.S.R."})  # captured this turn
    assert info.value.rule_id == "AA50E-TECH-adv-artillery-free-mobilize"
    game.apply({"type": "place_free", "advantage": "advanced_artillery", "units": "1 artillery", "space": "Norway"})
    assert units(game, "Norway") == {"artillery": 1} and frees(game) == []  # no factory needed, one only
    assert not check_log(game.log)


@pytest.mark.rule("AA50E-TECH-adv-artillery-free-mobilize")
def test_an_unplaced_free_artillery_is_lost_when_mobilize_ends() -> None:
    game = gain("advanced_artillery")
    to_phase(game, "mobilize")
    assert frees(game)
    game.apply({"type": "end_phase"})
    assert "tech_grants" not in game.state.extra or not game.state.extra["tech_grants"]


@pytest.mark.rule("AA50E-TECH-rockets-free-aa")
def test_rockets_put_a_free_aa_gun_in_the_capital_at_the_end_of_the_turn() -> None:
    game = gain("rockets", {"Germany": "Germany: 1 aa gun"})
    bank = game.state.banks[GER]
    to_phase(game, "mobilize")
    assert units(game, "Germany") == {"aa_gun": 1}
    game.apply({"type": "end_phase"})  # collect income: the end of the turn
    assert units(game, "Germany") == {"aa_gun": 2}  # placed even beside the gun already there
    assert game.state.banks[GER] >= bank and not check_log(game.log)


@pytest.mark.rule("AA50E-TECH-mech-inf-free-infantry")
def test_mechanized_infantry_put_two_free_infantry_in_the_capital_at_mobilize() -> None:
    game = gain("improved_mechanized_infantry", power="Japan", owners=None)
    bank = game.state.banks["Japan"]
    to_phase(game, "mobilize")
    assert units(game, "Japan", "Japan") == {"infantry": 2} and game.state.banks["Japan"] == bank
    to_phase(game, "collect-income")
    assert not game.state.extra.get("tech_grants")  # once, in the turn it is gained


@pytest.mark.rule("AA50E-TECH-radar-free-aa")
def test_radar_places_a_free_aa_gun_in_a_territory_worth_2_or_more() -> None:
    game = gain("radar", power="United Kingdom")
    to_phase(game, "mobilize")
    free = {"type": "place_free", "advantage": "radar", "units": "1 aa_gun"}
    with pytest.raises(IllegalAction, match="worth 2 or more") as info:
        game.apply({**free, "space": "Trans-Jordan"})  # worth 1
    assert info.value.rule_id == "AA50E-TECH-radar-free-aa"
    assert {**free, "space": "Egypt"} in frees(game)
    game.apply({**free, "space": "Egypt"})
    assert units(game, "Egypt", "United Kingdom") == {"aa_gun": 1} and not check_log(game.log)


@pytest.mark.rule("AA50E-TECH-war-bonds-roll")
def test_war_bonds_add_a_die_at_collect_income() -> None:
    plain = scenario(RULES, nation="Italy", phase="mobilize", banks={"Italy": 0})
    plain.apply({"type": "end_phase"})
    income = plain.state.banks["Italy"]
    bonds = scenario(RULES, nation="Italy", phase="mobilize", banks={"Italy": 0}, dice=[4],
                     techs={"Italy": ("war_bonds",)})
    bonds.apply({"type": "end_phase"})
    assert bonds.state.banks["Italy"] == income + 4


@pytest.mark.rule("AA50E-TECH-war-bonds-six")
@pytest.mark.parametrize(("dice", "gained"), [([6, 6], 12), ([6, 2], 8), ([5], 5)])
def test_a_6_at_war_bonds_gives_one_more_die_and_no_third(dice: list[int], gained: int) -> None:
    plain = scenario(RULES, nation="Italy", phase="mobilize", banks={"Italy": 0})
    plain.apply({"type": "end_phase"})
    bonds = scenario(RULES, nation="Italy", phase="mobilize", banks={"Italy": 0}, dice=[*dice, 6],
                     techs={"Italy": ("war_bonds",)})
    bonds.apply({"type": "end_phase"})
    assert bonds.state.banks["Italy"] == plain.state.banks["Italy"] + gained
    assert not check_log(bonds.log)
