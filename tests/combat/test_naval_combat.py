"""LHTR sea battles with scripted dice: submarines, destroyers, battleships, carriers, transports."""

from __future__ import annotations

import pytest

from aare.combat.decisions import ChooseCasualties, ChooseSubmerge, Press, PressOrRetreat, Retreat, Submerge
from aare.combat.engine import repair_damage
from aare.combat.events import BattleEnded
from aare.combat.rules import CombatRules
from aare.errors import IllegalAction
from tests.combat.helpers import play, rolls, start_battle, steps


def sea(attacker: str, defender: str, **kw: object):  # type: ignore[no-untyped-def]
    return start_battle(attacker, defender, kind="sea", **kw)  # type: ignore[arg-type]


def ended(events: list) -> BattleEnded:
    return [e for e in events if isinstance(e, BattleEnded)][-1]


def units(stacks: tuple) -> dict[str, int]:
    out: dict[str, int] = {}
    for k, n in stacks:
        out[k.type] = out.get(k.type, 0) + n
    return out


@pytest.mark.rule("LHTR-NAVALCOMBAT-sub-surprise-strike")
@pytest.mark.rule("LHTR-UNITS-submarine")
def test_subs_of_both_sides_fire_in_opening_fire_and_sink_each_other() -> None:
    _, events = play(sea("1 submarine", "1 submarine"), [1, 1])
    assert [r.step for r in rolls(events)] == ["attacker sub first strike", "defender sub first strike"]
    assert ended(events).result == "draw"


@pytest.mark.rule("LHTR-COMBAT-naval-sequence")
@pytest.mark.rule("LHTR-NAVALCOMBAT-destroyer-cancels-surprise")
@pytest.mark.rule("LHTR-UNITS-destroyer")
def test_destroyer_hit_by_a_sub_still_fires_back() -> None:
    battle, _ = play(sea("2 submarines", "1 submarine, 1 destroyer"), [1, 6])
    assert isinstance(battle.pending, ChooseCasualties)
    battle, events = play(battle, [6, 6], {"destroyer": 1})
    assert [(r.step, r.unit) for r in rolls(events)] == [
        ("defender sub first strike", "submarine"),
        ("defender fire", "destroyer"),
    ]
    assert units(battle.state.defender) == {"submarine": 1}
    assert isinstance(battle.pending, ChooseSubmerge)  # the destroyer is gone: subs may submerge again
    battle, events = play(battle, [6, 6, 6], Submerge(0), Press(), Submerge(0))
    assert [s for s in steps(events) if s[1] == 2][:3] == [
        ("attacker sub first strike", 2),
        ("defender sub first strike", 2),
        ("remove opening fire casualties", 2),
    ]


@pytest.mark.rule("LHTR-NAVALCOMBAT-subs-cannot-hit-air")
def test_sub_hit_must_go_to_a_ship() -> None:
    battle, _events = play(sea("1 fighter, 1 destroyer", "1 submarine"), [1, 6, 6])
    assert units(battle.state.attacker) == {"fighter": 1}
    assert isinstance(battle.pending, PressOrRetreat)


@pytest.mark.rule("LHTR-COMBAT-hit-eligibility")
def test_sub_hit_cannot_be_given_to_a_fighter() -> None:
    battle, _ = play(sea("1 submarine", "1 destroyer, 1 carrier, 2 fighters"), [1])
    assert isinstance(battle.pending, ChooseCasualties)
    with pytest.raises(IllegalAction) as err:
        play(battle, [], {"fighter": 1})
    assert err.value.rule_id == "LHTR-COMBAT-hit-eligibility"
    # without a destroyer the only ship takes it, and is removed before it can fire
    battle, events = play(sea("1 submarine", "1 carrier, 2 fighters"), [1, 6, 6])
    assert units(battle.state.defender) == {"fighter": 2}
    assert [r.unit for r in rolls(events, "defender fire")] == ["fighter"]


@pytest.mark.rule("LHTR-NAVALCOMBAT-air-can-hit-subs")
def test_aircraft_hit_subs_without_a_destroyer_unless_the_rules_say_otherwise() -> None:
    _, events = play(sea("1 fighter", "1 submarine"), [1, 3])
    assert ended(events).result == "attacker"
    _, events = play(sea("1 fighter", "1 submarine", rules=CombatRules(air_hits_subs_without_destroyer=False)), [])
    assert ended(events).result == "stalemate"


@pytest.mark.rule("LHTR-NAVALCOMBAT-attacker-subs-submerge")
def test_attacking_sub_submerges_and_the_battle_ends() -> None:
    battle, _ = play(sea("1 submarine", "1 transport"), [6, 6])
    assert isinstance(battle.pending, ChooseSubmerge) and battle.pending.side == "attacker"
    battle, events = play(battle, [], Submerge(1))
    assert ended(events).result == "retreat" and ended(events).defender == {"transport": 1}
    blocked, _ = play(sea("1 submarine", "1 destroyer"), [6, 6])
    assert isinstance(blocked.pending, PressOrRetreat)


@pytest.mark.rule("LHTR-NAVALCOMBAT-defender-subs-submerge")
@pytest.mark.rule("LHTR-NAVALCOMBAT-submerged-status")
def test_defending_sub_submerges_while_the_transport_fights_on() -> None:
    battle, _ = play(sea("1 battleship", "1 submarine, 1 transport"), [6, 6, 6], Press())
    assert isinstance(battle.pending, ChooseSubmerge) and battle.pending.side == "defender"
    battle, events = play(battle, [1, 6], Submerge(1))
    assert [r.unit for r in rolls(events)] == ["battleship", "transport"]
    end = ended(events)
    assert end.result == "attacker" and end.defender == {"submarine": 1}


@pytest.mark.rule("LHTR-NAVALCOMBAT-defender-subs-submerge")
def test_no_defender_submerge_after_an_attacking_destroyer_died_this_cycle() -> None:
    battle = sea("1 destroyer, 1 battleship", "1 submarine, 1 battleship")
    battle, events = play(battle, [6, 6, 6, 1, 6, 6, 6], {"destroyer": 1}, Press())
    assert ("defender submerge", 1) in steps(events)
    assert isinstance(battle.pending, PressOrRetreat) and battle.state.cycle == 2


@pytest.mark.rule("LHTR-NAVALCOMBAT-retreat-or-submerge")
def test_on_retreat_one_sub_submerges_instead() -> None:
    battle = sea("2 submarines, 1 battleship", "1 battleship", retreat_to=("7 Sea Zone",))
    battle, _ = play(battle, [6, 6, 6, 6])
    battle, _ = play(battle, [], Submerge(1))
    assert isinstance(battle.pending, PressOrRetreat)
    battle, events = play(battle, [], Retreat("7 Sea Zone"))
    flags = sorted((k.type, k.flags, n) for k, n in battle.state.attacker)
    assert flags == [
        ("battleship", ("retreated",), 1),
        ("submarine", ("retreated",), 1),
        ("submarine", ("submerged",), 1),
    ]
    assert ended(events).result == "retreat"


@pytest.mark.rule("LHTR-NAVALCOMBAT-battleship-two-hits")
@pytest.mark.rule("LHTR-UNITS-battleship")
def test_battleship_absorbs_a_hit_and_sinks_on_the_second() -> None:
    battle, _ = play(sea("2 destroyers", "1 battleship, 1 carrier"), [1, 6])
    assert isinstance(battle.pending, ChooseCasualties)
    battle, events = play(battle, [6, 6], {"battleship": 1})
    assert [(r.unit, r.hit_on) for r in rolls(events, "defender fire")] == [("carrier", 3), ("battleship", 4)]
    assert sorted((k.type, k.damage) for k, _ in battle.state.defender) == [("battleship", 1), ("carrier", 0)]
    battle, _ = play(battle, [1, 6], Press())
    battle, events = play(battle, [6, 6], {"battleship": 1})
    assert units(battle.state.defender) == {"carrier": 1}


@pytest.mark.rule("LHTR-NAVALCOMBAT-battleship-repair")
def test_damaged_battleships_are_repaired() -> None:
    battle, _ = play(sea("2 destroyers", "1 battleship"), [1, 6, 6])
    assert [k.damage for k, _ in battle.state.defender] == [1]
    assert [k.damage for k, _ in repair_damage(battle.state.defender)] == [0]


@pytest.mark.rule("LHTR-NAVALCOMBAT-carrier-fighters-defend")
@pytest.mark.rule("LHTR-UNITS-carrier")
def test_fighters_on_a_defending_carrier_defend_at_4() -> None:
    _, events = play(sea("1 destroyer", "1 carrier, 1 fighter"), [6, 6, 6])
    assert [(r.unit, r.hit_on) for r in rolls(events, "defender fire")] == [("fighter", 4), ("carrier", 3)]


@pytest.mark.rule("LHTR-NAVALCOMBAT-transports-in-battle")
@pytest.mark.rule("LHTR-UNITS-transport")
def test_transports_defend_at_1_and_never_attack() -> None:
    _, events = play(sea("1 destroyer", "1 transport"), [6, 1])
    assert [(r.unit, r.hit_on) for r in rolls(events, "defender fire")] == [("transport", 1)]
    assert ended(events).result == "defender"
    _, events = play(sea("1 destroyer, 1 transport", "1 transport"), [1, 6])
    assert [r.unit for r in rolls(events, "attacker fire")] == ["destroyer"]


@pytest.mark.rule("LHTR-NAVALCOMBAT-air-only-attack")
def test_air_alone_may_attack_ships() -> None:
    _, events = play(sea("1 bomber", "1 transport"), [1, 6])
    assert ended(events).result == "attacker"


@pytest.mark.rule("LHTR-NAVALCOMBAT-subs-vs-air-only")
def test_sub_hits_on_aircraft_are_void_and_the_sub_may_submerge() -> None:
    battle, events = play(sea("1 fighter, 1 bomber", "1 submarine"), [1, 6, 6], Press())
    assert [r.hits for r in rolls(events, "defender sub first strike")] == [1]
    assert units(battle.state.attacker) == {"fighter": 1, "bomber": 1}
    assert isinstance(battle.pending, ChooseSubmerge)
    _, events = play(battle, [], Submerge(1))
    assert ended(events).result == "attacker"


@pytest.mark.rule("LHTR-TECH-super-subs")
def test_super_subs_attack_and_defend_at_3() -> None:
    tech = frozenset({"super_submarines"})
    _, events = play(sea("1 submarine", "1 submarine", attacker_techs=tech, defender_techs=tech), [3, 3])
    assert [(r.hit_on, r.hits) for r in rolls(events)] == [(3, 1), (3, 1)]
