"""AARe 5.0 power-ranking formulas: every AARE-RANK item and the seed's worked examples."""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from aare.errors import MalformedInput
from aare.ladder.ranking import (
    gain_threshold,
    gains_by_beating,
    high_loses,
    high_loses_raw,
    high_wins,
    high_wins_raw,
    is_high,
    low_wins,
    low_wins_raw,
    opponents_to_gain,
    paths_to_first,
    rank_change,
    round_rank,
    unranked_rank,
)

ranks = st.integers(min_value=1, max_value=200)


@pytest.mark.rule("AARE-RANK-ordering")
def test_smaller_number_is_the_high_player() -> None:
    assert is_high(2, 5) and not is_high(5, 2)
    assert not rank_change(2, 5).upset and rank_change(5, 2).upset


@pytest.mark.rule("AARE-RANK-ordering")
@pytest.mark.parametrize(("r", "p"), [(0, 3), (3, 3), (-1, 2), (2.0, 3), (True, 3)])
def test_ranks_are_distinct_positive_integers(r: object, p: object) -> None:
    with pytest.raises(MalformedInput):
        rank_change(r, p)  # type: ignore[arg-type]


@pytest.mark.rule("AARE-RANK-high-wins-loser-unchanged")
@given(r=ranks, gap=st.integers(min_value=1, max_value=200))
def test_high_winner_leaves_the_loser_alone(r: int, gap: int) -> None:
    assert rank_change(4, 8).loser_after == 8
    assert rank_change(r, r + gap).loser_after == r + gap


@pytest.mark.rule("AARE-RANK-high-wins-formula")
@pytest.mark.parametrize(("r", "p", "raw", "new"), [(4, 8, 3.426, 3), (4, 9, 3.509, 4), (2, 5, 1.597, 2)])
def test_high_wins_formula(r: int, p: int, raw: float, new: int) -> None:
    assert high_wins_raw(r, p) == pytest.approx(raw, abs=5e-4)
    assert high_wins(r, p) == new == rank_change(r, p).winner_after


@pytest.mark.rule("AARE-RANK-high-wins-formula")
def test_high_wins_raw_refuses_an_upset() -> None:
    with pytest.raises(MalformedInput):
        high_wins_raw(5, 2)


@pytest.mark.rule("AARE-RANK-upset-high-threshold")
@pytest.mark.parametrize(("r", "p", "new"), [(1, 2, 1), (1, 3, 1), (1, 4, 1), (1, 5, 2), (3, 6, 3), (3, 7, 4)])
def test_high_loser_drops_only_to_four_or_more_below(r: int, p: int, new: int) -> None:
    assert high_loses(r, p) == new == rank_change(p, r).loser_after


@pytest.mark.rule("AARE-RANK-upset-high-formula")
@pytest.mark.parametrize(("r", "p", "raw", "new"), [(1, 5, 2.0, 2), (2, 10, 4.236, 4), (1, 8, 3.0, 3)])
def test_high_loses_formula(r: int, p: int, raw: float, new: int) -> None:
    assert high_loses_raw(r, p) == pytest.approx(raw, abs=5e-4)
    assert high_loses(r, p) == new


@pytest.mark.rule("AARE-RANK-upset-high-formula")
@given(r=ranks, gap=st.integers(min_value=4, max_value=400))
def test_high_loser_drop_is_real_and_stays_above_the_winner(r: int, gap: int) -> None:
    """(p-r-3)^0.5 is real for every upset that counts, and the loser never falls to the winner's old place."""
    q = high_loses(r, r + gap)
    assert r < q < r + gap


@pytest.mark.rule("AARE-RANK-upset-low-formula")
@pytest.mark.parametrize(
    ("r", "p", "raw", "new"),
    [(3, 2, 1.078, 1), (4, 2, 1.503, 2), (2, 1, -0.242, 1), (3, 1, 0.0991, 1), (10, 5, 5.881, 6)],
)
def test_low_wins_formula_clamped_at_one(r: int, p: int, raw: float, new: int) -> None:
    assert low_wins_raw(r, p) == pytest.approx(raw, abs=5e-4)
    assert low_wins(r, p) == new == rank_change(r, p).winner_after


@pytest.mark.rule("AARE-RANK-upset-low-formula")
@given(r=ranks, p=ranks)
def test_low_winner_always_gains_and_never_passes_one(r: int, p: int) -> None:
    if r <= p:
        return
    assert 1 <= low_wins(r, p) < r


@pytest.mark.rule("AARE-RANK-rounding")
@pytest.mark.parametrize(
    ("value", "rounded"), [(2.5, 3), (3.509, 4), (3.426, 3), (0.5, 1), (0.4999, 0), (1.5, 2), (-0.242, 0)]
)
def test_round_half_up(value: float, rounded: int) -> None:
    assert round_rank(value) == rounded


@pytest.mark.rule("AARE-RANK-rounding")
@pytest.mark.parametrize(("r", "p", "new"), [(27, 36, 26), (125, 150, 123), (243, 244, 203), (1, 2, 1)])
def test_exact_halves_round_up(r: int, p: int, new: int) -> None:
    """These pairs give exactly x.5 (e.g. 27 - 0.5 * 27^0.8 * 9^-0.7 = 25.5)."""
    assert high_wins(r, p) == new


@pytest.mark.rule("AARE-RANK-rounding")
def test_float_noise_below_a_half_still_rounds_up() -> None:
    assert round_rank(25.499999999999996) == 26
    assert round_rank(25.4999) == 25


@pytest.mark.rule("AARE-RANK-low-never-loses")
@given(r=st.integers(min_value=1, max_value=50), p=st.integers(min_value=1, max_value=50))
def test_lower_ranked_player_never_ends_worse(r: int, p: int) -> None:
    if r >= p:
        return
    assert rank_change(r, p).loser_after == p  # low player lost
    assert rank_change(p, r).winner_after <= p  # low player won
    assert rank_change(r, p).winner_after <= r and rank_change(p, r).loser_after >= r


@pytest.mark.rule("AARE-RANK-gain-thresholds")
def test_seed_gain_examples() -> None:
    """'4 needs to beat 8 or better to gain rank, 2 needs to beat 4 or 3 to gain rank and be 1'."""
    assert (high_wins(4, 8), high_wins(4, 9)) == (3, 4)
    assert (high_wins(2, 3), high_wins(2, 4), high_wins(2, 5)) == (1, 1, 2)
    assert gain_threshold(4) == 8 and gain_threshold(2) == 4 and gain_threshold(1) is None
    assert opponents_to_gain(4, 12) == [1, 2, 3, 5, 6, 7, 8]
    assert opponents_to_gain(2, 12) == [1, 3, 4]
    assert opponents_to_gain(1, 12) == []


@pytest.mark.rule("AARE-RANK-gain-thresholds")
@given(r=st.integers(min_value=2, max_value=60))
def test_threshold_splits_lower_opponents(r: int) -> None:
    limit = gain_threshold(r)
    assert limit is not None and limit > r
    assert all(gains_by_beating(r, p) for p in range(r + 1, limit + 1))
    assert not any(gains_by_beating(r, p) for p in range(limit + 1, limit + 40))


PATHS_TO_FIRST = {(2, 1), (2, 3), (2, 4), (3, 1), (3, 2), (4, 1), (5, 1)}


@pytest.mark.rule("AARE-RANK-path-to-first")
@pytest.mark.parametrize(
    ("r", "p", "new"),
    [(2, 4, 1), (2, 3, 1), (2, 1, 1), (3, 2, 1), (3, 1, 1), (3, 4, 2), (4, 1, 1), (5, 1, 1), (4, 2, 2), (6, 1, 2)],
)
def test_ways_to_first(r: int, p: int, new: int) -> None:
    assert rank_change(r, p).winner_after == new


@pytest.mark.rule("AARE-RANK-path-to-first")
def test_seed_list_of_ways_to_first_is_complete() -> None:
    """'be 2 and beat 4, 3 or 1; be 3 and beat 2 or 1; be 4 or 5 and beat 1' and nothing else."""
    assert set(paths_to_first(80)) == PATHS_TO_FIRST


@pytest.mark.rule("AARE-RANK-unranked-opponents")
def test_beating_an_unranked_player_gains_nothing_for_rank_four_of_twelve() -> None:
    p = unranked_rank(12)
    assert p == 13
    assert high_wins_raw(4, p) == pytest.approx(3.6744, abs=5e-4)
    assert high_wins(4, p) == 4


@pytest.mark.rule("AARE-RANK-unranked-opponents")
@given(r=st.integers(min_value=1, max_value=40))
def test_gain_shrinks_toward_zero(r: int) -> None:
    gains = [r - high_wins_raw(r, p) for p in range(r + 1, r + 400)]
    assert all(a > b > 0 for a, b in itertools.pairwise(gains))
    assert gains[-1] < 0.5 * r**0.8 * 398**-0.7 + 1e-12
    assert high_wins(r, r + 10_000) == r
