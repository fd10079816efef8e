"""Anniversary mobilization: at complexes held since the start of the turn, up to the territory's value less the
complex's damage, ships next to them, fighters on carriers, new complexes, captured complexes with their damage,
and units that wait for a later turn."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

import pytest

from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.pool import pool
from aare.economy.production import producers
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import UnitDamaged, apply_events
from aare.game_log import GameLog
from aare.scenario import scenario
from aare.state.game_state import GameState


def next_turn(state: GameState, purchased: Mapping[str, int] | None = None) -> Game:
    """The same power's mobilize phase a round later, with `purchased` waiting (the pool kept otherwise)."""
    extra = dict(state.extra)
    if purchased is not None:
        extra["purchased"] = {state.nation: dict(purchased)}
    return Game(GameLog(replace(state, round=state.round + 1, phase="mobilize", extra=extra)))


def places(game: Game, space: str) -> list[str]:
    return [a.units for a in game.legal_actions() if a.type == "place" and a.space == space]


@pytest.mark.rule("AA50-MOBILIZE-at-complex")
def test_new_units_go_only_to_complexes_held_since_the_turn_began() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="mobilize", extra={"purchased": {"Germany": {"infantry": 2}}})
    with pytest.raises(IllegalAction, match="there is no industrial complex in Poland"):
        game.apply({"type": "place", "units": "1 infantry", "space": "Poland"})
    with pytest.raises(IllegalAction, match="does not control Russia"):
        game.apply({"type": "place", "units": "1 infantry", "space": "Russia"})
    assert places(game, "Germany") == ["1 infantry"] and not places(game, "Poland")
    game.apply({"type": "place", "units": "2 infantry", "space": "Germany"})
    assert pool(game.state, "Germany") == {}


@pytest.mark.rule("AA50-MOBILIZE-captured-complex", "AA50-MOBILIZE-at-complex", "AA50-UNITS-industrial-complex",
                  "AA50-SBR-reduces-production")
def test_a_captured_complex_keeps_its_damage_and_produces_from_the_captors_next_turn() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="purchase", clear=["Karelia S.S.R.", "Baltic States"],
                    units={"Baltic States": "Germany: 3 armour",
                           "Karelia S.S.R.": "Soviet Union: 1 infantry, 1 factory, 1 aa gun"},
                    owners={"Baltic States": "Germany"}, dice=[1, 5, 5, 6])
    factory = complex_stack(game.state, game.ruleset, "Karelia S.S.R.")
    assert factory is not None
    game = Game(GameLog(apply_events(game.state, [UnitDamaged("Karelia S.S.R.", factory, 1, "test")])), game.dice)
    game.apply({"type": "end_phase"})  # the turn's record: who held what when it began
    game.apply({"type": "move", "units": "3 armour", "path": ["Baltic States", "Karelia S.S.R."]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Karelia S.S.R."})  # 1 hit on the infantry; the defender misses
    assert game.state.owners["Karelia S.S.R."] == "Germany"
    captured = {s.unit: (s.owner, s.damage) for s in game.state.stacks("Karelia S.S.R.") if s.unit != "armour"}
    assert captured == {"factory": ("Germany", 1), "aa_gun": ("Germany", 0)}  # never a casualty; damage kept
    game.apply({"type": "end_phase"})
    game.apply({"type": "end_phase"})
    assert game.state.phase == "mobilize" and "Karelia S.S.R." not in producers(game.state, game.ruleset, "Germany")
    game = Game(GameLog(replace(game.state, extra={**game.state.extra, "purchased": {"Germany": {"infantry": 2}}})))
    with pytest.raises(IllegalAction, match="captured this turn") as refused:
        game.apply({"type": "place", "units": "1 infantry", "space": "Karelia S.S.R."})
    assert refused.value.rule_id == "LHTR-MOBILIZE-not-captured-this-turn"
    later = next_turn(game.state)
    assert producers(later.state, later.ruleset, "Germany")["Karelia S.S.R."] == 1  # worth 2, 1 damage
    later.apply({"type": "place", "units": "1 infantry", "space": "Karelia S.S.R."})
    with pytest.raises(IllegalAction, match="cannot take 1 more"):
        later.apply({"type": "place", "units": "1 infantry", "space": "Karelia S.S.R."})


@pytest.mark.rule("AA50-UNITS-industrial-complex")
def test_an_industrial_complex_costs_15_and_never_moves() -> None:
    game = scenario("aa50-1942", nation="Italy", phase="purchase", banks={"Italy": 20})
    game.apply({"type": "purchase", "units": "1 industrial complex"})
    assert game.state.banks["Italy"] == 5 and pool(game.state, "Italy") == {"factory": 1}
    still = scenario("aa50-1942", nation="Germany", phase="non-combat-move")
    with pytest.raises(IllegalAction, match="factories cannot move"):
        still.apply({"type": "move", "units": "1 factory", "path": ["Germany", "Poland"]})


@pytest.mark.rule("AA50-MOBILIZE-limit-territory-value", "AA50-MOBILIZE-naval")
def test_italy_mobilizes_six_units_land_and_sea_together() -> None:
    game = scenario("aa50-1942", nation="Italy", phase="mobilize",
                    extra={"purchased": {"Italy": {"infantry": 5, "destroyer": 3}}})
    assert producers(game.state, game.ruleset, "Italy") == {"Italy": 6}
    game.apply({"type": "place", "units": "4 infantry", "space": "Italy"})
    game.apply({"type": "place", "units": "2 destroyers", "space": "SZ 14"})
    with pytest.raises(IllegalAction, match="cannot take 1 more units") as refused:
        game.apply({"type": "place", "units": "1 infantry", "space": "Italy"})
    assert refused.value.rule_id == "LHTR-MOBILIZE-capacity-ipc-value"
    with pytest.raises(IllegalAction, match="sea zone next to a complex"):
        game.apply({"type": "place", "units": "1 destroyer", "space": "Italy"})


@pytest.mark.rule("AA50-MOBILIZE-naval", "AA50-NAVALCOMBAT-sub-not-blocking-control")
def test_ships_may_be_placed_where_an_enemy_submarine_waits() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="mobilize", clear=["SZ 6"],
                    units={"SZ 6": "Germany: 1 submarine"}, extra={"purchased": {"United Kingdom": {"destroyer": 1}}})
    with pytest.raises(IllegalAction, match="SZ 5 is not next to a complex"):
        game.apply({"type": "place", "units": "1 destroyer", "space": "SZ 5"})
    game.apply({"type": "place", "units": "1 destroyer", "space": "SZ 6"})
    assert {(s.owner, s.unit) for s in game.state.stacks("SZ 6")} == {("Germany", "submarine"),
                                                                      ("United Kingdom", "destroyer")}
    assert game.state.pending is None


@pytest.mark.rule("AA50-MOBILIZE-fighters-on-carriers")
def test_new_fighters_go_aboard_a_new_or_an_old_carrier_next_to_the_complex() -> None:
    game = scenario("aa50-1942", nation="Japan", phase="mobilize", clear=["SZ 62"],
                    extra={"purchased": {"Japan": {"carrier": 1, "fighter": 3}}})
    with pytest.raises(IllegalAction, match="room for 0 more fighters"):
        game.apply({"type": "place", "units": "1 fighter", "space": "SZ 62"})
    game.apply({"type": "place", "units": "1 carrier, 2 fighters", "space": "SZ 62"})
    assert {s.unit: s.count for s in game.state.stacks("SZ 62")} == {"carrier": 1, "fighter": 2}
    with pytest.raises(IllegalAction, match="room for 0 more fighters"):
        game.apply({"type": "place", "units": "1 fighter", "space": "SZ 62"})
    old = scenario("aa50-1942", nation="Japan", phase="mobilize", clear=["SZ 62"], units={"SZ 62": "Japan: 1 carrier"},
                   extra={"purchased": {"Japan": {"fighter": 2}}})
    old.apply({"type": "place", "units": "2 fighters", "space": "SZ 62"})
    assert {s.unit: s.count for s in old.state.stacks("SZ 62")} == {"carrier": 1, "fighter": 2}
    assert producers(old.state, old.ruleset, "Japan") == {"Japan": 8}


@pytest.mark.rule("AA50-MOBILIZE-new-complex")
def test_a_new_complex_produces_from_the_next_turn_one_per_territory() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="mobilize",
                    extra={"purchased": {"United Kingdom": {"factory": 2, "infantry": 1}}})
    game.apply({"type": "place", "units": "1 industrial complex", "space": "India"})
    with pytest.raises(IllegalAction, match="India already has an industrial complex"):
        game.apply({"type": "place", "units": "1 industrial complex", "space": "India"})
    with pytest.raises(IllegalAction, match="placed this turn") as refused:
        game.apply({"type": "place", "units": "1 infantry", "space": "India"})
    assert refused.value.rule_id == "LHTR-MOBILIZE-new-complex-idle-this-turn"
    game.apply({"type": "end_phase"})  # collect income clears the new complex's mark at the turn's end
    game.apply({"type": "end_phase"})
    india = [s for s in game.state.stacks("India") if s.unit == "factory"]
    assert [(s.owner, s.flags, s.damage) for s in india] == [("United Kingdom", (), 0)]
    state = replace(game.state, nation="United Kingdom", round=2, phase="mobilize")
    assert producers(state, game.ruleset, "United Kingdom")["India"] == 3


@pytest.mark.rule("AA50-MOBILIZE-unplaced-kept", "AA50-MOBILIZE-limit-territory-value")
def test_units_left_unplaced_wait_for_a_later_mobilize_phase() -> None:
    game = scenario("aa50-1942", nation="Italy", phase="mobilize", extra={"purchased": {"Italy": {"infantry": 8}}})
    game.apply({"type": "place", "units": "6 infantry", "space": "Italy"})
    game.apply({"type": "end_phase"})
    assert game.state.phase == "collect-income" and pool(game.state, "Italy") == {"infantry": 2}
    later = scenario("aa50-1942", nation="Italy", phase="purchase", banks={"Italy": 10},
                     extra={"purchased": {"Italy": {"infantry": 2}}})
    later.apply({"type": "purchase", "units": "1 armour"})
    assert pool(later.state, "Italy") == {"infantry": 2, "armour": 1}
    later = Game(GameLog(replace(later.state, phase="mobilize")))
    later.apply({"type": "place", "units": "2 infantry, 1 armour", "space": "Italy"})
    assert pool(later.state, "Italy") == {}


@pytest.mark.rule("AA50-SBR-reduces-production", "AA50-MOBILIZE-limit-territory-value")
def test_damage_lowers_the_room_ships_share_with_land_units() -> None:
    game = scenario("aa50-1942", nation="Italy", phase="mobilize",
                    extra={"purchased": {"Italy": {"infantry": 2, "destroyer": 2}}})
    factory = complex_stack(game.state, game.ruleset, "Italy")
    assert factory is not None
    game = Game(GameLog(apply_events(game.state, [UnitDamaged("Italy", factory, 3, "test")])))
    assert complex_damage(game.state, game.ruleset, "Italy") == 3
    game.apply({"type": "place", "units": "2 destroyers", "space": "SZ 14"})
    game.apply({"type": "place", "units": "1 infantry", "space": "Italy"})
    with pytest.raises(IllegalAction, match="cannot take 1 more"):
        game.apply({"type": "place", "units": "1 infantry", "space": "Italy"})


@pytest.mark.rule("AA50-MOBILIZE-naval")
def test_an_option_keeps_new_units_out_of_seas_with_enemy_warships() -> None:
    units = {"SZ 6": "Germany: 1 destroyer", "SZ 7": "Germany: 1 submarine, 1 transport"}
    purchased = {"purchased": {"United Kingdom": {"destroyer": 2}}}
    allowed = scenario("aa50-1942", nation="United Kingdom", phase="mobilize", clear=["SZ 6", "SZ 7"], units=units,
                       extra=purchased)
    allowed.apply({"type": "place", "units": "1 destroyer", "space": "SZ 6"})
    strict = scenario("aa50-1942", nation="United Kingdom", phase="mobilize", clear=["SZ 6", "SZ 7"], units=units,
                      extra=purchased, options={"mobilize_beside_enemy_warships": False})
    with pytest.raises(IllegalAction, match="SZ 6 holds enemy warships") as refused:
        strict.apply({"type": "place", "units": "1 destroyer", "space": "SZ 6"})
    assert refused.value.rule_id == "AA50-MOBILIZE-naval"
    assert not places(strict, "SZ 6") and places(strict, "SZ 7")
    strict.apply({"type": "place", "units": "1 destroyer", "space": "SZ 7"})  # a submarine and a transport
