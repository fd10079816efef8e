"""Enhanced Realism '98 neutrals: no entry fee; attacking or flying over a neutral gives the mover's opponent whose
capital is closest a grant of 3 dice of IPCs (6 for Turkey and Spain) spent at once on defenders placed there."""

from __future__ import annotations

import pytest

from aare.engine import Game
from aare.errors import MalformedInput
from aare.events import UnitsAdded
from aare.rules.ruleset import load_ruleset
from aare.rulesets.classic.realism.neutrals import granting_power
from tests.movement.helpers import move, rejected, units_in
from tests.realism98.common import CLASSIC, REALISM, at

AUTO = {"neutral_grant": "infantry"}  # the grant bought by rule, not chosen


def granted(game: Game) -> list[tuple[str, str, str, int]]:
    return [(e.space, e.stack.owner, e.stack.unit, e.stack.count) for e in game.log.entries[-1].events
            if isinstance(e, UnitsAdded)]


def rolled(game: Game) -> list[tuple[int, ...]]:
    return [e.values for e in game.log.entries[-1].events if e.type == "dice_rolled"]


@pytest.mark.rule("REAL98-NEUTRAL-no-penalty", "REAL98-NEUTRAL-defence-trigger")
def test_attacking_a_neutral_costs_nothing_and_calls_in_the_closest_opponent() -> None:
    game = at("Germany", "combat-move", {"Finland Norway": "Germany: 2 infantry"}, banks={"Germany": 10},
              owners={"Finland Norway": "Germany"}, dice=[3, 3, 3], options=AUTO)
    move(game, "2 infantry", "Finland Norway", "Sweden")
    assert game.state.banks["Germany"] == 10
    # Sweden: Russia and the United Kingdom are 3 spaces away; the tie goes to the one playing first after Germany
    assert granted(game) == [("Sweden", "United Kingdom", "infantry", 3)]
    assert game.state.extra["neutrals_violated"] == ["Sweden"]
    assert "Sweden" not in game.state.owners  # still neutral, now defended: the attack is a battle
    game.apply({"type": "end_phase"})
    assert [a.space for a in game.legal_actions() if a.type == "fight"] == ["Sweden"]
    # the base charges 3 IPCs; Realism fixes the fee at 0
    base = at("Germany", "combat-move", {"Finland Norway": "Germany: 2 infantry"}, banks={"Germany": 10},
              owners={"Finland Norway": "Germany"}, rules=CLASSIC)
    move(base, "2 infantry", "Finland Norway", "Sweden")
    assert base.state.banks["Germany"] == 7
    with pytest.raises(MalformedInput, match="neutral_entry_fee"):
        load_ruleset(REALISM, {"neutral_entry_fee": 3})


@pytest.mark.rule("REAL98-NEUTRAL-defence-trigger", "REAL98-NEUTRAL-overflight-allowed")
def test_flying_over_a_neutral_is_a_violation() -> None:
    base = at("Japan", "combat-move", {"Manchuria": "Japan: 1 fighter", "China": "Russia: 1 infantry"},
              owners={"China": "Russia"}, rules=CLASSIC)
    rejected(base, {"type": "move", "units": "1 fighter", "path": ["Manchuria", "Mongolia", "China"]},
             "CL-NEUTRAL-no-overflight", "may not fly over")
    # Japan flies over Mongolia: the Allied power with the closest capital is Russia
    game = at("Japan", "combat-move", {"Manchuria": "Japan: 1 fighter", "China": "Russia: 1 infantry"},
              owners={"China": "Russia"}, dice=[2, 2, 2], options=AUTO)
    move(game, "1 fighter", "Manchuria", "Mongolia", "China")
    assert granted(game) == [("Mongolia", "Russia", "infantry", 2)]
    assert units_in(game, "Mongolia") == {"infantry": 2}
    assert "Mongolia" not in game.state.owners  # flown over, it stays neutral
    assert granting_power(game.ruleset, game.state, "Japan", "Mongolia") == "Russia"


@pytest.mark.rule("REAL98-NEUTRAL-defence-dice")
@pytest.mark.parametrize(("neutral", "start", "dice", "ipcs"), [
    ("Turkey", "South Europe", [3, 4, 4, 3, 3, 4], 21),
    ("Switzerland", "South Europe", [3, 3, 3], 9),
])
def test_three_dice_six_for_turkey_and_spain(neutral: str, start: str, dice: list[int], ipcs: int) -> None:
    game = at("Germany", "combat-move", {start: "Germany: 1 infantry"}, owners={start: "Germany"}, dice=dice,
              options=AUTO)
    move(game, "1 infantry", start, neutral)
    assert rolled(game) == [tuple(dice)]
    assert sum(count * 3 for *_, count in granted(game)) == ipcs  # all infantry at 3


@pytest.mark.rule("REAL98-NEUTRAL-defence-spend")
def test_the_granting_power_chooses_its_defenders_at_once() -> None:
    # Japan attacks Mongolia; Russia receives 11 IPCs and buys 2 infantry and 1 armour before the battle
    game = at("Japan", "combat-move", {"Manchuria": "Japan: 2 infantry"}, dice=[5, 4, 2])
    move(game, "2 infantry", "Manchuria", "Mongolia")
    pending = game.state.pending
    assert pending is not None
    assert (pending["kind"], pending["power"], pending["ipcs"]) == ("neutral_grant", "Russia", 11)
    assert game.to_act() == ["Russia"]  # play waits for Russia
    offered = [a.units for a in game.legal_actions(power="Russia")]
    assert "3 infantry" in offered and all(a.type == "purchase" for a in game.legal_actions(power="Russia"))
    rejected(game, {"type": "purchase", "units": "1 transport", "power": "Russia"}, "REAL98-NEUTRAL-defence-spend",
             "land and air units only")
    rejected(game, {"type": "purchase", "units": "3 armour", "power": "Russia"}, "REAL98-NEUTRAL-defence-spend",
             "the grant is 11")
    rejected(game, {"type": "move", "units": "1 infantry", "path": ["Manchuria", "China"]},
             "CL-COMBAT-owner-chooses-casualties", "Russia must first answer")
    banks = dict(game.state.banks)
    game.apply({"type": "purchase", "units": "2 infantry, 1 armour", "power": "Russia"})
    assert units_in(game, "Mongolia", "Russia") == {"infantry": 2, "armour": 1}
    assert game.state.pending is None and game.state.banks == banks
    assert game.to_act() == ["Japan"]


@pytest.mark.rule("REAL98-NEUTRAL-defence-spend")
@pytest.mark.parametrize(("grant", "expected"), [
    ("infantry", {"infantry": 3}),
    ("armour-first", {"armour": 2}),
])
def test_the_grant_is_spent_at_once_on_defenders(grant: str, expected: dict[str, int]) -> None:
    # the grant rolls 11: all infantry buys 3 (2 IPCs lost); armour first buys 2 armour (1 lost)
    game = at("Japan", "combat-move", {"Manchuria": "Japan: 1 infantry"}, dice=[5, 4, 2],
              options={"neutral_grant": grant})
    banks = dict(game.state.banks)
    move(game, "1 infantry", "Manchuria", "Mongolia")
    assert units_in(game, "Mongolia", "Russia") == expected
    assert game.state.banks == banks  # spent at once: nothing reaches a treasury


@pytest.mark.rule("REAL98-NEUTRAL-defence-trigger")
def test_only_the_first_violation_of_a_neutral_calls_a_grant() -> None:
    game = at("Japan", "combat-move", {"Manchuria": "Japan: 2 infantry"}, dice=[1, 1, 1], options=AUTO)
    move(game, "1 infantry", "Manchuria", "Mongolia")
    move(game, "1 infantry", "Manchuria", "Mongolia")
    assert granted(game) == [] and rolled(game) == []
    assert units_in(game, "Mongolia", "Russia") == {"infantry": 1}
