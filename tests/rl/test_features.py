"""Observation features: built only from a power's own view, so another power's hidden information never
reaches it (the sealed AARe straight bid); no PettingZoo needed."""

from __future__ import annotations

import random

import numpy as np
import pytest

from aare.engine import Game
from aare.game_setup import new_game
from aare.player_view import visible_state
from aare.rl.features import Encoder, _changed, record_features
from aare.rules.ruleset import load_ruleset

SEAL = "AARE-BID-submit-bids"
ALLIES = ("Russia", "United Kingdom", "United States")
AXIS = ("Germany", "Japan")


def bid(amount: int) -> Game:
    """A new AARe game in which the Allies seat has bid `amount`, the Axis seat not yet."""
    game = Game(new_game("aare-5.0", {}, seed=3))
    game.apply({"type": "bid", "amount": amount})
    return game


def same(a: dict[str, np.ndarray], b: dict[str, np.ndarray]) -> bool:
    return a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)


@pytest.mark.rule(SEAL)
def test_an_observation_holds_none_of_another_sides_hidden_bid() -> None:
    encoder = Encoder(load_ruleset("aare-5.0", {}))
    low, high = bid(3).state, bid(9).state
    assert low.extra != high.extra  # the games differ only in the sealed bid
    for power in AXIS:
        assert same(encoder.encode(low, power), encoder.encode(high, power))
    assert same(encoder.encode(low, None), encoder.encode(high, None))
    for power in ALLIES:  # the features do carry the bid to those who may see it
        assert not same(encoder.encode(low, power), encoder.encode(high, power))


def test_space_features_count_units_and_owners() -> None:
    state = new_game("lhtr-1.3", seed=1).state
    encoder = Encoder(load_ruleset("lhtr-1.3", {}))
    spaces = encoder.encode(state, "Russia")["spaces"]
    row = spaces[encoder.spaces.index("Russia")]
    russia = encoder.powers.index("Russia")
    assert row[russia] == 1.0 and row[len(encoder.powers)] == 0.0
    infantry = encoder.units.index("infantry")
    expected = sum(s.count for s in state.stacks("Russia") if s.owner == "Russia" and s.unit == "infantry")
    assert expected > 0
    assert row[encoder.units_at + russia * len(encoder.units) + infantry] == expected
    assert row[-5] == 8  # IPC value
    assert row[-2] == 1.0  # a capital


@pytest.mark.parametrize("rules", ["lhtr-1.3", "aarhe"])
def test_features_kept_from_the_last_state_equal_fresh_ones(rules: str) -> None:
    """The encoder works out again only the spaces whose units changed, and the records that changed: through a
    random game (and between unrelated states) its features are those of a fresh encoder, whatever a caller did
    to an earlier array."""
    ruleset = load_ruleset(rules, {})
    kept = Encoder(ruleset)
    rng = random.Random(2)
    game = Game(new_game(rules, seed=2))
    for _ in range(250):
        if game.state.winner is not None:
            break
        power = game.to_act()[0]
        player = game.acting_as(power) if game.state.members else game
        got = kept.encode(game.state, power)
        assert same(got, Encoder(ruleset).encode(game.state, power))
        assert np.array_equal(got["records"], record_features(visible_state(game.state, power)))
        got["spaces"][:] = -1.0
        got["globals"][:] = -1.0
        got["records"][:] = -1.0
        player.apply(rng.choice(player.legal_actions()), power)
    other = new_game(rules, seed=5).state
    assert same(kept.encode(other, "Germany"), Encoder(ruleset).encode(other, "Germany"))


def test_features_follow_any_order_of_states() -> None:
    """Going back to an earlier state, or changing one entry of a record, a bank, a technology or the units of
    one space (emptied, or a space filled in its place) gives what a fresh encoder gives."""
    ruleset = load_ruleset("lhtr-1.3", {})
    kept = Encoder(ruleset)
    start = new_game("lhtr-1.3", seed=4).state
    units = dict(start.units)
    emptied, moved = next(iter(units)), units.pop(next(iter(units)))
    filled = next(s for s in ruleset.board.spaces if s not in start.units)
    units[filled] = moved
    record = {"kept": {"a": [1, 2, "x"]}, "changed": {"b": 3}}
    states = [
        start,
        start.evolve(units=units),
        start.evolve(extra={**start.extra, "test": record}),
        start.evolve(extra={**start.extra, "test": {**record, "changed": {"b": 4, "c": "y"}}}),
        start.evolve(pending={"kind": "choose", "power": "Germany", "options": [{"type": "press"}]}),
        start.evolve(banks={**start.banks, "Germany": 7}),
        start.evolve(techs={**start.techs, "Germany": ("jet_fighters",)}),
        start,
    ]
    assert emptied in _changed(start.units, units) and filled in _changed(start.units, units)
    for state in (*states, *reversed(states)):
        assert same(kept.encode(state, "Germany"), Encoder(ruleset).encode(state, "Germany"))
