"""Japan's national advantages (AARe 5.0, NATIONAL ADVANTAGES / JAPAN; ledger AARE-NA-JPN-*): Banzai Attacks,
Tokyo Express, Yamato battleships, Tech Advantage, Kaiten Torpedoes, Kamikaze Attacks."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import UnitKey
from aare.combat.decisions import ChooseTargets, Targets
from aare.combat.engine import apply_answer
from aare.combat.events import CasualtiesChosen, Event, UnitsRemoved
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import DiceRolled as GameDice
from aare.events import Event as GameEvent
from aare.game_log import GameLog
from aare.movement import flags
from aare.odds import odds
from aare.rulesets.aare.advantages.research_funds import funds_left
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, add_stack
from tests.aare.common import JPN, RULES, RUS, UK, US, battle, kaitens, one_cycle, present, rolls, units
from tests.aare.tech_helpers import act, end, rejected, with_dice

BANZAI, TE, YAMATO, TA = "banzai_attacks", "tokyo_express", "yamato", "tech_advantage"
KAITEN, KAMI = "kaiten_torpedoes", "kamikaze_attacks"
KAMIKAZE = UnitKey("fighter", JPN, flags=("kamikaze",))


def na(*ids: str) -> dict[str, Any]:
    """The NA record with Japan's `ids` declared in round 1."""
    entries = [{"id": i, "round": 1, "phase": "develop-weapons", "delayed": False} for i in ids]
    return {"advantages": {"declared": {JPN: entries}}}


def jpn(phase: str, placed: Mapping[str, str], *ids: str, nation: str = JPN, round: int = 1,
        extra: Mapping[str, Any] | None = None, stacks: Iterable[tuple[str, Stack]] = (),
        dice: Iterable[int] | None = None, **kwargs: Any) -> Game:
    """An AARe position on an empty board with Japan's NAs `ids` declared."""
    g = scenario(RULES, nation=nation, phase=phase, round=round, clear=True, units=placed,
                 extra={**na(*ids), **(extra or {})}, dice=dice, **kwargs)
    state = g.state
    for space, stack in stacks:
        state = state.with_stacks(space, add_stack(state.stacks(space), stack))
    return Game(GameLog(state), g.dice)


def game_rolls(events: Iterable[GameEvent]) -> list[str]:
    return [e.purpose for e in events if isinstance(e, GameDice)]


def grant(g: Game) -> int:
    return funds_left(g.state, TA)


def lost(events: Iterable[Event], side: str = "defender") -> list[dict[str, int]]:
    return [e.lost for e in events if isinstance(e, CasualtiesChosen) and e.side == side and e.lost]


def hit_on(events: list[Event], step: str) -> list[tuple[str, int, int]]:
    return [(r.unit, r.hit_on, r.count) for r in rolls(events, step)]


def targets(*names: str) -> Targets:
    return Targets(tuple(("", n) for n in names))


def loaded_dd(n: int) -> Stack:
    return flags.with_cargo(Stack(JPN, "destroyer", 1), [(JPN, "infantry")] * n)


# ================================================================ 1. Banzai Attacks


@pytest.mark.rule("AARE-NA-JPN-banzai-free-inf")
def test_banzai_free_infantry_in_manchuria_kwangtung_or_indochina_if_held() -> None:
    g = jpn("non-combat-move", {"Japan": "Japan: 1 infantry"}, BANZAI, owners={"French Indochina": UK})
    end(g)  # mobilize: the free infantry is owed
    offered = {a.space for a in g.legal_actions() if a.type == "place_free"}
    assert offered == {"Manchuria", "Kwangtung"}  # French Indochina is not Japan's now
    free = {"type": "place_free", "advantage": BANZAI, "units": "1 infantry"}
    rejected(g, {**free, "space": "Japan"}, "AARE-NA-JPN-banzai-free-inf")
    rejected(g, {**free, "space": "French Indochina"}, "AARE-NA-DEPLOY-free-unit-conditions")
    act(g, {**free, "space": "Manchuria"})
    assert [(s.owner, s.unit, s.count) for s in g.state.stacks("Manchuria")] == [(JPN, "infantry", 1)]
    end(g)  # this turn only: nothing is owed in a later Mobilize
    g2 = jpn("non-combat-move", {}, BANZAI, round=2)
    end(g2)
    assert not [a for a in g2.legal_actions() if a.type == "place_free"]


@pytest.mark.rule("AARE-NA-JPN-banzai-attack-2")
def test_banzai_infantry_attack_at_two_in_the_first_cycle_only() -> None:
    b = battle("3 infantry, 1 fighter", "3 infantry", "land", attacker_techs={"na:banzai_attacks"})
    b, events = one_cycle(b, [6] * 7)
    assert hit_on(events, "attacker fire") == [("infantry", 2, 3), ("fighter", 3, 1)]
    _, events = one_cycle(b, [6] * 7)
    assert hit_on(events, "attacker fire") == [("infantry", 1, 3), ("fighter", 3, 1)]
    b = battle("1 infantry", "2 infantry", "land", defender_techs={"na:banzai_attacks"})
    _, events = one_cycle(b, [6] * 3)
    assert hit_on(events, "defender fire") == [("infantry", 2, 2)]  # defence unchanged


@pytest.mark.rule("AARE-NA-JPN-banzai-attack-2")
def test_banzai_on_the_board_whatever_accompanies_the_infantry() -> None:
    g = jpn("combat-move", {"Manchuria": "Japan: 2 infantry, 1 armour", "China": "United States: 2 infantry"},
            BANZAI, owners={"China": US})
    act(g, {"type": "move", "units": "2 infantry, 1 armour", "path": ["Manchuria", "China"]})
    end(g)
    g = with_dice(g, [6] * 5)
    events = act(g, {"type": "fight", "space": "China"})
    fire = " | ".join(p for p in game_rolls(events) if "attacker fire" in p)
    assert "Japan 2 infantry at 2" in fire and "Japan 1 armour at 3" in fire
    # a Japanese defence gets nothing from Banzai
    g = jpn("combat-move", {"China": "United States: 1 infantry", "Manchuria": "Japan: 1 infantry"}, BANZAI,
            nation=US, owners={"China": US})
    act(g, {"type": "move", "units": "1 infantry", "path": ["China", "Manchuria"]})
    end(g)
    events = act(with_dice(g, [6, 6]), {"type": "fight", "space": "Manchuria"})
    assert any("Japan 1 infantry at 2" in p for p in game_rolls(events))


@pytest.mark.rule("AARE-NA-JPN-banzai-artillery-3")
def test_banzai_infantry_paired_with_artillery_attack_at_three() -> None:
    b = battle("2 infantry, 1 artillery", "3 infantry", "land", attacker_techs={"na:banzai_attacks"})
    b, events = one_cycle(b, [6] * 6)
    assert hit_on(events, "attacker fire") == [("infantry", 3, 1), ("infantry", 2, 1), ("artillery", 2, 1)]
    _, events = one_cycle(b, [6] * 6)
    assert hit_on(events, "attacker fire") == [("infantry", 2, 1), ("infantry", 1, 1), ("artillery", 2, 1)]


# ================================================================ 3. Yamato Class Battleships


@pytest.mark.rule("AARE-NA-JPN-yamato-5")
def test_yamato_battleships_attack_defend_and_bombard_at_five() -> None:
    yamato = {"na:yamato"}
    _, events = one_cycle(battle("1 battleship", "1 destroyer", attacker_techs=yamato), [5, 6])
    assert hit_on(events, "attacker fire") == [("battleship", 5, 1)] and rolls(events)[0].hits == 1
    _, events = one_cycle(battle("1 destroyer", "1 battleship", defender_techs=yamato), [6, 5])
    assert [(r.hit_on, r.hits) for r in rolls(events, "defender fire")] == [(5, 1)]
    _, events = one_cycle(battle("1 destroyer", "1 battleship", defender_techs=yamato), [6, 6])
    assert [(r.hit_on, r.hits) for r in rolls(events, "defender fire")] == [(5, 0)]
    b = battle("1 infantry", "1 infantry", "amphibious", bombard="1 battleship", attacker_techs=yamato)
    _, events = one_cycle(b, [5])  # the defender is gone after opening fire
    assert [(r.hit_on, r.hits) for r in rolls(events, "bombardment")] == [(5, 1)]


@pytest.mark.rule("AARE-NA-JPN-yamato-5")
def test_a_yamato_battleship_defends_at_five_on_the_board() -> None:
    g = jpn("combat-move", {"SZ 60": "Japan: 1 battleship", "SZ 62": "United States: 1 destroyer"}, YAMATO,
            nation=US)
    act(g, {"type": "move", "units": "1 destroyer", "path": ["SZ 62", "SZ 60"]})
    end(g)
    events = act(with_dice(g, [6, 5]), {"type": "fight", "space": "SZ 60"})
    assert any("Japan 1 battleship at 5, 1 hit" in p for p in game_rolls(events))
    assert not [s for s in g.state.stacks("SZ 60") if s.owner == US]


@pytest.mark.rule("AARE-NA-JPN-yamato-first-bb")
def test_the_first_yamato_battleship_costs_fifteen() -> None:
    g = jpn("purchase", {}, YAMATO, banks={JPN: 60})
    act(g, {"type": "purchase", "units": "2 battleship"})
    assert g.state.banks[JPN] == 25  # 15 + 20
    act(g, {"type": "purchase", "units": "1 battleship"})
    assert g.state.banks[JPN] == 5
    g = jpn("purchase", {}, YAMATO, banks={JPN: 15})
    assert any(a.type == "purchase" and "battleship" in a.units for a in g.legal_actions())
    act(g, {"type": "purchase", "units": "1 battleship"})
    assert g.state.banks[JPN] == 0
    g = jpn("purchase", {}, banks={JPN: 19})  # without the NA a battleship costs 20
    rejected(g, {"type": "purchase", "units": "1 battleship"}, "LHTR-PURCHASE-budget")


# ================================================================ 4. Tech Advantage


@pytest.mark.rule("AARE-NA-JPN-ta-grant-16")
def test_tech_advantage_grants_sixteen_ipcs_for_minor_tech_only() -> None:
    g = scenario(RULES, nation=JPN, phase="develop-weapons", round=1, clear=True, banks={JPN: 0}, dice=[6, 1, 1, 1])
    act(g, {"type": "declare_advantage", "advantage": TA})
    assert grant(g) == 16 and g.state.banks[JPN] == 0
    rejected(g, {"type": "research", "dice": 4, "tech": "rockets"}, "AARE-TECH-major-cost-5")
    act(g, {"type": "research", "dice": 4, "tech": "super_submarines"})
    assert grant(g) == 0 and g.state.banks[JPN] == 0
    assert "super_submarines" in g.state.extra["tech_pending"][JPN]
    end(g)
    rejected(g, {"type": "purchase", "units": "1 infantry"}, "LHTR-PURCHASE-budget")


@pytest.mark.rule("AARE-NA-JPN-ta-grant-carryover")
def test_unspent_grant_carries_over_for_minor_tech_only() -> None:
    left = {"research_funds": {TA: 8}}
    g = jpn("develop-weapons", {}, TA, round=2, banks={JPN: 30}, extra=left, dice=[6, 6, 6, 6, 6])
    act(g, {"type": "research", "dice": 5, "tech": "rockets"})  # a major tech: all 25 from the treasury
    assert g.state.banks[JPN] == 5 and grant(g) == 8
    g = jpn("develop-weapons", {}, TA, round=2, banks={JPN: 10}, extra=left, dice=[6, 6, 6, 6])
    events = act(g, {"type": "research", "dice": 4, "tech": "combined_bombardment"})  # 16: 8 grant + 8 own
    assert g.state.banks[JPN] == 2 and grant(g) == 0
    assert [(e.delta, e.rule_id) for e in events if e.type == "bank_changed"] == [
        (8, "AARE-NA-JPN-ta-grant-16"), (-16, "AARE-TECH-minor-cost-4")]
    g = jpn("purchase", {}, TA, round=2, banks={JPN: 0}, extra=left)
    rejected(g, {"type": "purchase", "units": "1 infantry"}, "LHTR-PURCHASE-budget")  # never for units


# ================================================================ 5. Kaiten Torpedoes


@pytest.mark.rule("AARE-NA-JPN-kaiten-free-sub")
def test_kaiten_free_sub_in_sz_60_or_61_even_among_enemies() -> None:
    g = jpn("non-combat-move", {"SZ 60": "United States: 1 destroyer"}, KAITEN)
    end(g)
    free = {"type": "place_free", "advantage": KAITEN, "units": "1 submarine"}
    rejected(g, {**free, "space": "SZ 62"}, "AARE-NA-JPN-kaiten-free-sub")
    act(g, {**free, "space": "SZ 60"})
    assert (JPN, "submarine") in [(s.owner, s.unit) for s in g.state.stacks("SZ 60")]


@pytest.mark.rule("AARE-NA-JPN-kaiten-sub-discount")
def test_japanese_subs_cost_seven() -> None:
    g = jpn("purchase", {}, KAITEN, banks={JPN: 14})
    act(g, {"type": "purchase", "units": "2 submarine"})
    assert g.state.banks[JPN] == 0


def kaiten_zone(*ids: str, placed: str = "Japan: 3 submarine; United States: 1 destroyer, 1 carrier") -> Game:
    return jpn("combat-move", {"SZ 60": placed}, *(ids or (KAITEN,)))


@pytest.mark.rule("AARE-NA-JPN-kaiten-designation")
def test_up_to_two_kaitens_a_turn() -> None:
    g = kaiten_zone()
    assert [a.to_json() for a in g.legal_actions() if a.type == "designate"] == [
        {"type": "designate", "advantage": KAITEN, "units": "1 submarine", "space": "SZ 60"}]
    act(g, {"type": "designate", "advantage": KAITEN, "units": "2 submarine", "space": "SZ 60"})
    assert [s.count for s in g.state.stacks("SZ 60") if flags.has(s, flags.SUICIDE)] == [2]
    rejected(g, {"type": "designate", "advantage": KAITEN, "units": "1 submarine", "space": "SZ 60"},
             "AARE-NA-JPN-kaiten-designation")
    rejected(kaiten_zone(), {"type": "designate", "advantage": KAITEN, "units": "1 destroyer", "space": "SZ 60"},
             "AARE-NA-JPN-kaiten-designation")
    rejected(kaiten_zone(KAMI), {"type": "designate", "advantage": KAITEN, "units": "1 submarine", "space": "SZ 60"},
             "AARE-NA-JPN-kaiten-designation")  # not declared
    with pytest.raises(IllegalAction) as err:
        battle(kaitens(3), units(US, carrier=1))
    assert err.value.rule_id == "AARE-NA-JPN-kaiten-designation"


@pytest.mark.rule("AARE-NA-JPN-kaiten-attack-only")
def test_kaitens_only_attack() -> None:
    with pytest.raises(IllegalAction) as err:
        battle(units(US, destroyer=1), kaitens(1))
    assert err.value.rule_id == "AARE-NA-JPN-kaiten-attack-only"
    g = jpn("combat-move", {"SZ 60": "Japan: 1 submarine", "SZ 62": "United States: 1 destroyer"}, KAITEN,
            nation=US)
    rejected(g, {"type": "designate", "advantage": KAITEN, "units": "1 submarine", "space": "SZ 60"},
             "AARE-NA-JPN-kaiten-attack-only")


@pytest.mark.rule("AARE-NA-JPN-kaiten-targets")
def test_kaiten_targets_primary_and_secondary_a_battleship_twice_never_a_sub() -> None:
    b = battle(kaitens(2), units(US, battleship=1, carrier=1, submarine=1))
    b, _ = one_cycle(b, [], stop=True)
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.count == 2 and decision.rule == "AARE-NA-JPN-kaiten-targets"
    assert {(t, h) for _, t, h in decision.eligible} == {("battleship", 2), ("carrier", 1)}
    for wrong in (targets("submarine", "carrier"), targets("carrier"), targets("carrier", "carrier")):
        with pytest.raises(IllegalAction) as err:
            apply_answer(b, wrong)
        assert err.value.rule_id == "AARE-NA-JPN-kaiten-targets"
    # both Kaitens hit the battleship: it takes two hits and sinks; subs fire back at nothing they may hit
    b, events = one_cycle(b, [1, 2, 6], targets("battleship", "battleship"))
    assert [(e.lost, e.damaged) for e in events if isinstance(e, CasualtiesChosen)] == [
        ({}, {"battleship": 1}), ({"battleship": 1}, {})]
    assert present(b, "defender") == {"carrier": 1, "submarine": 1}
    # one Kaiten: a primary target only
    b = battle(kaitens(1), units(US, battleship=1, carrier=1))
    b, _ = one_cycle(b, [], stop=True)
    assert b.state.pending.count == 1


@pytest.mark.rule("AARE-NA-JPN-kaiten-targets")
def test_targets_are_declared_on_the_board_before_any_die() -> None:
    g = kaiten_zone(placed="Japan: 2 submarine; United States: 1 destroyer, 1 carrier, 1 submarine")
    act(g, {"type": "designate", "advantage": KAITEN, "units": "2 submarine", "space": "SZ 60"})
    end(g)
    g = with_dice(g, [6, 6, 1, 6])  # detection 6; Kaiten 1 misses; Kaiten 2 sinks the carrier; the US sub 6
    events = act(g, {"type": "fight", "space": "SZ 60"})
    assert game_rolls(events) == []
    pending = g.state.pending
    assert pending["kind"] == "choose_targets" and pending["power"] == JPN and pending["count"] == 2
    assert {"type": "declare_targets", "targets": "United States:carrier, United States:destroyer"} in pending[
        "options"]
    rejected(g, {"type": "declare_targets", "targets": "submarine, carrier"}, "AARE-NA-JPN-kaiten-targets")
    rejected(g, {"type": "press"}, "AARE-NA-JPN-kaiten-targets")
    events = act(g, {"type": "declare_targets", "targets": "carrier, destroyer"})
    assert [p.split(": ", 1)[1] for p in game_rolls(events)][:3] == [
        "sub detection: United States 1 United States destroyers at 2, 0 hits",
        "kaitens: Japan 1 submarine (kaiten) at 3, 0 hits",
        "kaiten 2: Japan 1 submarine (kaiten) at 3, 1 hit"]
    assert [s.unit for s in g.state.stacks("SZ 60") if s.owner == US] == ["destroyer", "submarine"]
    assert not [s for s in g.state.stacks("SZ 60") if s.owner == JPN]


@pytest.mark.rule("AARE-NA-JPN-kaiten-undetected-order")
def test_undetected_kaitens_stay_on_the_primary_until_it_sinks() -> None:
    primary_first = battle(kaitens(2), units(US, carrier=1, destroyer=1))
    _, events = one_cycle(primary_first, [6, 4, 1], targets("carrier", "destroyer"))  # undetected; miss; hit
    assert lost(events) == [{"carrier": 1}]
    _, events = one_cycle(primary_first, [6, 1, 1], targets("carrier", "destroyer"))  # AC sunk, then the DD
    assert lost(events) == [{"carrier": 1}, {"destroyer": 1}]


@pytest.mark.rule("AARE-NA-JPN-kaiten-undetected-order", "AARE-NA-JPN-kami-with-kaitens")
def test_a_damaged_target_stays_the_target_until_it_sinks_or_by_option_each_hit_moves_on() -> None:
    fleet = units(US, battleship=1, carrier=1)
    _, events = one_cycle(battle(kaitens(2), fleet), [1, 1], targets("battleship", "carrier"))
    assert [(e.lost, e.damaged) for e in events if isinstance(e, CasualtiesChosen)] == [
        ({}, {"battleship": 1}), ({"battleship": 1}, {})]  # the primary is not destroyed: roll at it again
    per_hit = battle(kaitens(2), fleet, options={"suicide_target_order": "per_hit"})
    _, events = one_cycle(per_hit, [1, 1], targets("battleship", "carrier"))
    assert [(e.lost, e.damaged) for e in events if isinstance(e, CasualtiesChosen)] == [
        ({}, {"battleship": 1}), ({"carrier": 1}, {})]
    # a battleship named twice is one battleship: once it sinks the sequence goes past both entries
    two = battle({**kaitens(2), KAMIKAZE: 1}, units(US, battleship=2, destroyer=1))
    _, events = one_cycle(two, [6, 1, 1, 1], targets("battleship", "battleship", "destroyer"))
    assert lost(events) == [{"battleship": 1}, {"destroyer": 1}]


@pytest.mark.rule("AARE-NA-JPN-kaiten-detected-dd-first")
def test_detected_kaitens_roll_at_a_destroyer_first() -> None:
    b = battle(kaitens(2), units(US, carrier=1, destroyer=1))
    _, events = one_cycle(b, [1, 1, 1], targets("carrier", "destroyer"))  # detected; the DD, then the AC
    assert lost(events) == [{"destroyer": 1}, {"carrier": 1}]
    _, events = one_cycle(b, [1, 6, 1], targets("carrier", "destroyer"))  # a miss: the DD again
    assert lost(events) == [{"destroyer": 1}]
    two = battle(kaitens(2), {**units(US, carrier=1, destroyer=1), **units(UK, destroyer=1)})
    # Japan chooses the destroyer: the first one it named
    b, events = one_cycle(two, [1, 6, 1, 6], Targets((("", "carrier"), (UK, "destroyer"))))
    assert lost(events) == [{"destroyer": 1}]
    assert sorted((k.owner, k.type) for k, _ in b.state.defender) == [(US, "carrier"), (US, "destroyer")]


@pytest.mark.rule("AARE-NAVALSEQ-targets-before-detection", "AARE-NA-JPN-kaiten-detected-dd-first")
def test_targets_are_declared_before_detection_and_stand_once_it_is_known() -> None:
    b = battle(kaitens(1), units(US, carrier=1, destroyer=1))
    b, events = one_cycle(b, [], stop=True)
    assert isinstance(b.state.pending, ChooseTargets) and rolls(events) == []  # no detection die yet
    b, _ = apply_answer(b, targets("carrier"))
    b, events = one_cycle(b, [1, 1])  # detected (1): the declared carrier waits; the Kaiten sinks the DD (1)
    assert rolls(events)[0].step == "sub detection" and lost(events) == [{"destroyer": 1}]
    with pytest.raises(IllegalAction):
        apply_answer(b, targets("destroyer"))  # nothing left to declare


@pytest.mark.rule("AARE-NA-JPN-kaiten-hit-3")
def test_kaitens_hit_on_three_or_four_with_super_subs_in_opening_fire() -> None:
    for dice, techs, sunk in (([3], (), True), ([4], (), False), ([4], ("super_submarines",), True)):
        _, events = one_cycle(battle(kaitens(1), units(US, carrier=1), attacker_techs=set(techs)), dice,
                              targets("carrier"))
        assert (lost(events) == [{"carrier": 1}]) is sunk
        assert rolls(events)[0].step == "kaitens"


@pytest.mark.rule("AARE-NA-JPN-kaiten-expended")
def test_a_kaiten_is_never_a_casualty_and_always_dies_after_opening_fire() -> None:
    b = battle({**kaitens(1), **units(JPN, destroyer=1)}, units(US, carrier=1, submarine=1))
    b, events = one_cycle(b, [6, 6, 1], targets("carrier"))  # detection 6; Kaiten misses; the US sub hits
    assert lost(events, "attacker") == [{"destroyer": 1}]  # not the Kaiten, although it is a sub
    removed = [e for e in events if isinstance(e, UnitsRemoved) and e.side == "attacker"]
    assert removed[0].units == {"destroyer": 1, "submarine": 1} and b.state.result == "defender"


@pytest.mark.rule("AARE-NA-JPN-kaiten-casualties")
def test_kaiten_victims_go_at_the_end_of_opening_fire_and_never_fire_back() -> None:
    b = battle({**kaitens(1), **units(JPN, battleship=1)}, units(US, destroyer=1, carrier=1))
    b, events = one_cycle(b, [1, 1, 6, 6], targets("carrier"))  # detected (1); the DD sunk (1); BB 6; AC 6
    assert lost(events) == [{"destroyer": 1}]
    assert [r.unit for r in rolls(events, "defender fire")] == ["carrier"]
    b = battle({**kaitens(1), **units(JPN, battleship=1)}, units(US, destroyer=1, carrier=1))
    b, events = one_cycle(b, [6, 2, 6, 6], targets("carrier"))  # undetected; AC sunk; BB; DD
    assert lost(events) == [{"carrier": 1}] and [r.unit for r in rolls(events, "defender fire")] == ["destroyer"]


# ================================================================ 6. Kamikaze Attacks


def kami_game(placed: Mapping[str, str], *ids: str, **kwargs: Any) -> Game:
    return jpn("combat-move", placed, *(ids or (KAMI,)), **kwargs)


@pytest.mark.rule("AARE-NA-JPN-kami-designation")
def test_up_to_two_kamikazes_a_turn() -> None:
    g = kami_game({"Japan": "Japan: 3 fighter", "SZ 60": "United States: 1 carrier"})
    act(g, {"type": "move", "units": "3 fighter", "path": ["Japan", "SZ 60"]})
    act(g, {"type": "designate", "advantage": KAMI, "units": "2 fighter", "space": "SZ 60"})
    rejected(g, {"type": "designate", "advantage": KAMI, "units": "1 fighter", "space": "SZ 60"},
             "AARE-NA-JPN-kami-designation")
    with pytest.raises(IllegalAction) as err:
        battle({KAMIKAZE: 3}, units(US, carrier=1))
    assert err.value.rule_id == "AARE-NA-JPN-kami-designation"


@pytest.mark.rule("AARE-NA-JPN-kami-naval-only")
def test_kamikazes_attack_only_ships() -> None:
    g = kami_game({"Japan": "Japan: 1 fighter, 2 infantry", "Buryatia S.S.R.": "Russia: 1 infantry",
                   "SZ 60": "Japan: 1 transport", "SZ 62": "United States: 1 submarine"},
                  owners={"Buryatia S.S.R.": RUS})
    act(g, {"type": "move", "units": "1 fighter", "path": ["Japan", "SZ 60", "Buryatia S.S.R."]})
    rejected(g, {"type": "designate", "advantage": KAMI, "units": "1 fighter", "space": "Buryatia S.S.R."},
             "AARE-NA-JPN-kami-naval-only")
    with pytest.raises(IllegalAction) as err:
        battle({KAMIKAZE: 1}, "1 infantry", "land")
    assert err.value.rule_id == "AARE-NA-JPN-kami-naval-only"
    far = kami_game({"Japan": "Japan: 1 fighter", "SZ 55": "United States: 1 submarine"})
    rejected(far, {"type": "move", "units": "1 fighter", "path": ["Japan", "SZ 60", "SZ 57", "SZ 56", "SZ 55"]},
             "LHTR-AIRMOVE-no-kamikaze")  # only a sub there: nothing a Kamikaze may aim at


@pytest.mark.rule("AARE-NA-JPN-kami-one-way")
def test_a_kamikaze_flies_its_full_range_without_a_landing_spot() -> None:
    path = ["Japan", "SZ 60", "SZ 57", "SZ 56", "SZ 55"]
    g = kami_game({"Japan": "Japan: 1 fighter", "SZ 55": "United States: 1 battleship"})
    act(g, {"type": "move", "units": "1 fighter", "path": path})
    [kami] = [s for s in g.state.stacks("SZ 55") if s.owner == JPN]
    assert flags.has(kami, flags.SUICIDE) and g.state.extra["na_japan"]["designated"]["kamikaze"] == 1
    end(g)  # it needs no landing spot
    plain = kami_game({"Japan": "Japan: 1 fighter", "SZ 55": "United States: 1 battleship"}, YAMATO)
    rejected(plain, {"type": "move", "units": "1 fighter", "path": path}, "LHTR-AIRMOVE-no-kamikaze")


@pytest.mark.rule("AARE-NA-JPN-kami-targets")
def test_kamikaze_targets_a_battleship_twice_never_a_sub() -> None:
    b = battle({KAMIKAZE: 2}, units(UK, battleship=1, destroyer=1, submarine=1))
    b, _ = one_cycle(b, [], stop=True)
    assert isinstance(b.state.pending, ChooseTargets) and b.state.pending.rule == "AARE-NA-JPN-kami-targets"
    with pytest.raises(IllegalAction) as err:
        apply_answer(b, targets("submarine", "battleship"))
    assert err.value.rule_id == "AARE-NA-JPN-kami-targets"
    b, events = one_cycle(b, [4, 1, 6], targets("battleship", "battleship"))  # the UK sub rolls in vain
    assert [(e.lost, e.damaged) for e in events if isinstance(e, CasualtiesChosen)] == [
        ({}, {"battleship": 1}), ({"battleship": 1}, {})]


@pytest.mark.rule("AARE-NA-JPN-kami-with-kaitens")
def test_worked_example_kaitens_then_kamikazes_along_four_targets() -> None:
    """NATIONAL ADVANTAGES / JAPAN 6 and NAVAL COMBAT SEQUENCE 1a, 2d, 2e: 2 undetected Kaitens and 2 Kamikazes
    declare [US AC, US BB, US BB, US DD]. Kaiten 1 sinks the AC, Kaiten 2 hits the BB (damaged), Kamikaze 1 rolls at
    the BB and sinks it, Kamikaze 2 rolls at the DD."""
    b = battle({**kaitens(2), KAMIKAZE: 2}, units(US, carrier=1, battleship=1, destroyer=1))
    b, _ = one_cycle(b, [], stop=True)
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.count == 4
    assert decision.rule == "AARE-NA-JPN-kami-with-kaitens"
    order = targets("carrier", "battleship", "battleship", "destroyer")
    b, events = one_cycle(b, [6, 1, 2, 3, 4], order)  # detection 6: undetected
    assert [r.step for r in rolls(events)][1:] == ["kaitens", "kaiten 2", "kamikazes", "kamikaze 2"]
    assert [(e.lost, e.damaged) for e in events if isinstance(e, CasualtiesChosen)] == [
        ({"carrier": 1}, {}), ({}, {"battleship": 1}), ({"battleship": 1}, {}), ({"destroyer": 1}, {})]
    assert b.state.result == "draw"  # every Kaiten and Kamikaze is expended too
    # Kaiten 2 misses: the first Kamikaze takes its turn at the first battleship entry, the second goes on to it
    _, events = one_cycle(battle({**kaitens(2), KAMIKAZE: 2}, units(US, carrier=1, battleship=1, destroyer=1)),
                          [6, 1, 6, 3, 4], order)
    assert [(e.lost, e.damaged) for e in events if isinstance(e, CasualtiesChosen)] == [
        ({"carrier": 1}, {}), ({}, {"battleship": 1}), ({"battleship": 1}, {})]


@pytest.mark.rule("AARE-NA-JPN-kami-no-dd-first")
def test_kamikazes_skip_the_destroyer_the_detected_kaitens_missed() -> None:
    b = battle({**kaitens(2), KAMIKAZE: 2}, units(US, carrier=1, destroyer=1))
    b, events = one_cycle(b, [1, 6, 6, 1, 6], targets("carrier", "destroyer"))  # detected; DD, DD missed
    assert [r.step for r in rolls(events)][1:] == ["kaitens", "kaiten 2", "kamikazes", "kamikaze 2"]
    assert lost(events) == [{"carrier": 1}]  # Kamikaze 1 at the primary


@pytest.mark.rule("AARE-NA-JPN-kami-aa-interceptors")
def test_interceptors_and_battleship_aa_remove_kamikazes_before_they_roll() -> None:
    defence = {US: frozenset({"combined_bombardment", "jet_fighters"})}
    fleet = units(US, battleship=1, carrier=1, fighter=1)
    b, events = one_cycle(battle({KAMIKAZE: 1}, fleet, owner_techs=defence), [1], targets("battleship"))
    assert [(r.step, r.hit_on, r.hits) for r in rolls(events)] == [("interceptors", 1, 1)]
    assert b.state.result == "defender"
    b, events = one_cycle(battle({KAMIKAZE: 1}, fleet, owner_techs=defence), [6, 1], targets("battleship"))
    assert [(r.step, r.hit_on, r.hits) for r in rolls(events)] == [("interceptors", 1, 0), ("battleship aa", 1, 1)]
    b, events = one_cycle(battle({KAMIKAZE: 1}, fleet, owner_techs=defence), [6, 6, 4], targets("battleship"))
    assert [r.step for r in rolls(events)] == ["interceptors", "battleship aa", "kamikazes"]
    assert lost(events) == [] and [e.damaged for e in events if isinstance(e, CasualtiesChosen)] == [
        {"battleship": 1}]


@pytest.mark.rule("AARE-NA-JPN-kami-aa-interceptors")
def test_kamikazes_face_aa_guns_they_fly_over() -> None:
    g = kami_game({"Japan": "Japan: 1 fighter", "Manchuria": "Japan: 1 infantry",
                   "Buryatia S.S.R.": "Russia: 1 aa gun", "SZ 62": "United States: 1 carrier"},
                  owners={"Buryatia S.S.R.": RUS})
    act(g, {"type": "move", "units": "1 fighter", "path": ["Japan", "SZ 61", "Manchuria", "Buryatia S.S.R.",
                                                             "SZ 62"]})
    g = with_dice(g, [1])
    events = act(g, {"type": "end_phase"})
    assert game_rolls(events) == ["AA gun in Buryatia S.S.R.: aa flyover: Russia 1 fighter at 1, 1 hit"]
    assert not [s for s in g.state.stacks("SZ 62") if s.owner == JPN]


@pytest.mark.rule("AARE-NA-JPN-kami-jets-lower-aa")
def test_japanese_jets_lower_aa_against_kamikazes_but_not_interceptors() -> None:
    b = battle({KAMIKAZE: 1}, units(US, battleship=1, carrier=1, fighter=1), attacker_techs={"jet_fighters"},
               owner_techs={US: frozenset({"combined_bombardment", "jet_fighters"})})
    _, events = one_cycle(b, [6, 6], targets("battleship"))
    assert [(r.step, r.hit_on) for r in rolls(events)] == [("interceptors", 1), ("kamikazes", 4)]


@pytest.mark.rule("AARE-NA-JPN-kami-hit-4")
def test_kamikazes_hit_on_four_in_opening_fire() -> None:
    for die, sunk in ((4, True), (5, False)):
        _, events = one_cycle(battle({KAMIKAZE: 1}, units(US, carrier=1)), [die], targets("carrier"))
        assert (lost(events) == [{"carrier": 1}]) is sunk and rolls(events)[0].hit_on == 4


@pytest.mark.rule("AARE-NA-JPN-kami-expended")
def test_a_kamikaze_and_its_victim_go_at_the_end_of_opening_fire() -> None:
    b = battle({KAMIKAZE: 1, UnitKey("battleship", JPN): 1}, units(UK, destroyer=1, transport=1))
    b, events = one_cycle(b, [1, 6, 6], targets("destroyer"))  # Kamikaze sinks the DD; BB 6; transport 6
    removed = [e for e in events if isinstance(e, UnitsRemoved) and e.step == "remove opening fire casualties"]
    assert [(e.side, e.units) for e in removed] == [("attacker", {"fighter": 1}), ("defender", {"destroyer": 1})]
    assert [r.unit for r in rolls(events, "defender fire")] == ["transport"]
    assert present(b, "attacker") == {"battleship": 1}


@pytest.mark.rule("AARE-NA-JPN-kami-ftr-discount")
def test_japanese_fighters_cost_nine() -> None:
    g = jpn("purchase", {}, KAMI, round=2, banks={JPN: 18}, extra={"first_purchase": {KAMI: 1}})
    act(g, {"type": "purchase", "units": "2 fighter"})
    assert g.state.banks[JPN] == 0


@pytest.mark.rule("AARE-NA-JPN-kami-first-ftr", "AARE-COST-discount-stacking")
def test_the_first_kamikaze_era_fighter_costs_four() -> None:
    g = jpn("purchase", {}, KAMI, round=2, banks={JPN: 30})
    events = act(g, {"type": "purchase", "units": "2 fighter"})
    assert g.state.banks[JPN] == 17  # 4 + 9
    assert any(e.type == "extra_set" and e.rule_id == "AARE-NA-JPN-kami-first-ftr" for e in events)
    act(g, {"type": "purchase", "units": "1 fighter"})
    assert g.state.banks[JPN] == 8


# ================================================================ 2. Tokyo Express


def te_game(phase: str, placed: Mapping[str, str], *, stacks: Iterable[tuple[str, Stack]] = (), **kwargs: Any) -> Game:
    return jpn(phase, placed, TE, stacks=stacks, **kwargs)


@pytest.mark.rule("AARE-NA-JPN-te-capacity")
def test_a_destroyer_carries_two_infantry_and_nothing_else() -> None:
    g = te_game("non-combat-move", {"SZ 60": "Japan: 1 destroyer", "Japan": "Japan: 3 infantry, 1 armour"})
    assert [a.units for a in g.legal_actions() if a.type == "load"] == ["1 infantry"]
    rejected(g, {"type": "load", "units": "1 armour", "territory": "Japan", "sea_zone": "SZ 60"},
             "AARE-NA-JPN-te-capacity")
    rejected(g, {"type": "load", "units": "3 infantry", "territory": "Japan", "sea_zone": "SZ 60"},
             "AARE-NA-JPN-te-capacity")
    act(g, {"type": "load", "units": "2 infantry", "territory": "Japan", "sea_zone": "SZ 60"})
    assert [flags.cargo(s) for s in g.state.stacks("SZ 60")] == [((JPN, "infantry"), (JPN, "infantry"))]
    rejected(g, {"type": "load", "units": "1 infantry", "territory": "Japan", "sea_zone": "SZ 60"},
             "AARE-NA-JPN-te-capacity")
    plain = jpn("non-combat-move", {"SZ 60": "Japan: 1 destroyer", "Japan": "Japan: 1 infantry"}, YAMATO)
    rejected(plain, {"type": "load", "units": "1 infantry", "territory": "Japan", "sea_zone": "SZ 60"},
             "LHTR-TRANSPORT-capacity")


@pytest.mark.rule("AARE-NA-JPN-te-ncm-two-inf")
def test_two_infantry_loaded_in_japan_and_landed_in_okinawa_in_non_combat_move() -> None:
    g = te_game("non-combat-move", {"SZ 60": "Japan: 1 destroyer", "Japan": "Japan: 2 infantry"},
                owners={"Okinawa": JPN})
    act(g, {"type": "load", "units": "2 infantry", "territory": "Japan", "sea_zone": "SZ 60"})
    act(g, {"type": "move", "units": "1 destroyer, 2 infantry", "path": ["SZ 60", "SZ 58"]})
    act(g, {"type": "move", "units": "2 infantry", "path": ["SZ 58", "Okinawa"]})
    assert [(s.unit, s.count) for s in g.state.stacks("Okinawa")] == [("infantry", 2)]


@pytest.mark.rule("AARE-NA-JPN-te-ncm-cargo-may-stay")
def test_non_combat_cargo_may_stay_aboard_past_the_turn() -> None:
    g = te_game("non-combat-move", {"SZ 60": "Japan: 1 destroyer", "Japan": "Japan: 2 infantry"})
    act(g, {"type": "load", "units": "2 infantry", "territory": "Japan", "sea_zone": "SZ 60"})
    act(g, {"type": "move", "units": "1 destroyer, 2 infantry", "path": ["SZ 60", "SZ 61"]})
    while g.state.nation == JPN:
        end(g)
    assert [flags.cargo(s) for s in g.state.stacks("SZ 61")] == [((JPN, "infantry"), (JPN, "infantry"))]


@pytest.mark.rule("AARE-NA-JPN-te-combat-one-inf")
def test_only_one_infantry_on_or_off_a_destroyer_in_combat_move() -> None:
    placed = {"SZ 60": "Japan: 1 destroyer", "Japan": "Japan: 2 infantry", "Buryatia S.S.R.": "Russia: 1 infantry"}
    g = te_game("combat-move", placed, stacks=[("SZ 60", loaded_dd(2))], owners={"Buryatia S.S.R.": RUS})
    unload = {"type": "move", "path": ["SZ 60", "Buryatia S.S.R."]}
    rejected(g, {**unload, "units": "2 infantry"}, "AARE-NA-JPN-te-combat-one-inf")
    rejected(g, {"type": "load", "units": "2 infantry", "territory": "Japan", "sea_zone": "SZ 60"},
             "AARE-NA-JPN-te-combat-one-inf")
    act(g, {"type": "load", "units": "1 infantry", "territory": "Japan", "sea_zone": "SZ 60"})  # the empty DD
    act(g, {**unload, "units": "1 infantry"})
    act(g, {**unload, "units": "1 infantry"})  # one from each destroyer
    rejected(g, {**unload, "units": "1 infantry"}, "AARE-NA-JPN-te-combat-one-inf")
    dds = sorted(g.state.stacks("SZ 60"), key=lambda s: s.status)
    assert [len(flags.cargo_list(s, flags.DROPPED)) for s in dds] == [1, 1]
    two = te_game("combat-move", {"SZ 60": "Japan: 2 destroyer", "Japan": "Japan: 2 infantry",
                                  "Buryatia S.S.R.": "Russia: 1 infantry"}, owners={"Buryatia S.S.R.": RUS})
    act(two, {"type": "load", "units": "2 infantry", "territory": "Japan", "sea_zone": "SZ 60"})
    assert [(s.count, len(flags.cargo(s))) for s in two.state.stacks("SZ 60")] == [(2, 1)]  # one on each


@pytest.mark.rule("AARE-NA-JPN-te-combat-cargo-must-land")
def test_infantry_loaded_in_combat_move_must_land_that_turn() -> None:
    placed = {"SZ 60": "Japan: 1 destroyer", "Japan": "Japan: 1 infantry", "Buryatia S.S.R.": "Russia: 1 infantry"}
    g = te_game("combat-move", placed, owners={"Buryatia S.S.R.": RUS})
    act(g, {"type": "load", "units": "1 infantry", "territory": "Japan", "sea_zone": "SZ 60"})
    rejected(g, {"type": "end_phase"}, "LHTR-TRANSPORT-cm-load-must-assault")
    act(g, {"type": "move", "units": "1 infantry", "path": ["SZ 60", "Buryatia S.S.R."]})
    end(g)


@pytest.mark.rule("AARE-NA-JPN-te-one-phase")
def test_a_destroyer_used_in_combat_move_carries_nothing_in_non_combat_move() -> None:
    placed = {"SZ 61": "Japan: 1 destroyer", "Japan": "Japan: 3 infantry", "Manchuria": "United Kingdom: 1 infantry"}
    g = te_game("combat-move", placed, owners={"Manchuria": UK})
    act(g, {"type": "load", "units": "1 infantry", "territory": "Japan", "sea_zone": "SZ 61"})
    act(g, {"type": "move", "units": "1 infantry", "path": ["SZ 61", "Manchuria"]})
    end(g)
    act(with_dice(g, [1, 6]), {"type": "fight", "space": "Manchuria"})
    while g.state.phase != "non-combat-move":
        end(g)
    rejected(g, {"type": "load", "units": "2 infantry", "territory": "Japan", "sea_zone": "SZ 61"},
             "AARE-NA-JPN-te-one-phase")


@pytest.mark.rule("AARE-NA-JPN-te-hostile-sz-fight-first", "AARE-NA-JPN-te-no-penalty")
def test_the_destroyer_fights_at_sea_first_and_lands_its_infantry_if_it_survives() -> None:
    placed = {"SZ 49": "United States: 1 destroyer", "Philippine Islands": "United States: 1 infantry"}

    def landing(dice: list[int]) -> Game:
        g = te_game("combat-move", placed, stacks=[("SZ 60", loaded_dd(1))], owners={"Philippine Islands": US})
        act(g, {"type": "move", "units": "1 destroyer, 1 infantry", "path": ["SZ 60", "SZ 49"]})
        act(g, {"type": "move", "units": "1 infantry", "path": ["SZ 49", "Philippine Islands"]})
        end(g)
        g = with_dice(g, dice)
        rejected(g, {"type": "fight", "space": "Philippine Islands"}, "LHTR-COMBAT-battle-order")
        events = act(g, {"type": "fight", "space": "SZ 49"})
        assert any("Japan 1 destroyer at 3" in p for p in game_rolls(events))  # full strength, loaded or not
        return g

    won = landing([1, 6, 1, 6])  # the Japanese DD sinks the US DD; the landing goes on
    act(won, {"type": "fight", "space": "Philippine Islands"})
    assert won.state.owners["Philippine Islands"] == JPN
    sunk = landing([6, 1])  # the Japanese DD is sunk: its infantry, already ashore, is lost with it
    assert not [s for s in sunk.state.stacks("Philippine Islands") if s.owner == JPN]
    assert not [a for a in sunk.legal_actions() if a.type == "fight"]


@pytest.mark.rule("AARE-NA-JPN-te-no-penalty")
def test_a_loaded_destroyer_defends_at_three_and_its_cargo_sinks_with_it() -> None:
    g = te_game("combat-move", {"SZ 62": "United States: 1 destroyer"}, stacks=[("SZ 60", loaded_dd(2))],
                nation=US)
    act(g, {"type": "move", "units": "1 destroyer", "path": ["SZ 62", "SZ 60"]})
    end(g)
    events = act(with_dice(g, [1, 6]), {"type": "fight", "space": "SZ 60"})
    assert any("Japan 1 destroyer at 3" in p for p in game_rolls(events))
    gone = [e for e in events if e.type == "units_removed" and e.stack.owner == JPN]
    assert [flags.cargo(e.stack) for e in gone] == [((JPN, "infantry"), (JPN, "infantry"))]


@pytest.mark.rule("AARE-NA-JPN-te-ca-bombard")
def test_a_combined_arms_express_destroyer_bombards_only_where_it_lands() -> None:
    placed = {"Alaska": "United States: 1 infantry", "Western Canada": "United Kingdom: 1 infantry"}
    cargo = flags.with_cargo(Stack(JPN, "transport", 1), [(JPN, "infantry")])
    g = te_game("combat-move", placed, stacks=[("SZ 64", loaded_dd(1)), ("SZ 64", cargo)],
                techs={JPN: ["combined_bombardment"]}, owners={"Alaska": US, "Western Canada": UK})
    act(g, {"type": "move", "units": "1 infantry", "path": ["SZ 64", "Alaska"]})  # from the destroyer first
    act(g, {"type": "move", "units": "1 infantry", "path": ["SZ 64", "Western Canada"]})
    dropped = {s.unit: flags.value(s, flags.UNLOADED) for s in g.state.stacks("SZ 64")}
    assert dropped == {"destroyer": "Alaska", "transport": "Western Canada"}
    end(g)
    events = act(with_dice(g, [1, 6]), {"type": "fight", "space": "Western Canada"})
    assert not any("bombardment" in p for p in game_rolls(events))
    events = act(with_dice(g, [6, 1, 6]), {"type": "fight", "space": "Alaska"})
    assert any("bombardment: Japan 1 destroyer at 3" in p for p in game_rolls(events))


@pytest.mark.rule("AARE-NA-JPN-te-ca-bombard")
def test_no_bombardment_after_a_sea_battle() -> None:
    b = battle("1 infantry", "1 infantry", "amphibious", bombard="1 destroyer", sea_battle_fought=False,
               attacker_techs={"combined_bombardment"})
    _, events = one_cycle(b, [6, 6, 6])
    assert hit_on(events, "bombardment") == [("destroyer", 3, 1)]
    with pytest.raises(IllegalAction) as err:
        battle("1 infantry", "1 infantry", "amphibious", bombard="1 destroyer", sea_battle_fought=True,
               attacker_techs={"combined_bombardment"})
    assert err.value.rule_id == "LHTR-BOMBARD-no-sea-battle"


# ================================================================ the calculator


@pytest.mark.rule("AARE-NA-JPN-kaiten-hit-3", "AARE-NA-JPN-kami-hit-4", "AARE-NA-JPN-yamato-5")
def test_the_calculator_counts_japans_advantages_exactly() -> None:
    one = odds({**kaitens(1)}, "1 carrier", RULES, battle="sea")
    assert abs(one.attacker_win - 0) < 1e-12 and abs(one.draw - 0.5) < 1e-12  # hits on 3: both sides gone
    kami = odds({KAMIKAZE: 1, UnitKey("battleship", JPN): 1}, "1 carrier", RULES, battle="sea")
    mc = odds({KAMIKAZE: 1, UnitKey("battleship", JPN): 1}, "1 carrier", RULES, battle="sea", method="mc",
              runs=20_000, seed=3)
    assert abs(kami.attacker_win - mc.attacker_win) < 0.02
    runner = CliRunner()
    base = ["odds", "--rules", RULES, "--battle", "sea", "--json"]
    res = runner.invoke(cli, [*base, "--attacker", "2 submarine, 2 fighter", "--defender",
                              "1 carrier, 1 battleship, 1 destroyer", "--kaitens", "2", "--kamikazes", "2",
                              "--targets", "carrier, battleship, battleship, destroyer"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.output)
    assert data["attacker_win"] == 0 and 0 < data["draw"] < 1
    bb = runner.invoke(cli, [*base, "--attacker", "1 battleship", "--defender", "1 battleship",
                             "--attacker-advantage", "yamato"])
    plain = runner.invoke(cli, [*base, "--attacker", "1 battleship", "--defender", "1 battleship"])
    assert json.loads(bb.output)["attacker_win"] > json.loads(plain.output)["attacker_win"]


def test_designate_and_targets_have_a_text_form() -> None:
    from aare.action_text import format_action, parse_action_text
    from aare.rules.ruleset import load_ruleset

    ruleset = load_ruleset(RULES)
    text = "designate kaiten_torpedoes: 2 submarine in SZ 60"
    action = parse_action_text(text, ruleset)
    assert action == {"type": "designate", "advantage": KAITEN, "units": "2 submarine", "space": "SZ 60"}
    assert format_action(action) == text
    assert parse_action_text("targets carrier, battleship", ruleset) == {
        "type": "declare_targets", "targets": "carrier, battleship"}
