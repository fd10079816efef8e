"""AARe long range aircraft and heavy bombers (seed WEAPONS DEVELOPMENT 4 and 6): movement 6/8, escorts on
raids, heavy bombers' dice, and the air transport of infantry."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from aare.action_text import format_action, parse_action_text
from aare.combat.events import Retreated, UnitsRemoved
from aare.combat.rules import CombatRules
from aare.engine import Game
from aare.events import UnitsRemoved as BoardUnitsRemoved
from aare.game_log import GameLog
from aare.movement import flags
from aare.rules.ruleset import load_ruleset
from aare.state.unit_stacks import Stack
from tests.aare.common import GER, RULES, UK, US, battle, one_cycle, present, rolls, units
from tests.aare.tech_helpers import act, dice_of, end, game, move, raid, rejected, with_dice

LRA = frozenset({"long_range_aircraft"})
JETS = frozenset({"jet_fighters"})
HB = frozenset({"heavy_bombers"})
TO_EUS = ("Germany", "Western Europe", "SZ 7", "SZ 8", "SZ 1", "Eastern Canada", "Eastern United States")


@pytest.mark.rule("AARE-TECH-lra-movement")
def test_long_range_fighters_fly_six_and_bombers_eight() -> None:
    owners = {t: GER for t in ("Germany", "Eastern United States", "Central United States", "Western United States")}
    g = game(GER, "non-combat-move", {"Germany": "Germany: 2 fighters, 1 bomber"}, owners=owners,
             techs={GER: ["long_range_aircraft"]})
    rejected(g, {"type": "move", "units": "1 fighter", "path": [*TO_EUS, "Central United States"]},
             "LHTR-AIRMOVE-range")
    move(g, "1 fighter", *TO_EUS)
    move(g, "1 bomber", *TO_EUS, "Central United States", "Western United States")
    short = game(GER, "non-combat-move", {"Germany": "Germany: 1 fighter"}, owners=owners)
    rejected(short, {"type": "move", "units": "1 fighter", "path": list(TO_EUS)}, "LHTR-AIRMOVE-range")


@pytest.mark.rule("AARE-TECH-lra-escort-neutralize")
def test_each_escort_cancels_one_interceptor() -> None:
    b = raid(units(US, bomber=2, fighter=1), units(GER, factory=1, fighter=2), attacker_techs=LRA,
             defender_techs=JETS, territory_value=10)
    b, events = one_cycle(b, [1, 2])  # one interceptor die (1: a bomber down); the other bomber's damage 2
    assert [(r.count, r.hits) for r in rolls(events, "interceptors")] == [(1, 1)]
    assert present(b, "attacker") == {"bomber": 1, "fighter": 1}
    assert b.state.damage == 2
    covered = raid(units(US, bomber=1, fighter=2), units(GER, factory=1, fighter=2), attacker_techs=LRA,
                   defender_techs=JETS, territory_value=10)
    _, events = one_cycle(covered, [4])  # two escorts, two interceptors: no interception at all
    assert rolls(events, "interceptors") == []


@pytest.mark.rule("AARE-TECH-lra-escort-neutralize")
def test_escorts_fly_with_the_raiding_bombers_only() -> None:
    placed = {"United Kingdom": "United States: 1 bomber, 1 fighter", "Germany": "Germany: 2 fighters, 1 factory"}
    owners = {"Germany": GER, "United Kingdom": UK}
    path = ["United Kingdom", "SZ 7", "Western Europe", "Germany"]
    g = game(US, "combat-move", placed, owners=owners, techs={US: ["long_range_aircraft"], GER: ["jet_fighters"]})
    rejected(g, {"type": "move", "units": "1 fighter", "path": path, "raid": True}, "AARE-TECH-lra-escort-neutralize")
    move(g, "1 bomber", *path, raid=True)
    move(g, "1 fighter", *path, raid=True)
    no_lra = game(US, "combat-move", placed, owners=owners)
    move(no_lra, "1 bomber", *path, raid=True)
    rejected(no_lra, {"type": "move", "units": "1 fighter", "path": path, "raid": True},
             "AARE-TECH-lra-escort-neutralize")
    end(g)
    g = with_dice(g, [1, 6])  # one interceptor die (the other is neutralised): 1, the bomber is down
    events = act(g, {"type": "fight", "space": "Germany"})
    assert dice_of(events) == [(1,)]
    left = [s.unit for s in g.state.stacks("Germany") if s.owner == US]
    assert left == ["fighter"]  # the escort is not hit and flies home in non-combat move


@pytest.mark.rule("AARE-TECH-lra-escort-partial-aa-protection")
def test_surplus_escorts_let_a_hit_bomber_roll_to_survive() -> None:
    def protected(dice: list[int], options: dict[str, Any] | None = None, bombers: int = 1) -> Any:
        b = raid(units(US, bomber=bombers, fighter=1), units(GER, factory=1, aa_gun=1), attacker_techs=LRA,
                 territory_value=10, options=options)
        return one_cycle(b, dice)

    b, events = protected([1, 5])  # AA hits the bomber; it rolls 5: it survives and turns back, no damage
    assert rolls(events, "bombing damage") == [] and b.state.damage == 0
    assert [e.units for e in events if isinstance(e, Retreated)] == [{"bomber": 1}]
    assert b.state.result == "bombed" and present(b, "attacker") == {"fighter": 1}
    assert next(e for e in events if type(e).__name__ == "BattleEnded").attacker == {"bomber": 1, "fighter": 1}
    b, events = protected([1, 2])  # rolls 2: lost
    assert [(e.units, e.step) for e in events if isinstance(e, UnitsRemoved)] == [({"bomber": 1}, "escort protection")]
    # no escorts: a hit bomber is simply lost
    plain = raid(units(US, bomber=1), units(GER, factory=1, aa_gun=1), territory_value=10)
    _, events = one_cycle(plain, [1])
    assert [e.step for e in events if isinstance(e, UnitsRemoved)] == ["immediately"]
    # as many interceptors as escorts: no protection
    even = raid(units(US, bomber=1, fighter=1), units(GER, factory=1, aa_gun=1, fighter=1), attacker_techs=LRA,
                defender_techs=JETS, territory_value=10)
    _, events = one_cycle(even, [1])
    assert rolls(events, "escort protection") == []
    # every hit bomber rolls ("all"), or only as many as the surplus of escorts ("surplus")
    _, events = protected([1, 1, 5, 5], bombers=2)
    assert len(rolls(events, "escort protection")) == 2
    b, events = protected([1, 1, 5], {"escort_protection": "surplus"}, bombers=2)
    assert len(rolls(events, "escort protection")) == 1 and b.state.damage == 0


@pytest.mark.rule("AARE-TECH-lra-escort-aa-exempt")
def test_escorts_are_not_fired_on_by_the_target_but_are_on_the_way() -> None:
    b = raid(units(US, bomber=1, fighter=2), units(GER, factory=1, aa_gun=1), attacker_techs=LRA, territory_value=10)
    _, events = one_cycle(b, [6, 3])
    assert [(r.unit, r.count) for r in rolls(events, "aa fire")] == [("bomber", 1)]
    placed = {"United Kingdom": "United States: 1 bomber, 1 fighter", "Western Europe": "Germany: 1 aa gun",
              "Germany": "Germany: 1 factory"}
    g = game(US, "combat-move", placed, owners={"Germany": GER, "Western Europe": GER, "United Kingdom": UK},
             techs={US: ["long_range_aircraft"]})
    path = ["United Kingdom", "SZ 7", "Western Europe", "Germany"]
    move(g, "1 bomber", *path, raid=True)
    move(g, "1 fighter", *path, raid=True)
    g = with_dice(g, [6, 1])  # Western Europe's AA: the bomber 6, the escort 1 (down)
    events = act(g, {"type": "end_phase"})
    assert dice_of(events) == [(6,), (1,)]
    assert [e.stack.unit for e in events if isinstance(e, BoardUnitsRemoved)] == ["fighter"]


@pytest.mark.rule("AARE-TECH-hb-two-dice")
def test_heavy_bombers_roll_two_dice_that_both_count_and_sum_them_in_raids() -> None:
    b = battle("1 bomber", "2 infantry", "land", attacker_techs=HB)
    b, events = one_cycle(b, [3, 2, 6, 6])  # 3 and 2 at 4: two hits
    [attack] = rolls(events, "attacker fire")
    assert (attack.per_unit, attack.hits) == (2, 2) and b.state.result == "attacker"
    b = battle("1 infantry", "1 bomber", "land", defender_techs=HB)
    _, events = one_cycle(b, [6, 5])  # defending: one die
    assert [(r.count, r.per_unit) for r in rolls(events, "defender fire")] == [(1, 1)]
    b = raid(units(US, bomber=1), units(GER, factory=1), attacker_techs=HB, territory_value=10)
    b, events = one_cycle(b, [4, 5])
    assert b.state.damage == 9 and rolls(events, "bombing damage")[0].hits == 9
    rs = load_ruleset(RULES)
    assert rs.modify("combat_rules", CombatRules()).heavy_bomber_sbr_bonus == 0  # no LHTR +1


@pytest.mark.rule("AARE-TECH-hb-sbr-cap")
def test_raid_damage_is_capped_at_the_territory_value() -> None:
    b = raid(units(US, bomber=2), units(GER, factory=1), attacker_techs=HB, territory_value=3)
    b, _ = one_cycle(b, [6, 5, 4, 2])  # 17 rolled
    assert b.state.damage == 3


# ---------------------------------------------------------------- air transport


def airlift(units_text: str, *path: str) -> dict[str, Any]:
    return {"type": "air_transport", "units": units_text, "path": list(path)}


def us_game(placed: dict[str, str], techs: tuple[str, ...] = ("heavy_bombers",), **kwargs: Any) -> Any:
    owners = {t: US for t in ("Eastern United States", "Central United States", "Western United States")}
    owners |= {"Eastern Canada": UK, "Western Canada": UK, "United Kingdom": UK, "Germany": GER}
    owners |= kwargs.pop("owners", {})
    return game(US, "non-combat-move", placed, owners=owners, techs={US: list(techs)}, **kwargs)


@pytest.mark.rule("AARE-TECH-hb-air-transport")
def test_a_heavy_bomber_that_did_not_fight_carries_one_infantry() -> None:
    placed = {"Eastern United States": "United States: 1 bomber, 2 infantry, 1 armour"}
    g = us_game(placed)
    rejected(g, airlift("1 armour", "Eastern United States", "Eastern Canada"), "AARE-TECH-hb-air-transport")
    rejected(g, airlift("2 infantry", "Eastern United States", "Eastern Canada"), "AARE-TECH-hb-air-transport")
    act(g, airlift("1 infantry", "Eastern United States", "Eastern Canada"))
    here = {s.unit: s.count for s in g.state.stacks("Eastern Canada") if s.owner == US}
    assert here == {"bomber": 1, "infantry": 1}
    rejected(us_game(placed, techs=()), airlift("1 infantry", "Eastern United States", "Eastern Canada"),
             "AARE-TECH-hb-air-transport")
    bombed = Stack(US, "bomber", 1, moved=4, flags=(flags.COMBAT, f"{flags.SBR}=Germany"))
    fought = us_game({"Eastern United States": "United States: 1 infantry"},
                     stacks=[("Eastern United States", bombed)])
    rejected(fought, airlift("1 infantry", "Eastern United States", "Eastern Canada"), "AARE-TECH-hb-air-transport")


@pytest.mark.rule("AARE-TECH-hb-air-transport-movement")
def test_the_bomber_moves_before_and_after_the_infantry_neither() -> None:
    placed = {"Western United States": "United States: 1 bomber", "Eastern United States": "United States: 1 infantry"}
    g = us_game(placed)
    move(g, "1 bomber", "Western United States", "Central United States", "Eastern United States")
    act(g, airlift("1 infantry", "Eastern United States", "SZ 10", "SZ 9", "Eastern Canada"))
    rejected(g, {"type": "move", "units": "1 infantry", "path": ["Eastern Canada", "Western Canada"]},
             "LHTR-LANDMOVE-movement-allowance")
    move(g, "1 bomber", "Eastern Canada", "Western Canada")  # 2 + 3 + 1 = its 6
    walked = us_game({"Eastern United States": "United States: 1 bomber",
                      "Central United States": "United States: 1 infantry"})
    move(walked, "1 infantry", "Central United States", "Eastern United States")
    rejected(walked, airlift("1 infantry", "Eastern United States", "Eastern Canada"),
             "AARE-TECH-hb-air-transport-movement")


def taken_this_turn(g: Any, territory: str, before: str) -> Any:
    """`g` with `territory` held now but by `before` when the turn began (the turn's record)."""
    owners = {**g.state.owners, territory: before}
    turn = {"round": g.state.round, "power": g.state.nation, "owners": owners, "placed": {}, "damage": {}}
    return Game(GameLog(replace(g.state, extra={**g.state.extra, "turn": turn})), g.dice)


@pytest.mark.rule("AARE-TECH-hb-air-transport-drop")
def test_infantry_is_set_down_in_friendly_territory_even_one_taken_this_turn() -> None:
    placed = {"United Kingdom": "United States: 1 bomber, 1 infantry"}
    g = taken_this_turn(us_game(placed, owners={"Norway": US, "Western Europe": GER}), "Norway", GER)
    rejected(g, airlift("1 infantry", "United Kingdom", "SZ 7", "Western Europe"), "AARE-TECH-hb-air-transport-drop")
    act(g, airlift("1 infantry", "United Kingdom", "SZ 6", "Norway"))
    assert [s.unit for s in g.state.stacks("Norway") if s.owner == US] == ["bomber", "infantry"]


@pytest.mark.rule("AARE-TECH-hb-air-transport-landing")
def test_the_bomber_lands_where_it_was_friendly_when_the_turn_began() -> None:
    placed = {"United Kingdom": "United States: 1 bomber, 1 infantry"}
    g = taken_this_turn(us_game(placed, owners={"Norway": US}), "Norway", GER)
    act(g, airlift("1 infantry", "United Kingdom", "SZ 6", "Norway"))
    stay = taken_this_turn(us_game(placed, owners={"Norway": US}), "Norway", GER)
    act(stay, airlift("1 infantry", "United Kingdom", "SZ 6", "Norway"))
    events = act(stay, {"type": "end_phase"})  # the bomber stayed in Norway: lost
    assert [(e.stack.unit, e.rule_id) for e in events if isinstance(e, BoardUnitsRemoved)] == [
        ("bomber", "LHTR-AIRMOVE-unlanded-destroyed")]
    move(g, "1 bomber", "Norway", "SZ 6", "United Kingdom")
    events = act(g, {"type": "end_phase"})
    assert not [e for e in events if isinstance(e, BoardUnitsRemoved)]
    tired = Stack(US, "bomber", 1, moved=4)
    late = taken_this_turn(us_game({"United Kingdom": "United States: 1 infantry"}, owners={"Norway": US},
                                   stacks=[("United Kingdom", tired)]), "Norway", GER)
    rejected(late, airlift("1 infantry", "United Kingdom", "SZ 6", "Norway"), "AARE-TECH-hb-air-transport-landing")


@pytest.mark.rule("AARE-TECH-hb-air-transport-no-overnight")
def test_infantry_never_stays_aboard() -> None:
    g = us_game({"Eastern United States": "United States: 1 bomber, 1 infantry"})
    rejected(g, airlift("1 infantry", "Eastern United States", "SZ 10"), "AARE-TECH-hb-air-transport-no-overnight")
    act(g, airlift("1 infantry", "Eastern United States", "Eastern Canada"))
    assert not any(flags.cargo(s) for stacks in g.state.units.values() for s in stacks)
    end(g)  # non-combat move ends: nothing aboard, nothing lost
    assert [s.unit for s in g.state.stacks("Eastern Canada") if s.owner == US] == ["bomber", "infantry"]


def test_air_transport_text_notation_and_candidates() -> None:
    rs = load_ruleset(RULES)
    text = "airlift 1 infantry United Kingdom -> SZ 6 -> Norway"
    action = parse_action_text(text, rs)
    assert action == airlift("1 infantry", "United Kingdom", "SZ 6", "Norway") and format_action(action) == text
    g = us_game({"Eastern United States": "United States: 1 bomber, 1 infantry"})
    offered = [a for a in g.legal_actions() if a.type == "air_transport"]
    assert offered and all(a.path[0] == "Eastern United States" for a in offered)
