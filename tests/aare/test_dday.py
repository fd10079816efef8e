"""AARe D-Day: declared at the start of a UK turn, fought on the US turn by US units and the UK units the UK did
not use, the one joint attack of the game, in Western Europe (AARE-DDAY-*)."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import pytest

from aare.action_text import format_action, parse_action_text
from aare.combat.board_battle import build_battle
from aare.combat.values import main_fire_groups
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.movement.battles import pending_battles
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario
from aare.state.unit_stacks import Stack, count_units
from tests.aare.common import GER, JPN, RULES, UK, US
from tests.movement.helpers import end, load, move, mv, rejected

WEUR, SZ7 = "Western Europe", "SZ 7"
NO_NA = {"national_advantages": False}
DECLARED = {"d_day": {"status": "declared", "round": 3, "start_closed": 3, "sz7_clear": None}}
UK_CARGO = "cargo=United Kingdom:infantry,United Kingdom:infantry"
UK_TANK_CARGO = "cargo=United Kingdom:armour,United Kingdom:infantry"
US_CARGO = "cargo=United States:armour,United States:infantry"


def uk(unit: str, n: int = 1, *marks: str, moved: int = 0) -> Stack:
    """Eligible (flagged) UK units."""
    return Stack(UK, unit, n, moved=moved, flags=tuple(sorted(("d-day", *marks))))


def build(nation: str, phase: str, placed: Mapping[str, str], stacks: Iterable[tuple[str, Stack]] = (),
          owners: Mapping[str, str] | None = None, extra: Mapping[str, Any] | None = None,
          dice: list[int] | None = None, techs: Mapping[str, Iterable[str]] | None = None, **options: Any) -> Game:
    game = scenario(RULES, nation=nation, phase=phase, round=3, clear=True, units=placed, owners=owners,
                    extra=extra, dice=dice, techs=techs, options={**NO_NA, **options})
    state = game.state
    for space, stack in stacks:
        state = state.with_stacks(space, (*state.stacks(space), stack))
    return Game(GameLog(state), game.dice)


def uk_start(placed: Mapping[str, str], **kwargs: Any) -> Game:
    """The start of UK3."""
    return build(UK, "develop-weapons", {WEUR: "Germany: 2 infantry", **placed}, **kwargs)


def through(game: Game, nation: str, phase: str) -> Game:
    while (game.state.nation, game.state.phase) != (nation, phase):
        game.apply({"type": "end_phase"})
    return game


def us_turn(placed: Mapping[str, str], stacks: Iterable[tuple[str, Stack]] = (), **kwargs: Any) -> Game:
    """US3's combat move after D-Day was declared at the start of UK3 (`stacks`: flagged UK units)."""
    game = build(JPN, "collect-income", {WEUR: "Germany: 2 infantry", **placed}, stacks,
                 extra={**DECLARED, **kwargs.pop("extra", {})}, **kwargs)
    return through(game, US, "combat-move")


def status(game: Game) -> str:
    return str(game.state.extra["d_day"]["status"])


def weur_site(game: Game) -> Any:
    return next(s for s in pending_battles(game.state, game.ruleset) if s.space == WEUR)


def owners_of(stacks: Iterable[Stack]) -> set[str]:
    return {s.owner for s in stacks}


@pytest.mark.rule("AARE-DDAY-declare-at-uk-turn-start")
def test_d_day_is_declared_at_the_very_start_of_a_uk_turn() -> None:
    game = uk_start({"United Kingdom": "United Kingdom: 2 infantry"})
    assert {"type": "declare_d_day"} in [a.to_json() for a in game.legal_actions()]
    game.apply({"type": "declare_d_day"})
    assert game.state.extra["d_day"]["status"] == "declared" and game.state.extra["d_day"]["round"] == 3
    late = uk_start({}, dice=[6, 6, 6, 6])
    late.apply({"type": "research", "dice": 4, "tech": "super_submarines"})  # something else first
    rejected(late, {"type": "declare_d_day"}, "AARE-DDAY-declare-at-uk-turn-start")
    purchase = through(uk_start({}), UK, "purchase")
    rejected(purchase, {"type": "declare_d_day"}, "AARE-DDAY-declare-at-uk-turn-start")
    us = build(US, "develop-weapons", {})
    rejected(us, {"type": "declare_d_day"}, "AARE-DDAY-declare-at-uk-turn-start")


@pytest.mark.rule("AARE-DDAY-once-per-game")
def test_d_day_is_declared_once_a_game() -> None:
    game = uk_start({})
    game.apply({"type": "declare_d_day"})
    rejected(game, {"type": "declare_d_day"}, "AARE-DDAY-once-per-game")
    done = uk_start({}, extra={"d_day": {"status": "done", "round": 3, "start_closed": 3, "sz7_clear": True}})
    rejected(done, {"type": "declare_d_day"}, "AARE-DDAY-once-per-game")


@pytest.mark.rule("AARE-DDAY-uk-turn-normal")
@pytest.mark.rule("AARE-DDAY-uk-used-units-excluded")
@pytest.mark.rule("AARE-DDAY-uk-new-units-excluded")
def test_the_uk_plays_its_turn_and_what_it_uses_or_buys_stays_out() -> None:
    game = uk_start({"United Kingdom": "United Kingdom: 2 fighters, 2 infantry, 1 factory",
                     "Norway": "Germany: 1 infantry"}, dice=[1, 6])
    game.apply({"type": "declare_d_day"})
    through(game, UK, "purchase")
    game.apply({"type": "purchase", "units": "2 infantry"})
    through(game, UK, "combat-move")
    move(game, "1 fighter", "United Kingdom", "SZ 6", "Norway")  # an attack with units not kept for D-Day
    through(game, UK, "conduct-combat")
    game.apply({"type": "fight", "space": "Norway"})
    through(game, UK, "non-combat-move")
    move(game, "1 fighter", "Norway", "SZ 6", "United Kingdom")
    through(game, UK, "mobilize")
    game.apply({"type": "place", "units": "2 infantry", "space": "United Kingdom"})
    new = [s for s in game.state.stacks("United Kingdom") if s.unit == "infantry" and "d-day" not in s.flags]
    assert count_units(new) == {"infantry": 2}
    through(game, UK, "collect-income")
    fighters = [s for sp in ("Norway", "United Kingdom") for s in game.state.stacks(sp) if s.unit == "fighter"]
    assert sorted("d-day" in s.flags for s in fighters) == [False, True]  # the one that attacked lost it
    infantry = [s for s in game.state.stacks("United Kingdom") if s.unit == "infantry"]
    assert sorted((s.count, "d-day" in s.flags) for s in infantry) == [(2, False), (2, True)]


@pytest.mark.rule("AARE-DDAY-resolved-on-us-turn")
@pytest.mark.rule("AARE-DDAY-us-moves-uk-units")
def test_the_us_player_moves_the_uk_units_into_one_joint_battle() -> None:
    game = uk_start({"United Kingdom": "United Kingdom: 2 infantry, 1 fighter", SZ7: "United Kingdom: 1 transport"},
                    stacks=[("SZ 8", Stack(US, "transport", 1, flags=(US_CARGO,)))])
    game.apply({"type": "declare_d_day"})
    through(game, JPN, "collect-income")
    assert status(game) == "declared" and count_units(game.state.stacks(WEUR)) == {"infantry": 2}
    through(game, US, "combat-move")
    load(game, "2 infantry", "United Kingdom", SZ7)  # UK infantry onto the UK transport
    move(game, "1 transport, 1 armour, 1 infantry", "SZ 8", SZ7)
    move(game, "2 infantry", SZ7, WEUR)
    move(game, "1 armour, 1 infantry", SZ7, WEUR)
    move(game, "1 fighter", "United Kingdom", SZ7, WEUR)
    site = weur_site(game)
    assert site.kind == "amphibious" and owners_of(site.attackers) == {UK, US}
    end(game)
    game.apply({"type": "fight", "space": WEUR})  # the engine accepts the joint attack
    assert game.state.pending is not None or status(game) == "done"


@pytest.mark.rule("AARE-DDAY-target-weur")
def test_d_day_targets_western_europe_only() -> None:
    game = us_turn({"Norway": "Germany: 1 infantry"},
                   [("United Kingdom", uk("fighter")), ("SZ 6", uk("transport", 1, UK_CARGO))])
    rejected(game, mv("1 fighter", "United Kingdom", "SZ 6", "Norway"), "AARE-DDAY-target-weur")
    rejected(game, mv("1 transport, 2 infantry", "SZ 6", "SZ 3"), "AARE-DDAY-amphib-from-sz7")
    move(game, "1 fighter", "United Kingdom", SZ7, WEUR)


@pytest.mark.rule("AARE-DDAY-amphib-from-sz7")
def test_the_assault_comes_from_sz7() -> None:
    cargo = ("cargo=United States:infantry,United States:infantry",)
    game = us_turn({}, stacks=[("SZ 6", Stack(US, "transport", 1, flags=cargo)),
                               (SZ7, Stack(US, "transport", 1, flags=cargo))])
    rejected(game, mv("2 infantry", "SZ 6", WEUR), "AARE-DDAY-amphib-from-sz7")
    move(game, "2 infantry", SZ7, WEUR)
    assert count_units(game.state.stacks(WEUR), US) == {"infantry": 2}
    spent = build(US, "combat-move", {"United Kingdom": "United States: 1 infantry", WEUR: "Germany: 1 infantry"},
                  [("SZ 6", Stack(US, "transport", 1, moved=2, flags=("turn:combat",)))], owners={"Norway": UK},
                  extra=DECLARED)
    rejected(spent, {"type": "load", "units": "1 infantry", "territory": "United Kingdom", "sea_zone": "SZ 6"},
             "AARE-DDAY-amphib-from-sz7")  # from SZ 6 they could only land in Western Europe


@pytest.mark.rule("AARE-DDAY-overland-exception")
def test_land_units_in_germany_or_southern_europe_attack_overland() -> None:
    game = us_turn({"Southern Europe": "United States: 1 armour", "Balkans": "United States: 1 armour"},
                   owners={"Southern Europe": US, "Balkans": US})
    move(game, "1 armour", "Southern Europe", WEUR)
    rejected(game, mv("1 armour", "Balkans", "Southern Europe", WEUR), "AARE-DDAY-overland-exception")


@pytest.mark.rule("AARE-DDAY-air-any-origin")
def test_aircraft_join_from_anywhere_in_range() -> None:
    game = us_turn({"SZ 12": "United States: 1 carrier, 1 fighter", "Eastern Canada": "United States: 1 fighter"},
                   [("United Kingdom", uk("bomber"))])
    move(game, "1 bomber", "United Kingdom", SZ7, WEUR)
    move(game, "1 fighter", "SZ 12", SZ7, WEUR)
    with pytest.raises(IllegalAction):
        game.apply(mv("1 fighter", "Eastern Canada", "SZ 9", "SZ 8", SZ7, WEUR))  # 5 spaces, no long range aircraft


@pytest.mark.rule("AARE-DDAY-cross-transport")
def test_us_and_uk_transports_carry_each_others_troops() -> None:
    game = us_turn({"United Kingdom": "United States: 1 infantry"},
                   [("United Kingdom", uk("infantry")), (SZ7, Stack(US, "transport", 1))])
    load(game, "2 infantry", "United Kingdom", SZ7)  # one US and one UK infantry aboard the US transport
    [boat] = [s for s in game.state.stacks(SZ7) if s.unit == "transport"]
    assert "cargo=United Kingdom:infantry,United States:infantry" in boat.flags
    move(game, "2 infantry", SZ7, WEUR)
    assert owners_of(s for s in game.state.stacks(WEUR) if "turn:combat" in s.flags) == {UK, US}
    assert "d-day" in next(s for s in game.state.stacks(WEUR) if s.owner == UK).flags
    us_cargo = us_turn({"United Kingdom": "United States: 2 infantry"}, [(SZ7, uk("transport"))])
    load(us_cargo, "2 infantry", "United Kingdom", SZ7)  # US infantry aboard a UK transport
    move(us_cargo, "2 infantry", SZ7, WEUR)
    assert count_units(us_cargo.state.stacks(WEUR), US) == {"infantry": 2}


@pytest.mark.rule("AARE-DDAY-uk-units-weur-only")
def test_uk_units_fight_in_western_europe_only() -> None:
    game = us_turn({"SZ 5": "Germany: 1 submarine", "Southern Europe": "United States: 1 armour",
                    "Karelia S.S.R.": "Germany: 1 infantry", WEUR: "Germany: 1 factory"},
                   [("SZ 6", uk("destroyer")), ("Archangel", uk("infantry")), ("Southern Europe", uk("armour"))],
                   owners={"Southern Europe": US, "Karelia S.S.R.": GER})
    rejected(game, mv("1 destroyer", "SZ 6", "SZ 5"), "AARE-DDAY-amphib-from-sz7")
    rejected(game, mv("1 infantry", "Archangel", "Karelia S.S.R."), "AARE-DDAY-target-weur")
    far = us_turn({"New Guinea": "Japan: 1 infantry"}, [("Australia", uk("infantry")), ("SZ 40", uk("transport"))])
    rejected(far, {"type": "load", "units": "1 infantry", "territory": "Australia", "sea_zone": "SZ 40"},
             "AARE-DDAY-uk-units-weur-only")  # SZ 7 is out of reach
    move(game, "1 armour", "Southern Europe", WEUR)
    through(game, US, "conduct-combat")
    game.apply({"type": "fight", "space": WEUR})
    assert status(game) == "done"
    through(game, US, "non-combat-move")
    rejected(game, mv("1 infantry", "Archangel", "Russia"), "AARE-DDAY-uk-units-weur-only")
    rejected(game, mv("1 armour", "Southern Europe", WEUR), "AARE-DDAY-uk-units-weur-only")


@pytest.mark.rule("AARE-DDAY-uk-loaded-trn-sz7")
def test_loaded_uk_transports_take_part_in_the_sz7_sea_battle() -> None:
    game = us_turn({SZ7: "Germany: 1 submarine", "SZ 8": "United States: 1 destroyer"},
                   [(SZ7, uk("transport", 1, UK_CARGO)), (SZ7, uk("destroyer"))])
    move(game, "1 destroyer", "SZ 8", SZ7)
    move(game, "2 infantry", SZ7, WEUR)
    sea = next(s for s in pending_battles(game.state, game.ruleset) if s.space == SZ7)
    assert count_units(sea.attackers) == {"destroyer": 1, "transport": 1} and owners_of(sea.attackers) == {UK, US}
    assert [(s.owner, s.unit) for s in sea.allied] == [(UK, "destroyer")]  # no unloaded warship joins
    battle = build_battle(game.state, game.ruleset, sea)
    assert {k.owner for k, _ in battle.state.attacker} == {UK, US}


@pytest.mark.rule("AARE-DDAY-uk-bombard-if-sz7-empty")
def test_uk_warships_bombard_only_if_sz7_was_clear() -> None:
    cargo = ("cargo=United States:infantry,United States:infantry",)
    clear = us_turn({}, [(SZ7, uk("battleship")), (SZ7, Stack(US, "transport", 1, flags=cargo))])
    assert clear.state.extra["d_day"]["sz7_clear"] is True
    move(clear, "2 infantry", SZ7, WEUR)
    assert [(s.owner, s.unit) for _, s in weur_site(clear).bombard] == [(UK, "battleship")]
    blocked = us_turn({SZ7: "Germany: 1 submarine", "SZ 8": "United States: 1 destroyer"},
                      [(SZ7, uk("battleship")), ("SZ 8", Stack(US, "transport", 1, flags=cargo))])
    assert blocked.state.extra["d_day"]["sz7_clear"] is False
    assert "d-day" not in next(s for s in blocked.state.stacks(SZ7) if s.unit == "battleship").flags
    move(blocked, "1 destroyer", "SZ 8", SZ7)
    move(blocked, "1 transport, 2 infantry", "SZ 8", SZ7)
    move(blocked, "2 infantry", SZ7, WEUR)
    assert weur_site(blocked).bombard == ()


def _joint_casualties(**options: Any) -> Game:
    game = us_turn({SZ7: "United States: 1 transport", "United Kingdom": "United States: 1 infantry"},
                   [("United Kingdom", uk("infantry"))], dice=[6, 6, 1, 6], **options)
    load(game, "2 infantry", "United Kingdom", SZ7)
    move(game, "2 infantry", SZ7, WEUR)
    end(game)
    game.apply({"type": "fight", "space": WEUR})
    return game


@pytest.mark.rule("AARE-DDAY-casualty-agreement")
def test_the_allies_choose_their_casualties_or_the_defender_does() -> None:
    agreed = _joint_casualties()
    assert agreed.state.pending is not None and agreed.state.pending["power"] == US
    disputed = _joint_casualties(d_day_casualties="defender")
    assert disputed.state.pending is not None
    assert (disputed.state.pending["side"], disputed.state.pending["power"]) == ("attacker", GER)


@pytest.mark.rule("AARE-DDAY-aa-per-nation")
def test_aa_fire_is_rolled_per_nation() -> None:
    game = us_turn({WEUR: "Germany: 1 infantry, 1 aa_gun", "United Kingdom": "United States: 1 fighter"},
                   [("United Kingdom", uk("fighter", 2))], dice=[1, 6, 6, 6, 6, 6, 6, 6])
    move(game, "3 fighters", "United Kingdom", SZ7, WEUR)
    site = weur_site(game)
    assert count_units(site.attackers, UK) == {"fighter": 2} and count_units(site.attackers, US) == {"fighter": 1}
    end(game)
    game.apply({"type": "fight", "space": WEUR})
    aa = [e for e in game.log.entries[-1].events if e.type == "dice_rolled" and ": aa fire:" in e.purpose]
    assert sorted(len(e.values) for e in aa) == [1, 2]  # a UK batch and a US batch
    hit = next(e for e in aa if 1 in e.values)
    lost = [e for e in game.log.entries[-1].events if e.type == "units_removed" and e.stack.unit == "fighter"]
    assert len(lost) <= 1 and all(e.stack.owner == (UK if len(hit.values) == 2 else US) for e in lost)


@pytest.mark.rule("AARE-DDAY-bonuses-own-units")
def test_techs_and_advantages_stay_with_their_owner() -> None:
    marines = {"advantages": {"declared": {US: [{"id": "marines", "round": 1, "phase": "develop-weapons",
                                                "delayed": False}]}}}
    game = us_turn({SZ7: "United States: 1 transport", "United Kingdom": "United States: 1 infantry"},
                   [("United Kingdom", uk("infantry"))], extra=marines, national_advantages=True,
                   techs={UK: ["heavy_bombers"]})
    load(game, "2 infantry", "United Kingdom", SZ7)
    move(game, "2 infantry", SZ7, WEUR)
    battle = build_battle(game.state, game.ruleset, weur_site(game))
    assert "heavy_bombers" in battle.setup.owner_techs[UK] and "heavy_bombers" not in battle.setup.owner_techs[US]
    values = sorted((g.hit_on, g.count) for g in main_fire_groups(battle, "attacker") if g.unit == "infantry")
    assert values == [(1, 1), (2, 1)]  # the US marine attacks at 2 in the first cycle, the UK infantry at 1


@pytest.mark.rule("AARE-DDAY-irrevocable")
def test_d_day_cannot_be_called_off_while_it_can_be_made() -> None:
    game = us_turn({SZ7: "United States: 1 transport", "United Kingdom": "United States: 1 infantry"})
    rejected(game, {"type": "end_phase"}, "AARE-DDAY-irrevocable")
    load(game, "1 infantry", "United Kingdom", SZ7)
    move(game, "1 infantry", SZ7, WEUR)
    end(game)
    assert game.state.phase == "conduct-combat"
    nothing = us_turn({"Eastern United States": "United States: 1 infantry"})  # nothing can reach Western Europe
    end(nothing)
    assert status(nothing) == "lapsed" and nothing.state.phase == "conduct-combat"


@pytest.mark.rule("AARE-DDAY-lost-if-allies-held-weur")
def test_no_d_day_once_the_allies_held_western_europe() -> None:
    game = build(US, "conduct-combat", {}, [(WEUR, Stack(US, "armour", 1, flags=("turn:combat", "turn:from=Germany")))])
    game.apply({"type": "fight", "space": WEUR})
    assert game.state.owners[WEUR] == US and status(game) == "lost"
    later = uk_start({}, owners={WEUR: GER}, extra={"d_day": dict(game.state.extra["d_day"])})
    rejected(later, {"type": "declare_d_day"}, "AARE-DDAY-lost-if-allies-held-weur")
    own = uk_start({"United Kingdom": "United Kingdom: 1 infantry"},
                   stacks=[(SZ7, Stack(UK, "transport", 1, flags=(UK_TANK_CARGO,)))],
                   dice=[1, 1, 6, 6])
    own.apply({"type": "declare_d_day"})
    through(own, UK, "combat-move")
    move(own, "1 armour, 1 infantry", SZ7, WEUR)  # the UK takes Western Europe itself on its declaration turn
    end(own)
    own.apply({"type": "fight", "space": WEUR})
    assert own.state.owners[WEUR] == UK and status(own) == "lost"
    assert not any("d-day" in s.flags for stacks in own.state.units.values() for s in stacks)


def test_d_day_text_notation() -> None:
    ruleset = load_ruleset(RULES)
    assert parse_action_text("declare d-day", ruleset) == {"type": "declare_d_day"}
    assert format_action({"type": "declare_d_day"}) == "declare D-Day"
