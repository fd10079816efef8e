"""AA50E Paratroopers: bombers carry one infantry each in combat move (dropped in the first enemy land territory
entered, where the bomber attacks too, and which it does not raid) and in non-combat move."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.invariants import check_log
from aare.scenario import scenario
from aare.state.unit_stacks import count_units

RULES = "aa50e-1942"
GER = "Germany"
DROP = ["Germany", "Poland", "East Poland"]


def para_game(phase: str = "combat-move", techs: tuple[str, ...] = ("paratroopers",),
              units: str = "Germany: 2 bomber, 2 infantry") -> Game:
    return scenario(RULES, nation=GER, phase=phase, techs={GER: techs},
                    clear=["Germany", "Poland", "Belorussia", "East Poland", "Baltic States"], units={"Germany": units},
                    owners={"Poland": GER, "East Poland": "Soviet Union", "Belorussia": "Soviet Union",
                            "Baltic States": GER})


def here(game: Game, space: str) -> dict[str, int]:
    return count_units(game.state.stacks(space), GER)


@pytest.mark.rule("AA50E-TECH-paratroopers-carry")
def test_bombers_carry_one_infantry_each_in_non_combat_move() -> None:
    game = para_game("non-combat-move")
    with pytest.raises(IllegalAction, match="carries one infantry, not armour"):
        game.apply({"type": "air_transport", "units": "1 armour", "path": ["Germany", "Poland", "Baltic States"]})
    with pytest.raises(IllegalAction, match="fewer than 3 bombers") as info:
        game.apply({"type": "air_transport", "units": "3 infantry", "path": ["Germany", "Poland", "Baltic States"]})
    assert info.value.rule_id == "AA50E-TECH-paratroopers-carry"
    game.apply({"type": "air_transport", "units": "1 infantry", "path": ["Germany", "Poland", "Baltic States"]})
    assert here(game, "Baltic States") == {"infantry": 1, "bomber": 1} and not check_log(game.log)
    with pytest.raises(IllegalAction, match="not friendly"):
        game.apply({"type": "air_transport", "units": "1 infantry", "path": ["Germany", "Poland", "East Poland"]})
    with pytest.raises(IllegalAction, match="no bombers"):
        para_game("non-combat-move", techs=("war_bonds",)).apply(
            {"type": "air_transport", "units": "1 infantry", "path": ["Germany", "Poland", "Baltic States"]})


@pytest.mark.rule("AA50E-TECH-paratroopers-carry", "AA50E-TECH-paratroopers-combat-same-territory")
def test_in_combat_move_the_carrying_bomber_attacks_where_it_drops() -> None:
    game = para_game()
    game.apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    assert here(game, "East Poland") == {"bomber": 1, "infantry": 1}
    with pytest.raises(IllegalAction, match="already moved"):
        game.apply({"type": "move", "units": "1 bomber", "path": ["East Poland", "Belorussia"]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "East Poland"})
    assert game.state.owners["East Poland"] == GER and not check_log(game.log)


@pytest.mark.rule("AA50E-TECH-paratroopers-first-hostile-land")
def test_the_drop_is_in_the_first_enemy_land_territory_entered() -> None:
    game = para_game()
    with pytest.raises(IllegalAction, match="must stop in East Poland, the first enemy territory"):
        game.apply({"type": "air_transport", "units": "1 infantry", "path": [*DROP, "Belorussia"]})


@pytest.mark.rule("AA50E-TECH-paratroopers-no-sbr")
def test_a_carrying_bomber_flies_no_raid() -> None:
    game = para_game()
    game.apply({"type": "air_transport", "units": "1 infantry", "path": DROP})
    with pytest.raises(IllegalAction, match="already moved in this combat move"):
        game.apply({"type": "move", "units": "1 bomber", "path": ["East Poland", "Belorussia"], "raid": True})
    after = para_game("non-combat-move")
    after.apply({"type": "air_transport", "units": "1 infantry", "path": ["Germany", "Poland", "Baltic States"]})
    assert after.state.phase == "non-combat-move"  # raids are declared in combat move only
