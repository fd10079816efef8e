"""Conduct combat on the board: battles set up by combat move are fought through the combat engine in the
attacker's order, decisions wait for their answers, and the outcome is written to the map."""

from __future__ import annotations

from typing import Any

import pytest

from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import AareError, IllegalAction
from aare.events import apply_events
from aare.game_log import GameLog
from aare.invariants import check_log, check_step
from aare.movement import flags
from aare.selfplay import play_game
from tests.movement.helpers import boat, end, move, position, rejected, turn_began_with, units_in


def with_dice(game: Game, *values: int) -> Game:
    return Game(game.log, ScriptedDice(list(values)))


def act(game: Game, action: dict[str, Any]) -> None:
    """Apply `action`, checking the invariants of the step."""
    before = game.state
    events = game.apply(action)
    assert check_step(before, events, game.state, game.ruleset) == []


def fight(game: Game, space: str) -> None:
    act(game, {"type": "fight", "space": space})


def to_combat(game: Game) -> Game:
    """End combat move; the game's dice go on."""
    end(game)
    assert game.state.phase == "conduct-combat"
    return game


def rolls(game: Game) -> list[tuple[int, ...]]:
    return [tuple(e.values) for entry in game.log.entries for e in entry.events if e.type == "dice_rolled"]


@pytest.mark.rule("LHTR-COMBAT-owner-chooses-casualties", "LHTR-COMBAT-capture",
                  "LHTR-COMBAT-attack-from-several-spaces")
def test_a_land_battle_waits_for_the_defender_to_choose_and_the_survivor_captures() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Russia: 2 infantry, 1 fighter", "Belorussia": "Germany: 2 infantry",
        "Eastern Europe": "Germany: 1 armour"})
    move(game, "2 infantry", "Belorussia", "Karelia S.S.R.")
    move(game, "1 armour", "Eastern Europe", "Belorussia", "Karelia S.S.R.")
    # attack: infantry 1, 5; armour 6 -> 1 hit; defence: infantry 6, 6; fighter 6 -> no hits
    game = with_dice(to_combat(game), 1, 5, 6, 6, 6, 6, 1, 1, 1, 6, 6, 6)
    fight(game, "Karelia S.S.R.")
    pending = game.state.pending
    assert pending["kind"] == "choose_casualties" and pending["power"] == "Russia" and pending["hits"] == 1
    assert {a["units"] for a in pending["options"]} == {"1 infantry", "1 fighter"}
    rejected(game, {"type": "end_phase"}, "LHTR-COMBAT-owner-chooses-casualties")
    rejected(game, {"type": "choose_casualties", "units": "2 infantry"}, "LHTR-COMBAT-owner-chooses-casualties")
    act(game, {"type": "choose_casualties", "units": "1 fighter"})
    # press or retreat: Germany presses; the next cycle kills the two infantry
    assert game.state.pending["kind"] == "press_or_retreat"
    assert game.state.pending["destinations"] == ["Belorussia"]
    act(game, {"type": "press"})
    assert game.state.pending is None
    assert game.state.owners["Karelia S.S.R."] == "Germany"
    assert units_in(game, "Karelia S.S.R.") == {"infantry": 2, "armour": 1}
    assert all(flags.has(s, flags.COMBAT) for s in game.state.stacks("Karelia S.S.R."))
    end(game)
    assert game.state.phase == "non-combat-move"
    assert check_log(game.log) == []


@pytest.mark.rule("LHTR-COMBAT-attacker-retreat", "LHTR-COMBAT-retreat-destination")
def test_the_attacker_retreats_to_a_space_it_came_from() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Russia: 3 infantry", "Belorussia": "Germany: 1 infantry",
        "West Russia": "Germany: 1 infantry"}, owners={"West Russia": "Germany"})
    move(game, "1 infantry", "Belorussia", "Karelia S.S.R.")
    move(game, "1 infantry", "West Russia", "Karelia S.S.R.")
    game = with_dice(to_combat(game), 6, 6, 6, 6, 6)
    fight(game, "Karelia S.S.R.")
    assert game.state.pending["kind"] == "press_or_retreat"
    assert game.state.pending["destinations"] == ["Belorussia", "West Russia"]
    rejected(game, {"type": "retreat", "to": "Archangel"}, "LHTR-COMBAT-retreat-destination")
    act(game, {"type": "retreat", "to": "West Russia"})
    assert game.state.pending is None
    assert units_in(game, "West Russia", "Germany") == {"infantry": 2}
    assert game.state.owners["Karelia S.S.R."] == "Russia"


@pytest.mark.rule("LHTR-COMBAT-attacker-retreat")
def test_retreating_moves_the_land_units_back() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Russia: 3 infantry", "Belorussia": "Germany: 2 infantry"})
    move(game, "2 infantry", "Belorussia", "Karelia S.S.R.")
    game = with_dice(to_combat(game), 6, 6, 1, 6, 6)
    fight(game, "Karelia S.S.R.")
    act(game, {"type": "retreat", "to": "Belorussia"})
    assert units_in(game, "Belorussia", "Germany") == {"infantry": 1}
    assert units_in(game, "Karelia S.S.R.") == {"infantry": 3}
    assert game.state.owners["Karelia S.S.R."] == "Russia"
    end(game)


@pytest.mark.rule("LHTR-COMBAT-capture", "LHTR-NAVALCOMBAT-air-only-attack")
def test_aircraft_alone_never_capture() -> None:
    game = position("Germany", "combat-move",
                    {"Archangel": "Russia: 1 infantry", "Karelia S.S.R.": "Germany: 1 fighter"},
                    owners={"Karelia S.S.R.": "Germany"})
    move(game, "1 fighter", "Karelia S.S.R.", "Archangel")
    game = with_dice(to_combat(game), 1, 6)
    fight(game, "Archangel")
    assert units_in(game, "Archangel") == {"fighter": 1}
    assert game.state.owners["Archangel"] == "Russia"


@pytest.mark.rule("LHTR-TURN-all-dice-in-conduct-combat", "LHTR-AA-flyover", "LHTR-SBR-damage-roll",
                  "LHTR-SBR-bombers-land")
def test_a_bomber_overflying_aa_is_fired_on_at_the_start_of_conduct_combat_then_raids() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 1 bomber", "Western Europe": "Germany: 1 infantry, 1 aa gun",
        "Germany": "Germany: 1 industrial complex, 1 aa gun"})
    game = Game(game.log, ScriptedDice([2, 3, 5]))
    move(game, "1 bomber", "United Kingdom", "SZ 7", "Western Europe", "Germany", raid=True)
    assert rolls(game) == []  # no die in movement
    bank = game.state.banks["Germany"]
    end(game)  # flyover AA in Western Europe: 2 misses
    assert rolls(game) == [(2,)]
    fight(game, "Germany")  # AA in Germany: 3 misses; damage roll 5
    assert rolls(game) == [(2,), (3,), (5,)]
    assert game.state.banks["Germany"] == bank - 5
    assert units_in(game, "Germany", "United Kingdom") == {"bomber": 1}


@pytest.mark.rule("LHTR-AA-flyover", "LHTR-AA-rolled-per-aircraft")
def test_a_flyover_hit_removes_the_aircraft_before_its_battle() -> None:
    game = position("United Kingdom", "combat-move", {
        "United Kingdom": "United Kingdom: 2 bombers", "Western Europe": "Germany: 1 infantry, 1 aa gun",
        "Germany": "Germany: 1 industrial complex"})
    game = Game(game.log, ScriptedDice([1, 4, 6, 6]))
    move(game, "2 bombers", "United Kingdom", "SZ 7", "Western Europe", "Germany", raid=True)
    end(game)
    assert units_in(game, "Germany", "United Kingdom") == {"bomber": 1}
    [stack] = [s for s in game.state.stacks("Germany") if s.owner == "United Kingdom"]
    assert not flags.values(stack, flags.FLYOVER)


@pytest.mark.rule("LHTR-COMBAT-battle-order", "LHTR-TRANSPORT-amphibious-assault")
def test_the_sea_battle_comes_before_the_landing_and_a_surviving_sub_keeps_the_cargo_aboard() -> None:
    loaded = boat("United States", "United States:armour", "United States:infantry", count=2)
    game = position("United States", "combat-move", {
        "SZ 8": "United States: 1 destroyer", "SZ 7": "Germany: 1 submarine",
        "Western Europe": "Germany: 2 infantry"}, stacks=[("SZ 8", loaded)])
    move(game, "1 destroyer, 2 transports, 2 infantry, 2 armour", "SZ 8", "SZ 7")
    move(game, "2 infantry, 2 armour", "SZ 7", "Western Europe")
    game = with_dice(to_combat(game), 6, 6, 6, 6)
    rejected(game, {"type": "fight", "space": "Western Europe"}, "LHTR-COMBAT-battle-order")
    fight(game, "SZ 7")  # sub first strike 6; destroyer 6, transports do not roll; sub defends... 6: no hits
    decision = game.state.pending
    assert decision is not None and decision["kind"] in ("press_or_retreat", "submerge")
    while game.state.pending is not None and game.state.pending["kind"] != "press_or_retreat":
        act(game, game.state.pending["options"][0])
    act(game, {"type": "retreat", "to": "SZ 8"})
    # the landing is called off: the units are back aboard the transports, which went back to SZ 8
    assert units_in(game, "Western Europe", "United States") == {}
    [boats] = [s for s in game.state.stacks("SZ 8") if s.unit == "transport"]
    assert boats.count == 2 and flags.cargo(boats) == (("United States", "armour"), ("United States", "infantry"))
    end(game)


@pytest.mark.rule("LHTR-TRANSPORT-sea-battle-lost", "LHTR-NAVALCOMBAT-transports-in-battle")
def test_a_sunk_transport_takes_the_units_it_was_landing_with_it() -> None:
    loaded = boat("United States", "United States:infantry")
    game = position("United States", "combat-move", {
        "SZ 8": "United States: 1 destroyer", "SZ 7": "Germany: 1 destroyer",
        "Western Europe": "Germany: 1 infantry"}, stacks=[("SZ 8", loaded)])
    move(game, "1 destroyer, 1 transport, 1 infantry", "SZ 8", "SZ 7")
    move(game, "1 infantry", "SZ 7", "Western Europe")
    # US destroyer hits (1); German destroyer hits (1): the US loses a unit of its choice
    game = with_dice(to_combat(game), 1, 1, 6, 6)
    fight(game, "SZ 7")
    assert game.state.pending["kind"] == "choose_casualties" and game.state.pending["power"] == "United States"
    act(game, {"type": "choose_casualties", "units": "1 transport"})
    assert game.state.pending is None
    assert units_in(game, "SZ 7") == {"destroyer": 1}
    assert units_in(game, "Western Europe") == {"infantry": 1}  # the German one; the American went down
    assert [s.owner for s in game.state.stacks("Western Europe")] == ["Germany"]
    end(game)


@pytest.mark.rule("LHTR-BOMBARD-who-and-when", "LHTR-BOMBARD-one-battle-per-ship",
                  "LHTR-LANDCOMBAT-no-retreat-amphibious")
def test_an_amphibious_assault_with_bombardment() -> None:
    game = position("United Kingdom", "combat-move", {
        "SZ 13": "United Kingdom: 1 battleship", "Western Europe": "Germany: 2 infantry"},
        stacks=[("SZ 7", boat("United Kingdom", "United Kingdom:infantry", "United Kingdom:armour"))])
    move(game, "1 infantry, 1 armour", "SZ 7", "Western Europe")
    move(game, "1 battleship", "SZ 13", "SZ 12", "SZ 7")
    # bombardment 1 (hit, the casualty still fires back); infantry 6, armour 6; defence 6, 6
    game = with_dice(to_combat(game), 1, 6, 6, 6, 6, 1, 1)
    fight(game, "Western Europe")
    pending = game.state.pending
    assert pending is None or pending["kind"] != "press_or_retreat"  # no retreat from an assault (land units)
    while game.state.pending is not None:
        act(game, game.state.pending["options"][0])
    assert game.state.owners["Western Europe"] == "United Kingdom"
    [ship] = [s for s in game.state.stacks("SZ 7") if s.unit == "battleship"]
    assert flags.has(ship, "turn:bombarded")
    end(game)


@pytest.mark.rule("LHTR-NAVALCOMBAT-defender-subs-submerge", "LHTR-NAVALCOMBAT-submerged-status")
def test_defending_submarines_may_submerge_and_stay() -> None:
    game = position("United Kingdom", "combat-move", {
        "SZ 6": "United Kingdom: 1 battleship", "SZ 7": "Germany: 2 submarines"})
    move(game, "1 battleship", "SZ 6", "SZ 7")
    game = with_dice(to_combat(game), 6, 6, 6, 6, 6, 6, 6, 6)
    fight(game, "SZ 7")
    while game.state.pending is not None and game.state.pending["kind"] != "submerge":
        act(game, {"type": "press"})
    assert game.state.pending["power"] == "Germany"
    act(game, {"type": "submerge", "units": "2 submarines"})
    assert game.state.pending is None
    subs = [s for s in game.state.stacks("SZ 7") if s.unit == "submarine"]
    assert sum(s.count for s in subs) == 2 and all(flags.submerged(s) for s in subs)
    end(game)


@pytest.mark.rule("LHTR-AIRMOVE-defending-carrier-lost", "LHTR-NAVALCOMBAT-carrier-fighters-defend")
def test_fighters_of_a_sunk_carrier_fly_to_a_friendly_territory() -> None:
    game = position("Germany", "combat-move", {
        "SZ 5": "Germany: 1 submarine", "SZ 6": "United Kingdom: 1 carrier, 1 fighter"},
        owners={"Norway": "United Kingdom"})
    move(game, "1 submarine", "SZ 5", "SZ 6")
    # the sub's surprise strike sinks the carrier (subs cannot hit the fighter); the fighter sinks the sub
    game = with_dice(to_combat(game), 1, 1)
    fight(game, "SZ 6")
    assert game.state.pending is None
    assert units_in(game, "SZ 6") == {}
    assert units_in(game, "Norway", "United Kingdom") == {"fighter": 1}


@pytest.mark.rule("LHTR-COMBAT-battle-order")
def test_combat_cannot_end_before_every_battle_is_fought() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Russia: 1 infantry", "Belorussia": "Germany: 2 infantry"})
    move(game, "2 infantry", "Belorussia", "Karelia S.S.R.")
    game = to_combat(game)
    rejected(game, {"type": "end_phase"}, "LHTR-COMBAT-battle-order")
    rejected(game, {"type": "fight", "space": "Archangel"}, "LHTR-COMBAT-battle-order")
    assert [a.to_json() for a in game.legal_actions()] == [{"type": "fight", "space": "Karelia S.S.R."}]


@pytest.mark.rule("LHTR-TURN-all-dice-in-conduct-combat")
def test_no_undo_past_a_battle_roll() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Russia: 2 infantry", "Belorussia": "Germany: 3 infantry"})
    move(game, "3 infantry", "Belorussia", "Karelia S.S.R.")
    game = with_dice(to_combat(game), 1, 6, 6, 6, 6)
    fight(game, "Karelia S.S.R.")
    before = game.state.hash()
    with pytest.raises(IllegalAction) as err:
        game.undo()
    assert err.value.rule_id == "LHTR-TURN-all-dice-in-conduct-combat"
    assert game.state.hash() == before


@pytest.mark.rule("LHTR-COMBAT-shared-space-forces-battle")
def test_units_sharing_a_sea_zone_with_enemy_ships_fight_without_moving() -> None:
    game = position("Germany", "combat-move", {"SZ 7": "Germany: 1 submarine; United Kingdom: 1 battleship"})
    game = with_dice(to_combat(game), 6, 6, 6, 6, 6, 6)
    assert [a.to_json() for a in game.legal_actions()] == [{"type": "fight", "space": "SZ 7"}]


@pytest.mark.rule("LHTR-COMBAT-owner-chooses-casualties", "LHTR-COMBAT-joint-defense")
def test_joint_defenders_choose_by_owner() -> None:
    game = position("Germany", "combat-move", {
        "United Kingdom": "United Kingdom: 1 infantry; United States: 1 infantry",
        "Western Europe": "Germany: 1 bomber"}, owners={"Western Europe": "Germany"})
    move(game, "1 bomber", "Western Europe", "SZ 7", "United Kingdom")
    game = with_dice(to_combat(game), 1, 6, 6)
    fight(game, "United Kingdom")
    pending = game.state.pending
    assert pending["power"] == "United Kingdom"  # the territory's holder decides for the defenders
    assert pending["options"] == [{"type": "choose_casualties", "units": "United Kingdom: 1 infantry"}]
    act(game, {"type": "choose_casualties", "units": "United States: 1 infantry"})
    assert game.state.pending["kind"] == "press_or_retreat" and game.state.pending["destinations"] == []
    act(game, {"type": "retreat"})
    assert units_in(game, "United Kingdom", "United States") == {}
    assert units_in(game, "United Kingdom", "United Kingdom") == {"infantry": 1}


def test_a_battle_in_progress_survives_the_game_file() -> None:
    game = position("Germany", "combat-move", {
        "Karelia S.S.R.": "Russia: 2 infantry, 1 fighter", "Belorussia": "Germany: 3 infantry"})
    move(game, "3 infantry", "Belorussia", "Karelia S.S.R.")
    game = with_dice(to_combat(game), 1, 6, 6, 6, 6, 6)
    fight(game, "Karelia S.S.R.")
    assert game.state.pending is not None
    reread = Game(GameLog.from_json(game.log.to_json()), ScriptedDice([6] * 20))
    assert reread.state.hash() == game.state.hash()
    assert {a.to_json()["units"] for a in reread.legal_actions()} == {"1 infantry", "1 fighter"}


def rocket(launcher: str, target: str) -> dict[str, Any]:
    return {"type": "rocket", "launcher": launcher, "target": target}


@pytest.mark.rule("LHTR-TECH-rockets-launchers", "LHTR-TECH-rockets-target", "LHTR-TECH-rockets-damage")
def test_rockets_from_unmoved_aa_guns_at_complexes_within_three_spaces() -> None:
    game = position("Germany", "combat-move", {
        "Germany": "Germany: 2 aa guns, 1 industrial complex", "Western Europe": "Germany: 1 aa gun",
        "Caucasus": "Russia: 1 aa gun, 1 industrial complex", "United Kingdom": "United Kingdom: 1 industrial complex",
        "Karelia S.S.R.": "Russia: 1 industrial complex", "Ukraine S.S.R.": "Germany: 1 armour"},
        techs={"Germany": ["rockets"]})
    game = turn_began_with(game, {})
    move(game, "1 armour", "Ukraine S.S.R.", "Caucasus")  # Caucasus falls this turn: its AA gun turns German
    game = with_dice(to_combat(game), 5, 4)
    fight(game, "Caucasus")  # no die: only an AA gun defends
    assert game.state.owners["Caucasus"] == "Germany"
    launches = {(a.launcher, a.target) for a in game.legal_actions() if a.type == "rocket"}
    assert launches == {("Germany", "United Kingdom"), ("Germany", "Karelia S.S.R."),
                        ("Western Europe", "United Kingdom"), ("Western Europe", "Karelia S.S.R.")}
    rejected(game, rocket("Caucasus", "Karelia S.S.R."), "LHTR-TECH-rockets-launchers")  # captured this turn
    uk = game.state.banks["United Kingdom"]
    act(game, rocket("Western Europe", "United Kingdom"))  # rolls 5
    assert game.state.banks["United Kingdom"] == uk - 5
    rejected(game, rocket("Germany", "United Kingdom"), "LHTR-TECH-rockets-target")  # one rocket per target
    rejected(game, rocket("Western Europe", "Karelia S.S.R."), "LHTR-TECH-rockets-launchers")  # one per territory
    rejected(game, rocket("Germany", "Western Europe"), "LHTR-TECH-rockets-target")
    act(game, rocket("Germany", "Karelia S.S.R."))  # two AA guns in Germany still launch once
    rejected(game, rocket("Germany", "Caucasus"), "LHTR-TECH-rockets-launchers")
    [fired] = [s for s in game.state.stacks("Western Europe") if s.unit == "aa_gun"]
    assert flags.has(fired, flags.COMBAT)  # the launcher may not move later this turn


@pytest.mark.rule("LHTR-TECH-rockets-launchers")
def test_no_rockets_without_the_technology() -> None:
    game = position("Germany", "combat-move", {
        "Western Europe": "Germany: 1 aa gun", "United Kingdom": "United Kingdom: 1 industrial complex"})
    game = to_combat(game)
    assert [a.type for a in game.legal_actions()] == ["end_phase"]
    rejected(game, rocket("Western Europe", "United Kingdom"), "LHTR-TECH-rockets-launchers")


def combat_positions(seed: int, rounds: int = 3, limit: int = 30) -> list[Game]:
    """States met in conduct-combat by a seeded random game, decisions pending or not."""
    log = play_game("lhtr-1.3", seed, rounds, check=False).log
    found: list[Game] = []
    state = log.initial
    for entry in log.entries:
        state = apply_events(state, entry.events)
        if state.phase == "conduct-combat" and len(found) < limit:
            found.append(Game(GameLog(state)))
    return found


def mutated(action: dict[str, Any]) -> list[dict[str, Any]]:
    kind = action["type"]
    if kind == "fight":
        return [{**action, "space": "Borneo" if action["space"] != "Borneo" else "Japan"}]
    if kind == "choose_casualties":
        return [{**action, "units": "99 infantry"}, {"type": "press"}]
    if kind in ("press", "retreat"):
        return [{"type": "retreat", "to": "SZ 64"}, {"type": "choose_casualties", "units": "1 infantry"}]
    if kind == "submerge":
        return [{"type": "submerge", "units": "9 submarines"}, {"type": "fight", "space": "Germany"}]
    if kind == "rocket":
        return [{**action, "target": action["launcher"]}]
    return [{"type": "fight", "space": "Atlantis"}]


@pytest.mark.rule("LHTR-COMBAT-battle-order", "LHTR-COMBAT-owner-chooses-casualties")
@pytest.mark.parametrize("seed", [1, 2])
def test_every_legal_combat_action_applies_and_mutations_change_nothing(seed: int) -> None:
    positions = combat_positions(seed)
    assert any(g.state.pending is not None for g in positions)
    for game in positions:
        actions = game.legal_actions()
        assert actions, "no legal action in conduct-combat"
        before = game.state.hash()
        for action in actions:
            trial = Game(GameLog(game.state))
            trial.apply(action)
            raw = action.to_json()
            for bad in mutated(raw):
                if game.is_legal(bad):
                    continue
                with pytest.raises(AareError):
                    game.apply(bad)
                assert game.state.hash() == before


@pytest.mark.rule("LHTR-COMBAT-battle-order", "AARE-AIRSUB-air-only-vs-subs-only")
def test_a_battle_the_rules_refuse_to_start_does_not_hold_up_the_phase() -> None:
    from aare.scenario import scenario

    game = scenario("aare-5.0", nation="Japan", phase="conduct-combat", clear=True,
                    units={"SZ 60": "Japan: 1 bomber; United States: 1 submarine"},
                    options={"national_advantages": False})
    assert not game.is_legal({"type": "fight", "space": "SZ 60"})
    end(game)
    assert game.state.phase == "non-combat-move"
