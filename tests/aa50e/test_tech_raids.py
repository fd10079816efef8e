"""AA50E technologies in strategic bombing raids: jet interceptors (after the AA fire, only over their own
territory) and long range escorts (neutralising interceptors, protecting bombers from AA, never fired on), on the
board and in the calculator."""

from __future__ import annotations

import pytest

from aare.combat.events import DiceRolled, StepEntered
from aare.economy.complex_damage import complex_damage
from aare.engine import Game
from aare.errors import IllegalAction, MalformedInput
from aare.odds import odds
from aare.scenario import scenario
from tests.aa50.common import battle, fire
from tests.combat.helpers import play

RULES = "aa50e-1941"
UK = "United Kingdom"
UK_TO_GERMANY = ["United Kingdom", "SZ 6", "Northwestern Europe", "Germany"]
JETS = {"jet_fighters"}


def close(value: float | None, exact: float) -> bool:
    return value is not None and abs(value - exact) < 1e-9


def board_raid(units: dict[str, str], dice: list[int], techs: dict[str, list[str]], *, escorts: int = 0,
               bombers: int = 1) -> Game:
    mine = f"United Kingdom: {bombers} bomber" + (f", {escorts} fighter" if escorts else "")
    game = scenario(RULES, nation=UK, phase="combat-move", clear=True, techs=techs, dice=dice,
                    units={"United Kingdom": mine, **units})
    game.apply({"type": "move", "units": f"{bombers} bomber", "path": UK_TO_GERMANY, "raid": True})
    if escorts:
        game.apply({"type": "move", "units": f"{escorts} fighter", "path": UK_TO_GERMANY, "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Germany"})
    return game


def steps_of(game: Game) -> list[str]:
    """The purposes of the dice of the last action."""
    return [e.purpose.split(": ")[1] for e in game.log.entries[-1].events  # type: ignore[attr-defined]
            if e.type == "dice_rolled"]


@pytest.mark.rule("AA50E-TECH-jet-intercept-roll")
def test_each_jet_rolls_a_die_at_1_against_the_raiding_bombers() -> None:
    b = battle("3 bomber", "2 fighter", "raid", rules=RULES, defender_techs=JETS, territory_value=30)
    _, events = play(b, [6, 6, 6, 1, 6, 4, 4])
    assert fire(events, "interceptors") == [("fighter", 2, 1)]
    assert fire(events, "bombing damage") == [("bomber", 2, 0)]  # one bomber destroyed before bombing
    raid = odds("3 bomber", "2 fighter", RULES, battle="raid", defender_techs=JETS, territory_value=30,
                defender_aa=False)
    assert close(raid.expected_damage, (3 - 2 / 6) * 3.5)
    with pytest.raises(MalformedInput, match="interceptors are jet fighters"):
        odds("3 bomber", "2 fighter", RULES, battle="raid", territory_value=30, defender_aa=False)


@pytest.mark.rule("AA50E-TECH-jet-intercept-roll", "AA50E-TECH-jet-intercept-scope")
def test_jets_on_the_board_intercept_a_raid_on_their_own_territory() -> None:
    game = board_raid({"Germany": "Germany: 1 factory, 2 fighter"}, [1, 6], {"Germany": ["jet_fighters"]})
    assert steps_of(game) == ["interceptors"]  # no AA gun; the bomber is destroyed, nothing is bombed
    assert complex_damage(game.state, game.ruleset, "Germany") == 0
    game = board_raid({"Germany": "Germany: 1 factory", "Northwestern Europe": "Germany: 2 fighter"}, [4],
                      {"Germany": ["jet_fighters"]})
    assert steps_of(game) == ["bombing damage"]  # jets of a territory flown over do not intercept
    assert complex_damage(game.state, game.ruleset, "Germany") == 4


@pytest.mark.rule("AA50E-TECH-jet-intercept-scope")
def test_jets_do_not_intercept_in_a_normal_battle() -> None:
    b = battle("1 bomber", "1 fighter", "land", rules=RULES, defender_techs=JETS)
    _, events = play(b, [6, 6])
    assert fire(events) == [("bomber", 1, 4), ("fighter", 1, 4)]


@pytest.mark.rule("AA50E-TECH-jet-intercept-timing")
def test_interceptors_roll_after_the_aa_fire_at_the_bombers_left() -> None:
    b = battle("2 bomber", "1 fighter, 1 aa gun", "raid", rules=RULES, defender_techs=JETS, territory_value=30)
    _, events = play(b, [1, 6, 6, 4])
    entered = [e.step for e in events if isinstance(e, StepEntered)]
    assert entered.index("aa fire") < entered.index("interceptors") < entered.index("bombing damage")
    rolled = [(e.step, e.count) for e in events if isinstance(e, DiceRolled)]
    assert rolled == [("aa fire", 2), ("interceptors", 1), ("bombing damage", 1)]  # one bomber was shot down


@pytest.mark.rule("AA50E-TECH-lra-escort-neutralize")
def test_each_escort_neutralises_one_interceptor() -> None:
    lra = {"long_range_aircraft"}
    b = battle("3 bomber, 2 fighter", "3 fighter", "raid", rules=RULES, attacker_techs=lra, defender_techs=JETS,
               territory_value=30, defender_aa=False)
    _, events = play(b, [6, 1, 2, 3])
    assert fire(events, "interceptors") == [("fighter", 1, 1)]
    raid = odds("3 bomber, 2 fighter", "3 fighter", RULES, battle="raid", attacker_techs=lra, defender_techs=JETS,
                territory_value=30, defender_aa=False)
    assert close(raid.expected_damage, (3 - 1 / 6) * 3.5)


@pytest.mark.rule("AA50E-TECH-lra-escort-neutralize")
def test_only_long_range_fighters_escort_a_raid() -> None:
    game = scenario(RULES, nation=UK, phase="combat-move", clear=True,
                    units={"United Kingdom": "United Kingdom: 1 bomber, 1 fighter", "Germany": "Germany: 1 factory"})
    game.apply({"type": "move", "units": "1 bomber", "path": UK_TO_GERMANY, "raid": True})
    with pytest.raises(IllegalAction) as info:
        game.apply({"type": "move", "units": "1 fighter", "path": UK_TO_GERMANY, "raid": True})
    assert info.value.rule_id == "AA50E-TECH-lra-escort-neutralize"
    game = board_raid({"Germany": "Germany: 1 factory, 1 fighter"}, [3], {UK: ["long_range_aircraft"],
                                                                           "Germany": ["jet_fighters"]}, escorts=1)
    assert steps_of(game) == ["bombing damage"]  # the escort neutralised the jet
    assert complex_damage(game.state, game.ruleset, "Germany") == 3


@pytest.mark.rule("AA50E-TECH-lra-escort-aa-protection")
def test_surplus_escorts_give_a_bomber_hit_by_aa_a_protection_roll() -> None:
    lra = {"long_range_aircraft"}
    b = battle("2 bomber, 1 fighter", "1 aa gun", "raid", rules=RULES, attacker_techs=lra, territory_value=30)
    _, events = play(b, [1, 6, 5, 4])  # AA hits one bomber; protection die 5: it goes home
    assert fire(events, "escort protection") == [("escort protection 1", 1, 3)]
    assert fire(events, "bombing damage") == [("bomber", 1, 0)]  # one bomber bombs
    assert not any(type(e).__name__ == "UnitsRemoved" for e in events)
    _, events = play(b, [1, 6, 2, 4])  # protection die 2: the bomber is lost
    assert any(type(e).__name__ == "UnitsRemoved" for e in events)
    # 1 of 2 escorts beyond 1 jet: one roll; without escorts a hit bomber is lost at once
    raid = odds("1 bomber, 1 fighter", "1 aa gun", RULES, battle="raid", attacker_techs=lra, territory_value=30)
    assert close(raid.expected_damage, 5 / 6 * 3.5)  # a saved bomber goes home without bombing
    assert close(raid.attacker_ipc_lost, 1 / 6 * 1 / 2 * 14)


@pytest.mark.rule("AA50E-TECH-lra-escort-aa-immune")
def test_aa_guns_fire_at_the_bombers_only() -> None:
    b = battle("2 bomber, 2 fighter", "1 aa gun", "raid", rules=RULES, attacker_techs={"long_range_aircraft"},
               territory_value=30)
    _, events = play(b, [6, 6, 1, 1])
    assert fire(events, "aa fire") == [("bomber", 2, 1)]
