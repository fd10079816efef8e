"""AARHE game sequence: LHTR underneath, the Soviet first round, team turns with a joint combat, the eight phases,
purchases before income, contested territories, the capital-lost skip and the government in exile."""

from __future__ import annotations

from typing import Any

import pytest

from aare.economy.summary import base_income, income
from aare.engine import Game
from aare.game_log import GameLog
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.rules.turns import Turn
from aare.rulesets.aarhe.turn import CONTROL, PHASES, contested
from aare.rulesets.aarhe.units import ABBREVIATIONS
from aare.scenario import scenario
from tests.aarhe.common import (
    ALLIED_TEAM,
    AXIS_TEAM,
    GER,
    JAP,
    RULES,
    RUS,
    UK,
    US,
    end_phase,
    end_turn,
    game,
    phase_of,
    refused,
    status,
)

EIGHT = ["purchase", "collect-income", "combat-move", "conduct-combat", "non-combat-move", "mobilize",
         "develop-weapons", "diplomacy"]



@pytest.mark.rule("AARHE-BASE-lhtr-foundation")
def test_the_lhtr_module_plays_first_on_the_revised_board_and_rules_what_the_variant_leaves_alone() -> None:
    aarhe, lhtr = load_ruleset(RULES), load_ruleset("lhtr-1.3")
    assert aarhe.modules[0].id == "lhtr" and aarhe.board.id == lhtr.board.id == "revised"
    # the variant's unit table (AARHE-UNIT-table) and the units its technologies unlock
    own = {"destroyer", "carrier", "battleship", "heavy_tank", "heavy_artillery"}
    assert {u.id: (u.cost, u.attack, u.defense, u.move) for u in aarhe.units if u.id not in own} == {
        u.id: (u.cost, u.attack, u.defense, u.move) for u in lhtr.units if u.id not in own}
    assert new_game(RULES, {}, seed=1).state.banks == new_game("lhtr-1.3", {}, seed=1).state.banks
    # an LHTR movement rule the variant does not touch: combat move is for attacks only
    move = {"type": "move", "units": "1 infantry", "path": ["Russia", "Archangel"]}
    for rules in (RULES, "lhtr-1.3"):
        g = scenario(rules, nation=RUS, phase="combat-move", units={"Russia": "Russia: 1 infantry"})
        assert refused(g, move) == "LHTR-TURN-combat-move-attack-only"


@pytest.mark.rule("AARHE-BASE-unit-abbreviations")
def test_each_abbreviation_names_one_unit() -> None:
    units = load_ruleset(RULES).units
    assert {abbr: units.resolve(abbr) for abbr in ABBREVIATIONS} == ABBREVIATIONS
    assert units.resolve("infrastructure defence") == "aa_gun"
    with pytest.raises(Exception, match="unknown unit"):
        load_ruleset("lhtr-1.3").units.resolve("ID")


@pytest.mark.rule("AARHE-ORDER-table", "AARHE-ORDER-round-one-soviet")
def test_round_one_is_the_soviet_union_alone_then_team_turns() -> None:
    ruleset = load_ruleset(RULES)
    assert ruleset.turn_order(1).turns == (Turn((RUS,)),)
    for round_ in (2, 3):
        assert ruleset.turn_order(round_).turns == (Turn(tuple(AXIS_TEAM)), Turn(tuple(ALLIED_TEAM)))
    g = game()
    assert (g.state.round, g.to_act(), g.state.members) == (1, [RUS], {})
    assert g.state.banks[RUS] == 24  # LHTR's starting treasury in hand for the first purchase
    end_turn(g)
    # after the Soviet turn, the Axis team: the Soviet Union moves again before the Axis' second turn
    assert (g.state.round, g.to_act()) == (2, AXIS_TEAM)
    for _ in range(2):
        for power in AXIS_TEAM:
            end_turn(g, power)
    assert (g.state.round, g.to_act()) == (2, ALLIED_TEAM)


@pytest.mark.rule("AARHE-ORDER-round-one-soviet")
def test_option_round_one_soviet_first_brings_in_the_axis_and_the_other_allies_in_round_one() -> None:
    ruleset = load_ruleset(RULES, {"round_one": "soviet-first"})
    assert ruleset.turn_order(1).turns == (Turn((RUS,)), Turn(tuple(AXIS_TEAM)), Turn((UK, US)))
    assert ruleset.turn_order(2).turns == (Turn(tuple(AXIS_TEAM)), Turn(tuple(ALLIED_TEAM)))
    g = game({"round_one": "soviet-first"})
    end_turn(g)
    assert (g.state.round, g.to_act()) == (1, AXIS_TEAM)
    for _ in range(2):
        for power in AXIS_TEAM:
            end_turn(g, power)
    assert (g.state.round, g.to_act()) == (1, [UK, US])
    for _ in range(2):
        for power in (UK, US):
            end_turn(g, power)
    assert (g.state.round, g.to_act()) == (2, AXIS_TEAM)


def _round_two(options: dict[str, Any] | None = None) -> Game:
    g = game(options)
    end_turn(g)
    return g


@pytest.mark.rule("AARHE-ORDER-team-turns")
def test_the_allies_act_only_when_every_axis_power_has_ended_its_diplomacy() -> None:
    g = _round_two()
    assert g.to_act() == AXIS_TEAM and {status(g, p) for p in AXIS_TEAM} == {"acting"}
    end_turn(g, GER)  # to the joint combat
    while phase_of(g, JAP) != "conduct-combat":
        end_phase(g, JAP)
    end_turn(g, GER)
    assert status(g, GER) == "done" and g.to_act() == [JAP]
    assert refused(g, {"type": "end_phase"}, power=UK) == "AARHE-ORDER-team-concurrency"
    while phase_of(g, JAP) != "diplomacy":
        end_phase(g, JAP)
    assert g.to_act() == [JAP]  # Japan in its diplomacy phase: the Allies still wait
    end_phase(g, JAP)
    assert g.to_act() == ALLIED_TEAM and g.state.round == 2


@pytest.mark.rule("AARHE-ORDER-team-concurrency")
def test_combat_waits_until_every_member_has_ended_its_combat_move() -> None:
    g = _round_two()
    end_phase(g, JAP)  # Japan's purchase
    end_phase(g, JAP)  # its collect income
    assert (phase_of(g, JAP), phase_of(g, GER)) == ("combat-move", "purchase")  # each at its own pace
    end_phase(g, JAP)  # Japan's combat move: it waits for Germany
    assert (phase_of(g, JAP), status(g, JAP)) == ("conduct-combat", "waiting")
    assert refused(g, {"type": "end_phase"}, power=JAP) == "AARHE-ORDER-team-concurrency"
    assert g.to_act() == [GER]
    for _ in range(3):
        end_phase(g, GER)
    assert {(phase_of(g, p), status(g, p)) for p in AXIS_TEAM} == {("conduct-combat", "acting")}
    assert g.to_act() == AXIS_TEAM
    # after combat the members go on at their own pace again
    end_phase(g, GER)
    assert (phase_of(g, GER), phase_of(g, JAP)) == ("non-combat-move", "conduct-combat")
    assert GameLog.from_json(g.log.to_json()).state == g.state


@pytest.mark.rule("AARHE-TURN-sequence")
def test_a_turn_visits_the_eight_phases_in_order() -> None:
    assert [p.name for p in load_ruleset(RULES).phase_table()] == EIGHT
    assert [p.name for p in PHASES if p.joint] == ["conduct-combat"]
    g = game()
    assert end_turn(g) == EIGHT
    g = _round_two()
    assert end_turn(g, JAP) == EIGHT[:3]


@pytest.mark.rule("AARHE-TURN-purchase-before-income")
def test_purchases_are_paid_from_ipcs_held_before_the_turns_income() -> None:
    g = scenario(RULES, nation=RUS, phase="purchase", banks={RUS: 0})
    assert refused(g, {"type": "purchase", "units": "1 armour"}) == "LHTR-PURCHASE-budget"
    assert refused(g, {"type": "purchase", "units": "1 infantry", "at": "Russia"}) == "LHTR-PURCHASE-budget"
    end_phase(g)
    assert g.state.phase == "collect-income" and g.state.banks[RUS] == base_income(g.state, g.ruleset, RUS) == 24
    # income collected this turn is spent from the next turn's purchase on
    g = scenario(RULES, nation=RUS, phase="purchase", banks={RUS: 24})
    g.apply({"type": "purchase", "units": "4 armour, 1 artillery"})
    end_phase(g)
    assert g.state.banks[RUS] == 24


def _with_control(g: Game, changed: dict[str, int], tick: int, collected: dict[str, int]) -> Game:
    from dataclasses import replace

    record = {"owners": dict(g.state.owners), "changed": changed, "tick": tick, "collected": collected}
    return Game(GameLog(replace(g.state, extra={**g.state.extra, CONTROL: record})))


@pytest.mark.rule("AARHE-TURN-contested-no-income")
def test_a_territory_whose_control_changed_since_the_last_collection_yields_nothing() -> None:
    g = scenario(RULES, nation=RUS, phase="mobilize", owners={"Ukraine S.S.R.": RUS})
    full = base_income(g.state, g.ruleset, RUS)
    # captured after the Soviet collection (tick 2): nothing at the next one, its value at the one after
    g = _with_control(g, {"Ukraine S.S.R.": 3}, 3, {RUS: 2})
    assert contested(g.state, g.ruleset, RUS) == {"Ukraine S.S.R."}
    assert income(g.state, g.ruleset, RUS) == full - 3
    g = _with_control(g, {"Ukraine S.S.R.": 3}, 3, {RUS: 3})
    assert income(g.state, g.ruleset, RUS) == full
    # and Germany, which lost it, gets nothing for it either
    assert "Ukraine S.S.R." not in contested(g.state, g.ruleset, GER)


@pytest.mark.rule("AARHE-TURN-contested-no-income")
def test_captures_are_stamped_when_a_turn_ends_and_the_next_collection_skips_them() -> None:
    g = game()
    end_phase(g)  # Russia's purchase
    end_phase(g)  # collection: its tick is recorded
    assert g.state.extra[CONTROL]["collected"] == {RUS: 0}
    from dataclasses import replace

    owners = {**g.state.owners, "Ukraine S.S.R.": RUS}  # as if taken in the Soviet combat
    g = Game(GameLog(replace(g.state, owners=owners)), g.dice)
    end_turn(g)
    record = g.state.extra[CONTROL]
    assert record["changed"] == {"Ukraine S.S.R.": 1} and record["tick"] == 1
    assert "Ukraine S.S.R." in contested(g.state, g.ruleset, RUS)
    assert contested(g.state, g.ruleset, GER) == set()


@pytest.mark.rule("AARHE-TURN-contested-no-income")
def test_option_contested_income_enemy_present_counts_only_territories_with_enemy_units() -> None:
    options = {"contested_income": "enemy-present"}
    g = scenario(RULES, nation=RUS, phase="mobilize", owners={"Ukraine S.S.R.": RUS}, options=options,
                 clear=["Ukraine S.S.R."])
    g = _with_control(g, {"Ukraine S.S.R.": 3}, 3, {RUS: 2})
    assert contested(g.state, g.ruleset, RUS) == set()
    g = scenario(RULES, nation=RUS, phase="mobilize", owners={"Ukraine S.S.R.": RUS}, options=options,
                 clear=["Ukraine S.S.R."], units={"Ukraine S.S.R.": "Germany: 1 infantry"})
    assert contested(g.state, g.ruleset, RUS) == {"Ukraine S.S.R."}
    assert income(g.state, g.ruleset, RUS) == base_income(g.state, g.ruleset, RUS) - 3


def _turn_record(owners: dict[str, str]) -> dict[str, Any]:
    return {"turn": {"round": 1, "power": RUS, "owners": owners, "placed": {}, "damage": {}}}


@pytest.mark.rule("AARHE-TURN-capital-lost-skip")
@pytest.mark.parametrize("phase", ["develop-weapons", "diplomacy"])
def test_research_and_diplomacy_are_skipped_while_the_capital_was_enemy_held_at_the_start(phase: str) -> None:
    research = {"type": "research", "dice": 1, "tech": "rockets"}
    lost = scenario(RULES, nation=RUS, phase=phase, owners={"Russia": GER}, banks={RUS: 30})
    assert refused(lost, research) == "AARHE-TURN-capital-lost-skip"
    assert [a.type for a in lost.legal_actions()] == ["end_phase"]
    # captured during the turn, after it began: the phase is played
    owners = {**lost.state.owners, "Russia": RUS}
    taken = scenario(RULES, nation=RUS, phase=phase, owners={"Russia": GER}, banks={RUS: 30},
                     extra=_turn_record(owners))
    if phase == "develop-weapons":
        taken.apply(research)  # the Soviet Union's free research die
        assert taken.state.extra["aarhe_research_rolled"] == {RUS: 1}
    else:
        assert refused(taken, research) == "LHTR-TURN-phase-sequence"


@pytest.mark.rule("AARHE-TURN-capital-lost-skip", "AARHE-TURN-exile-continues")
def test_without_its_capital_a_power_still_buys_collects_and_moves() -> None:
    g = scenario(RULES, nation=UK, phase="purchase", owners={"United Kingdom": GER}, banks={UK: 20})
    g.apply({"type": "purchase", "units": "2 infantry", "at": "Eastern Canada"})  # Toronto: 2 + 3
    assert g.state.banks[UK] == 15
    collected = income(g.state, g.ruleset, UK)  # what reaches its complexes and cities overland
    assert collected > 0
    end_phase(g)
    assert (g.state.phase, g.state.banks[UK]) == ("collect-income", 15 + collected)
    end_phase(g)
    assert g.state.phase == "combat-move"
    g = scenario(RULES, nation=UK, phase="non-combat-move", owners={"United Kingdom": GER},
                 units={"India": "United Kingdom: 1 infantry"})
    g.apply({"type": "move", "units": "1 infantry", "path": ["India", "Persia"]})
    # LHTR alone refuses both
    lhtr = scenario("lhtr-1.3", nation=UK, phase="purchase", owners={"United Kingdom": GER}, banks={UK: 20})
    assert refused(lhtr, {"type": "purchase", "units": "2 infantry"}) == "LHTR-PURCHASE-needs-capital"
    assert income(lhtr.state, lhtr.ruleset, UK) == 0


def test_a_game_of_team_turns_replays_from_its_log() -> None:
    from aare.selfplay import play_game

    result = play_game(RULES, 4, rounds=3)
    assert result.violations == [] and result.stuck == []
    assert GameLog.from_json(result.log.to_json()).state == result.log.state
