"""Land movement: allowances, stopping in enemy territory, blitz, neutrals, friendly-only non-combat moves,
AA guns and complexes, and the combat-move / non-combat-move split."""

from __future__ import annotations

import pytest

from aare.events import ControlChanged, DiceRolled
from aare.movement import flags
from aare.movement.battles import pending_battles
from tests.movement.helpers import end, legal, move, mv, position, rejected, stacks_of, to_phase, units_in


@pytest.mark.rule("LHTR-LANDMOVE-movement-allowance")
def test_infantry_moves_one_armour_two_and_never_into_the_sea() -> None:
    game = position("Germany", "combat-move", {
        "Belorussia": "Germany: 2 infantry; Germany: 1 armour",
        "West Russia": "Russia: 1 infantry", "Russia": "Russia: 1 infantry", "Karelia S.S.R.": "Russia: 1 infantry",
    }, owners={"West Russia": "Russia"})
    rejected(game, mv("1 infantry", "Belorussia", "West Russia", "Russia"), "LHTR-LANDMOVE-movement-allowance",
             "1 movement left")
    rejected(game, mv("1 infantry", "Belorussia", "Russia"), "LHTR-LANDMOVE-movement-allowance", "not adjacent")
    rejected(game, mv("1 infantry", "Belorussia", "Karelia S.S.R.", "SZ 5"), "LHTR-LANDMOVE-movement-allowance")
    move(game, "1 infantry", "Belorussia", "West Russia")
    move(game, "1 armour", "Belorussia", "Karelia S.S.R.")
    assert units_in(game, "West Russia", "Germany") == {"infantry": 1}
    [inf] = [s for s in game.state.stacks("West Russia") if s.owner == "Germany"]
    assert inf.moved == 1 and flags.COMBAT in inf.flags and "turn:from=Belorussia" in inf.flags


@pytest.mark.rule("LHTR-LANDMOVE-stop-in-enemy-territory")
def test_entering_an_occupied_enemy_territory_ends_the_move() -> None:
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 armour", "West Russia": "Germany: 1 infantry"})
    rejected(game, mv("1 armour", "Russia", "West Russia", "Belorussia"), "LHTR-LANDMOVE-stop-in-enemy-territory")
    move(game, "1 armour", "Russia", "West Russia")
    rejected(game, mv("1 armour", "West Russia", "Belorussia"), "LHTR-COMBAT-one-battle-per-unit")


@pytest.mark.rule("LHTR-LANDMOVE-empty-enemy-territory")
def test_moving_into_an_empty_enemy_territory_is_a_capture_without_dice() -> None:
    game = position("Russia", "combat-move", {"Karelia S.S.R.": "Russia: 1 infantry"})
    events = move(game, "1 infantry", "Karelia S.S.R.", "Belorussia")
    assert not any(isinstance(e, DiceRolled) for e in events)
    assert game.state.owners["Belorussia"] == "Germany"  # taken in conduct-combat
    [site] = pending_battles(game.state, game.ruleset)
    assert (site.space, site.kind, site.defenders, site.can_capture) == ("Belorussia", "land", {}, True)


@pytest.mark.rule("LHTR-LANDMOVE-blitz")
def test_armour_blitzes_through_one_empty_enemy_territory_and_captures_it() -> None:
    game = position("Russia", "combat-move", {
        "Russia": "Russia: 2 armour", "Belorussia": "Germany: 1 infantry", "Karelia S.S.R.": "Russia: 1 infantry",
    })
    events = move(game, "1 armour", "Russia", "West Russia", "Belorussia")
    assert isinstance(events[0], ControlChanged) and events[0].space == "West Russia" and events[0].owner == "Russia"
    assert game.state.owners["West Russia"] == "Russia"
    [armour] = stacks_of(game, "Belorussia", "armour")
    assert "turn:from=West Russia" in armour.flags
    # West Russia is now friendly: a second armour passing it does not blitz, so it may only attack
    rejected(game, mv("1 armour", "Russia", "West Russia", "Karelia S.S.R."), "LHTR-TURN-combat-move-attack-only")
    move(game, "1 armour", "Russia", "West Russia", "Belorussia")


@pytest.mark.rule("LHTR-LANDMOVE-blitz", "LHTR-TURN-combat-move-attack-only")
def test_a_blitz_may_end_in_a_friendly_territory() -> None:
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 armour"})
    move(game, "1 armour", "Russia", "West Russia", "Karelia S.S.R.")
    assert game.state.owners["West Russia"] == "Russia"
    assert pending_battles(game.state, game.ruleset) == []
    rejected(to_phase(game, "non-combat-move"), mv("1 armour", "Karelia S.S.R.", "Archangel"),
             "LHTR-TURN-ncm-unmoved-only")


@pytest.mark.rule("LHTR-LANDMOVE-blitz-blocked-by-infrastructure")
def test_a_complex_or_aa_gun_alone_stops_a_blitz() -> None:
    game = position("United Kingdom", "combat-move", {
        "Western Europe": "United Kingdom: 1 armour", "Southern Europe": "Germany: 1 factory, 1 aa gun",
    }, owners={"Western Europe": "United Kingdom"})
    rejected(game, mv("1 armour", "Western Europe", "Southern Europe", "Balkans"),
             "LHTR-LANDMOVE-blitz-blocked-by-infrastructure")
    move(game, "1 armour", "Western Europe", "Southern Europe")
    [site] = pending_battles(game.state, game.ruleset)
    assert site.space == "Southern Europe" and site.can_capture


@pytest.mark.rule("LHTR-LANDMOVE-neutrals-impassable")
def test_neutral_territories_cannot_be_entered_or_crossed() -> None:
    game = position("Russia", "combat-move", {"Caucasus": "Russia: 1 armour", "Trans-Jordan": "Germany: 1 infantry"},
                    owners={"Trans-Jordan": "Germany"})
    rejected(game, mv("1 armour", "Caucasus", "Turkey"), "LHTR-LANDMOVE-neutrals-impassable")
    rejected(game, mv("1 armour", "Caucasus", "Turkey", "Trans-Jordan"), "LHTR-LANDMOVE-neutrals-impassable")
    uk = position("United Kingdom", "non-combat-move", {"Anglo Egypt": "United Kingdom: 1 fighter"},
                  owners={"Algeria": "United Kingdom", "Libya": "United Kingdom"})
    rejected(uk, mv("1 fighter", "Anglo Egypt", "Sahara", "Algeria"), "LHTR-LANDMOVE-neutrals-impassable")
    move(uk, "1 fighter", "Anglo Egypt", "Libya", "Algeria")


@pytest.mark.rule("LHTR-LANDMOVE-noncombat-friendly-only")
def test_noncombat_land_moves_stay_in_friendly_territory() -> None:
    game = position("United Kingdom", "non-combat-move", {"Persia": "United Kingdom: 2 infantry"})
    move(game, "1 infantry", "Persia", "Caucasus")
    held = position("United Kingdom", "non-combat-move", {"Persia": "United Kingdom: 1 infantry"},
                    owners={"Caucasus": "Germany"})
    rejected(held, mv("1 infantry", "Persia", "Caucasus"), "LHTR-LANDMOVE-noncombat-friendly-only")
    assert legal(to_phase(held, "combat-move"), mv("1 infantry", "Persia", "Caucasus"))


@pytest.mark.rule("LHTR-LANDMOVE-friendly-transit-in-combat")
def test_combat_moves_may_pass_through_friendly_territory() -> None:
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 armour", "Ukraine S.S.R.": "Germany: 1 infantry"})
    move(game, "1 armour", "Russia", "Caucasus", "Ukraine S.S.R.")
    assert units_in(game, "Ukraine S.S.R.", "Russia") == {"armour": 1}


@pytest.mark.rule("LHTR-LANDMOVE-aa-noncombat-only")
def test_aa_guns_move_only_in_noncombat_move() -> None:
    units = {"Russia": "Russia: 1 aa gun", "Archangel": "Russia: 1 infantry"}
    game = position("Russia", "combat-move", units, owners={"West Russia": "Germany"})
    rejected(game, mv("1 aa gun", "Russia", "West Russia"), "LHTR-LANDMOVE-aa-noncombat-only")
    ncm = position("Russia", "non-combat-move", units, owners={"West Russia": "Russia"})
    move(ncm, "1 aa gun", "Russia", "West Russia")
    assert units_in(ncm, "West Russia") == {"aa_gun": 1}


@pytest.mark.rule("LHTR-LANDMOVE-complex-immobile")
def test_industrial_complexes_never_move() -> None:
    game = position("Russia", "non-combat-move", {"Russia": "Russia: 1 factory, 1 infantry"})
    rejected(game, mv("1 factory", "Russia", "Archangel"), "LHTR-LANDMOVE-complex-immobile")
    rejected(game, mv("1 infantry, 1 factory", "Russia", "Archangel"), "LHTR-LANDMOVE-complex-immobile")
    assert not any("factory" in a.units for a in game.legal_actions() if a.type == "move")


@pytest.mark.rule("LHTR-TURN-combat-move-attack-only")
def test_repositioning_waits_for_noncombat_move() -> None:
    game = position("United Kingdom", "combat-move", {"Anglo Egypt": "United Kingdom: 1 armour"})
    rejected(game, mv("1 armour", "Anglo Egypt", "Trans-Jordan"), "LHTR-TURN-combat-move-attack-only")
    move(to_phase(game, "non-combat-move"), "1 armour", "Anglo Egypt", "Trans-Jordan")


@pytest.mark.rule("LHTR-TURN-ncm-unmoved-only")
def test_noncombat_move_is_for_units_that_neither_moved_nor_fought() -> None:
    game = position("Russia", "combat-move", {
        "Karelia S.S.R.": "Russia: 1 infantry", "Russia": "Russia: 1 infantry, 1 fighter",
        "Belorussia": "Germany: 1 infantry",
    }, owners={"West Russia": "Russia"})
    move(game, "1 infantry", "Karelia S.S.R.", "Belorussia")
    move(game, "1 fighter", "Russia", "West Russia", "Belorussia")
    ncm = to_phase(game, "non-combat-move")
    rejected(ncm, mv("1 infantry", "Belorussia", "Karelia S.S.R."), "LHTR-TURN-ncm-unmoved-only")
    move(ncm, "1 infantry", "Russia", "Archangel")
    move(ncm, "1 fighter", "Belorussia", "Karelia S.S.R.")
    assert [s.moved for s in stacks_of(ncm, "Karelia S.S.R.", "fighter")] == [3]


def test_end_phase_is_offered_and_ends_combat_move() -> None:
    game = position("Russia", "combat-move", {"Russia": "Russia: 1 infantry"})
    assert game.legal_actions()[0].type == "end_phase"
    end(game)
    assert game.state.phase == "conduct-combat"
