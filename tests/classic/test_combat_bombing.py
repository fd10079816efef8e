"""Classic strategic bombing (bombers only, IPCs out of the treasury of the complex's controller, no territory
cap) and the combat effects of Jet Power, Super Submarines and Heavy Bombers."""

from __future__ import annotations

from typing import Any

import pytest
from tests.aa50.common import battle as any_battle
from tests.aa50.common import dice_rolled, ended, fire, move, position, to_combat
from tests.combat.helpers import play

from aare.combat.events import DiceRolled
from aare.combat.rules import CombatRules
from aare.errors import IllegalAction
from aare.rules.ruleset import load_ruleset

RULES = "classic-2e"
GER, UK = "Germany", "United Kingdom"
UK_TO_GERMANY = ["United Kingdom", "North Sea Zone", "West Europe", "Germany"]


def battle(attacker: str, defender: str, kind: str = "land", **inputs: Any) -> Any:
    return any_battle(attacker, defender, kind, RULES, **inputs)


def raid(units: dict[str, str], path: list[str], dice: list[int], bombers: int = 1, **kw: Any) -> Any:
    """The United Kingdom's `bombers` fly a raid along `path` and fight it."""
    game = position(UK, "combat-move", units, dice=dice, rules=RULES, **kw)
    game.apply({"type": "move", "units": f"{bombers} bomber", "path": path, "raid": True})
    to_combat(game)
    game.apply({"type": "fight", "space": path[-1]})
    return game


@pytest.mark.rule("CL-SBR-declare", "CL-SBR-aa-then-damage", "CL-AA-attacked-territory")
def test_aa_fires_at_each_bomber_then_the_survivors_take_ipcs_from_the_treasury() -> None:
    game = raid({"United Kingdom": "United Kingdom: 2 bombers", "Germany": "Germany: 1 factory, 1 aa gun, 3 infantry"},
                UK_TO_GERMANY, [1, 4, 5], bombers=2, banks={GER: 30})
    assert dice_rolled(game) == [(1, 4), (5,)]  # the AA die per bomber, then the survivor's; the infantry never roll
    assert game.state.banks[GER] == 25
    assert sum(s.count for s in game.state.stacks("Germany") if s.owner == UK) == 1


@pytest.mark.rule("CL-SBR-declare")
def test_only_bombers_raid() -> None:
    game = position(UK, "combat-move", {"United Kingdom": "United Kingdom: 1 fighter, 1 bomber",
                                        "Germany": "Germany: 1 factory"}, rules=RULES)
    before = game.state
    with pytest.raises(IllegalAction):
        game.apply({"type": "move", "units": "1 fighter", "path": UK_TO_GERMANY, "raid": True})
    assert game.state == before
    assert not load_ruleset(RULES).modify("combat_rules", CombatRules()).sbr_escorts


@pytest.mark.rule("CL-SBR-no-territory-cap")
def test_a_raid_takes_more_than_the_territory_is_worth_but_never_more_than_the_treasury() -> None:
    game = raid({"Anglo Sudan Egypt": "United Kingdom: 1 bomber", "Libya": "Germany: 1 factory"},
                ["Anglo Sudan Egypt", "Libya"], [6], banks={GER: 30})
    assert game.state.banks[GER] == 24  # Libya is worth 1
    game = raid({"United Kingdom": "United Kingdom: 1 bomber", "South Europe": "Germany: 1 factory"},
                ["United Kingdom", "North Sea Zone", "West Europe", "South Europe"], [6], banks={GER: 3})
    assert game.state.banks[GER] == 0


@pytest.mark.rule("CL-SBR-any-complex-owner")
def test_a_captured_complex_costs_its_controller() -> None:
    game = raid({"United Kingdom": "United Kingdom: 1 bomber", "Karelia S.S.R.": "Germany: 1 factory, 1 infantry"},
                ["United Kingdom", "North Sea Zone", "Karelia Sea Zone", "Karelia S.S.R."], [4],
                owners={"Karelia S.S.R.": GER}, banks={GER: 20, "Russia": 20})
    assert game.state.banks[GER] == 16 and game.state.banks["Russia"] == 20


@pytest.mark.rule("CL-SBR-bomber-returns")
def test_the_raiding_bomber_flies_home_in_non_combat_movement() -> None:
    game = raid({"United Kingdom": "United Kingdom: 1 bomber", "Germany": "Germany: 1 factory"}, UK_TO_GERMANY, [3],
                banks={GER: 30})
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    move(game, "1 bomber", *reversed(UK_TO_GERMANY))
    assert [(s.owner, s.unit) for s in game.state.stacks("United Kingdom")] == [(UK, "bomber")]


@pytest.mark.rule("CL-WEAPONS-heavy-bombers", "CL-SBR-aa-then-damage")
def test_a_heavy_bomber_raid_sums_three_dice() -> None:
    game = raid({"United Kingdom": "United Kingdom: 1 bomber", "Germany": "Germany: 1 factory, 1 aa gun"},
                UK_TO_GERMANY, [6, 2, 5, 6], banks={GER: 30}, techs={UK: ["heavy_bombers"]})
    assert dice_rolled(game) == [(6,), (2, 5, 6)]
    assert game.state.banks[GER] == 17


@pytest.mark.rule("CL-WEAPONS-heavy-bombers")
def test_a_heavy_bomber_rolls_three_dice_in_battle_and_one_in_defence() -> None:
    _, events = play(battle("1 bomber", "2 infantry", attacker_techs=["heavy_bombers"]), [2, 5, 6, 6, 6])
    assert fire(events, "attacker fire") == [("bomber", 1, 4)]
    [rolled] = [e for e in events if isinstance(e, DiceRolled) and e.step == "attacker fire"]
    assert (rolled.dice, rolled.per_unit, rolled.hits) == ((2, 5, 6), 3, 1)  # three dice, each counts: one hit
    _, events = play(battle("2 armour", "1 bomber", defender_techs=["heavy_bombers"]), [6, 6, 1])
    [rolled] = [e for e in events if isinstance(e, DiceRolled) and e.step == "defender fire"]
    assert (rolled.unit, rolled.dice, rolled.hit_on) == ("bomber", (1,), 1)


@pytest.mark.rule("CL-WEAPONS-jet-power", "CL-UNITS-fighter")
def test_jet_fighters_defend_at_five_and_still_attack_at_three() -> None:
    _, events = play(battle("1 armour", "1 fighter", defender_techs=["jet_fighters"]), [6, 5])
    assert fire(events, "defender fire") == [("fighter", 1, 5)]
    assert ended(events).result == "defender"
    _, events = play(battle("1 fighter", "1 infantry", attacker_techs=["jet_fighters"]), [4, 6])
    assert fire(events, "attacker fire") == [("fighter", 1, 3)]
    _, events = play(battle("1 armour", "1 fighter"), [6, 5])
    assert fire(events, "defender fire") == [("fighter", 1, 4)]


@pytest.mark.rule("CL-WEAPONS-super-subs", "CL-UNITS-submarine")
def test_super_subs_attack_at_three_and_defend_at_two() -> None:
    _, events = play(battle("1 submarine", "1 transport", "sea", attacker_techs=["super_submarines"]), [3])
    assert fire(events, "attacker sub first strike") == [("submarine", 1, 3)]
    _, events = play(battle("1 battleship", "1 submarine", "sea", defender_techs=["super_submarines"]), [6, 3])
    assert fire(events, "defender fire") == [("submarine", 1, 2)]
    _, events = play(battle("1 submarine", "1 transport", "sea"), [3, 6])
    assert fire(events, "attacker sub first strike") == [("submarine", 1, 2)]


@pytest.mark.rule("CL-AA-flyover", "CL-SBR-aa-then-damage")
def test_a_raiding_bomber_draws_fire_from_each_gun_it_flies_over_then_from_the_target() -> None:
    game = raid({"United Kingdom": "United Kingdom: 1 bomber", "West Europe": "Germany: 1 aa gun",
                 "Germany": "Germany: 1 factory, 1 aa gun"}, UK_TO_GERMANY, [6, 6, 4], banks={GER: 30})
    assert dice_rolled(game) == [(6,), (6,), (4,)]  # West Europe's gun, Germany's gun, the bomb
    assert game.state.banks[GER] == 26
