"""Germany's national advantages (AARE-NA-GER-*): Atlantic Wall, German 88's, Panzerblitz, Afrika Korps, Wolf Packs,
Luftwaffe Dive-Bombers."""

from __future__ import annotations

from typing import Any

import pytest

from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import DiceRolled
from aare.movement import flags as mflags
from aare.rulesets.aare.advantages.base import record
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack, count_units, remove_stack
from tests.aare.common import GER, RULES, UK, battle, one_cycle, rolls, units

AW = {"na:atlantic_wall"}
G88 = {"na:german_88s"}
WP = {"na:wolf_packs"}
LDB = {"na:luftwaffe_dive_bombers"}


def declared(*ids: str, round_: int = 1, phase: str = "develop-weapons") -> dict[str, Any]:
    return {"advantages": {"declared": {GER: [{"id": i, "round": round_, "phase": phase, "delayed": False}
                                              for i in ids]}}}


def to_phase(game: Game, phase: str) -> None:
    while game.state.phase != phase:
        game.apply({"type": "end_phase"})


def rule_of(game: Game, action: dict[str, Any]) -> str:
    with pytest.raises(IllegalAction) as err:
        game.apply(action)
    return err.value.rule_id


def have(game: Game, space: str, power: str = GER) -> dict[str, int]:
    return count_units(game.state.stacks(space), power)


def offered(game: Game, kind: str) -> list[dict[str, Any]]:
    return [a.to_json() for a in game.legal_actions() if a.type == kind]


def values(events: list[Any], step: str) -> list[tuple[str, int, int]]:
    return [(r.unit, r.count, r.hit_on) for r in rolls(events, step)]


# ---------------------------------------------------------------- Atlantic Wall


@pytest.mark.rule("AARE-NA-GER-aw-free-inf")
def test_atlantic_wall_places_one_infantry_in_western_europe_every_turn() -> None:
    game = scenario(RULES, nation=GER, phase="non-combat-move", round=2, extra=declared("atlantic_wall"))
    before = have(game, "Western Europe").get("infantry", 0)
    to_phase(game, "mobilize")
    assert {a["space"] for a in offered(game, "place_free")} == {"Western Europe"}
    game.apply({"type": "place_free", "advantage": "atlantic_wall", "units": "1 infantry", "space": "Western Europe"})
    assert have(game, "Western Europe")["infantry"] == before + 1
    lost = scenario(RULES, nation=GER, phase="non-combat-move", round=3, extra=declared("atlantic_wall"),
                    owners={"Western Europe": UK}, clear=["Western Europe"])
    to_phase(lost, "mobilize")
    action = {"type": "place_free", "advantage": "atlantic_wall", "units": "1 infantry", "space": "Western Europe"}
    assert rule_of(lost, action) == "AARE-NA-DEPLOY-free-unit-conditions"


def coastal_game(**kwargs: Any) -> Game:
    units_ = {"Western Europe": "Germany: 1 artillery, 1 infantry", "Norway": "Germany: 1 artillery",
              "SZ 7": "United Kingdom: 1 battleship, 1 submarine", "SZ 6": "United Kingdom: 1 destroyer",
              "SZ 8": "United Kingdom: 1 destroyer", "Germany": "Germany: 1 artillery"}
    units_.update(kwargs.pop("units", {}))
    return scenario(RULES, nation=GER, phase="conduct-combat", round=2, clear=True, units=units_,
                    extra=declared("atlantic_wall", *kwargs.pop("also", ())), **kwargs)


def shot(territory: str, zone: str, target: str, **more: str) -> dict[str, Any]:
    return {"type": "coastal_defence", "territory": territory, "sea_zone": zone, "target": target, **more}


@pytest.mark.rule("AARE-NA-GER-aw-coastal-shot")
def test_coastal_shot_at_a_battleship_damages_it() -> None:
    game = coastal_game(dice=[2])
    events = game.apply(shot("Western Europe", "SZ 7", "battleship"))
    assert next(e for e in events if isinstance(e, DiceRolled)).values == (2,)
    bb = next(s for s in game.state.stacks("SZ 7") if s.unit == "battleship")
    assert bb.damage == 1
    miss = coastal_game(dice=[3])
    miss.apply(shot("Western Europe", "SZ 7", "battleship"))
    assert next(s for s in miss.state.stacks("SZ 7") if s.unit == "battleship").damage == 0


@pytest.mark.rule("AARE-NA-GER-aw-coastal-shot")
def test_coastal_shot_cannot_aim_at_subs_or_distant_zones() -> None:
    game = coastal_game(dice=[1])
    assert rule_of(game, shot("Western Europe", "SZ 7", "submarine")) == "AARE-NA-GER-aw-coastal-shot"
    assert rule_of(game, shot("Western Europe", "SZ 8", "destroyer")) == "AARE-NA-GER-aw-coastal-shot"
    assert rule_of(game, shot("Western Europe", "SZ 5", "destroyer")) == "AARE-NA-GER-aw-coastal-shot"  # no ship
    options = offered(game, "coastal_defence")
    assert {(o["territory"], o["sea_zone"], o["target"]) for o in options} == {
        ("Western Europe", "SZ 7", "battleship"), ("Western Europe", "SZ 6", "destroyer"),
        ("Norway", "SZ 6", "destroyer")}
    game.apply(shot("Norway", "SZ 6", "destroyer"))  # Norway's zones are 3, 5 and 6
    assert not any(s.unit == "destroyer" for s in game.state.stacks("SZ 6"))


@pytest.mark.rule("AARE-NA-GER-aw-coastal-shot")
def test_coastal_shot_hits_on_3_with_german_88s() -> None:
    game = coastal_game(dice=[3], also=("german_88s",))
    events = game.apply(shot("Western Europe", "SZ 6", "destroyer"))
    assert "hits on 3" in next(e for e in events if isinstance(e, DiceRolled)).purpose
    assert not any(s.unit == "destroyer" for s in game.state.stacks("SZ 6"))


@pytest.mark.rule("AARE-NA-GER-aw-coastal-designate")
def test_coastal_artillery_must_not_have_moved_and_then_stays() -> None:
    game = coastal_game(dice=[6, 6], units={"Western Europe": "Germany: 1 infantry"})
    state = game.state
    gun = Stack(GER, "artillery", 1, moved=1, flags=(mflags.COMBAT,))  # moved in this turn
    game.log.state = state.with_stacks("Western Europe", add_stack(state.stacks("Western Europe"), gun))
    assert rule_of(game, shot("Western Europe", "SZ 7", "battleship")) == "AARE-NA-GER-aw-coastal-designate"
    game.apply(shot("Norway", "SZ 6", "destroyer"))  # the Norway artillery began the turn there
    assert rule_of(game, shot("Norway", "SZ 6", "destroyer")) == "AARE-NA-GER-aw-coastal-designate"  # once a turn
    stays = coastal_game(dice=[6])
    stays.apply(shot("Western Europe", "SZ 7", "battleship"))
    to_phase(stays, "non-combat-move")
    move = {"type": "move", "units": "1 artillery", "path": ["Western Europe", "Germany"]}
    assert rule_of(stays, move) == "LHTR-TURN-ncm-unmoved-only"
    stays.apply({"type": "move", "units": "1 infantry", "path": ["Western Europe", "Germany"]})


@pytest.mark.rule("AARE-NA-GER-aw-coastal-timing", "AARE-NA-GER-aw-coastal-no-return-fire")
def test_coastal_hit_is_removed_in_opening_fire_of_the_german_attack() -> None:
    b = battle(units(GER, fighter=1), units(UK, destroyer=1, transport=1), "sea",
               attacker_techs={"na:coastal_defence=destroyer:United Kingdom"})
    b, events = one_cycle(b, [2, 6, 6])  # coastal 2: the DD is hit; fighter 6; transport 6; the DD never rolls
    assert values(events, "coastal defence") == [("artillery (coastal defence)", 1, 2)]
    assert [r.step for r in rolls(events)] == ["coastal defence", "attacker fire", "defender fire"]
    assert values(events, "defender fire") == [("transport", 1, 1)]
    assert all(k.type != "destroyer" for k, _ in b.state.defender)
    b = battle(units(GER, fighter=1), units(UK, destroyer=1), "sea",
               attacker_techs={"na:coastal_defence=destroyer:United Kingdom", "na:german_88s"})
    b, events = one_cycle(b, [3])  # the destroyer is removed at the end of opening fire: nothing else rolls
    assert values(events, "coastal defence") == [("artillery (coastal defence)", 1, 3)]
    assert b.state.ended and b.state.result == "attacker"


@pytest.mark.rule("AARE-NA-GER-aw-coastal-timing")
def test_coastal_shot_joins_the_german_attack_on_its_zone() -> None:
    units_ = {"SZ 7": "United Kingdom: 1 destroyer; Germany: 1 fighter"}
    game = coastal_game(dice=[2, 6], units=units_)
    state = game.state
    plane = next(s for s in state.stacks("SZ 7") if s.owner == GER)
    flown = Stack(GER, "fighter", 1, moved=2, flags=(mflags.COMBAT,))
    state = state.with_stacks("SZ 7", add_stack(remove_stack(state.stacks("SZ 7"), plane), flown))
    game.log.state = state
    events = game.apply(shot("Western Europe", "SZ 7", "destroyer"))
    assert not [e for e in events if isinstance(e, DiceRolled)]  # it waits for the battle's opening fire
    events = game.apply({"type": "fight", "space": "SZ 7"})
    labels = [e.purpose for e in events if isinstance(e, DiceRolled)]
    assert labels[0].startswith("sea battle in SZ 7: coastal defence")
    assert not any(s.unit == "destroyer" for s in game.state.stacks("SZ 7"))


@pytest.mark.rule("AARE-NA-GER-aw-coastal-timing")
def test_option_keeps_coastal_defence_to_german_naval_attacks() -> None:
    game = coastal_game(dice=[2], options={"coastal_defence_alone": False})
    assert rule_of(game, shot("Western Europe", "SZ 7", "battleship")) == "AARE-NA-GER-aw-coastal-timing"


@pytest.mark.rule("AARE-NA-GER-aw-amphib-defense-3")
def test_atlantic_wall_infantry_and_artillery_defend_at_3_in_cycle_1_of_a_landing() -> None:
    b = battle("4 infantry", "1 infantry, 1 artillery", "amphibious", defender_techs=AW)
    b, events = one_cycle(b, [6, 6, 6, 6, 6, 6])
    assert sorted(values(events, "defender fire")) == [("artillery", 1, 3), ("infantry", 1, 3)]
    b, events = one_cycle(b, [6, 6, 6, 6, 6, 6])
    assert sorted(values(events, "defender fire")) == [("artillery", 1, 2), ("infantry", 1, 2)]
    b = battle("4 infantry", "1 infantry, 1 artillery", "land", defender_techs=AW)  # overland: no bonus
    _, events = one_cycle(b, [6, 6, 6, 6, 6, 6])
    assert sorted(values(events, "defender fire")) == [("artillery", 1, 2), ("infantry", 1, 2)]


@pytest.mark.rule("AARE-NA-GER-aw-amphib-defense-3")
def test_atlantic_wall_counts_on_the_board_only_in_western_europe_and_norway() -> None:
    from aare.combat.board_battle import build_battle
    from aare.movement.battles import BattleSite
    from aare.state.unit_stacks import Stack

    game = scenario(RULES, nation=UK, phase="conduct-combat", round=2, extra=declared("atlantic_wall"))
    for space, expected in (("Western Europe", True), ("Norway", True), ("Southern Europe", False)):
        site = BattleSite(space, "amphibious", UK, (Stack(UK, "infantry", 2),),
                          {GER: (Stack(GER, "infantry", 1),)}, amphibious_from=("SZ 7",))
        b = build_battle(game.state, game.ruleset, site)
        assert ("na:atlantic_wall" in b.setup.owner_techs[GER]) is expected


# ---------------------------------------------------------------- German 88s


@pytest.mark.rule("AARE-NA-GER-88-immediate-rtl", "AARE-NA-GER-88-mobilize-rtl")
def test_german_88s_artillery_in_eastern_europe_at_once_and_in_a_grey_territory_at_mobilize() -> None:
    game = scenario(RULES, nation=GER, phase="develop-weapons", round=1, owners={"Karelia S.S.R.": GER})
    game.apply({"type": "declare_advantage", "advantage": "german_88s"})
    assert {a["space"] for a in offered(game, "place_free")} == {"Eastern Europe"}
    before = have(game, "Eastern Europe").get("artillery", 0)
    game.apply({"type": "place_free", "advantage": "german_88s", "units": "1 artillery", "space": "Eastern Europe"})
    assert have(game, "Eastern Europe")["artillery"] == before + 1
    stack = next(s for s in game.state.stacks("Eastern Europe") if s.unit == "artillery")
    assert stack.moved == 0  # free to attack this turn
    to_phase(game, "mobilize")
    spaces = {a["space"] for a in offered(game, "place_free")}
    assert "Germany" in spaces and "Libya" in spaces and "Karelia S.S.R." not in spaces
    action = {"type": "place_free", "advantage": "german_88s", "units": "1 artillery"}
    assert rule_of(game, {**action, "space": "Karelia S.S.R."}) == "AARE-NA-GER-88-mobilize-rtl"
    game.apply({**action, "space": "Germany"})


@pytest.mark.rule("AARE-NA-GER-88-opening-fire", "AARE-NA-GER-88-inf-support")
def test_german_88s_fire_at_3_in_opening_fire_and_infantry_keep_support() -> None:
    b = battle("1 infantry, 2 artillery", "3 infantry", "land", attacker_techs=G88)
    b, events = one_cycle(b, [3, 4, 6, 6, 6])  # 88s 3, 4: one hit; infantry 6; defence 6, 6
    assert values(events, "german 88s") == [("artillery", 2, 3)]
    assert values(events, "attacker fire") == [("infantry", 1, 2)]  # supported; the artillery fired already
    assert [r.step for r in rolls(events)] == ["german 88s", "attacker fire", "defender fire"]
    assert sum(n for k, n in b.state.defender) == 2  # removed before the defenders rolled
    _, events = one_cycle(b, [6, 6, 6, 6, 6])
    assert sorted(values(events, "attacker fire")) == [("artillery", 2, 2), ("infantry", 1, 2)]
    assert values(events, "german 88s") == []


@pytest.mark.rule("AARE-NA-GER-88-opening-fire")
def test_german_88s_only_on_attack() -> None:
    b = battle("2 infantry", "2 artillery", "land", defender_techs=G88)
    _, events = one_cycle(b, [6, 6, 6, 6])
    assert values(events, "german 88s") == [] and values(events, "defender fire") == [("artillery", 2, 2)]


@pytest.mark.rule("AARE-NA-GER-88-opening-fire")
def test_calculator_counts_german_88s() -> None:
    from aare.odds import odds

    plain = odds("1 infantry, 2 artillery", "3 infantry", RULES)
    eighty_eights = odds("1 infantry, 2 artillery", "3 infantry", RULES, attacker_techs=frozenset(G88))
    assert eighty_eights.attacker_win > plain.attacker_win
    from click.testing import CliRunner

    from aare.cli.main import cli

    out = CliRunner().invoke(cli, ["odds", "--rules", RULES, "--attacker", "1 infantry, 2 artillery", "--defender",
                                   "3 infantry", "--attacker-advantage", "german_88s", "--json"])
    assert out.exit_code == 0, out.output
    import json

    assert abs(json.loads(out.output)["attacker_win"] - eighty_eights.attacker_win) < 1e-9


# ---------------------------------------------------------------- Afrika Korps


@pytest.mark.rule("AARE-NA-GER-ak-immediate-inf", "AARE-NA-GER-ak-mobilize-units")
def test_afrika_korps_infantry_at_once_then_three_units_in_libya() -> None:
    game = scenario(RULES, nation=GER, phase="develop-weapons", round=1)
    game.apply({"type": "declare_advantage", "advantage": "afrika_korps"})
    start = have(game, "Libya")
    game.apply({"type": "place_free", "advantage": "afrika_korps", "units": "1 infantry", "space": "Libya"})
    assert have(game, "Libya")["infantry"] == start.get("infantry", 0) + 1
    to_phase(game, "mobilize")
    for unit in ("infantry", "artillery", "armour"):
        game.apply({"type": "place_free", "advantage": "afrika_korps", "units": f"1 {unit}", "space": "Libya"})
    after = have(game, "Libya")
    assert after["armour"] == start.get("armour", 0) + 1 and after["artillery"] == start.get("artillery", 0) + 1
    lost = scenario(RULES, nation=GER, phase="non-combat-move", round=1, owners={"Libya": UK}, clear=["Libya"],
                    extra=declared("afrika_korps", phase="develop-weapons"))
    to_phase(lost, "mobilize")
    action = {"type": "place_free", "advantage": "afrika_korps", "units": "1 armour", "space": "Libya"}
    assert rule_of(lost, action) == "AARE-NA-DEPLOY-free-unit-conditions"


# ---------------------------------------------------------------- Wolf Packs


@pytest.mark.rule("AARE-NA-GER-wp-free-sub")
def test_wolf_packs_sub_in_sz5_or_sz14_even_among_enemies() -> None:
    game = scenario(RULES, nation=GER, phase="develop-weapons", round=1, clear=["SZ 5"],
                    units={"SZ 5": "United Kingdom: 1 battleship"})
    game.apply({"type": "declare_advantage", "advantage": "wolf_packs"})
    to_phase(game, "mobilize")
    assert {a["space"] for a in offered(game, "place_free")} == {"SZ 5", "SZ 14"}
    action = {"type": "place_free", "advantage": "wolf_packs", "units": "1 submarine"}
    assert rule_of(game, {**action, "space": "SZ 6"}) == "AARE-NA-GER-wp-free-sub"
    game.apply({**action, "space": "SZ 5"})
    assert have(game, "SZ 5").get("submarine", 0) >= 1


@pytest.mark.rule("AARE-NA-GER-wp-attack-bonus")
def test_two_attacking_subs_hit_on_3_or_4_with_super_subs() -> None:
    b = battle(units(GER, submarine=2), units(UK, battleship=1), "sea", attacker_techs=WP)
    _, events = one_cycle(b, [6, 6, 6])
    assert values(events, "attacker sub first strike") == [("submarine", 2, 3)]
    b = battle(units(GER, submarine=2), units(UK, battleship=1), "sea", attacker_techs=WP | {"super_submarines"})
    _, events = one_cycle(b, [6, 6, 6])
    assert values(events, "attacker sub first strike") == [("submarine", 2, 4)]
    b = battle(units(GER, submarine=1), units(UK, battleship=1), "sea", attacker_techs=WP)
    _, events = one_cycle(b, [6, 6])
    assert values(events, "attacker sub first strike") == [("submarine", 1, 2)]


@pytest.mark.rule("AARE-NA-GER-wp-bonus-lost")
def test_pack_bonus_lost_when_one_sub_is_left() -> None:
    b = battle(units(GER, submarine=2), units(UK, battleship=1), "sea", attacker_techs=WP)
    b, _ = one_cycle(b, [6, 6, 1])  # the battleship sinks one sub
    _, events = one_cycle(b, [6, 6])
    assert values(events, "attacker sub first strike") == [("submarine", 1, 2)]


@pytest.mark.rule("AARE-NA-GER-wp-no-defense-bonus")
def test_defending_subs_get_nothing_from_wolf_packs() -> None:
    b = battle(units(UK, battleship=1), units(GER, submarine=3), "sea", defender_techs=WP)
    _, events = one_cycle(b, [6, 6, 6, 6])
    assert values(events, "defender sub first strike") == [("submarine", 3, 2)]


@pytest.mark.rule("AARE-NA-GER-wp-sub-discount", "AARE-NA-GER-ldb-ftr-discount")
def test_german_subs_cost_7_and_fighters_9() -> None:
    game = scenario(RULES, nation=GER, phase="purchase", round=3, banks={GER: 21},
                    extra=declared("wolf_packs", "luftwaffe_dive_bombers"))
    game.log.state = game.state
    from dataclasses import replace as dc_replace

    game.log.state = dc_replace(game.state, extra={**game.state.extra, "first_purchase": {"luftwaffe_dive_bombers": 2}})
    game.apply({"type": "purchase", "units": "3 submarine"})
    assert game.state.banks[GER] == 0
    rs = game.ruleset
    assert rs.unit_cost("fighter", power=GER, state=game.state).value == 9
    assert rs.unit_cost("fighter", power=UK, state=game.state).value == 10


@pytest.mark.rule("AARE-NA-GER-wp-cr-bonus")
def test_wolf_pack_adds_to_convoy_raids() -> None:
    from aare.events import BankChanged, apply_events
    from aare.rulesets.aare.advantages.germany_convoy import bonus_events
    from aare.rulesets.aare.convoy import convoy_events

    def loss(subs: int) -> int:
        game = scenario(RULES, nation=UK, phase="collect-income", round=2, extra=declared("wolf_packs"), clear=True,
                        units={"SZ 2": f"Germany: {subs} submarine", "United Kingdom": "United Kingdom: 1 factory"},
                        banks={UK: 40})
        state, rs = game.state, game.ruleset
        events = convoy_events(state, rs, UK, 30)
        state = apply_events(state, events)
        events += bonus_events(state, rs, UK, 30)
        return -sum(e.delta for e in events if isinstance(e, BankChanged))

    assert loss(1) == 2
    assert loss(2) == 6  # 2 x 2 + 2
    assert loss(3) == 8  # 6 + 2 = 8: the United Kingdom's value caps it


@pytest.mark.rule("AARE-NA-GER-wp-cr-bonus")
def test_wolf_pack_bonus_is_played_at_the_victims_collect_income() -> None:
    game = scenario(RULES, nation=UK, phase="mobilize", round=2, extra=declared("wolf_packs"),
                    units={"SZ 12": "Germany: 2 submarine"}, clear=["SZ 12"])
    bank = game.state.banks[UK]
    game.apply({"type": "end_phase"})
    from aare.economy.summary import income

    collected = income(game.state, game.ruleset, UK)
    record_ = game.state.extra.get("convoy")
    assert record_ and any(r.get("wolf_packs") for r in record_["raids"])
    assert game.state.banks[UK] < bank + collected


# ---------------------------------------------------------------- Luftwaffe Dive-Bombers


@pytest.mark.rule("AARE-NA-GER-ldb-first-cycle-4", "AARE-NA-GER-ldb-later-cycles")
def test_dive_bombers_hit_on_4_in_cycle_1_then_3() -> None:
    b = battle("2 fighter, 1 infantry", "4 infantry, 1 armour", "land", attacker_techs=LDB)
    b, events = one_cycle(b, [6, 6, 6, 6, 6, 6, 6, 6])
    assert ("fighter", 2, 4) in values(events, "attacker fire")
    _, events = one_cycle(b, [6, 6, 6, 6, 6, 6, 6, 6])
    assert ("fighter", 2, 3) in values(events, "attacker fire")


@pytest.mark.rule("AARE-NA-GER-ldb-cancel")
def test_defending_fighter_cancels_the_dive_bombers() -> None:
    b = battle("2 fighter", "2 infantry, 1 fighter", "land", attacker_techs=LDB)
    _, events = one_cycle(b, [6, 6, 6, 6, 6])
    assert values(events, "attacker fire") == [("fighter", 2, 3)]


@pytest.mark.rule("AARE-NA-GER-ldb-cancel")
def test_on_the_board_a_fighter_there_at_the_start_cancels_it() -> None:
    from aare.combat.board_battle import build_battle
    from aare.movement.battles import BattleSite
    from aare.state.unit_stacks import Stack

    game = scenario(RULES, nation=GER, phase="conduct-combat", round=2, extra=declared("luftwaffe_dive_bombers"))
    plain = BattleSite("Karelia S.S.R.", "land", GER, (Stack(GER, "fighter", 2),), {"Russia": (Stack("Russia",
                       "infantry", 2),)})
    covered = BattleSite("Karelia S.S.R.", "land", GER, (Stack(GER, "fighter", 2),), {"Russia": (Stack("Russia",
                         "infantry", 2), Stack("Russia", "fighter", 1))})
    assert "na:luftwaffe_dive_bombers" in build_battle(game.state, game.ruleset, plain).setup.attacker_techs
    assert "na:luftwaffe_dive_bombers" not in build_battle(game.state, game.ruleset, covered).setup.attacker_techs


@pytest.mark.rule("AARE-NA-GER-ldb-land-and-naval")
def test_dive_bombers_also_at_sea() -> None:
    b = battle(units(GER, fighter=2), units(UK, destroyer=1, transport=1), "sea", attacker_techs=LDB)
    _, events = one_cycle(b, [6, 6, 6, 6])
    assert values(events, "attacker fire") == [("fighter", 2, 4)]


@pytest.mark.rule("AARE-NA-GER-ldb-aa")
def test_dive_bombers_still_face_aa_fire() -> None:
    b = battle("2 fighter, 1 infantry", "2 infantry", "land", attacker_techs=LDB, defender_aa=True)
    b, events = one_cycle(b, [1, 6, 6, 6, 6, 6])  # AA hits one fighter; fighter 6 at 4; infantry 6; defence
    assert next(r.step for r in rolls(events)) == "aa fire"
    assert values(events, "attacker fire")[0] == ("fighter", 1, 4) or ("fighter", 1, 4) in values(events,
                                                                                                 "attacker fire")


@pytest.mark.rule("AARE-NA-GER-ldb-rudel")
def test_rudel_first_fighter_costs_4() -> None:
    game = scenario(RULES, nation=GER, phase="purchase", round=2, banks={GER: 13},
                    extra=declared("luftwaffe_dive_bombers", round_=2))
    game.apply({"type": "purchase", "units": "2 fighter"})  # 4 + 9
    assert game.state.banks[GER] == 0
    assert game.state.extra["first_purchase"] == {"luftwaffe_dive_bombers": 2}
    later = scenario(RULES, nation=GER, phase="purchase", round=3, banks={GER: 9},
                     extra={**declared("luftwaffe_dive_bombers", round_=2),
                            "first_purchase": {"luftwaffe_dive_bombers": 2}})
    later.apply({"type": "purchase", "units": "1 fighter"})
    assert later.state.banks[GER] == 0
    assert record(later.state)["declared"][GER][0]["id"] == "luftwaffe_dive_bombers"


# ---------------------------------------------------------------- Panzerblitz


RED = {"Ukraine S.S.R.": "Russia", "Belorussia": "Russia", "West Russia": "Russia"}


def blitz_game(dice: list[int], defenders: str = "Russia: 1 infantry", **units_: str) -> Game:
    placed = {"Eastern Europe": "Germany: 2 armour", "Ukraine S.S.R.": defenders, "Germany": "Germany: 1 infantry",
              "Russia": "Russia: 1 infantry", **units_}
    if not defenders:
        placed.pop("Ukraine S.S.R.")  # the attackers' dice are rolled all the same
    return scenario(RULES, nation=GER, phase="combat-move", round=2, clear=True, units=placed, owners=RED,
                    extra=declared("panzerblitz"), dice=dice)


def attack_ukraine(game: Game, path: list[str] | None = None) -> None:
    game.apply({"type": "move", "units": "2 armour", "path": path or ["Eastern Europe", "Ukraine S.S.R."]})
    to_phase(game, "conduct-combat")
    game.apply({"type": "fight", "space": "Ukraine S.S.R."})
    while game.state.pending is not None:
        game.apply({"type": "press"})
    to_phase(game, "non-combat-move")


@pytest.mark.rule("AARE-NA-GER-pb-bonus-move")
def test_armour_of_a_battle_won_in_one_cycle_moves_one_more() -> None:
    game = blitz_game([1, 6, 6])  # armour 1, 6: the infantry dies; it rolls 6
    attack_ukraine(game)
    assert game.state.owners["Ukraine S.S.R."] == GER
    game.apply({"type": "move", "units": "1 armour", "path": ["Ukraine S.S.R.", "Eastern Europe"]})
    assert have(game, "Eastern Europe") == {"armour": 1}
    two = {"type": "move", "units": "1 armour", "path": ["Ukraine S.S.R.", "Eastern Europe", "Germany"]}
    assert rule_of(game, two) == "LHTR-TURN-ncm-unmoved-only"
    game.apply({"type": "move", "units": "1 armour", "path": ["Ukraine S.S.R.", "Eastern Europe"]})
    back = {"type": "move", "units": "1 armour", "path": ["Eastern Europe", "Ukraine S.S.R."]}
    assert rule_of(game, back) == "LHTR-TURN-ncm-unmoved-only"  # the extra move is used up


@pytest.mark.rule("AARE-NA-GER-pb-bonus-move")
def test_no_panzerblitz_after_a_two_cycle_battle() -> None:
    game = blitz_game([6, 6, 6, 1, 6, 6])  # cycle 1: all miss; cycle 2: the infantry dies
    attack_ukraine(game)
    assert game.state.owners["Ukraine S.S.R."] == GER
    move = {"type": "move", "units": "1 armour", "path": ["Ukraine S.S.R.", "Eastern Europe"]}
    assert rule_of(game, move) == "LHTR-TURN-ncm-unmoved-only"
    plain = blitz_game([1, 6, 6], owners=None) if False else scenario(
        RULES, nation=GER, phase="combat-move", round=2, clear=True, dice=[1, 6, 6], owners=RED,
        units={"Eastern Europe": "Germany: 2 armour", "Ukraine S.S.R.": "Russia: 1 infantry"})
    attack_ukraine(plain)  # without the NA
    assert rule_of(plain, move) == "LHTR-TURN-ncm-unmoved-only"


@pytest.mark.rule("AARE-NA-GER-pb-after-full-move")
def test_panzerblitz_after_two_spaces_of_combat_move() -> None:
    game = blitz_game([1, 6, 6], **{"West Russia": "Russia: 1 infantry"})
    game.apply({"type": "move", "units": "2 armour", "path": ["Eastern Europe", "Belorussia", "West Russia"]})
    to_phase(game, "conduct-combat")
    game.apply({"type": "fight", "space": "West Russia"})
    to_phase(game, "non-combat-move")
    assert game.state.owners["Belorussia"] == GER and game.state.owners["West Russia"] == GER
    game.apply({"type": "move", "units": "2 armour", "path": ["West Russia", "Belorussia"]})
    assert have(game, "Belorussia") == {"armour": 2}


@pytest.mark.rule("AARE-NA-GER-pb-empty-or-aa-ic")
def test_empty_or_aa_only_territory_counts() -> None:
    for defenders in ("", "Russia: 1 aa gun"):
        game = blitz_game([6, 6], defenders=defenders)
        game.apply({"type": "move", "units": "2 armour", "path": ["Eastern Europe", "Ukraine S.S.R."]})
        to_phase(game, "conduct-combat")
        if any(a.type == "fight" for a in game.legal_actions()):
            game.apply({"type": "fight", "space": "Ukraine S.S.R."})
        to_phase(game, "non-combat-move")
        assert game.state.owners["Ukraine S.S.R."] == GER
        game.apply({"type": "move", "units": "1 armour", "path": ["Ukraine S.S.R.", "Eastern Europe"]})


@pytest.mark.rule("AARE-NA-GER-pb-amphibious")
def test_armour_landed_from_the_sea_qualifies() -> None:
    landed = Stack(GER, "armour", 1, moved=1, flags=(mflags.COMBAT, f"{mflags.AMPHIBIOUS}=SZ 15"))
    record_ = {"round": 2, "nation": GER, "fought": ["Anglo Egypt"], "current": None, "rockets": {},
               "ended": {"Anglo Egypt": {"result": "attacker", "cycle": 1}}}
    game = scenario(RULES, nation=GER, phase="conduct-combat", round=2, clear=True, owners={"Anglo Egypt": GER},
                    units={"Libya": "Germany: 1 infantry"}, extra={**declared("panzerblitz"), "combat": record_})
    game.log.state = game.state.with_stacks("Anglo Egypt", (landed,))
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    game.apply({"type": "move", "units": "1 armour", "path": ["Anglo Egypt", "Libya"]})
    assert have(game, "Libya").get("armour") == 1


@pytest.mark.rule("AARE-NA-GER-88-immediate-rtl", "AARE-NA-GER-88-opening-fire")
def test_german_88s_free_artillery_joins_the_attack_and_fires_in_opening_fire() -> None:
    game = scenario(RULES, nation=GER, phase="develop-weapons", round=1, clear=True, owners=RED,
                    units={"Eastern Europe": "Germany: 1 infantry", "Ukraine S.S.R.": "Russia: 2 infantry",
                           "Germany": "Germany: 1 infantry", "Russia": "Russia: 1 infantry"},
                    dice=[3, 6, 6, 6])
    game.apply({"type": "declare_advantage", "advantage": "german_88s"})
    game.apply({"type": "place_free", "advantage": "german_88s", "units": "1 artillery", "space": "Eastern Europe"})
    to_phase(game, "combat-move")
    game.apply({"type": "move", "units": "1 infantry, 1 artillery", "path": ["Eastern Europe", "Ukraine S.S.R."]})
    to_phase(game, "conduct-combat")
    events = game.apply({"type": "fight", "space": "Ukraine S.S.R."})
    labels = [e.purpose for e in events if isinstance(e, DiceRolled)]
    assert labels[0] == "land battle in Ukraine S.S.R.: german 88s: Germany 1 artillery at 3, 1 hit"
    assert labels[1].startswith("land battle in Ukraine S.S.R.: attacker fire: Germany 1 infantry at 2")


@pytest.mark.rule("AARE-NA-GER-wp-attack-bonus", "AARE-NA-GER-ldb-land-and-naval")
def test_german_naval_attack_on_the_board_fights_with_its_advantages() -> None:
    from aare.combat.board_battle import build_battle
    from aare.movement.battles import BattleSite

    game = scenario(RULES, nation=GER, phase="conduct-combat", round=2,
                    extra=declared("wolf_packs", "luftwaffe_dive_bombers"))
    site = BattleSite("SZ 7", "sea", GER, (Stack(GER, "submarine", 2), Stack(GER, "fighter", 1)),
                      {UK: (Stack(UK, "battleship", 1),)})
    techs = build_battle(game.state, game.ruleset, site).setup.attacker_techs
    assert {"na:wolf_packs", "na:luftwaffe_dive_bombers"} <= techs
    defending = BattleSite("SZ 5", "sea", UK, (Stack(UK, "battleship", 1),), {GER: (Stack(GER, "submarine", 2),)})
    b = build_battle(game.state, game.ruleset, defending)
    assert "na:wolf_packs" not in b.setup.owner_techs.get(GER, frozenset())


@pytest.mark.rule("AARE-NA-GER-aw-coastal-designate")
def test_coastal_defence_has_a_text_form() -> None:
    from aare.action_text import format_action, parse_action_text
    from aare.actions import CoastalDefence, parse_action
    from aare.rules.ruleset import load_ruleset

    ruleset = load_ruleset(RULES)
    text = "coastal weur -> sz 7: battleship of UK"
    action = parse_action_text(text, ruleset)
    assert action == {"type": "coastal_defence", "territory": "Western Europe", "sea_zone": "SZ 7",
                      "target": "battleship", "owner": UK}
    assert isinstance(parse_action(action), CoastalDefence)
    assert parse_action_text(format_action(action), ruleset) == action
