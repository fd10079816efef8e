"""Russia's national advantages (AARE-NA-RUS-*): Russian Winter, Railway, T-34's, Lend-Lease, Mobile Industry,
Siberian Conscripts."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.combat.board_battle import build_battle
from aare.combat.values import main_fire_groups
from aare.dice import ScriptedDice
from aare.economy.damage import damage_cap_remaining
from aare.economy.production import producers
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.movement.battles import pending_battles
from aare.rulesets.aare.advantages.russia_lend_lease import used
from aare.rulesets.aare.advantages.russia_winter import winter
from aare.rulesets.aare.treaty import infantry_count
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, count_units
from tests.aare.common import GER, JPN, RULES, RUS, UK, US, position

NO_BID = {"straight_bid": False}


def na(*entries: tuple[str, str], round_: int = 1) -> dict[str, Any]:
    """The NA record with `(power, advantage)` declared in round `round_`."""
    table: dict[str, list[dict[str, Any]]] = {}
    for power, adv in entries:
        table.setdefault(power, []).append({"id": adv, "round": round_, "phase": "develop-weapons", "delayed": False})
    return {"advantages": {"declared": table}}


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def move(game: Game, units: str, *path: str) -> None:
    game.apply({"type": "move", "units": units, "path": list(path)})


def fire(game: Game, space: str, side: str) -> list[tuple[str, int, int]]:
    """(unit, hit on, dice) of `side`'s first-cycle main fire in the battle in `space`."""
    site = next(s for s in pending_battles(game.state, game.ruleset) if s.space == space)
    b = build_battle(game.state, game.ruleset, site)
    return sorted((g.unit, g.hit_on, g.count) for g in main_fire_groups(b, side))  # type: ignore[arg-type]


def to_phase(game: Game, phase: str) -> None:
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})


def infantry(game: Game, space: str, power: str = RUS) -> int:
    return count_units(game.state.stacks(space), power).get("infantry", 0)


# --- Russian Winter --------------------------------------------------------------------------------------------

WINTER = "russian_winter"


@pytest.mark.rule("AARE-NA-RUS-winter-trigger")
def test_severe_winter_is_declared_once_in_collect_income() -> None:
    game = scenario(RULES, nation=RUS, phase="collect-income", round=2, extra=na((RUS, WINTER)))
    assert {"type": "severe_winter"} in [a.to_json() for a in game.legal_actions()]
    game.apply({"type": "severe_winter"})
    assert game.state.extra["severe_winter"] == {"round": 2}
    assert rule_of(game, {"type": "severe_winter"}) == "AARE-NA-RUS-winter-trigger"
    later = scenario(RULES, nation=RUS, phase="collect-income", round=4,
                     extra={**na((RUS, WINTER)), "severe_winter": {"round": 2}})
    assert rule_of(later, {"type": "severe_winter"}) == "AARE-NA-RUS-winter-trigger"
    assert {"type": "severe_winter"} not in [a.to_json() for a in later.legal_actions()]
    combat = scenario(RULES, nation=RUS, phase="conduct-combat", round=2, extra=na((RUS, WINTER)))
    assert rule_of(combat, {"type": "severe_winter"}) == "AARE-NA-RUS-winter-trigger"
    without = scenario(RULES, nation=RUS, phase="collect-income", round=2, extra=na((RUS, "russian_t34s")))
    assert rule_of(without, {"type": "severe_winter"}) == "AARE-NA-RUS-winter-trigger"


@pytest.mark.rule("AARE-NA-RUS-winter-duration")
def test_winter_lasts_until_the_end_of_russias_next_turn() -> None:
    game = scenario(RULES, nation=RUS, phase="collect-income", round=2, extra=na((RUS, WINTER)))
    assert not winter(game.state, game.ruleset)
    game.apply({"type": "severe_winter"})
    seen = []
    for _ in range(7):
        game.apply({"type": "end_phase"})  # to the next nation's turn ...
        seen.append((game.state.round, game.state.nation, winter(game.state, game.ruleset)))
        while game.state.phase != "collect-income":
            game.apply({"type": "end_phase"})
            assert winter(game.state, game.ruleset) == seen[-1][2]
    assert seen == [(2, GER, True), (2, UK, True), (2, JPN, True), (2, US, True), (3, RUS, True), (3, GER, False),
                    (3, UK, False)]


def winter_position(nation: str, placed: dict[str, str], owners: dict[str, str] | None = None) -> Game:
    extra = {**na((RUS, WINTER)), "severe_winter": {"round": 1}}
    return position(nation, "combat-move", placed, owners=owners, extra=extra)


@pytest.mark.rule("AARE-NA-RUS-winter-defense-3")
def test_winter_infantry_defend_at_3_anywhere() -> None:
    game = winter_position(GER, {"Ukraine S.S.R.": "Russia: 2 infantry", "Eastern Europe": "Germany: 2 infantry"},
                           owners={"Ukraine S.S.R.": RUS})
    move(game, "2 infantry", "Eastern Europe", "Ukraine S.S.R.")
    game.apply({"type": "end_phase"})
    assert fire(game, "Ukraine S.S.R.", "defender") == [("infantry", 3, 2)]
    game = Game(game.log, ScriptedDice([3, 3, 3, 3]))  # the German 3s miss, the Russian 3s hit
    game.apply({"type": "fight", "space": "Ukraine S.S.R."})
    assert count_units(game.state.stacks("Ukraine S.S.R.")) == {"infantry": 2}
    assert game.state.owners["Ukraine S.S.R."] == RUS


@pytest.mark.rule("AARE-NA-RUS-winter-defense-3")
def test_no_winter_bonus_after_the_winter() -> None:
    extra = {**na((RUS, WINTER)), "severe_winter": {"round": 1}}
    placed = {"Ukraine S.S.R.": "Russia: 2 infantry", "Eastern Europe": "Germany: 2 infantry"}
    game = position(GER, "combat-move", placed, owners={"Ukraine S.S.R.": RUS}, extra=extra)
    game = Game(GameLog(replace(game.state, round=2)))  # G2: the winter of round 1 is over
    move(game, "2 infantry", "Eastern Europe", "Ukraine S.S.R.")
    game.apply({"type": "end_phase"})
    assert fire(game, "Ukraine S.S.R.", "defender") == [("infantry", 2, 2)]


@pytest.mark.rule("AARE-NA-RUS-winter-attack-2")
def test_winter_attack_at_2_only_in_red_territories_or_west_russia() -> None:
    placed = {"Archangel": "Russia: 2 infantry", "Karelia S.S.R.": "Germany: 1 infantry; Russia: 2 infantry",
              "Eastern Europe": "Germany: 1 infantry", "West Russia": "Germany: 1 infantry"}
    game = winter_position(RUS, placed, owners={"Karelia S.S.R.": GER})
    move(game, "2 infantry", "Archangel", "Karelia S.S.R.")
    move(game, "2 infantry", "Karelia S.S.R.", "Eastern Europe")
    game.apply({"type": "end_phase"})
    assert fire(game, "Karelia S.S.R.", "attacker") == [("infantry", 2, 2)]
    assert fire(game, "Eastern Europe", "attacker") == [("infantry", 1, 2)]
    west = winter_position(RUS, {"Russia": "Russia: 1 infantry", "West Russia": "Germany: 1 infantry"})
    move(west, "1 infantry", "Russia", "West Russia")
    west.apply({"type": "end_phase"})
    assert fire(west, "West Russia", "attacker") == [("infantry", 2, 1)]
    west = Game(west.log, ScriptedDice([2, 3]))  # the Russian 2 hits, the German 3 misses
    west.apply({"type": "fight", "space": "West Russia"})
    assert west.state.owners["West Russia"] == RUS


@pytest.mark.rule("AARE-NA-RUS-winter-artillery-3")
def test_winter_infantry_paired_with_artillery_attack_at_3() -> None:
    placed = {"Archangel": "Russia: 2 infantry, 1 artillery", "Karelia S.S.R.": "Germany: 1 infantry",
              "Eastern Europe": "Germany: 1 infantry", "Belorussia": "Russia: 2 infantry, 1 artillery"}
    game = winter_position(RUS, placed, owners={"Karelia S.S.R.": GER, "Belorussia": RUS})
    move(game, "2 infantry, 1 artillery", "Archangel", "Karelia S.S.R.")
    move(game, "2 infantry, 1 artillery", "Belorussia", "Eastern Europe")
    game.apply({"type": "end_phase"})
    assert fire(game, "Karelia S.S.R.", "attacker") == [("artillery", 2, 1), ("infantry", 2, 1), ("infantry", 3, 1)]
    # outside Red territories and West Russia the ordinary support only (docs/rulings.md)
    assert fire(game, "Eastern Europe", "attacker") == [("artillery", 2, 1), ("infantry", 1, 1), ("infantry", 2, 1)]


# --- Russian Railway -------------------------------------------------------------------------------------------

RAIL = "russian_railway"


def rail_game(placed: dict[str, str], owners: dict[str, str] | None = None, extra: Any = None) -> Game:
    return position(RUS, "non-combat-move", placed, owners=owners, extra=extra or na((RUS, RAIL)))


@pytest.mark.rule("AARE-NA-RUS-rail-move-2")
def test_rail_moves_two_territories_in_noncombat_move() -> None:
    game = rail_game({"Novosibirsk": "Russia: 3 infantry, 1 artillery, 1 aa gun"}, owners={"West Russia": RUS})
    offered = [a.to_json() for a in game.legal_actions("Novosibirsk")]
    assert {"type": "move", "units": "1 infantry", "path": ["Novosibirsk", "Russia", "Caucasus"]} in offered
    move(game, "1 infantry", "Novosibirsk", "Russia", "Caucasus")
    move(game, "1 artillery, 1 aa gun", "Novosibirsk", "Russia", "Caucasus")
    assert count_units(game.state.stacks("Caucasus"), RUS) == {"infantry": 1, "artillery": 1, "aa_gun": 1}
    three = {"type": "move", "units": "1 infantry", "path": ["Novosibirsk", "Russia", "Caucasus", "West Russia"]}
    assert rule_of(game, three) == "AARE-NA-RUS-rail-move-2"
    plain = rail_game({"Novosibirsk": "Russia: 1 infantry"}, extra=na((RUS, "russian_t34s")))
    two = {"type": "move", "units": "1 infantry", "path": ["Novosibirsk", "Russia", "Caucasus"]}
    assert rule_of(plain, two) == "LHTR-LANDMOVE-movement-allowance"


@pytest.mark.rule("AARE-NA-RUS-rail-move-2")
def test_no_rail_moves_in_combat_move() -> None:
    game = position(RUS, "combat-move", {"Russia": "Russia: 1 infantry", "West Russia": "Germany: 1 infantry"},
                    extra=na((RUS, RAIL)))
    attack = {"type": "move", "units": "1 infantry", "path": ["Novosibirsk", "Russia", "West Russia"]}
    game2 = position(RUS, "combat-move", {"Novosibirsk": "Russia: 1 infantry", "West Russia": "Germany: 1 infantry"},
                     extra=na((RUS, RAIL)))
    assert rule_of(game2, attack) == "LHTR-LANDMOVE-movement-allowance"
    move(game, "1 infantry", "Russia", "West Russia")


@pytest.mark.rule("AARE-NA-RUS-rail-network-only")
def test_rail_moves_stay_on_the_network() -> None:
    game = rail_game({"Karelia S.S.R.": "Russia: 1 infantry", "Novosibirsk": "Russia: 1 infantry"})
    via_archangel = {"type": "move", "units": "1 infantry", "path": ["Karelia S.S.R.", "Archangel", "Russia"]}
    assert rule_of(game, via_archangel) == "AARE-NA-RUS-rail-network-only"
    to_kazakh = {"type": "move", "units": "1 infantry", "path": ["Novosibirsk", "Russia", "Kazakh S.S.R."]}
    assert rule_of(game, to_kazakh) == "AARE-NA-RUS-rail-network-only"
    move(game, "1 infantry", "Novosibirsk", "Kazakh S.S.R.")  # one step is an ordinary move


@pytest.mark.rule("AARE-NA-RUS-rail-allied-owned")
def test_rail_moves_only_through_allied_territories() -> None:
    through = {"type": "move", "units": "1 infantry", "path": ["Russia", "West Russia", "Karelia S.S.R."]}
    german = rail_game({"Russia": "Russia: 1 infantry"})
    assert german.state.owners["West Russia"] == GER
    assert rule_of(german, through) == "AARE-NA-RUS-rail-allied-owned"
    british = rail_game({"Russia": "Russia: 1 infantry"}, owners={"West Russia": UK})
    british.apply(through)
    assert infantry(british, "Karelia S.S.R.") == 1


@pytest.mark.rule("AARE-NA-RUS-rail-start-on-network")
def test_only_units_that_began_the_turn_on_the_network_ride() -> None:
    game = rail_game({"Kazakh S.S.R.": "Russia: 1 infantry", "Archangel": "Russia: 1 infantry"})
    from_kazakh = {"type": "move", "units": "1 infantry", "path": ["Kazakh S.S.R.", "Russia", "Caucasus"]}
    assert rule_of(game, from_kazakh) == "AARE-NA-RUS-rail-start-on-network"
    move(game, "1 infantry", "Archangel", "Russia")  # arrived by an ordinary move: no rail move after it
    onward = {"type": "move", "units": "1 infantry", "path": ["Russia", "Caucasus", "West Russia"]}
    assert rule_of(game, onward) == "AARE-NA-RUS-rail-start-on-network"


# --- Russian T-34's --------------------------------------------------------------------------------------------


@pytest.mark.rule("AARE-NA-RUS-t34-defense-4")
def test_t34s_defend_at_4_in_red_territories() -> None:
    placed = {"Caucasus": "Russia: 1 armour", "Persia": "Russia: 1 armour",
              "Ukraine S.S.R.": "Germany: 1 infantry", "Trans-Jordan": "Germany: 1 infantry"}
    game = position(GER, "combat-move", placed, owners={"Persia": RUS, "Trans-Jordan": GER},
                    extra=na((RUS, "russian_t34s")))
    move(game, "1 infantry", "Ukraine S.S.R.", "Caucasus")
    move(game, "1 infantry", "Trans-Jordan", "Persia")
    game.apply({"type": "end_phase"})
    assert fire(game, "Caucasus", "defender") == [("armour", 4, 1)]
    assert fire(game, "Persia", "defender") == [("armour", 3, 1)]
    game = Game(game.log, ScriptedDice([6, 4]))  # the German infantry misses; the T-34 hits on its 4
    game.apply({"type": "fight", "space": "Caucasus"})
    assert count_units(game.state.stacks("Caucasus")) == {"armour": 1}


@pytest.mark.rule("AARE-NA-RUS-t34-defense-4")
def test_t34s_attack_normally() -> None:
    game = position(RUS, "combat-move", {"Caucasus": "Russia: 1 armour", "Ukraine S.S.R.": "Germany: 1 infantry"},
                    extra=na((RUS, "russian_t34s")))
    move(game, "1 armour", "Caucasus", "Ukraine S.S.R.")
    game.apply({"type": "end_phase"})
    assert fire(game, "Ukraine S.S.R.", "attacker") == [("armour", 3, 1)]


# --- Lend-Lease ------------------------------------------------------------------------------------------------

LL = "russian_lend_lease"


@pytest.mark.rule("AARE-NA-RUS-ll-bonus-5")
def test_lend_lease_grants_5_ipcs_once() -> None:
    game = Game(new_game(RULES, NO_BID, seed=1))
    assert game.state.banks[RUS] == 24
    game.apply({"type": "declare_advantage", "advantage": LL})
    assert game.state.banks[RUS] == 29
    to_phase(game, "purchase")
    game.apply({"type": "purchase", "units": "7 infantry, 2 artillery"})  # 21 + 8 = 29
    assert game.state.banks[RUS] == 0


def loan_game(**banks: int) -> Game:
    return scenario(RULES, nation=RUS, phase="purchase", extra=na((RUS, LL)),
                    banks={RUS: 10, UK: banks.get("uk", 30), US: banks.get("us", 40)})


@pytest.mark.rule("AARE-NA-RUS-ll-cash-loan")
def test_the_uk_and_us_lend_russia_2_ipcs_in_all() -> None:
    game = loan_game()
    assert {"type": "lend", "lender": UK, "amount": 2} in [a.to_json() for a in game.legal_actions()]
    game.apply({"type": "lend", "lender": UK, "amount": 1})
    game.apply({"type": "lend", "lender": US, "amount": 1})
    assert (game.state.banks[RUS], game.state.banks[UK], game.state.banks[US]) == (12, 29, 39)
    assert rule_of(game, {"type": "lend", "lender": UK, "amount": 1}) == "AARE-NA-RUS-ll-cash-loan"
    game.apply({"type": "purchase", "units": "4 infantry"})  # the loan is spent at once
    other = loan_game()
    other.apply({"type": "lend", "lender": UK, "amount": 2})
    assert rule_of(other, {"type": "lend", "lender": US, "amount": 1}) == "AARE-NA-RUS-ll-cash-loan"
    assert rule_of(loan_game(), {"type": "lend", "lender": GER, "amount": 1}) == "AARE-NA-RUS-ll-cash-loan"
    assert rule_of(loan_game(uk=0), {"type": "lend", "lender": UK, "amount": 1}) == "AARE-NA-RUS-ll-cash-loan"
    no_na = scenario(RULES, nation=RUS, phase="purchase", extra=na((RUS, "russian_t34s")))
    assert not no_na.is_legal({"type": "lend", "lender": UK, "amount": 1})


def convert_game(placed: dict[str, str], techs: dict[str, list[str]] | None = None) -> Game:
    return position(RUS, "mobilize", placed, extra=na((RUS, LL)), techs=techs)


@pytest.mark.rule("AARE-NA-RUS-ll-convert-units")
def test_allied_units_in_red_territories_become_russian() -> None:
    game = convert_game({"Russia": "United States: 1 fighter; United Kingdom: 1 armour",
                         "Persia": "United Kingdom: 1 infantry", "SZ 4": "United States: 1 destroyer"})
    assert {"type": "convert", "units": "1 fighter", "owner": US, "space": "Russia"} in [
        a.to_json() for a in game.legal_actions()]
    game.apply({"type": "convert", "units": "1 fighter", "owner": US, "space": "Russia"})
    assert count_units(game.state.stacks("Russia"), RUS) == {"fighter": 1}
    assert count_units(game.state.stacks("Russia"), US) == {}
    assert rule_of(game, {"type": "convert", "units": "1 armour", "owner": UK, "space": "Russia"}) == \
        "AARE-NA-RUS-ll-total-cap-12"  # fighter 10 + armour 5 = 15
    assert rule_of(game, {"type": "convert", "units": "1 infantry", "owner": UK, "space": "Persia"}) == \
        "AARE-NA-RUS-ll-convert-units"  # Persia is not Red
    assert rule_of(game, {"type": "convert", "units": "1 destroyer", "owner": US, "space": "SZ 4"}) == \
        "AARE-NA-RUS-ll-convert-units"
    assert rule_of(game, {"type": "convert", "units": "1 bomber", "owner": US, "space": "Russia"}) == \
        "AARE-NA-RUS-ll-convert-units"


@pytest.mark.rule("AARE-NA-RUS-ll-convert-loses-bonuses")
def test_converted_units_lose_their_former_owners_techs() -> None:
    game = convert_game({"Russia": "United States: 1 fighter"}, techs={US: ["jet_fighters"]})
    game.apply({"type": "convert", "units": "1 fighter", "owner": US, "space": "Russia"})
    state = replace(game.state, nation=GER, phase="combat-move")
    state = state.with_stacks("West Russia", (*state.stacks("West Russia"), Stack(GER, "infantry", 2)))
    board = Game(GameLog(state))
    move(board, "2 infantry", "West Russia", "Russia")
    board.apply({"type": "end_phase"})
    assert fire(board, "Russia", "defender") == [("fighter", 4, 1)]  # a Russian fighter: no jets (5)


@pytest.mark.rule("AARE-NA-RUS-ll-convert-base-cost")
def test_conversions_count_at_base_cost() -> None:
    game = convert_game({"Karelia S.S.R.": "United Kingdom: 1 fighter, 1 infantry"})
    game.apply({"type": "convert", "units": "1 fighter", "owner": UK, "space": "Karelia S.S.R."})
    assert used(game.state)["converted"] == 10  # the catalogue's price, whatever the UK paid
    assert rule_of(game, {"type": "convert", "units": "1 infantry", "owner": UK, "space": "Karelia S.S.R."}) == \
        "AARE-NA-RUS-ll-total-cap-12"  # 10 + 3 > 12


@pytest.mark.rule("AARE-NA-RUS-ll-total-cap-12")
def test_loans_and_conversions_come_to_12_a_turn() -> None:
    game = scenario(RULES, nation=RUS, phase="purchase", clear=True, extra=na((RUS, LL)),
                    units={"Russia": "United States: 1 fighter; United Kingdom: 1 infantry"})
    game.apply({"type": "lend", "lender": UK, "amount": 2})
    to_phase(game, "mobilize")
    game.apply({"type": "convert", "units": "1 fighter", "owner": US, "space": "Russia"})  # 2 + 10 = 12
    assert rule_of(game, {"type": "convert", "units": "1 infantry", "owner": UK, "space": "Russia"}) == \
        "AARE-NA-RUS-ll-total-cap-12"
    assert used(game.state) == {"lent": 2, "converted": 10}


# --- Mobile Industry -------------------------------------------------------------------------------------------

MI = "mobile_industry"


def free(game: Game, units: str, space: str) -> None:
    game.apply({"type": "place_free", "advantage": MI, "units": units, "space": space})


@pytest.mark.rule("AARE-NA-RUS-mi-free-ic-inf")
def test_free_complex_and_infantry_together_in_a_red_territory() -> None:
    game = scenario(RULES, nation=RUS, phase="develop-weapons")
    game.apply({"type": "declare_advantage", "advantage": MI})
    to_phase(game, "mobilize")
    free(game, "1 factory", "Novosibirsk")
    with pytest.raises(IllegalAction) as err:
        free(game, "1 infantry", "Kazakh S.S.R.")
    assert err.value.rule_id == "AARE-NA-RUS-mi-free-ic-inf"
    before = infantry(game, "Novosibirsk")
    free(game, "1 infantry", "Novosibirsk")
    assert count_units(game.state.stacks("Novosibirsk"), RUS) == {"factory": 1, "infantry": before + 1}


@pytest.mark.rule("AARE-NA-RUS-mi-new-ic-idle")
def test_the_free_complex_builds_from_the_next_turn() -> None:
    game = scenario(RULES, nation=RUS, phase="develop-weapons")
    game.apply({"type": "declare_advantage", "advantage": MI})
    to_phase(game, "purchase")
    game.apply({"type": "purchase", "units": "1 infantry"})
    to_phase(game, "mobilize")
    free(game, "1 factory, 1 infantry", "Novosibirsk")
    assert "Novosibirsk" not in producers(game.state, game.ruleset, RUS)
    with pytest.raises(IllegalAction):
        game.apply({"type": "place", "units": "1 infantry", "space": "Novosibirsk"})
    game.apply({"type": "place", "units": "1 infantry", "space": "Russia"})
    to_phase(game, "collect-income")
    game.apply({"type": "end_phase"})  # Russia's turn is over: from its next turn the complex builds
    assert game.state.nation == GER
    assert producers(game.state, game.ruleset, RUS)["Novosibirsk"] == 2


def industry_game(placed: dict[str, str], owners: dict[str, str] | None = None,
                  start_owners: dict[str, str] | None = None) -> Game:
    game = position(RUS, "non-combat-move", placed, owners=owners, extra=na((RUS, MI)))
    if start_owners is not None:
        state = game.state
        record = {"round": state.round, "power": RUS, "owners": {**state.owners, **start_owners}, "placed": {},
                  "damage": {}}
        game = Game(GameLog(replace(state, extra={**state.extra, "turn": record})))
    return game


@pytest.mark.rule("AARE-NA-RUS-mi-ic-move")
def test_complexes_move_one_red_territory_in_noncombat_move() -> None:
    game = industry_game({"Karelia S.S.R.": "Russia: 1 factory", "Russia": "Russia: 1 factory"},
                         owners={"Eastern Europe": RUS})
    offered = [a.to_json() for a in game.legal_actions()]
    assert {"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]} in offered
    assert {"type": "move_factory", "path": ["Karelia S.S.R.", "Eastern Europe"]} not in offered
    assert rule_of(game, {"type": "move_factory", "path": ["Karelia S.S.R.", "Eastern Europe"]}) == \
        "AARE-NA-RUS-mi-ic-move"  # not Red, even though Russian-held
    assert rule_of(game, {"type": "move_factory", "path": ["Karelia S.S.R.", "Russia"]}) == "AARE-NA-RUS-mi-ic-move"
    assert rule_of(game, {"type": "move_factory", "path": ["Karelia S.S.R.", "West Russia"]}) == \
        "AARE-NA-RUS-mi-ic-move"  # West Russia is not Red (and German-held)
    game.apply({"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]})
    assert count_units(game.state.stacks("Archangel"), RUS) == {"factory": 1}
    assert rule_of(game, {"type": "move_factory", "path": ["Archangel", "Russia"]}) == "AARE-NA-RUS-mi-ic-move"
    captured = industry_game({"Karelia S.S.R.": "Russia: 1 factory"}, start_owners={"Karelia S.S.R.": GER})
    assert rule_of(captured, {"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]}) == \
        "AARE-NA-RUS-mi-ic-move"
    combat = position(RUS, "combat-move", {"Karelia S.S.R.": "Russia: 1 factory"}, extra=na((RUS, MI)))
    assert rule_of(combat, {"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]}) == \
        "AARE-NA-RUS-mi-ic-move"
    without = position(RUS, "non-combat-move", {"Karelia S.S.R.": "Russia: 1 factory"})
    assert not without.is_legal({"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]})


@pytest.mark.rule("AARE-NA-RUS-mi-produce-after-move")
def test_a_moved_complex_produces_where_russia_held_the_land_since_the_turn_began() -> None:
    game = industry_game({"Karelia S.S.R.": "Russia: 1 factory", "Caucasus": "Russia: 1 factory"},
                         start_owners={"Kazakh S.S.R.": GER})
    game.apply({"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]})
    game.apply({"type": "move_factory", "path": ["Caucasus", "Kazakh S.S.R."]})  # retaken this turn
    game.apply({"type": "end_phase"})
    capacity = producers(game.state, game.ruleset, RUS)
    assert capacity.get("Archangel") == 2 and "Karelia S.S.R." not in capacity
    assert "Kazakh S.S.R." not in capacity


@pytest.mark.rule("AARE-NA-RUS-mi-stacked-ics")
def test_stacked_complexes_are_one_producer_and_one_target() -> None:
    game = industry_game({"Karelia S.S.R.": "Russia: 1 factory", "Archangel": "Russia: 1 factory"})
    game.apply({"type": "move_factory", "path": ["Archangel", "Karelia S.S.R."]})
    assert count_units(game.state.stacks("Karelia S.S.R."), RUS) == {"factory": 2}
    assert producers(game.state, game.ruleset, RUS) == {"Karelia S.S.R.": 2}
    assert damage_cap_remaining(game.state, game.ruleset, "Karelia S.S.R.") == 2
    raid = position(GER, "combat-move", {"Russia": "Russia: 2 factories", "Germany": "Germany: 1 bomber"},
                    extra=na((RUS, MI)))
    raid.apply({"type": "move", "units": "1 bomber", "path": ["Germany", "Eastern Europe", "Belorussia",
                                                              "West Russia", "Russia"], "raid": True})
    raid.apply({"type": "end_phase"})
    site = next(s for s in pending_battles(raid.state, raid.ruleset) if s.kind == "bombing")
    assert build_battle(raid.state, raid.ruleset, site).setup.territory_value == 8  # one target, not 16


# --- Siberian Conscripts ---------------------------------------------------------------------------------------

SIB = "siberian_conscripts"


@pytest.mark.rule("AARE-NA-RUS-sib-free-inf")
def test_one_free_infantry_in_siberia_every_turn() -> None:
    game = scenario(RULES, nation=RUS, phase="develop-weapons", round=2, extra=na((RUS, "russian_t34s")))
    game.apply({"type": "declare_advantage", "advantage": SIB})  # Russia's second NA, at the start of round 2
    before = infantry(game, "Buryatia S.S.R.")
    for _ in range(2):
        to_phase(game, "mobilize")
        game.apply({"type": "place_free", "advantage": SIB, "units": "1 infantry", "space": "Buryatia S.S.R."})
        while game.state.nation != RUS or game.state.phase != "develop-weapons":
            game.apply({"type": "end_phase"})
    assert infantry(game, "Buryatia S.S.R.") == before + 2
    japanese = scenario(RULES, nation=RUS, phase="non-combat-move", extra=na((RUS, SIB)),
                        owners={t: JPN for t in ("Yakut S.S.R.", "Soviet Far East", "Buryatia S.S.R.")})
    to_phase(japanese, "mobilize")
    assert [a for a in japanese.legal_actions() if a.type == "place_free"] == []


@pytest.mark.rule("AARE-NA-RUS-sib-treaty-six")
def test_siberian_conscripts_make_the_treaty_award_6_infantry() -> None:
    game = scenario(RULES, nation=JPN, phase="combat-move", clear=True, extra=na((RUS, SIB)),
                    units={"Manchuria": "Japan: 2 infantry", "Buryatia S.S.R.": "Russia: 1 infantry"})
    assert infantry_count(game.state, game.ruleset, RUS, "AARE-NAT-break-free-inf") == 6
    plain = scenario(RULES, nation=JPN, phase="combat-move")
    assert infantry_count(plain.state, plain.ruleset, RUS, "AARE-NAT-break-free-inf") == 4
    move(game, "2 infantry", "Manchuria", "Buryatia S.S.R.")  # Japan attacks a Red territory: broken
    game.apply({"type": "end_phase"})
    assert infantry(game, "Buryatia S.S.R.") == 1 + 6
    void = scenario(RULES, nation=JPN, phase="combat-move", clear=True, extra=na((RUS, SIB)),
                    units={"SZ 60": "Japan: 1 battleship", "Soviet Far East": "Russia: 1 infantry",
                           "SZ 62": "Russia: 1 submarine"})
    before = infantry(void, "Russia")
    move(void, "1 battleship", "SZ 60", "SZ 62")  # Japan attacks Russian ships: void
    void.apply({"type": "end_phase"})
    assert infantry(void, "Russia") == before + 6


@pytest.mark.rule("AARE-NA-RUS-winter-trigger", "AARE-NA-RUS-ll-cash-loan", "AARE-NA-RUS-ll-convert-units",
                  "AARE-NA-RUS-mi-ic-move")
def test_the_actions_have_a_text_form() -> None:
    from aare.action_text import format_action, parse_action_text
    from aare.actions import parse_action

    ruleset = Game(new_game(RULES, NO_BID, seed=1)).ruleset
    for text, json_form in (
        ("declare severe winter", {"type": "severe_winter"}),
        ("lend 2 from United States", {"type": "lend", "lender": US, "amount": 2}),
        ("convert 1 fighter of United States in Russia",
         {"type": "convert", "units": "1 fighter", "owner": US, "space": "Russia"}),
        ("move factory Karelia S.S.R. -> Archangel", {"type": "move_factory", "path": ["Karelia S.S.R.", "Archangel"]}),
    ):
        assert parse_action_text(text, ruleset) == json_form
        assert format_action(json_form) == text
        assert parse_action(json_form).to_json() == json_form
