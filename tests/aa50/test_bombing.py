"""Anniversary strategic bombing and rockets: damage points on the industrial complex (never IPCs out of the
treasury), capped at twice the territory's value, lowering production until repaired in the purchase phase;
Increased Factory Production."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from aare.action_text import format_event, parse_action_text
from aare.cli.main import cli
from aare.dice import ScriptedDice
from aare.economy.capture import capture_territory_events
from aare.economy.complex_damage import complex_damage, complex_stack
from aare.economy.damage import bombing_damage_events
from aare.economy.production import producers
from aare.engine import Game
from aare.errors import IllegalAction
from aare.events import BankChanged, UnitDamaged, apply_events
from aare.game_log import GameLog, save_log
from aare.player_view import player_view, summary_view
from aare.scenario import scenario
from aare.web.table_view import space_info
from aare.web.templating import templates

UK_TO_GERMANY = ["United Kingdom", "SZ 6", "Northwestern Europe", "Germany"]


def damaged(game: Game, damage: Mapping[str, int], dice: Iterable[int] | None = None) -> Game:
    """`game`'s position with damage points already on the named complexes."""
    state = game.state
    for territory, points in damage.items():
        stack = complex_stack(state, game.ruleset, territory)
        assert stack is not None
        state = apply_events(state, [UnitDamaged(territory, stack, points, "test")])
    return Game(GameLog(state), ScriptedDice(dice) if dice is not None else None)


def raid(bombers: int = 1, path: list[str] | None = None, dice: Iterable[int] | None = None,
         power: str = "United Kingdom", **kw: Any) -> Game:
    """`power`'s `bombers` (the one it has at the start of `path` included) fly a raid along `path` (by default
    the United Kingdom's on Germany) and fight it."""
    path = path or UK_TO_GERMANY
    units = {path[0]: f"{power}: {bombers - 1} bomber"} if bombers > 1 else {}
    game = scenario("aa50-1942", nation=power, phase="combat-move", units=units, dice=dice, **kw)
    game.apply({"type": "move", "units": f"{bombers} bomber", "path": path, "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": path[-1]})
    return game


def rolled(game: Game) -> list[str]:
    """The dice events of the last action, as text."""
    return [format_event(e.to_json()) for e in game.log.entries[-1].events if e.type == "dice_rolled"]


@pytest.mark.rule("AA50-SBR-declare", "AA50-SBR-no-escorts-interceptors", "AA50-SBR-damage")
def test_a_raid_rolls_no_combat_dice_and_fighters_neither_escort_nor_intercept() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="combat-move",
                    units={"United Kingdom": "United Kingdom: 1 fighter"}, dice=[4, 3])
    with pytest.raises(IllegalAction, match="only bombers"):
        game.apply({"type": "move", "units": "1 fighter", "path": UK_TO_GERMANY, "raid": True})
    with pytest.raises(IllegalAction, match="no enemy industrial complex to bomb"):
        game.apply({"type": "move", "units": "1 bomber", "path": UK_TO_GERMANY[:-1], "raid": True})
    germans = {s.unit: s.count for s in game.state.stacks("Germany")}
    assert germans["fighter"] == 1  # a German fighter stands by in Germany
    game.apply({"type": "move", "units": "1 bomber", "path": UK_TO_GERMANY, "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Germany"})
    # AA fire at the one bomber, then its damage die: no combat roll, no roll by the German fighter
    assert rolled(game) == ["dice (bombing battle in Germany: aa fire: Germany 1 bomber at 1, 0 hits): 4",
                            "dice (bombing battle in Germany: bombing damage: United Kingdom 1 bomber, damage 3): 3"]
    assert {s.unit: s.count for s in game.state.stacks("Germany") if s.owner == "Germany"} == germans
    assert complex_damage(game.state, game.ruleset, "Germany") == 3
    assert game.state.pending is None and game.legal_actions()[0].type == "end_phase"


@pytest.mark.rule("AA50-SBR-aa-first")
def test_aa_fires_one_die_at_each_raiding_bomber_before_it_bombs() -> None:
    game = raid(2, dice=[1, 4, 5])
    assert rolled(game)[0].endswith("2 bomber at 1, 1 hit): 1 4")
    assert sum(s.count for s in game.state.stacks("Germany") if s.unit == "bomber" and s.owner != "Germany") == 1
    assert complex_damage(game.state, game.ruleset, "Germany") == 5


@pytest.mark.rule("AA50-SBR-damage", "AA50-ECON-no-negative")
def test_damage_goes_on_the_complex_and_never_touches_the_treasury() -> None:
    for bank in (24, 0):
        game = scenario("aa50-1942", nation="United Kingdom", phase="conduct-combat", banks={"Soviet Union": bank})
        state = apply_events(game.state, bombing_damage_events(game.state, game.ruleset, "Russia", 5, "raid"))
        assert complex_damage(state, game.ruleset, "Russia") == 5
        assert state.banks == game.state.banks and state.banks["Soviet Union"] == bank
    broke = scenario("aa50-1942", nation="United Kingdom", phase="conduct-combat", banks={"Italy": 0})
    taken = capture_territory_events(broke.state, broke.ruleset, "Italy", "United Kingdom")
    assert not [e for e in taken if isinstance(e, BankChanged)]  # a capital with nothing in the treasury
    assert apply_events(broke.state, taken).banks == broke.state.banks
    game = raid(2, dice=[3, 4, 5, 6])
    assert complex_damage(game.state, game.ruleset, "Germany") == 11
    assert game.state.banks["Germany"] == 37
    [event] = [e for e in game.log.entries[-1].events if isinstance(e, UnitDamaged)]
    assert (event.points, event.rule_id) == (11, "AA50-SBR-damage")


@pytest.mark.rule("AA50-SBR-damage", "AA50-RESEARCH-heavy-bombers", "AA50-SBR-damage-cap")
def test_heavy_bombers_roll_two_dice_and_add_them_up_within_the_cap() -> None:
    game = raid(1, dice=[4, 2, 4], techs={"United Kingdom": ["heavy_bombers"]})
    assert rolled(game)[1].endswith("damage 6): 2 4")
    assert complex_damage(game.state, game.ruleset, "Germany") == 6
    path = ["Germany", "Poland", "Baltic States", "Karelia S.S.R."]
    game = raid(1, path, dice=[4, 2, 4], power="Germany", techs={"Germany": ["heavy_bombers"]})
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 4  # Karelia is worth 2: at most 4


@pytest.mark.rule("AA50-SBR-damage-cap")
def test_the_damage_standing_on_a_complex_never_exceeds_twice_its_value() -> None:
    game = damaged(scenario("aa50-1942", nation="Germany", phase="conduct-combat"), {"Karelia S.S.R.": 3})
    state = apply_events(game.state, bombing_damage_events(game.state, game.ruleset, "Karelia S.S.R.", 4, "raid"))
    assert complex_damage(state, game.ruleset, "Karelia S.S.R.") == 4  # only 1 of the 4 goes on
    assert bombing_damage_events(state, game.ruleset, "Karelia S.S.R.", 6, "raid") == []
    # a raid on a complex at its cap rolls but does nothing; the next turn does not reset the cap
    full = damaged(scenario("aa50-1942", nation="United Kingdom", phase="combat-move", dice=[6, 6]),
                   {"Germany": 20}, [6, 6])
    full.apply({"type": "move", "units": "1 bomber", "path": UK_TO_GERMANY, "raid": True})
    full.apply({"type": "end_phase"})
    full.apply({"type": "fight", "space": "Germany"})
    assert complex_damage(full.state, full.ruleset, "Germany") == 20


@pytest.mark.rule("AA50-SBR-damage-cap", "AA50-RESEARCH-rockets")
def test_rockets_and_raids_share_the_cap() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="combat-move", techs={"Germany": ["rockets"]},
                    dice=[3, 5, 4])
    game.apply({"type": "move", "units": "1 bomber", "path": ["Germany", "Poland", "Baltic States", "Karelia S.S.R."],
                "raid": True})
    game.apply({"type": "end_phase"})
    game.apply({"type": "rocket", "launcher": "Germany", "target": "Karelia S.S.R."})
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 3
    game.apply({"type": "fight", "space": "Karelia S.S.R."})  # AA misses; the bomber rolls 4
    assert rolled(game)[1].endswith("damage 4): 4")
    [event] = [e for e in game.log.entries[-1].events if isinstance(e, UnitDamaged)]
    assert event.points == 1  # Karelia is worth 2: one more point reaches the cap of 4
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 4


@pytest.mark.rule("AA50-RESEARCH-rockets", "AA50-ECON-no-negative")
def test_a_rocket_within_three_spaces_puts_its_die_on_the_complex() -> None:
    game = scenario("aa50-1942", nation="Germany", phase="conduct-combat", techs={"Germany": ["rockets"]},
                    units={"Germany": "Germany: 1 aa gun"}, dice=[4, 2])
    with pytest.raises(IllegalAction, match="no rocket target") as refused:
        game.apply({"type": "rocket", "launcher": "Germany", "target": "Russia"})  # 4 spaces away
    assert refused.value.rule_id == "LHTR-TECH-rockets-target"
    bank = game.state.banks["United Kingdom"]
    game.apply({"type": "rocket", "launcher": "Germany", "target": "United Kingdom"})
    assert complex_damage(game.state, game.ruleset, "United Kingdom") == 4
    assert game.state.banks["United Kingdom"] == bank
    [event] = [e for e in game.log.entries[-1].events if isinstance(e, UnitDamaged)]
    assert event.rule_id == "AA50-RESEARCH-rockets"
    # two AA guns in Germany: still one rocket from there; France's may not strike the same complex again
    with pytest.raises(IllegalAction, match="one launch per territory"):
        game.apply({"type": "rocket", "launcher": "Germany", "target": "Karelia S.S.R."})
    with pytest.raises(IllegalAction, match="one rocket a turn"):
        game.apply({"type": "rocket", "launcher": "France", "target": "United Kingdom"})
    game.apply({"type": "rocket", "launcher": "France", "target": "Karelia S.S.R."})
    assert complex_damage(game.state, game.ruleset, "Karelia S.S.R.") == 2


@pytest.mark.rule("AA50-SBR-reduces-production")
def test_a_damaged_complex_mobilizes_its_value_less_its_damage() -> None:
    base = scenario("aa50-1942", nation="Germany", phase="mobilize", extra={"purchased": {"Germany": {"infantry": 5}}})
    game = damaged(base, {"Germany": 6})
    assert producers(game.state, game.ruleset, "Germany")["Germany"] == 4
    game.apply({"type": "place", "units": "4 infantry", "space": "Germany"})
    with pytest.raises(IllegalAction, match="cannot take 1 more"):
        game.apply({"type": "place", "units": "1 infantry", "space": "Germany"})
    game = damaged(base, {"Germany": 12})
    assert producers(game.state, game.ruleset, "Germany")["Germany"] == 0
    assert not [a for a in game.legal_actions() if a.type == "place" and a.space == "Germany"]
    with pytest.raises(IllegalAction):
        game.apply({"type": "place", "units": "1 infantry", "space": "Germany"})


@pytest.mark.rule("AA50-SBR-bombers-return")
def test_raiding_bombers_fly_home_in_noncombat_move() -> None:
    game = raid(1, dice=[4, 3])
    game.apply({"type": "end_phase"})
    assert game.state.phase == "non-combat-move"
    home = list(reversed(UK_TO_GERMANY))
    game.apply({"type": "move", "units": "1 bomber", "path": home})
    assert [s.count for s in game.state.stacks("United Kingdom") if s.unit == "bomber" and s.owner != "United States"
            ] == [1]
    assert not [s for s in game.state.stacks("Germany") if s.owner == "United Kingdom"]
    stays = raid(1, dice=[4, 3])
    stays.apply({"type": "end_phase"})
    stays.apply({"type": "end_phase"})  # a raider left over the target has nowhere to land
    lost = [e for e in stays.log.entries[-1].events if e.type == "units_removed" and e.stack.unit == "bomber"]
    assert [(e.space, e.rule_id) for e in lost] == [("Germany", "LHTR-AIRMOVE-unlanded-destroyed")]


# ---------------------------------------------------------------- repair


def uk_purchase(damage: int, bank: int, techs: tuple[str, ...] = ()) -> Game:
    game = scenario("aa50-1942", nation="United Kingdom", phase="purchase", banks={"United Kingdom": bank},
                    techs={"United Kingdom": techs})
    return damaged(game, {"United Kingdom": damage}) if damage else game


@pytest.mark.rule("AA50-PURCHASE-repair-damage")
def test_repairs_cost_one_ipc_a_point_and_may_be_partial() -> None:
    game = uk_purchase(5, 31)
    offered = [a for a in game.legal_actions() if a.type == "repair"]
    assert [(a.space, a.points) for a in offered] == [("United Kingdom", 1), ("United Kingdom", 5)]
    game.apply({"type": "repair", "space": "United Kingdom", "points": 3})
    assert complex_damage(game.state, game.ruleset, "United Kingdom") == 2
    assert game.state.banks["United Kingdom"] == 28
    game.apply(parse_action_text("repair 2 in United Kingdom", game.ruleset))
    assert complex_damage(game.state, game.ruleset, "United Kingdom") == 0
    assert game.state.banks["United Kingdom"] == 26
    game.apply({"type": "purchase", "units": "2 infantry"})  # repairs and purchases in one phase
    assert game.state.banks["United Kingdom"] == 20


@pytest.mark.rule("AA50-PURCHASE-repair-damage")
def test_a_repair_beyond_the_budget_or_the_damage_is_refused() -> None:
    game = uk_purchase(5, 2)
    assert [(a.space, a.points) for a in game.legal_actions() if a.type == "repair"] == [
        ("United Kingdom", 1), ("United Kingdom", 2)]
    before = game.state
    with pytest.raises(IllegalAction, match="costs 3 IPCs; United Kingdom has 2") as refused:
        game.apply({"type": "repair", "space": "United Kingdom", "points": 3})
    assert refused.value.rule_id == "AA50-PURCHASE-repair-damage" and game.state == before
    with pytest.raises(IllegalAction, match="has 5 damage"):
        game.apply({"type": "repair", "space": "United Kingdom", "points": 6})
    with pytest.raises(IllegalAction, match="no damaged industrial complex in Eastern United States"):
        game.apply({"type": "repair", "space": "Eastern United States", "points": 1})
    undamaged = uk_purchase(0, 31)
    assert not [a for a in undamaged.legal_actions() if a.type == "repair"]
    with pytest.raises(IllegalAction, match="no damaged industrial complex in United Kingdom"):
        undamaged.apply({"type": "repair", "space": "United Kingdom", "points": 1})
    mobilize = damaged(scenario("aa50-1942", nation="United Kingdom", phase="mobilize"), {"United Kingdom": 2})
    with pytest.raises(IllegalAction, match="not an action of the mobilize phase"):
        mobilize.apply({"type": "repair", "space": "United Kingdom", "points": 1})


@pytest.mark.rule("AA50-PURCHASE-repair-damage", "AA50-RESEARCH-increased-factory-production")
def test_increased_factory_production_halves_repairs() -> None:
    game = uk_purchase(5, 2, ("increased_factory_production",))
    assert [(a.space, a.points) for a in game.legal_actions() if a.type == "repair"] == [
        ("United Kingdom", 1), ("United Kingdom", 4)]
    game.apply({"type": "repair", "space": "United Kingdom", "points": 3})  # an odd point costs a whole IPC
    assert game.state.banks["United Kingdom"] == 0
    assert complex_damage(game.state, game.ruleset, "United Kingdom") == 2


@pytest.mark.rule("AA50-RESEARCH-increased-factory-production")
def test_increased_factory_production_adds_two_units_where_the_territory_is_worth_three() -> None:
    india = {"India": "United Kingdom: 1 factory"}
    plain = scenario("aa50-1942", nation="United Kingdom", phase="mobilize", units=india)
    assert producers(plain.state, plain.ruleset, "United Kingdom")["India"] == 3
    tech = {"United Kingdom": ["increased_factory_production"], "Germany": ["increased_factory_production"],
            "Soviet Union": ["increased_factory_production"]}
    for power, territory, limit in (("Germany", "Germany", 12), ("United Kingdom", "India", 5),
                                    ("Soviet Union", "Karelia S.S.R.", 2)):
        game = scenario("aa50-1942", nation=power, phase="mobilize", units=india, techs=tech)
        assert producers(game.state, game.ruleset, power)[territory] == limit
    game = damaged(scenario("aa50-1942", nation="Germany", phase="mobilize", techs=tech,
                            extra={"purchased": {"Germany": {"infantry": 9}}}), {"Germany": 3})
    assert producers(game.state, game.ruleset, "Germany")["Germany"] == 9  # 10 - 3 + 2
    game.apply({"type": "place", "units": "9 infantry", "space": "Germany"})
    assert producers(damaged(game, {"Germany": 17}).state, game.ruleset, "Germany")["Germany"] == 0


# ---------------------------------------------------------------- what players see


@pytest.mark.rule("AA50-SBR-damage")
def test_complex_damage_shows_in_the_summary_the_state_and_the_log() -> None:
    game = raid(1, dice=[4, 5])
    summary = summary_view(game.state, frozenset())
    assert summary["spaces"]["Germany"]["complex_damage"] == {"damage": 5, "cap": 20}
    assert "complex_damage" not in summary["spaces"]["United Kingdom"]
    seen = player_view(game.state, frozenset({"Japan"}))
    assert {"owner": "Germany", "unit": "factory", "count": 1, "damage": 5} in seen["units"]["Germany"]
    lines = [format_event(e.to_json()) for e in game.log.entries[-1].events]
    assert "factory (Germany) in Germany: +5 damage, now 5" in lines
    assert game.log.replay().hash() == game.state.hash()


@pytest.mark.rule("AA50-SBR-damage")
def test_the_tables_space_panel_shows_the_damage_on_the_complex() -> None:
    game = raid(1, dice=[4, 5])
    info = space_info(game.state, game.ruleset, "Germany")
    assert info is not None and info["complex_damage"] == {"damage": 5, "cap": 20}
    html = templates.env.get_template("_space.html").render(space=info)
    assert "Industrial complex damage: <strong>5</strong>" in html and "at most 20" in html
    quiet = space_info(game.state, game.ruleset, "United Kingdom")
    assert quiet is not None and quiet["complex_damage"] is None
    assert "complex damage" not in templates.env.get_template("_space.html").render(space=quiet)


@pytest.mark.rule("AA50-SBR-damage")
def test_aare_show_prints_the_damage_on_the_complex(tmp_path: Path) -> None:
    path = tmp_path / "raid.json"
    game = next(g for g in (raid(seed=seed) for seed in range(1, 20)) if complex_damage(g.state, g.ruleset, "Germany"))
    save_log(game.log, path)  # seeded dice: a game file checks every roll against them
    damage = complex_damage(game.state, game.ruleset, "Germany")
    out = CliRunner().invoke(cli, ["show", str(path), "--json"]).stdout
    assert json.loads(out)["spaces"]["Germany"]["complex_damage"] == {"damage": damage, "cap": 20}
    text = CliRunner().invoke(cli, ["show", str(path)], env={"COLUMNS": "200"}).stdout
    assert f"complex damage {damage} of at most 20" in text


@pytest.mark.rule("AA50-RESEARCH-rockets", "AA50-NEUTRAL-impassable")
def test_rockets_never_fly_through_neutrals() -> None:
    game = scenario("aa50-1942", nation="Japan", phase="conduct-combat", techs={"Japan": ["rockets"]},
                    units={"Manchuria": "Japan: 1 aa gun"}, owners={"Manchuria": "Japan"}, dice=[5])
    assert game.ruleset.board.spaces["Mongolia"].neutral  # Manchuria - Mongolia - Novosibirsk - Russia
    assert not [a for a in game.legal_actions() if a.type == "rocket" and a.launcher == "Manchuria"]
    with pytest.raises(IllegalAction, match="no rocket target"):
        game.apply({"type": "rocket", "launcher": "Manchuria", "target": "Russia"})


@pytest.mark.rule("AA50-SBR-declare")
def test_raiding_bombers_take_no_part_in_a_battle_in_the_same_territory() -> None:
    game = scenario("aa50-1942", nation="United Kingdom", phase="combat-move", clear=["Northwestern Europe"],
                    units={"Northwestern Europe": "United Kingdom: 2 armour"},
                    owners={"Northwestern Europe": "United Kingdom"}, dice=[4, 3, 6, 6] + [1] * 9)
    game.apply({"type": "move", "units": "1 bomber", "path": UK_TO_GERMANY, "raid": True})
    game.apply({"type": "move", "units": "2 armour", "path": ["Northwestern Europe", "Germany"]})
    game.apply({"type": "end_phase"})
    game.apply({"type": "fight", "space": "Germany"})  # the raid comes first
    assert complex_damage(game.state, game.ruleset, "Germany") == 3
    game.apply({"type": "fight", "space": "Germany"})
    assert rolled(game)[0] == "dice (land battle in Germany: attacker fire: United Kingdom 2 armour at 3, 0 hits): 6 6"
    assert not [r for r in rolled(game) if "bomber at 1" in r and "United Kingdom" in r]
    british = [(s.unit, s.count) for s in game.state.stacks("Germany") if s.owner == "United Kingdom"]
    assert british == [("bomber", 1)]  # every armour lost; the raider untouched


@pytest.mark.parametrize("rules", ["aa50-1941", "aa50-1942"])
@pytest.mark.rule("AA50-SBR-damage", "AA50-SBR-damage-cap", "AA50-SBR-reduces-production", "AA50-ECON-no-negative")
def test_both_scenarios_damage_complexes(rules: str) -> None:
    game = scenario(rules, nation="United Kingdom", phase="conduct-combat")
    state = apply_events(game.state, bombing_damage_events(game.state, game.ruleset, "Germany", 25, "raid"))
    assert complex_damage(state, game.ruleset, "Germany") == 20 and state.banks == game.state.banks
    assert producers(replace(state, nation="Germany"), game.ruleset, "Germany")["Germany"] == 0
