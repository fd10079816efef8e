"""Anniversary sea battles: surprise strike, submerging, subs and aircraft, transports last and alone,
aircraft against ships."""

from __future__ import annotations

import pytest

from aare.combat.decisions import ChooseCasualties, ChooseSubmerge, Press, PressOrRetreat, Submerge
from aare.errors import IllegalAction
from aare.scenario import scenario
from tests.aa50.common import battle, begun, dice_rolled, ended, fire, left, move, position, to_combat
from tests.combat.helpers import play, steps
from tests.movement.helpers import boat


@pytest.mark.rule("AA50-NAVALCOMBAT-surprise-strike", "AA50-COMBAT-sequence", "AA50-UNITS-destroyer")
def test_subs_strike_first_every_round_unless_the_enemy_has_a_destroyer() -> None:
    b, events = play(begun(battle("2 submarines", "1 battleship, 1 carrier")), [1, 6])
    assert fire(events, "attacker sub first strike") == [("submarine", 2, 2)]
    assert isinstance(b.pending, ChooseCasualties)
    b, events = play(b, [6], {"carrier": 1})  # removed at once: only the battleship fires back
    assert fire(events, "defender fire") == [("battleship", 1, 4)]
    b, events = play(b, [6, 6, 6], Submerge(0), Press())
    assert ("attacker sub first strike", 2) in steps(events)
    # with a destroyer facing them the subs fire with the main group
    _, events = play(begun(battle("1 submarine, 1 cruiser", "1 destroyer")), [6, 6, 6])
    assert fire(events, "attacker sub first strike") == []
    assert fire(events, "attacker fire") == [("submarine", 1, 2), ("cruiser", 1, 3)]


@pytest.mark.rule("AA50-NAVALCOMBAT-surprise-strike")
def test_both_sides_subs_fire_before_either_removes_casualties() -> None:
    _, events = play(begun(battle("1 submarine", "1 submarine")), [1, 1])
    assert fire(events) == [("submarine", 1, 2), ("submarine", 1, 1)]
    assert ended(events).result == "draw"


@pytest.mark.rule("AA50-NAVALCOMBAT-submerge")
def test_subs_may_submerge_before_firing_unless_an_enemy_destroyer_is_there() -> None:
    b, _ = play(battle("1 cruiser", "1 submarine"), [])
    assert isinstance(b.pending, ChooseSubmerge) and b.pending.side == "defender"
    b, events = play(b, [], Submerge(1))
    assert fire(events) == [] and ended(events).result == "attacker"
    assert ended(events).defender == {"submarine": 1}
    b, _ = play(battle("1 destroyer", "1 submarine"), [6, 6])  # no offer: a destroyer is present
    assert isinstance(b.pending, PressOrRetreat)


@pytest.mark.rule("AA50-NAVALCOMBAT-submerge")
def test_subs_may_submerge_once_the_enemy_destroyer_is_gone() -> None:
    b, _ = play(begun(battle("1 destroyer, 1 battleship", "1 submarine, 1 battleship")), [6, 6, 6, 1],
                {"destroyer": 1}, Press())
    assert isinstance(b.pending, ChooseSubmerge) and b.pending.side == "defender"
    b, events = play(b, [6, 6], Submerge(1))
    assert fire(events) == [("battleship", 1, 4), ("battleship", 1, 4)]
    assert [k.flags for k, _ in b.state.defender if k.type == "submarine"] == [("submerged",)]


@pytest.mark.rule("AA50-NAVALCOMBAT-subs-vs-air")
def test_sub_hits_never_go_on_aircraft_and_aircraft_need_a_destroyer_to_hit_subs() -> None:
    b, _ = play(begun(battle("1 fighter, 1 destroyer", "1 submarine")), [6, 6, 1])
    assert left(b.state.attacker) == {"fighter": 1}
    _, events = play(battle("1 fighter", "1 submarine"), [], Submerge(0))
    assert ended(events).result == "stalemate" and fire(events) == []
    b, _ = play(begun(battle("1 submarine", "1 destroyer, 1 carrier, 2 fighters")), [1])
    assert isinstance(b.pending, ChooseCasualties)
    with pytest.raises(IllegalAction, match="cannot"):
        play(b, [], {"fighter": 1})


@pytest.mark.rule("AA50-NAVALCOMBAT-transports-last", "AA50-UNITS-transport")
def test_transports_are_chosen_only_after_every_other_unit() -> None:
    b, _ = play(battle("2 cruisers", "1 destroyer, 1 cruiser, 1 transport"), [1, 6])
    assert isinstance(b.pending, ChooseCasualties)
    with pytest.raises(IllegalAction, match="transports may be chosen only after") as err:
        play(b, [], {"transport": 1})
    assert err.value.rule_id == "AA50-NAVALCOMBAT-transports-last"
    b, _ = play(b, [6, 6], {"cruiser": 1})
    assert left(b.state.defender) == {"destroyer": 1, "transport": 1}
    # the destroyer is the only unit besides the transport: no question, it takes the hit
    b, _ = play(battle("1 cruiser", "1 destroyer, 1 transport"), [1, 6])
    # left with only the transport, it is lost without a roll
    assert b.state.ended and b.state.result == "attacker" and left(b.state.defender) == {}


@pytest.mark.rule("AA50-NAVALCOMBAT-transports-last")
def test_a_hit_that_cannot_reach_the_sub_goes_on_the_transport() -> None:
    b, _ = play(begun(battle("1 fighter", "1 submarine, 1 transport")), [6, 1])
    assert left(b.state.defender) == {"submarine": 1}
    _, events = play(b, [], Press(), Submerge(0))
    assert ended(events).result == "stalemate"


@pytest.mark.rule("AA50-COMBAT-defenceless-units-removed")
def test_lone_transports_are_lost_without_rolls_and_a_sub_against_aircraft_ends() -> None:
    _, events = play(battle("1 submarine", "2 transports"), [])
    assert fire(events) == [] and ended(events).result == "attacker" and ended(events).defender == {}
    _, events = play(battle("1 bomber", "1 transport"), [])
    assert fire(events) == [] and ended(events).result == "attacker"
    _, events = play(battle("1 transport", "1 transport"), [])
    assert ended(events).result == "stalemate"
    _, events = play(battle("2 fighters", "1 submarine"), [], Submerge(0))
    assert fire(events) == [] and ended(events).result == "stalemate"


@pytest.mark.rule("AA50-NAVALCOMBAT-air-sea-battle")
def test_aircraft_attack_ships_and_ships_fire_at_them() -> None:
    _, events = play(battle("3 fighters, 1 bomber", "1 battleship"), [6, 6, 6, 6, 1])
    assert fire(events, "attacker fire") == [("fighter", 3, 3), ("bomber", 1, 4)]
    assert fire(events, "defender fire") == [("battleship", 1, 4)]


@pytest.mark.rule("AA50-NAVALCOMBAT-air-sea-battle", "AA50-TURN-allied-territory-sharing")
def test_a_us_fighter_on_a_uk_carrier_defends_with_it() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="combat-move", clear=["SZ 5", "SZ 6"],
                    units={"SZ 5": "Germany: 1 battleship",
                           "SZ 6": "United Kingdom: 1 carrier; United States: 1 fighter"}, dice=[6, 6, 6])
    move(game, "1 battleship", "SZ 5", "SZ 6")
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "SZ 6"})
    assert dice_rolled(game) == [(6,), (6,), (6,)]  # the battleship, then the US fighter and the UK carrier
    assert game.state.pending is not None and game.state.pending["kind"] == "press_or_retreat"


@pytest.mark.rule("AA50-NAVALCOMBAT-transports-last", "AA50-COMBAT-defenceless-units-removed")
@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
def test_on_the_board_transports_go_last_and_a_lone_one_sinks_with_its_cargo_unrolled(rules: str) -> None:
    game = position("Germany", "combat-move", {"SZ 5": "Germany: 1 battleship",
                                               "SZ 6": "United Kingdom: 1 destroyer, 1 submarine"},
                    stacks=(("SZ 6", boat("United Kingdom", "United Kingdom:infantry", "United Kingdom:armour")),),
                    dice=[6, 1, 6, 1, 6], rules=rules)
    move(game, "1 battleship", "SZ 5", "SZ 6")
    to_combat(game)
    game.apply({"type": "fight", "space": "SZ 6"})
    game.apply({"type": "submerge", "units": ""})  # the UK sub stays: its surprise strike misses
    assert game.state.pending is not None and game.state.pending["kind"] == "choose_casualties"
    with pytest.raises(IllegalAction) as err:
        game.apply({"type": "choose_casualties", "units": "1 transport"})
    assert err.value.rule_id == "AA50-NAVALCOMBAT-transports-last"
    game.apply({"type": "choose_casualties", "units": "1 submarine"})
    game.apply({"type": "press"})  # round 2: the battleship sinks the destroyer; the transport is then alone
    assert dice_rolled(game) == [(6,), (1,), (6,), (1,), (6,)]  # no die ever for the transport
    assert game.state.pending is None
    assert [(s.owner, s.unit) for s in game.state.stacks("SZ 6")] == [("Germany", "battleship")]
