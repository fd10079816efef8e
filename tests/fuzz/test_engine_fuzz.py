"""The action fuzzer against the engine's door (`Game.apply`): random, mutated, malformed and stale actions in
short episodes of lhtr-1.3, aare-5.0 and the team-turn test ruleset (see tests/fuzz/driver.py for what is
submitted and checked). A fixed set of Hypothesis examples: 15 episodes of 200 actions a ruleset."""

from __future__ import annotations

import pytest
from hypothesis import given

from aare.action_text import parse_action_text
from aare.board.notation import parse_units
from aare.engine import Game
from aare.errors import MalformedInput
from aare.game_setup import new_game
from tests.fuzz.driver import ENGINE_RULESETS, MAX_ACTIONS, Plan, Tally, engine_episode
from tests.fuzz.strategies import fixed, plans

EPISODES = 15


@pytest.mark.parametrize("rules", ENGINE_RULESETS)
def test_the_engine_door_survives_fuzzing(rules: str) -> None:
    total = Tally()

    @fixed(EPISODES)
    @given(plans(rules))
    def episode(plan: Plan) -> None:
        tally = engine_episode(plan)
        total.add(tally)
        assert not tally.problems, "\n".join(tally.problems[:5])

    episode()
    assert total.episodes == EPISODES
    assert total.actions >= 0.9 * EPISODES * MAX_ACTIONS, total.to_json()
    assert total.refused > 0 and total.accepted > 0
    assert (total.server_errors, total.changed_on_refusal, total.replay_mismatches) == (0, 0, 0)


def test_an_episode_is_replayed_exactly() -> None:
    """A plan is a reproducible episode: the fuzzer's choices and the game's dice come from its seed."""
    plan = Plan("lhtr-1.3", seed=11, actions=60, legal_share=0.5)
    first, again = engine_episode(plan), engine_episode(plan)
    assert (first.kinds, first.accepted, first.refused) == (again.kinds, again.accepted, again.refused)
    assert first.actions == 60


# -- what the fuzzer found ------------------------------------------------------------------------------------


@pytest.mark.parametrize("units", ["9" * 5000 + " infantry", "\u0661 infantry", "1" + "0" * 12 + " infantry"])
def test_a_unit_count_int_cannot_read_is_malformed_not_a_crash(units: str) -> None:
    """A count of 5000 digits made `int` raise ValueError (past Python's 4300-digit limit) out of `Game.apply`,
    and a 500 from the server; an Arabic-Indic digit was read as a count. Counts are ASCII digits, at most 9."""
    game = Game(new_game("lhtr-1.3", seed=1))
    game.apply({"type": "end_phase"})
    before = game.state
    with pytest.raises(MalformedInput, match="count too large|cannot read"):
        game.apply({"type": "purchase", "units": units})
    assert game.state == before
    with pytest.raises(MalformedInput):
        parse_units(units, game.ruleset.units)


@pytest.mark.parametrize("text", ["research \u00b2 rockets", "bid " + "9" * 5000, "lend \u00b3 from Germany"])
def test_text_notation_numbers_are_ascii_digits(text: str) -> None:
    """`"²".isdigit()` is true but `int("²")` raises ValueError: text notation numbers are ASCII digits."""
    game = Game(new_game("lhtr-1.3", seed=1))
    with pytest.raises(MalformedInput):
        parse_action_text(text, game.ruleset)


def test_the_log_names_the_acting_power_as_the_board_does() -> None:
    """An action naming its power by an alias (`"power": "ussr"`) was logged with the alias outside team turns."""
    game = Game(new_game("lhtr-1.3", seed=1))
    power = game.to_act()[0]
    alias = next(p for p in game.ruleset.board.powers if p.name == power).aliases[0]
    game.apply({"type": "end_phase", "power": alias.lower()})
    assert game.log.entries[-1].action == {"type": "end_phase", "power": power}


def test_a_battle_answer_sent_with_an_alias_replays() -> None:
    """Found by the server fuzzer under load: a battle's answer sent with a power alias was kept, alias and all,
    in the battle in progress while the log named the power, so the log did not replay."""
    from aare.ai.random_bot import RandomBot
    from aare.game_file import check_play
    from aare.phases.conduct_combat import combat_record

    game = Game(new_game("lhtr-1.3", seed=3))
    bot = RandomBot(seed=5)
    kept = False
    for _ in range(5000):
        answers = [a for a in game.legal_actions() if a.type in ("press", "retreat", "choose_casualties")]
        if not answers:
            game.apply(bot.choose(game))
            continue
        power = game.to_act()[0]
        alias = next(p for p in game.ruleset.board.powers if p.name == power).aliases[0]
        game.apply({**answers[0].to_json(), "power": alias.lower()})
        if combat_record(game.state)["current"] is not None:  # the answer is kept in the battle in progress
            kept = True
            break
    assert kept, "no battle went on after an answer"
    check_play(game.log)
