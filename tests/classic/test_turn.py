"""The Classic turn: five powers in a fixed order, seven phases, two fixed alliances at war, no shared economy,
individual dice, and the printed optional rules (all off by default: Restricted Attack, No New Complexes, new ships
among enemy ships) and the tournament bid (off)."""

from __future__ import annotations

import pytest

from aare.economy.pool import pool
from aare.engine import Game
from aare.errors import IllegalAction
from aare.game_setup import new_game
from aare.rules.ruleset import load_ruleset
from aare.scenario import scenario

RULES = "classic-2e"
ORDER = ["Russia", "Germany", "United Kingdom", "Japan", "United States"]
PHASES = ["develop-weapons", "purchase", "combat-move", "conduct-combat", "non-combat-move", "mobilize",
          "collect-income"]


def end(game: Game, times: int = 1) -> None:
    for _ in range(times):
        game.apply({"type": "end_phase"})


@pytest.mark.rule("CL-TURN-power-order", "CL-TURN-phase-sequence")
def test_five_turns_of_seven_phases_in_a_fixed_order() -> None:
    game = Game(new_game(RULES, seed=3))
    seen: list[tuple[int, str, str]] = []
    while game.state.round == 1:
        seen.append((game.state.round, game.state.nation, game.state.phase))
        end(game)
    assert seen == [(1, power, phase) for power in ORDER for phase in PHASES]
    assert (game.state.round, game.state.nation, game.state.phase) == (2, "Russia", "develop-weapons")


@pytest.mark.rule("CL-TURN-phase-sequence")
def test_an_action_out_of_its_phase_is_refused() -> None:
    game = scenario(RULES, nation="Germany", phase="non-combat-move")
    before = game.state
    with pytest.raises(IllegalAction, match="not an action of the non-combat-move phase") as info:
        game.apply({"type": "purchase", "units": "1 infantry"})
    assert info.value.rule_id == "CL-TURN-phase-sequence" and game.state == before


@pytest.mark.rule("CL-TURN-alliances", "CL-TURN-no-first-round-restrictions")
def test_japan_attacks_russia_in_round_1_without_declaration() -> None:
    game = scenario(RULES, nation="Japan", phase="combat-move")
    game.apply({"type": "move", "units": "3 infantry", "path": ["Manchuria", "Soviet Far East"]})
    end(game)
    assert [a.to_json() for a in game.legal_actions() if a.type == "fight"] == [
        {"type": "fight", "space": "Soviet Far East"}]


@pytest.mark.rule("CL-TURN-alliances")
def test_allied_units_end_their_move_in_each_others_territories() -> None:
    game = scenario(RULES, nation="United Kingdom", phase="non-combat-move")
    game.apply({"type": "move", "units": "1 armour", "path": ["East Canada", "East US"]})
    assert {(s.owner, s.unit) for s in game.state.stacks("East US")} >= {("United Kingdom", "armour")}
    assert game.state.owners["East US"] == "United States"
    sides = {p.name: p.side for p in game.ruleset.board.powers}
    assert sides == {"Russia": "Allies", "Germany": "Axis", "United Kingdom": "Allies", "Japan": "Axis",
                     "United States": "Allies"}


@pytest.mark.rule("CL-TURN-no-shared-economy")
def test_a_power_buys_only_for_itself() -> None:
    game = scenario(RULES, nation="United States", phase="purchase")
    before = game.state
    with pytest.raises(IllegalAction, match="not to act now"):
        game.apply({"type": "purchase", "units": "1 infantry", "power": "United Kingdom"})
    assert game.state == before
    game.apply({"type": "purchase", "units": "12 infantry"})
    assert game.state.banks == {**before.banks, "United States": 0}
    assert pool(game.state, "United States") == {"infantry": 12} and pool(game.state, "United Kingdom") == {}


@pytest.mark.rule("CL-TURN-low-luck-not-base")
def test_each_unit_rolls_its_own_die() -> None:
    game = scenario(RULES, nation="Germany", phase="combat-move", clear=["Caucasus", "Ukraine S.S.R."],
                    units={"Ukraine S.S.R.": "Germany: 3 infantry", "Caucasus": "Russia: 1 infantry"},
                    dice=[1, 5, 6, 6, 1, 1, 1])
    game.apply({"type": "move", "units": "3 infantry", "path": ["Ukraine S.S.R.", "Caucasus"]})
    end(game)
    game.apply({"type": "fight", "space": "Caucasus"})
    rolled = [e for entry in game.log.entries for e in entry.events if e.type == "dice_rolled"]  # type: ignore
    assert tuple(rolled[0].values) == (1, 5, 6)  # type: ignore[attr-defined]
    assert game.state.owners["Caucasus"] == "Germany"  # one hit of three dice, the defender missing


@pytest.mark.rule("CL-TURN-printed-optional-rules", "CL-TURN-no-first-round-restrictions",
                  "CL-TURN-no-bid-in-printed-rules")
def test_every_optional_rule_is_off_by_default() -> None:
    options = load_ruleset(RULES).options
    assert {k: options[k] for k in ("restricted_attack", "no_new_complexes", "naval_placement_in_enemy_zones",
                                     "bid_axis", "bid_allies", "allied_economic_victory")} == {
        "restricted_attack": False, "no_new_complexes": False, "naval_placement_in_enemy_zones": False,
        "bid_axis": 0, "bid_allies": 0, "allied_economic_victory": 0}


@pytest.mark.rule("CL-TURN-no-first-round-restrictions")
def test_russia_may_attack_in_its_first_turn() -> None:
    game = scenario(RULES, nation="Russia", phase="combat-move")
    game.apply({"type": "move", "units": "3 infantry", "path": ["Caucasus", "Ukraine S.S.R."]})
    assert any(s.owner == "Russia" for s in game.state.stacks("Ukraine S.S.R."))


@pytest.mark.rule("CL-TURN-printed-optional-rules")
def test_restricted_attack_keeps_russia_from_combat_movement_in_round_1() -> None:
    options = {"restricted_attack": True}
    game = scenario(RULES, nation="Russia", phase="combat-move", options=options)
    before = game.state
    with pytest.raises(IllegalAction, match="Restricted Attack") as info:
        game.apply({"type": "move", "units": "3 infantry", "path": ["Caucasus", "Ukraine S.S.R."]})
    assert info.value.rule_id == "CL-TURN-printed-optional-rules" and game.state == before
    assert [a.type for a in game.legal_actions()] == ["end_phase"]
    end(game, 2)  # non-combat movement stays open
    assert game.state.phase == "non-combat-move"
    game.apply({"type": "move", "units": "1 infantry", "path": ["Caucasus", "Russia"]})
    game = scenario(RULES, nation="Russia", phase="combat-move", round=2, options=options)
    game.apply({"type": "move", "units": "3 infantry", "path": ["Caucasus", "Ukraine S.S.R."]})
    game = scenario(RULES, nation="Germany", phase="combat-move", options=options)
    game.apply({"type": "move", "units": "3 infantry", "path": ["Ukraine S.S.R.", "Caucasus"]})


@pytest.mark.rule("CL-TURN-printed-optional-rules")
def test_no_new_complexes_makes_a_complex_purchase_illegal() -> None:
    game = scenario(RULES, nation="United Kingdom", phase="purchase")
    game.apply({"type": "purchase", "units": "1 factory"})
    game = scenario(RULES, nation="United Kingdom", phase="purchase", options={"no_new_complexes": True})
    before = game.state
    with pytest.raises(IllegalAction, match="No New Complexes") as info:
        game.apply({"type": "purchase", "units": "1 factory, 1 infantry"})
    assert info.value.rule_id == "CL-TURN-printed-optional-rules" and game.state == before
    assert not [a for a in game.legal_actions() if a.type == "purchase" and "factory" in a.units]


@pytest.mark.rule("CL-TURN-no-bid-in-printed-rules", "CL-SETUP-banks")
def test_no_bid_by_default_and_a_bid_as_an_option() -> None:
    state = new_game(RULES).state
    assert (state.round, state.nation, state.phase) == (1, "Russia", "develop-weapons")
    assert state.banks == {"Russia": 24, "Germany": 32, "United Kingdom": 30, "Japan": 25, "United States": 36}
    game = Game(new_game(RULES, {"bid_axis": 6}))
    assert (game.state.round, game.state.nation, game.state.phase) == (0, "Germany", "setup-bid")
    game.apply({"type": "place", "units": "2 infantry", "space": "Germany"})
    end(game)
    assert (game.state.round, game.state.nation, game.state.phase) == (0, "Japan", "setup-bid")
    end(game)
    assert (game.state.round, game.state.nation, game.state.phase) == (1, "Russia", "develop-weapons")
    assert game.state.banks["Japan"] == 25
