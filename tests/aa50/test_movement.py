"""Anniversary movement on the Anniversary board: what combat and non-combat move are for, land moves, blitzes,
capture, and the impassable neutrals. Illegal moves name the Anniversary ledger's rule."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

import pytest

from aare.dice import ScriptedDice
from aare.economy.turn import turn_record
from aare.engine import Game
from aare.game_log import GameLog
from aare.movement.battles import pending_battles
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack
from tests.movement.helpers import end, legal, move, mv, rejected, to_phase, units_in, without

RULESETS = ("aa50-1941", "aa50-1942")


def at(
    rules: str,
    nation: str,
    phase: str,
    units: Mapping[str, str],
    *,
    owners: Mapping[str, str] | None = None,
    stacks: Iterable[tuple[str, Stack]] = (),
    dice: Iterable[int] | None = None,
    techs: Mapping[str, Iterable[str]] | None = None,
) -> Game:
    """An empty Anniversary board (scenario `rules`) with `units` ("Power: unit list"; "" for none) and extra
    `stacks`; the turn began with the owners given."""
    game = scenario(rules, nation=nation, phase=phase, clear=True, units={k: v for k, v in units.items() if v},
                    owners=owners, techs=techs)
    state = game.state
    state = replace(state, extra={**state.extra, "turn": {**turn_record(state), "owners": dict(state.owners)}})
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), ScriptedDice(list(dice)) if dice is not None else None)


def fight(game: Game, space: str) -> None:
    game.apply({"type": "fight", "space": space})


# ------------------------------------------------------------------------------------------------ phases


@pytest.mark.rule("AA50-PHASES-combat-move-attacks-only")
@pytest.mark.parametrize("rules", RULESETS)
def test_combat_move_is_for_attacks_only(rules: str) -> None:
    game = at(rules, "Soviet Union", "combat-move", {"Russia": "Soviet Union: 2 infantry"})
    rejected(game, mv("1 infantry", "Russia", "Archangel"), "AA50-PHASES-combat-move-attacks-only",
             "waits for non-combat move")
    ncm = to_phase(game, "non-combat-move")
    move(ncm, "1 infantry", "Russia", "Archangel")
    assert units_in(ncm, "Archangel") == {"infantry": 1}


@pytest.mark.rule("AA50-PHASES-ncm-unmoved-only", "AA50-LANDMOVE-no-land-units-from-captured-move",
                  "AA50-LANDMOVE-blitz")
def test_units_that_moved_in_combat_move_stay_but_aircraft_fly_back() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {
        "Poland": "Germany: 1 armour, 1 fighter", "Eastern Ukraine": "Soviet Union: 1 infantry",
    }, owners={"East Poland": "Soviet Union", "Eastern Ukraine": "Soviet Union"})
    move(game, "1 armour", "Poland", "East Poland", "Eastern Ukraine")  # blitz through empty East Poland
    assert game.state.owners["East Poland"] == "Germany"
    move(game, "1 fighter", "Poland", "East Poland", "Eastern Ukraine")
    won = to_phase(without(game, "Eastern Ukraine", "Soviet Union"), "non-combat-move")
    rejected(won, mv("1 armour", "Eastern Ukraine", "East Poland"), "AA50-LANDMOVE-no-land-units-from-captured-move",
             "moved or fought in combat move")
    rejected(won, mv("1 fighter", "Eastern Ukraine", "East Poland"), "AA50-AIRMOVE-landing-friendly",
             "not been friendly since the turn began")
    move(won, "1 fighter", "Eastern Ukraine", "East Poland", "Poland")  # flies back with the rest of its move
    assert units_in(won, "Poland") == {"fighter": 1}
    soviet = at("aa50-1942", "Soviet Union", "non-combat-move", {"Russia": "Soviet Union: 1 infantry"})
    rejected(soviet, mv("1 infantry", "Russia", "Eastern Ukraine"), "AA50-PHASES-ncm-unmoved-only",
             "enemy territory")  # German in 1942: no non-combat move goes there


def settle(game: Game) -> None:
    """Answer the battle's decisions: the attacker presses on, casualties as first offered."""
    while game.state.pending is not None:
        options = game.legal_actions()
        game.apply(next((a for a in options if a.type == "press"), options[0]))


@pytest.mark.rule("AA50-PHASES-all-battles-resolved")
def test_every_battle_is_fought_one_at_a_time_in_the_attackers_order() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {
        "Baltic States": "Germany: 2 infantry", "Karelia S.S.R.": "Soviet Union: 1 infantry",
        "Libya": "Germany: 2 armour", "Egypt": "United Kingdom: 1 infantry",
        "France": "Germany: 1 bomber", "United Kingdom": "United Kingdom: 1 factory",
    }, dice=[1, 1, 6, 1, 1, 6, 3])
    move(game, "2 infantry", "Baltic States", "Karelia S.S.R.")
    move(game, "2 armour", "Libya", "Egypt")
    move(game, "1 bomber", "France", "SZ 7", "United Kingdom", raid=True)
    end(game)
    assert {a.to_json()["space"] for a in game.legal_actions() if a.type == "fight"} == {
        "Karelia S.S.R.", "Egypt", "United Kingdom"}
    rejected(game, {"type": "end_phase"}, "LHTR-COMBAT-battle-order", "every battle must be fought")
    fight(game, "Egypt")  # the attacker picks the order: Egypt before Karelia
    settle(game)
    assert game.state.owners["Egypt"] == "Germany"
    fight(game, "Karelia S.S.R.")
    settle(game)
    assert game.state.owners["Karelia S.S.R."] == "Germany"
    fight(game, "United Kingdom")
    settle(game)
    end(game)
    assert game.state.phase == "non-combat-move"


@pytest.mark.rule("AA50-PHASES-all-battles-resolved", "AA50-TRANSPORT-amphibious-assault")
def test_the_sea_battle_comes_before_the_landing_it_clears() -> None:
    loaded = Stack("United States", "transport", 1, flags=("cargo=United States:infantry,United States:infantry",))
    game = at("aa50-1941", "United States", "combat-move", {
        "SZ 8": "United States: 1 destroyer", "SZ 7": "Germany: 1 cruiser", "France": "Germany: 1 infantry",
    }, stacks=[("SZ 8", loaded)], dice=[1, 6, 1, 1, 6])
    move(game, "1 destroyer, 1 transport, 2 infantry", "SZ 8", "SZ 7")
    move(game, "2 infantry", "SZ 7", "France")
    end(game)
    rejected(game, {"type": "fight", "space": "France"}, "LHTR-COMBAT-battle-order", "comes before the landing")
    fight(game, "SZ 7")
    settle(game)
    fight(game, "France")
    settle(game)
    assert game.state.owners["France"] == "United States"


@pytest.mark.rule("AA50-COMBATMOVE-hostile-territory-stops", "AA50-LANDMOVE-basic")
def test_land_units_stop_in_an_occupied_enemy_territory() -> None:
    game = at("aa50-1942", "Soviet Union", "combat-move", {
        "Archangel": "Soviet Union: 1 armour", "Belorussia": "Germany: 1 infantry",
    })
    rejected(game, mv("1 armour", "Archangel", "Belorussia", "East Poland"),
             "AA50-COMBATMOVE-hostile-territory-stops", "must stop there")
    move(game, "1 armour", "Archangel", "Belorussia")
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.retreat_to) == ("Belorussia", "land", ("Archangel",))


@pytest.mark.rule("AA50-COMBATMOVE-empty-enemy-territory")
@pytest.mark.parametrize("rules", RULESETS)
def test_an_empty_enemy_territory_is_taken_without_dice(rules: str) -> None:
    game = at(rules, "Germany", "combat-move", {
        "Baltic States": "Germany: 1 infantry", "Karelia S.S.R.": "Soviet Union: 1 factory, 1 aa gun",
    }, owners={"Baltic States": "Germany"}, dice=[])
    move(game, "1 infantry", "Baltic States", "Karelia S.S.R.")
    assert game.state.owners["Karelia S.S.R."] == "Soviet Union"  # taken in conduct combat, not before
    end(game)
    fight(game, "Karelia S.S.R.")  # the dice are empty: no die is rolled
    assert game.state.owners["Karelia S.S.R."] == "Germany"
    assert units_in(game, "Karelia S.S.R.", "Germany") == {"infantry": 1, "factory": 1, "aa_gun": 1}


@pytest.mark.rule("AA50-LANDMOVE-basic")
def test_land_units_move_their_movement_by_adjacent_territories_and_never_to_sea() -> None:
    game = at("aa50-1941", "Soviet Union", "non-combat-move", {"Russia": "Soviet Union: 1 artillery, 1 armour"})
    rejected(game, mv("1 artillery", "Russia", "Archangel", "Karelia S.S.R."), "AA50-LANDMOVE-basic",
             "1 movement left")
    rejected(game, mv("1 armour", "Russia", "Karelia S.S.R."), "AA50-LANDMOVE-basic", "not adjacent")
    rejected(game, mv("1 armour", "Russia", "Archangel", "SZ 4"), "AA50-LANDMOVE-basic", "aboard transports")
    move(game, "1 armour", "Russia", "Archangel", "Karelia S.S.R.")
    move(game, "1 artillery", "Russia", "Archangel")


@pytest.mark.rule("AA50-LANDMOVE-blitz")
def test_armour_blitzes_through_one_empty_enemy_territory_but_not_past_an_aa_gun() -> None:
    owners = {"East Poland": "Soviet Union", "Baltic States": "Soviet Union"}
    game = at("aa50-1942", "Germany", "combat-move", {"Poland": "Germany: 1 armour"}, owners=owners)
    move(game, "1 armour", "Poland", "East Poland", "Ukraine")  # Ukraine is German in 1942: a blitz on
    assert game.state.owners["East Poland"] == "Germany"
    guarded = at("aa50-1942", "Germany", "combat-move", {
        "Poland": "Germany: 1 armour", "East Poland": "Soviet Union: 1 aa gun"}, owners=owners)
    rejected(guarded, mv("1 armour", "Poland", "East Poland", "Ukraine"), "AA50-LANDMOVE-blitz",
             "cannot blitz through")
    move(guarded, "1 armour", "Poland", "East Poland")  # it may stop there and take it
    two = at("aa50-1942", "Germany", "combat-move", {"Poland": "Germany: 1 armour"},
             owners={**owners, "Belorussia": "Soviet Union", "Eastern Ukraine": "Soviet Union"})
    rejected(two, mv("1 armour", "Poland", "East Poland", "Eastern Ukraine", "Belorussia"), "AA50-LANDMOVE-basic")


@pytest.mark.rule("AA50-LANDMOVE-friendly-territory")
def test_land_units_move_through_and_into_allied_territory_without_taking_it() -> None:
    game = at("aa50-1941", "United Kingdom", "non-combat-move", {"Persia": "United Kingdom: 2 infantry"})
    move(game, "2 infantry", "Persia", "Caucasus")
    assert game.state.owners["Caucasus"] == "Soviet Union"
    assert units_in(game, "Caucasus", "United Kingdom") == {"infantry": 2}
    armour = at("aa50-1941", "United Kingdom", "non-combat-move", {"Persia": "United Kingdom: 1 armour"})
    move(armour, "1 armour", "Persia", "Kazakh S.S.R.", "Russia")
    assert armour.state.owners["Kazakh S.S.R."] == "Soviet Union"
    assert units_in(armour, "Russia", "United Kingdom") == {"armour": 1}


@pytest.mark.rule("AA50-LANDMOVE-capture-order")
def test_aircraft_alone_never_capture() -> None:
    game = at("aa50-1942", "Germany", "combat-move", {
        "Bulgaria Romania": "Germany: 2 fighters", "Ukraine": "Soviet Union: 1 infantry",
    }, owners={"Ukraine": "Soviet Union"}, dice=[1, 1, 6])
    move(game, "2 fighters", "Bulgaria Romania", "Ukraine")
    end(game)
    fight(game, "Ukraine")
    settle(game)
    assert units_in(game, "Ukraine") == {"fighter": 2}
    assert game.state.owners["Ukraine"] == "Soviet Union"
    empty = at("aa50-1942", "Germany", "combat-move", {"Bulgaria Romania": "Germany: 1 fighter"},
               owners={"Ukraine": "Soviet Union"})
    rejected(empty, mv("1 fighter", "Bulgaria Romania", "Ukraine"), "AA50-LANDMOVE-capture-order", "cannot take")


# ------------------------------------------------------------------------------------------------ neutrals

NEUTRALS = {"Afghanistan", "Angola", "Argentina Chile", "Eire", "Himalaya", "Mongolia", "Mozambique",
            "Northern South America", "Peruvian Central", "Sahara", "Spain", "Sweden", "Switzerland", "Turkey"}


@pytest.mark.rule("AA50-NEUTRAL-impassable", "AA50-NEUTRAL-saudi-arabia")
@pytest.mark.parametrize("rules", RULESETS)
def test_the_neutrals_are_impassable_worth_nothing_and_held_by_nobody(rules: str) -> None:
    game = at(rules, "Germany", "combat-move", {})
    board = game.ruleset.board
    neutral = {s.name for s in board.spaces.values() if s.neutral}
    assert neutral == NEUTRALS | {"Saudi Arabia"}
    assert all(board.spaces[n].ipc == 0 and n not in game.state.owners for n in neutral)


@pytest.mark.rule("AA50-NEUTRAL-impassable", "AA50-LANDMOVE-no-neutral", "AA50-AIRMOVE-no-neutral-overflight")
def test_no_unit_enters_attacks_or_flies_over_a_neutral() -> None:
    game = at("aa50-1941", "Germany", "combat-move", {
        "France": "Germany: 1 armour", "Bulgaria Romania": "Germany: 1 armour", "Finland": "Germany: 1 fighter",
        "Gibraltar": "United Kingdom: 1 infantry"})
    rejected(game, mv("1 armour", "France", "Spain"), "AA50-NEUTRAL-impassable", "neutral and impassable")
    rejected(game, mv("1 armour", "France", "Spain", "Gibraltar"), "AA50-NEUTRAL-impassable")
    rejected(game, mv("1 armour", "Bulgaria Romania", "Turkey"), "AA50-NEUTRAL-impassable")
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 fighter", "Finland", "Sweden", "SZ 5", "Poland"), "AA50-NEUTRAL-impassable")
    move(ncm, "1 fighter", "Finland", "SZ 5", "Poland")  # around Sweden by sea
    soviet = at("aa50-1941", "Soviet Union", "non-combat-move", {"Caucasus": "Soviet Union: 1 infantry"})
    rejected(soviet, mv("1 infantry", "Caucasus", "Turkey"), "AA50-NEUTRAL-impassable")
    uk = at("aa50-1941", "United Kingdom", "combat-move", {"United Kingdom": "United Kingdom: 1 bomber",
                                                           "Norway": "Germany: 1 infantry"})
    rejected(uk, mv("1 bomber", "United Kingdom", "SZ 6", "Norway", "Sweden", "Finland"), "AA50-NEUTRAL-impassable")


@pytest.mark.rule("AA50-NEUTRAL-saudi-arabia")
def test_saudi_arabia_is_closed_to_both_sides() -> None:
    italy = at("aa50-1942", "Italy", "combat-move", {"Trans-Jordan": "Italy: 1 armour"},
               owners={"Trans-Jordan": "Italy"})
    rejected(italy, mv("1 armour", "Trans-Jordan", "Saudi Arabia"), "AA50-NEUTRAL-impassable")
    uk = at("aa50-1942", "United Kingdom", "non-combat-move", {"Trans-Jordan": "United Kingdom: 1 infantry, 1 fighter"})
    rejected(uk, mv("1 infantry", "Trans-Jordan", "Saudi Arabia"), "AA50-NEUTRAL-impassable")
    rejected(uk, mv("1 fighter", "Trans-Jordan", "Saudi Arabia", "SZ 34"), "AA50-NEUTRAL-impassable")
    assert not [a for a in uk.legal_actions() if "Saudi Arabia" in (getattr(a, "path", None) or ())]


@pytest.mark.rule("AA50-NEUTRAL-no-violation-rule")
@pytest.mark.parametrize("phase", ["combat-move", "non-combat-move"])
def test_no_action_ever_goes_into_a_neutral(phase: str) -> None:
    game = at("aa50-1941", "Germany", phase, {
        "France": "Germany: 2 armour, 1 bomber", "Bulgaria Romania": "Germany: 1 infantry, 1 fighter",
        "Finland": "Germany: 1 infantry", "Gibraltar": "United Kingdom: 1 infantry"},
        owners={"Gibraltar": "United Kingdom"})
    actions = game.legal_actions()
    assert actions and {a.type for a in actions} <= {"end_phase", "move", "load"}
    assert not [a for a in actions if set(getattr(a, "path", None) or ()) & (NEUTRALS | {"Saudi Arabia"})]
    assert game.state.banks == at("aa50-1941", "Germany", phase, {}).state.banks


@pytest.mark.rule("AA50-OPTIONS-kamikaze-not-base", "AA50-AIRMOVE-no-crash-planning")
@pytest.mark.parametrize("rules", RULESETS)
def test_no_kamikaze_option_and_no_one_way_air_moves(rules: str) -> None:
    game = at(rules, "Germany", "combat-move", {
        "Germany": "Germany: 1 bomber", "Archangel": "Soviet Union: 1 infantry",
        "Karelia S.S.R.": "Soviet Union: 1 infantry"},
        owners={"Belorussia": "Soviet Union", "Baltic States": "Soviet Union", "East Poland": "Soviet Union",
                "Karelia S.S.R.": "Soviet Union", "Finland": "Soviet Union", "Eastern Ukraine": "Soviet Union"})
    assert not [o for o in game.ruleset.spec.option_specs if "kamikaze" in o.key]
    # Archangel is 4 spaces out, and the nearest friendly land is 3 beyond: 7 > 6
    rejected(game, mv("1 bomber", "Germany", "Poland", "Baltic States", "Karelia S.S.R.", "Archangel"),
             "AA50-AIRMOVE-no-crash-planning", "no place to land")
    assert legal(game, mv("1 bomber", "Germany", "Poland", "Baltic States", "Karelia S.S.R."))
