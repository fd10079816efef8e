"""AARHE naval combat: the cycle's submarine warfare, air combat and main round, hit allocation by class of
warship, screens, the wolf pack, ASW, the ships' anti-air and the carriers' limit on the aircraft that stay."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest
from click.testing import CliRunner

from aare.cli.main import cli
from aare.combat.battle_state import Side
from aare.combat.decisions import ChooseSubmerge, ChooseTargets, PressOrRetreat, Submerge, Targets
from aare.combat.engine import advance, decide
from aare.combat.events import DiceRolled, Retreated, UnitsMarked, UnitsRemoved
from aare.combat.policy import DEFAULT_POLICY
from aare.combat.setup import Battle
from aare.dice import ScriptedDice
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_log import GameLog
from aare.odds import build_battle, odds
from aare.rulesets.aarhe import naval
from aare.state.unit_stacks import Stack, add_stack
from tests.aarhe.common import GER, JAP, UK, end_phase, end_turn, game, phase_of, status
from tests.aarhe.move_common import at

RULES = "aarhe"
Answers = Callable[[Battle, Any], Any]


def battle(attacker: str, defender: str, **options: Any) -> Battle:
    return build_battle(attacker, defender, RULES, "sea", options=options or None)


def play(b: Battle, dice: list[int], answer: Answers | None = None) -> tuple[Battle, list[Any]]:
    """Run with `dice` to the attacker's press-or-retreat (or the end): `answer` first, then the default policy
    answer the other decisions (`answer` returning None leaves a decision to the default)."""

    def policy(bt: Battle, decision: Any) -> Any:
        if isinstance(decision, PressOrRetreat):
            return None
        mine = answer(bt, decision) if answer else None
        return mine if mine is not None else DEFAULT_POLICY(bt, decision)

    return advance(b, ScriptedDice(dice), policy)


def rolls(events: list[Any], step: str = "") -> list[DiceRolled]:
    return [e for e in events if isinstance(e, DiceRolled) and (not step or e.step == step)]


def removed(events: list[Any], side: Side) -> dict[str, int]:
    out: dict[str, int] = {}
    for e in events:
        if isinstance(e, UnitsRemoved) and e.side == side:
            for unit, n in e.units.items():
                out[unit] = out.get(unit, 0) + n
    return out


def no_screens(_b: Battle, decision: Any) -> Any:
    return Targets(()) if isinstance(decision, ChooseTargets) and decision.rule == naval.R_SCREEN else None


SEQUENCE = (
    "no one can hit",
    "attacker screens", "defender screens", "screens formed",
    "attacker sub targets", "attacker sub fire", "defender sub targets", "defender sub fire",
    "attacker asw search", "attacker asw attack", "defender asw search", "defender asw attack",
    "remove sub warfare casualties",
    "attacker anti-air", "defender anti-air", "attacker air targets", "attacker air fire", "defender air targets",
    "defender air fire", "attacker battleship fire", "defender battleship fire", "remove air combat casualties",
    "attacker sea fire", "defender sea fire", "remove casualties",
    "carrier aircraft return", "attacker submerge", "press or retreat", "attacker presses on or breaks off",
    "defender submerge", "defender retreat", "defender remains or breaks off", "attacker chases or breaks off",
    "break off",
)


@pytest.mark.rule("AARHE-NAVALSEQ-table")
def test_the_sea_cycle_follows_the_seeds_table() -> None:
    assert battle("1 destroyer", "1 destroyer").setup.sequence.names == SEQUENCE
    # a land battle keeps its own sequence
    assert "attacker screens" not in build_battle("1 infantry", "1 infantry", RULES).setup.sequence.names


@pytest.mark.rule("AARHE-NAVALSEQ-submarine-step", "AARHE-ASW-search", "AARHE-ASW-attack")
def test_a_destroyer_sunk_by_a_submarine_still_hunts_it_before_the_removal() -> None:
    # the sub sinks the destroyer (1); the destroyer detects (3) and sinks (2) the sub; both go at the step's end
    b, events = play(battle("1 submarine", "1 destroyer, 1 transport"), [1, 3, 2])
    assert [(r.step, r.hits) for r in rolls(events)] == [
        ("attacker sub fire", 1), ("defender asw search", 1), ("defender asw attack", 1)]
    removal = [e for e in events if isinstance(e, UnitsRemoved)]
    assert {(e.side, e.step) for e in removal} == {("attacker", "remove sub warfare casualties"),
                                                   ("defender", "remove sub warfare casualties")}
    assert b.state.result == "defender"


@pytest.mark.rule("AARHE-NAVALSEQ-air-step", "AARHE-UNIT-battleship")
def test_a_destroyer_hit_by_a_battleship_in_the_air_combat_does_not_fire_in_the_main_round() -> None:
    b, events = play(battle("1 battleship", "2 destroyer"), [1, 6])
    assert [(r.step, r.count) for r in rolls(events)] == [("attacker battleship fire", 1), ("defender sea fire", 1)]
    assert removed(events, "defender") == {"destroyer": 1}
    assert isinstance(b.state.pending, PressOrRetreat)


@pytest.mark.rule("AARHE-NAVALSEQ-main-round")
def test_a_destroyer_that_hunted_submarines_also_fires_in_the_main_round() -> None:
    _, events = play(battle("1 submarine, 1 destroyer", "1 destroyer"), [6, 6, 6, 6])
    assert [r.step for r in rolls(events)] == [
        "attacker sub fire", "defender asw search", "attacker sea fire", "defender sea fire"]
    # submarines and battleships fire only in opening fire; carriers, destroyers and transports in the main round
    _, events = play(battle("1 submarine, 1 battleship, 1 carrier", "1 transport, 1 destroyer"), [6] * 8)
    main = rolls(events, "attacker sea fire")
    assert [r.unit for r in main] == ["carrier"]


def asked(b: Battle, rule: str, dice: tuple[int, ...] = ()) -> Battle:
    """`b` run to the `ChooseTargets` of `rule` (screens left out, other decisions by default)."""

    def policy(bt: Battle, decision: Any) -> Any:
        if isinstance(decision, ChooseTargets) and decision.rule == rule:
            return None
        return no_screens(bt, decision) or DEFAULT_POLICY(bt, decision)

    found, _ = advance(b, ScriptedDice(dice), policy)
    return found


@pytest.mark.rule("AARHE-NAVALHIT-submarine", "AARHE-SUBWAR-targeting")
def test_submarines_hit_only_surface_ships() -> None:
    b = asked(battle("1 submarine", "1 submarine, 1 transport, 1 carrier"), "AARHE-SUBWAR-targeting")
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.eligible == (("", "carrier", 1), ("", "transport", 1))
    with pytest.raises(IllegalAction) as err:
        decide(b, Targets((("", "submarine"),)))
    assert err.value.rule_id == "AARHE-SUBWAR-targeting"
    # with one ship type to aim at there is nothing to ask
    b, events = play(battle("1 submarine", "1 submarine, 1 transport"), [1])
    assert removed(events, "defender") == {"transport": 1}


@pytest.mark.rule("AARHE-NAVALHIT-submarine", "AARHE-NAVALHIT-capital-ship")
def test_a_battle_where_no_one_can_hit_ends_in_a_stalemate() -> None:
    # submarines never hit submarines, surface ships only hit surface ships
    for units in (("1 submarine", "1 submarine"), ("2 submarine", "1 submarine, 1 fighter")):
        b, events = play(battle(*units), [])
        assert b.state.result == "stalemate" and not rolls(events)


@pytest.mark.rule("AARHE-NAVALHIT-capital-ship")
def test_capital_ship_hits_go_to_capital_ships_then_escorts_then_transports() -> None:
    _, events = play(battle("1 battleship", "1 carrier, 1 destroyer, 1 transport"), [1, 6, 6, 6])
    assert removed(events, "defender") == {"carrier": 1}
    _, events = play(battle("1 battleship", "1 transport, 1 destroyer"), [1, 6, 6])
    assert removed(events, "defender") == {"destroyer": 1}
    # (the defending sub misses first; then the battleship's hit cannot go to the sub)
    _, events = play(battle("1 battleship", "1 transport, 1 submarine"), [6, 1, 6])
    assert removed(events, "defender") == {"transport": 1}


@pytest.mark.rule("AARHE-NAVALHIT-escort")
def test_escort_hits_go_to_escorts_then_capital_ships_then_transports() -> None:
    # the defending battleship misses in the air combat; the destroyer's hit takes the destroyer
    _, events = play(battle("1 destroyer", "1 battleship, 1 destroyer"), [6, 1, 6])
    assert removed(events, "defender") == {"destroyer": 1}
    b, _ = play(battle("1 destroyer", "1 battleship, 1 transport"), [6, 1, 6])
    assert [(k.type, k.damage) for k, _ in b.state.defender] == [("battleship", 1), ("transport", 0)]


@pytest.mark.rule("AARHE-NAVALHIT-transport")
def test_transport_hits_go_only_to_transports() -> None:
    _, events = play(battle("1 destroyer, 1 transport", "1 transport"), [6, 1])
    assert removed(events, "attacker") == {"transport": 1}
    # against a lone destroyer the transport's hit could go nowhere: it does not roll
    b, events = play(battle("1 destroyer", "1 transport"), [6])
    assert not rolls(events, "defender sea fire")
    assert not removed(events, "attacker") and isinstance(b.state.pending, PressOrRetreat)


@pytest.mark.rule("AARHE-NAVALAA-rolls")
def test_ships_roll_their_anti_air_value_in_dice_hitting_on_one() -> None:
    # the defending destroyer screens the battleship; the fighters' targets: battleship x2, destroyer, battleship
    b, events = play(battle("4 fighter", "1 battleship, 1 destroyer"), [1, 1, 1, 6, 6] + [6] * 6)
    aa = rolls(events, "defender anti-air")
    assert [(r.unit, r.count, r.hit_on) for r in aa] == [("battleship", 3, 1), ("destroyer", 2, 1)]
    assert not rolls(events, "attacker anti-air")
    # the three fighters shot down still fire, then go with the air combat's casualties
    assert sum(r.count for r in rolls(events, "attacker air fire")) == 4
    assert removed(events, "attacker") == {"fighter": 3}
    # the last fighter has no carrier: it leaves at the end of the cycle
    assert b.state.result == "retreat"


@pytest.mark.rule("AARHE-SCREEN-assign")
def test_each_side_assigns_its_screens_at_the_start_of_a_cycle() -> None:
    b, _ = advance(battle("1 submarine, 1 destroyer, 1 transport", "1 submarine, 1 destroyer, 1 carrier"),
                   ScriptedDice([]))
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.rule == naval.R_SCREEN
    assert decision.side == "attacker" and decision.eligible == (("", "transport", 1),) and decision.up_to
    b, _ = advance(decide(b, Targets(())), ScriptedDice([]))  # a screen is never compulsory
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.side == "defender"
    b, _ = advance(decide(b, Targets((("", "carrier"),))), ScriptedDice([]))
    assert ("destroyer", ("screening:carrier",)) in {(k.type, k.flags) for k, _ in b.state.defender}
    # the screens last the cycle: gone after the air combat, asked again in the next cycle
    b, _ = play(b, [6] * 12)
    assert not any(k.flags for k, _ in b.state.defender if k.type == "destroyer")
    def until_screens(bt: Battle, decision: Any) -> Any:
        return None if isinstance(decision, ChooseTargets) else DEFAULT_POLICY(bt, decision)

    b, _ = advance(decide(b, DEFAULT_POLICY(b, b.state.pending)), ScriptedDice([]), until_screens)
    assert b.state.cycle == 2
    assert isinstance(b.state.pending, ChooseTargets) and b.state.pending.rule == naval.R_SCREEN


@pytest.mark.rule("AARHE-SCREEN-air", "AARHE-AIRCOMBAT-supremacy-values")
def test_a_screener_takes_the_air_hits_aimed_at_its_ship() -> None:
    dice = [6, 6, 6, 6, 1, 6, 6]  # anti-air misses, the fighter (at 3) hits the carrier it selected
    _, events = play(battle("1 fighter", "1 carrier, 1 destroyer"), dice)
    assert rolls(events, "attacker air fire")[0].hit_on == 3
    assert removed(events, "defender") == {"destroyer": 1}
    _, events = play(battle("1 fighter", "1 carrier, 1 destroyer"), dice, no_screens)
    assert removed(events, "defender") == {"carrier": 1}


@pytest.mark.rule("AARHE-SCREEN-submarine")
def test_a_screener_takes_the_submarine_hits_aimed_at_its_ship() -> None:
    # the sub selects the battleship and hits; the destroyer's search misses
    b, events = play(battle("1 submarine", "1 battleship, 1 destroyer"), [1, 6])
    assert removed(events, "defender") == {"destroyer": 1}
    b, events = play(battle("1 submarine", "1 battleship, 1 destroyer"), [1, 6], no_screens)
    assert not removed(events, "defender")
    assert ("battleship", 1) in {(k.type, k.damage) for k, _ in b.state.defender}


@pytest.mark.rule("AARHE-SUBWAR-targeting", "AARHE-WOLFPACK-bonus")
def test_submarines_select_their_targets_then_roll_together() -> None:
    def aims(_b: Battle, decision: Any) -> Any:
        if isinstance(decision, ChooseTargets) and decision.rule == "AARHE-SUBWAR-targeting":
            return Targets((("", "carrier"), ("", "carrier"), ("", "transport")))
        return None

    # three subs against no destroyer: a wolf pack, at 3
    _, events = play(battle("3 submarine", "1 carrier, 1 transport"), [1, 6, 1], aims)
    fired = rolls(events, "attacker sub fire")
    assert [(r.count, r.hit_on, r.target) for r in fired] == [
        (2, 3, "only carrier"), (1, 3, "only transport")]
    assert removed(events, "defender") == {"carrier": 1, "transport": 1}


@pytest.mark.rule("AARHE-WOLFPACK-bonus")
def test_a_wolf_pack_needs_two_submarines_more_than_the_enemy_escorts() -> None:
    _, events = play(battle("4 submarine", "2 destroyer"), [6] * 20)
    assert rolls(events, "attacker sub fire")[0].hit_on == 3
    _, events = play(battle("3 submarine", "2 destroyer"), [6] * 20)
    assert rolls(events, "attacker sub fire")[0].hit_on == 2


@pytest.mark.rule("AARHE-SUBWAR-casualties-removed")
def test_ships_sunk_by_submarines_go_before_the_anti_air_even_with_destroyers_present() -> None:
    dice = [1] + [6] * 8  # the sub sinks a destroyer; everything else misses
    units = ("1 submarine, 1 fighter, 1 transport", "2 destroyer")
    _, events = play(battle(*units), dice)
    assert removed(events, "defender") == {"destroyer": 1}
    assert [r.count for r in rolls(events, "defender anti-air")] == [2]
    assert [r.count for r in rolls(events, "defender sea fire")] == [1]
    # the option: removed only at the end of the opening fire (the sunk destroyer still fires its anti-air)
    late = battle(*units, sub_casualties_removed="after-opening-fire")
    assert "remove sub warfare casualties" not in late.setup.sequence.names
    _, events = play(late, dice)
    assert [r.count for r in rolls(events, "defender anti-air")] == [4]
    assert [r.count for r in rolls(events, "defender sea fire")] == [1]


@pytest.mark.rule("AARHE-SUBWAR-submerge")
def test_submarines_may_submerge_at_the_end_of_a_cycle_despite_destroyers() -> None:
    def stop(bt: Battle, decision: Any) -> Any:
        return None if isinstance(decision, ChooseSubmerge) else DEFAULT_POLICY(bt, decision)

    b, _ = advance(battle("1 submarine", "2 destroyer"), ScriptedDice([6, 6, 6, 6, 6]), stop)
    decision = b.state.pending
    assert isinstance(decision, ChooseSubmerge) and decision.available == 1 and decision.rule == naval.R_SUBMERGE
    b, _ = advance(decide(b, Submerge(1)), ScriptedDice([]))
    assert b.state.result == "retreat" and [k.flags for k, _ in b.state.attacker] == [("submerged",)]


@pytest.mark.rule("AARHE-ASW-search", "AARHE-ASW-attack")
def test_asw_searches_each_sub_with_every_escort_then_attacks_the_detected_ones() -> None:
    # 2 destroyers against 3 subs: 6 search dice, two per sub; only the second sub is detected (a 3)
    subs, search, attack, main = [6, 6, 6], [6, 6, 3, 6, 6, 6], [2, 6], [6, 6]
    b, events = play(battle("3 submarine", "2 destroyer"), [*subs, *search, *attack, *main])
    search = rolls(events, "defender asw search")[0]
    assert (search.count, search.per_unit, search.hit_on, search.hits) == (3, 2, 3, 1)
    assert any(isinstance(e, UnitsMarked) and e.units == {"submarine": 1} for e in events)
    # both destroyers attack the one detected sub: two dice, hitting on 2
    attack = rolls(events, "defender asw attack")[0]
    assert (attack.count, attack.per_unit, attack.hit_on, attack.hits) == (1, 2, 2, 1)
    assert removed(events, "attacker") == {"submarine": 1}
    assert not any(k.flags for k, _ in b.state.attacker)  # detection lasts the cycle
    # two detected subs: one attack die each
    subs, search, attack = [6, 6], [3, 6, 2, 6], [6, 6]
    _, events = play(battle("2 submarine", "2 destroyer"), [*subs, *search, *attack, 6, 6])
    assert [(r.count, r.per_unit) for r in rolls(events, "defender asw attack")] == [(2, 1)]


@pytest.mark.rule("AARHE-CARRIER-cycle-end-standard")
def test_only_the_fighters_the_carriers_can_hold_stay_after_a_cycle() -> None:
    b, events = play(battle("2 bomber, 3 fighter, 1 carrier", "1 battleship"), [6] * 8)
    assert [e.units for e in events if isinstance(e, Retreated)] == [{"bomber": 2, "fighter": 1}]
    assert isinstance(b.state.pending, PressOrRetreat)
    assert sum(n for k, n in b.state.attacker if k.type == "fighter" and k.present) == 2


@pytest.mark.rule("AARHE-AIRCOMBAT-dogfight-values", "AARHE-AIRCOMBAT-air-hits-air-first",
                  "AARHE-AIRCOMBAT-opening-fire")
def test_aircraft_over_a_fleet_dogfight_first() -> None:
    # anti-air misses; the attacking fighter rolls at 2, the defending one at 3 and hits: the fighter goes
    _, events = play(battle("1 fighter, 1 carrier", "1 fighter, 1 carrier"), [6, 6, 6, 6, 6, 1, 6, 6])
    assert [(r.side, r.hit_on) for r in rolls(events, "attacker air fire") + rolls(events, "defender air fire")] == [
        ("attacker", 2), ("defender", 3)]
    assert removed(events, "attacker") == {"fighter": 1}


@pytest.mark.rule("AARHE-AIRCOMBAT-bomber-no-ships", "AARHE-AIRCOMBAT-supremacy-values")
def test_bombers_never_attack_ships_and_aircraft_never_hit_submarines() -> None:
    _, events = play(battle("1 bomber, 1 battleship", "1 destroyer"), [6] * 6)
    assert not rolls(events, "attacker air fire")
    b = asked(battle("1 fighter", "1 submarine, 1 transport, 1 destroyer"), "AARHE-AIRCOMBAT-supremacy-selective",
              (6, 6))  # the destroyer's anti-air misses
    decision = b.state.pending
    assert isinstance(decision, ChooseTargets) and decision.eligible == (("", "destroyer", 1), ("", "transport", 1))


@pytest.mark.rule("AARHE-NAVALSEQ-table", "AARHE-SUBWAR-targeting", "AARHE-ASW-search", "AARHE-NAVALAA-rolls")
def test_the_calculators_exact_sea_battle_agrees_with_rolled_ones() -> None:
    units = ("1 submarine, 1 destroyer, 1 fighter", "1 destroyer, 1 carrier, 1 submarine")
    exact = odds(*units, RULES, battle="sea")
    assert exact.attacker_win + exact.defender_win + exact.draw == pytest.approx(1.0)
    rolled = odds(*units, RULES, battle="sea", method="mc", runs=1_500, seed=5)
    assert rolled.attacker_win == pytest.approx(exact.attacker_win, abs=0.04)
    assert rolled.attacker_ipc_lost == pytest.approx(exact.attacker_ipc_lost, rel=0.05)
    assert rolled.defender_ipc_lost == pytest.approx(exact.defender_ipc_lost, rel=0.05)


@pytest.mark.rule("AARHE-NAVALSEQ-table")
def test_the_calculator_explains_the_sea_cycle() -> None:
    args = ["odds", "--rules", RULES, "--battle", "sea", "--attacker", "1 submarine, 1 destroyer",
            "--defender", "1 destroyer, 1 transport"]
    out = CliRunner().invoke(cli, [*args, "--explain"]).output
    assert "attacker screens [AARHE-SCREEN-assign]" in out and "carrier aircraft return" in out
    found = json.loads(CliRunner().invoke(cli, [*args, "--json"]).output)
    assert 0 < found["attacker_win"] < 1


@pytest.mark.rule("AARHE-SCREEN-assign", "AARHE-SUBWAR-targeting")
def test_the_screens_and_the_targets_are_asked_of_each_power_on_the_board() -> None:
    fleets = {"SZ 5": "Germany: 1 submarine", "SZ 6": "United Kingdom: 1 destroyer, 1 transport"}
    g = at(GER, "combat-move", fleets, dice=[1, 6, 1])
    g.apply({"type": "move", "units": "1 submarine", "path": ["SZ 5", "SZ 6"]})
    g.apply({"type": "end_phase"})
    g.apply({"type": "fight", "space": "SZ 6"})
    pending = g.state.pending
    assert (pending["kind"], pending["power"], pending["rule"]) == ("choose_targets", UK, "AARHE-SCREEN-assign")
    assert {"type": "declare_targets", "targets": ""} in pending["options"]
    g.apply({"type": "declare_targets", "targets": "transport"}, power=UK)
    pending = g.state.pending
    assert (pending["power"], pending["rule"], pending["count"]) == (GER, "AARHE-SUBWAR-targeting", 1)
    g.apply({"type": "declare_targets", "targets": "destroyer"}, power=GER)  # sinks it; its search misses
    g.apply({"type": "submerge"}, power=GER)
    g.apply({"type": "press"}, power=GER)
    g.apply({"type": "choose", "option": "press-on"}, power=GER)
    g.apply({"type": "press"}, power=UK)  # the transport stays
    g.apply({"type": "choose", "option": "remain"}, power=UK)  # cycle 2: only the transport to aim at; it sinks
    assert g.state.pending is None
    assert [(s.owner, s.unit) for s in g.state.stacks("SZ 6")] == [(GER, "submarine")]


@pytest.mark.rule("AARHE-ORDER-team-turns", "AARHE-SUBWAR-submerge")
def test_enemy_marks_last_until_the_team_turn_ends() -> None:
    # a British sub submerged in a battle of this team turn: the member that ends its turn first leaves it so,
    # since a teammate's battle in that zone is rebuilt from the board
    g = game()
    end_turn(g)  # round 1: the Soviet Union alone
    sub = Stack(UK, "submarine", 1, flags=("turn:submerged",))
    state = g.state.with_stacks("SZ 6", add_stack(g.state.stacks("SZ 6"), sub))
    g = Game(GameLog(state))
    end_turn(g, GER)  # to the joint combat
    while phase_of(g, JAP) != "conduct-combat":
        end_phase(g, JAP)
    end_turn(g, GER)
    assert status(g, GER) == "done" and sub in g.state.stacks("SZ 6")
    end_turn(g, JAP)  # the team turn ends
    assert g.state.stacks("SZ 6") == (Stack(UK, "submarine", 1),)
